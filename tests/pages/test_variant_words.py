"""The new-game page names every rules variant and its values in words, not API keys: a short
label in the drop-down, which fits a 360 px phone in each language, and the whole rule beside it."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from engine.rules import VARIANT_ENUMS
from scorekeeper.pages.variants import VARIANT_WORDS
from tests.api.conftest import create_table
from tests.pages.conftest import PHONE
from tests.pages.test_pages import create_table as create_table_in_the_browser

ARROW = 32
"""What a drop-down keeps beside its text for its arrow, in CSS pixels (chromium draws about 20)."""
TOO_WIDE = """arrow => {
    const measure = document.createElement("canvas").getContext("2d");
    const found = [];
    for (const select of document.querySelectorAll(".variant select")) {
        const style = getComputedStyle(select);
        measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight) - arrow;
        for (const option of select.options) {
            const width = measure.measureText(option.text).width;
            if (!(room > 0) || width > room) found.push([select.name, option.text, width, room]);
        }
    }
    return found;
}"""
"""Each option whose label is wider than its drop-down's text box, with both widths."""


def test_every_variant_and_value_of_the_rules_has_its_words() -> None:
    assert VARIANT_WORDS.keys() == VARIANT_ENUMS.keys()
    for key, enum in VARIANT_ENUMS.items():
        assert VARIANT_WORDS[key][1].keys() == {value.value for value in enum}, key


def test_a_label_is_a_few_words_and_its_meaning_a_sentence() -> None:
    choices = [choice for _, values in VARIANT_WORDS.values() for choice in values.values()]
    assert max(len(choice.label) for choice in choices) <= 24
    assert all(choice.meaning.endswith(".") for choice in choices)
    assert not any(choice.meaning[0].islower() for choice in choices)
    assert all(len(choice.meaning) > len(choice.label) for choice in choices)


def test_the_new_game_page_shows_words_in_the_phones_language(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    client.set_cookie(f"table_{table.id}", table.token)
    english = client.get(f"/t/{table.id}/games/new", headers={"Accept-Language": "en"}).text
    assert "Shutout bonus (500)" in english
    assert re.search(r'<option value="capot"\s*>French rule</option>', english)
    assert re.search(
        r"<dt>French rule</dt><dd>For each side at 0 km, each of its opponents scores 500", english
    )
    assert 'aria-describedby="variant-shutout-meanings"' in english
    assert 'id="variant-shutout-meanings"' in english
    assert "two hundreds limit" not in english and ">capot<" not in english
    french = client.get(f"/t/{table.id}/games/new", headers={"Accept-Language": "fr"}).text
    assert "Prime de capot (500)" in french
    assert re.search(r'<option value="capot"\s*>Règle française</option>', french)
    # A variant named by a verb: its values agree with nothing ("Défausser une botte : interdit").
    discard = re.search(r'<select id="variant-discard_safeties".*?</select>', french, re.S)
    assert discard is not None
    assert re.findall(r">([^<]+)</option>", discard.group()) == ["Permis", "Interdit"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_variant_label_fits_its_drop_down_on_a_phone(
    page: Page, live_server: str, language: str
) -> None:
    table = create_table_in_the_browser(page, live_server, "Variants")
    page.goto(f"{table}/games/new?players=4&lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.locator("#new-game details > summary").click()
    expect(page.locator(".variant select")).to_have_count(len(VARIANT_WORDS))
    page.wait_for_load_state("load")  # the style sheet, which sets the drop-downs' width
    assert page.evaluate(TOO_WIDE, ARROW) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    meanings = page.locator("#variant-coup_fourre_window-meanings dd")
    expect(meanings).to_have_count(2)
    box = meanings.last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]


def test_the_width_check_finds_a_label_too_long(page: Page, live_server: str) -> None:
    """The check above can fail: a label of 80 characters, as the variants once had, is found."""
    table = create_table_in_the_browser(page, live_server, "Variants too wide")
    page.goto(f"{table}/games/new")
    page.locator("#new-game details > summary").click()
    page.wait_for_load_state("load")
    long = "to every opponent of each side at 0 km, trip or not (French rule)"
    page.locator("#variant-shutout option").first.evaluate("(o, text) => { o.text = text; }", long)
    assert [found[:2] for found in page.evaluate(TOO_WIDE, ARROW)] == [["shutout", long]]
