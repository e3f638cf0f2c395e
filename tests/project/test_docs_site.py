"""The documentation site and the README around it: the site builds strictly and fetches nothing
from elsewhere, the README fits on a screen or two and every link of it resolves, and every
picture the guides show is one of ``scripts/pictures.py``'s scenes, light, with its own words."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from markdown.extensions.toc import slugify

from tests.once import once_per_run
from tests.project.test_docs import DOCS, FRENCH, README, ROOT, english_pages, nav_pages

PICTURES = DOCS / "pictures"
MARKDOWN_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
MARKDOWN_PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
HTML_PICTURE = re.compile(r'<img src="([^"]+)"[^>]*\balt="([^"]*)"')


def pictures_script() -> ModuleType:
    """``scripts/pictures.py``, imported from its file (``scripts/`` is no package), once."""
    name = "docs_pictures"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "pictures.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up while being made
        spec.loader.exec_module(module)
    return sys.modules[name]


def anchors(page: Path) -> set[str]:
    """The anchors MkDocs gives a page's headings (its toc's own slugify)."""
    text = page.read_text(encoding="utf-8")
    if text.strip().startswith('--8<-- "'):  # a page that includes a file of the repository
        text = (ROOT / text.strip().split('"')[1]).read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    titles = re.findall(r"^#{1,6} (.+?)(?: \{#([\w-]+)\})?$", text, re.MULTILINE)
    return {explicit or slugify(re.sub(r"[`*]", "", title), "-") for title, explicit in titles}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``make docs`` builds it (strictly), into a scratch folder, once for the
    test run whatever the workers."""
    return once_per_run(tmp_path_factory, "site", lambda: build_site(tmp_path_factory))


def build_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    return out


def test_the_site_builds_strictly_with_every_page_of_the_nav(site: Path) -> None:
    for page in nav_pages():
        assert page.exists(), page
        built = site / page.relative_to(DOCS).with_suffix(".html")
        assert built.exists(), built
    assert "Positions to check your reading" in (site / "rules.html").read_text()  # RULES.md


def french_pages() -> list[Path]:
    """Every page of the site's French tree."""
    return sorted(FRENCH.rglob("*.md"))


def test_every_french_page_translates_a_page_of_the_nav() -> None:
    """A page under ``docs/fr/`` takes the place of the English page of its name in the French
    site: one with no English page would be built nowhere anyone can reach."""
    pages = french_pages()
    assert FRENCH / "table.md" in pages
    english = set(english_pages())
    assert [page for page in pages if DOCS / page.relative_to(FRENCH) not in english] == []


def test_a_french_page_keeps_its_english_page_s_anchors() -> None:
    """In the French site a link to ``table.md#computer-levels`` (from a page with no French
    version) leads to the French guide: each of its headings gives its English heading's anchor."""
    for page in french_pages():
        assert anchors(page) == anchors(DOCS / page.relative_to(FRENCH)), page


