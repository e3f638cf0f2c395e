"""Computer seats chosen by level on the phone, in English and in French, in headless chromium at
360×640: the levels offered weakest first with what each does and its measured strength (the
Expert's figures as the computer players' guide measured them), Club chosen unless another is,
and a game dealt with an Expert seats the search player under its level's name."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.services import virtual
from tests.pages.conftest import PHONE
from tests.pages.test_pages import add_players, create_table

WORDS = {
    "en": {
        "computer": "Computer",
        "options": [
            "Computer (Novice)",
            "Computer (Beginner)",
            "Computer (Club)",
            "Computer (Expert)",
        ],
        "levels": ["Novice", "Beginner", "Club", "Expert"],
        "novice_line": "Plays any legal card, at random.",
        "novice_strength": "Almost never wins against the 1982 BSD program or the winner of an AI "
        "contest.",
        "expert_strength": "Wins about 52 games in 100 against the 1982 BSD program, 57 against "
        "the winner of an AI contest.",
        "heading": "Computer levels",
        "deal": "Deal",
    },
    "fr": {
        "computer": "Ordinateur",
        "options": [
            "Ordinateur (Novice)",
            "Ordinateur (Débutant)",
            "Ordinateur (Club)",
            "Ordinateur (Expert)",
        ],
        "levels": ["Novice", "Débutant", "Club", "Expert"],
        "novice_line": "Joue au hasard une carte permise.",
        "novice_strength": "Ne gagne presque jamais, ni contre le programme BSD de 1982 ni contre "
        "le vainqueur d'un concours d'IA.",
        "expert_strength": "Gagne environ 52 parties sur 100 contre le programme BSD de 1982, et "
        "57 contre le vainqueur d'un concours d'IA.",
        "heading": "Niveaux des ordinateurs",
        "deal": "Distribuer",
    },
}
"""What the new-virtual-game page says in each language."""

TABLES = itertools.count(1)


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal from the seeds 1, 2, 3..., not from the system's entropy."""
    numbers = itertools.count(1)
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: next(numbers))


def new_virtual_game(page: Page, server: str, language: str) -> None:
    """A new table with Ann, its new-virtual-game page open in ``language``."""
    create_table(page, server, f"Levels {next(TABLES)}")
    add_players(page, "Ann")
    page.get_by_role("link", name="Play in the app").click()
    if language == "fr":
        page.locator(".lang").get_by_role("button", name="FR").click()  # the form, kept
    expect(page.locator("html")).to_have_attribute("lang", language)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_levels_are_offered_weakest_first_with_what_they_do(
    page: Page, live_server: str, language: str
) -> None:
    words = WORDS[language]
    new_virtual_game(page, live_server, language)
    computers = page.locator("select[name=seat1] optgroup").nth(1).locator("option")
    expect(computers).to_have_text(words["options"])
    expect(page.locator("select[name=seat1] option:checked")).to_have_text(words["options"][2])
    levels = page.get_by_role("region", name=words["heading"])
    expect(levels.locator("dt")).to_have_text(words["levels"])
    lines = levels.locator("dd:not(.strength)")
    expect(lines).to_have_count(4)
    expect(lines.first).to_have_text(words["novice_line"])
    strengths = levels.locator("dd.strength")
    expect(strengths).to_have_count(4)
    expect(strengths.first).to_have_text(words["novice_strength"])
    expect(strengths.last).to_have_text(words["expert_strength"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_game_dealt_with_an_expert_seats_the_search_player(
    page: Page, live_server: str, language: str
) -> None:
    words = WORDS[language]
    new_virtual_game(page, live_server, language)
    page.locator("select[name=seat1]").select_option(label=words["options"][3])
    page.get_by_role("button", name=words["deal"]).click()
    expect(page.locator("#play")).to_be_visible()
    computer = f"{words['computer']} 2 (Expert)"
    expect(page.locator(".tableau").filter(has_text=computer)).to_have_count(1)

    seat = seat_as_the_api_answers(page, live_server)  # in the page's language, as the page
    assert (seat["computer"], seat["level"], seat["name"]) == ("search", "expert", computer)


def seat_as_the_api_answers(page: Page, server: str) -> dict[str, Any]:
    """The computer seat of the table's newest game, read through the API with the table's
    token (the cookie the phone that created the table holds)."""
    cookie = next(c for c in page.context.cookies() if re.fullmatch(r"table_\d+", c["name"]))
    table_id = cookie["name"].removeprefix("table_")
    response = page.request.get(
        f"{server}/api/v1/tables/{table_id}/games",
        headers={"Authorization": f"Bearer {cookie['value']}"},
    )
    assert response.ok
    newest = response.json()["items"][0]
    seats = [seat for side in newest["sides"] for seat in side["seats"]]
    assert seats[0]["level"] is None
    return dict(seats[1])
