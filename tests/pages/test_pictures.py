"""Every screen the documentation pictures still exists: the scenes of ``scripts/pictures.py``
(what ``make pictures`` photographs for the guides and the README), staged and taken against the
test server in English and in French, into a scratch folder.

A scene whose page no longer shows what it waits for (a form renamed, a button gone) fails here,
saying which; then the page, the scene and the guide's words are put right together, and
``make pictures`` takes the pictures again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser

from scorekeeper.services import virtual
from tests.pages.conftest import PHONE
from tests.project.test_docs_site import pictures_script


@pytest.fixture(scope="module")
def evening(browser: Browser, live_server: str) -> Iterator[tuple[Any, Any]]:
    """The pictures' evening staged on the test server (once for the languages a worker takes),
    and the cookies that open its table."""
    pictures = pictures_script()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(virtual.lifecycle, "new_seed", lambda: pictures.SEED)
        setup = browser.new_context(viewport=PHONE, locale="en-GB")
        staged = pictures.stage(setup.new_page(), live_server)
        cookies = setup.storage_state()
        setup.close()
        yield staged, cookies


@pytest.mark.slow(40)
@pytest.mark.parametrize("language", pictures_script().LANGUAGES)
def test_every_pictured_screen_still_exists(
    browser: Browser, live_server: str, tmp_path: Path, evening: tuple[Any, Any], language: str
) -> None:
    pictures = pictures_script()
    staged, cookies = evening
    written = pictures.take(
        browser, live_server, staged, cookies, language, pictures.SCENES, tmp_path
    )
    assert [path.relative_to(tmp_path).as_posix() for path in written] == [
        scene.file(language) for scene in pictures.SCENES
    ]
    for path in written:
        with Image.open(path) as picture:
            assert picture.size == (2 * PHONE["width"], 2 * PHONE["height"]), path.name
            assert len(picture.getcolors(256) or []) >= 4, f"{path.name} is nearly blank"
        assert path.stat().st_size <= pictures.LIMIT, path.name