def test_the_french_pages_carry_a_french_interface(site: Path) -> None:
    """The French guide is built with Material's interface in French (its table of contents, its
    search, its navigation), the English guide's address unchanged, and each links to the other
    through the language menu."""
    english = (site / "table.html").read_text(encoding="utf-8")
    french = (site / "fr" / "table.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in english and '<html lang="fr"' in french
    assert "Table of contents" in english and "Table des matières" not in english
    for words in ("Table des matières", 'placeholder="Rechercher"', "Sélectionner la langue"):
        assert words in french, words
    assert "Table of contents" not in french and 'placeholder="Search"' not in french
    labels = set(re.findall(r'<span class="md-ellipsis">\s*([^<]*?)\s*</span>', french))
    assert {"Accueil", "À la table", "Règles et variantes"} <= labels
    assert "Home" not in labels
    assert 'href="fr/table.html" hreflang="fr"' in english
    assert 'href="../table.html" hreflang="en"' in french
    assert "Ce guide s'adresse aux joueurs" in french and "Saisir une manche" in french


def test_every_nav_title_has_its_french() -> None:
    """The French site's navigation is French: each title of the nav has its French in the
    plugin's ``nav_translations``."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    (i18n,) = [plugin["i18n"] for plugin in config["plugins"] if "i18n" in plugin]
    (french,) = [language for language in i18n["languages"] if language["locale"] == "fr"]

    def titles(entries: list[Any]) -> list[str]:
        found: list[str] = []
        for entry in entries:
            ((title, value),) = entry.items()
            found += [title, *titles(value)] if isinstance(value, list) else [title]
        return found

    assert len(titles(config["nav"])) >= 10
    assert set(titles(config["nav"])) == set(french["nav_translations"])


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The strictness the CI relies on: a link to a missing anchor stops the build."""
    copy = tmp_path / "copy"
    (copy / "docs").mkdir(parents=True)
    (copy / "docs" / "index.md").write_text("# Home\n\n[nowhere](#no-such-heading)\n")
    (copy / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text().split("\nnav:")[0])
    (copy / "RULES.md").write_text("# Rules\n")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=copy,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode != 0
    assert "no-such-heading" in built.stderr


class Loads(HTMLParser):
    """What a page loads (scripts, style sheets, icons, images, frames), and its inline styles."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("script", "img", "iframe", "source", "audio", "video") and found.get("src"):
            self.loaded.append(found["src"] or "")
        if tag == "link" and found.get("href") and found.get("rel") != "canonical":
            self.loaded.append(found["href"] or "")
        self._in_style = tag == "style"

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def test_the_site_fetches_nothing_from_elsewhere(site: Path) -> None:
    """No web font, no CDN: the site is read on a laptop at the table, with no internet."""
    foreign = []
    for page in site.rglob("*.html"):
        loads = Loads()
        loads.feed(page.read_text(encoding="utf-8"))
        foreign += [f"{page.name}: {url}" for url in loads.loaded if re.match(r"(https?:)?//", url)]
        foreign += [f"{page.name}: @import" for style in loads.styles if "@import" in style]
    for sheet in site.rglob("*.css"):
        foreign += [
            f"{sheet.name}: {url}"
            for url in re.findall(r"url\((?:'|\")?(https?:[^)]+)", sheet.read_text())
        ]
    assert foreign == []
    assert "fonts.googleapis" not in "".join(p.read_text() for p in site.rglob("*.html"))


def test_the_readme_fits_on_a_screen_or_two() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150


def test_every_link_of_the_readme_resolves() -> None:
    """A relative link names a file of the repository; one into the site's pages names a page of
    the nav, and an anchor of that page, if it gives one."""
    text = README.read_text(encoding="utf-8")
    targets = MARKDOWN_LINK.findall(text) + re.findall(r'<img src="([^"]+)"', text)
    assert len(targets) >= 10
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked here (the machine has no internet)
        path, _, anchor = target.partition("#")
        file = ROOT / path if path else README
        if not file.exists():
            broken.append(target)
        elif file.is_relative_to(DOCS) and file.suffix == ".md" and file not in nav_pages():
            broken.append(f"{target} (not in the site's nav)")
        elif anchor and anchor not in anchors(file):
            broken.append(f"{target} (no such heading)")
    assert broken == []


def test_every_picture_is_a_scene_light_and_shown_with_its_words() -> None:
    """Each picture under ``docs/pictures`` is a scene of the script in one language, at most
    60 KB; every picture a page or the README shows exists and has the scene's alt text; the
    players' guide shows every scene in its language."""
    pictures = pictures_script()
    scenes = {scene.file(language): scene for scene in pictures.SCENES for language in ("en", "fr")}
    files = sorted(p.relative_to(PICTURES).as_posix() for p in PICTURES.rglob("*.png"))
    assert files == sorted(scenes), "run `make pictures` (and remove the pictures of no scene)"
    heavy = [f for f in files if (PICTURES / f).stat().st_size > pictures.LIMIT]
    assert heavy == []
    shown: dict[Path, set[str]] = {}
    wrong = []
    for page in [README, *DOCS.rglob("*.md")]:
        text = page.read_text(encoding="utf-8")
        found = MARKDOWN_PICTURE.findall(text) + [(a, s) for s, a in HTML_PICTURE.findall(text)]
        for alt, source in found:
            file = (page.parent / source).resolve()
            name = file.relative_to(PICTURES).as_posix() if file.is_relative_to(PICTURES) else ""
            scene = scenes.get(name)
            if scene is None:
                wrong.append(f"{page.name}: {source} is no scene's picture")
            elif alt != scene.alt(name.split("/")[0]):
                wrong.append(f"{page.name}: {source} says {alt!r}, not {scene.alt(name[:2])!r}")
            shown.setdefault(page, set()).add(name)
    assert wrong == []
    for guide, language in ((DOCS / "table.md", "en"), (DOCS / "fr" / "table.md", "fr")):
        missing = {s.file(language) for s in pictures.SCENES} - shown.get(guide, set())
        assert missing == set(), guide
