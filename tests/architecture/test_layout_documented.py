"""The documentation's Layout page (docs/contributing/layout.md) names every module of the app in
the line of its own folder, and every layer of the contracts, so a newcomer who trusts it is not
misled: a module added, or moved to another folder, fails here until the page says where it
stands."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


LAYOUT = ROOT / "docs" / "contributing" / "layout.md"


def layout() -> str:
    """The page's text, from its title on."""
    page = LAYOUT.read_text(encoding="utf-8")
    assert page.startswith("# Layout\n")
    return page


def folder_lines(section: str) -> dict[str, str]:
    """Each folder's entry in the section's module-by-module list (``- `services/`: ...``)."""
    entries: dict[str, str] = {}
    for entry in section.split("\n  - `")[1:]:
        folder, _, text = entry.partition("`")
        if folder.endswith("/"):
            entries[folder.rstrip("/")] = text.split("\n\n")[0]
    return entries


def test_every_module_of_the_app_is_named_in_its_folders_line() -> None:
    section = layout()
    lines = folder_lines(section)
    package = ROOT / "scorekeeper"
    unnamed = []
    for path in sorted(package.rglob("*.py")):
        if path.stem == "__init__":
            continue
        parts = path.relative_to(package).parts
        where = lines.get(parts[0], "") if len(parts) > 1 else section
        if f"`{path.stem}`" not in where:
            unnamed.append("/".join(parts))
    assert unnamed == []


def test_every_layer_of_the_contracts_is_named_in_the_layout() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = settings["tool"]["importlinter"]["contracts"]
    layers = next(contract["layers"] for contract in contracts if contract["type"] == "layers")
    names = {name.strip() for line in layers for name in line.split("|")}
    section = layout()
    missing = [n for n in sorted(names) if f"`{n}`" not in section and f"`{n}/`" not in section]
    assert missing == []
