"""The new-game page names every rules variant and its values in words, not API keys."""

from __future__ import annotations

import re

from flask import Flask

from engine.rules import VARIANT_ENUMS
from scorekeeper.pages.variants import VARIANT_WORDS
from tests.api.conftest import create_table


def test_every_variant_and_value_of_the_rules_has_its_words() -> None:
    assert VARIANT_WORDS.keys() == VARIANT_ENUMS.keys()
    for key, enum in VARIANT_ENUMS.items():
        assert VARIANT_WORDS[key][1].keys() == {value.value for value in enum}, key


def test_the_new_game_page_shows_words_in_the_phones_language(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    client.set_cookie(f"table_{table.id}", table.token)
    english = client.get(f"/t/{table.id}/games/new", headers={"Accept-Language": "en"}).text
    assert "Shutout bonus (500)" in english
    assert re.search(r'<option value="capot"\s*>to every opponent of each side at 0 km', english)
    assert "two hundreds limit" not in english and ">capot<" not in english
    french = client.get(f"/t/{table.id}/games/new", headers={"Accept-Language": "fr"}).text
    assert "Prime de capot (500)" in french
