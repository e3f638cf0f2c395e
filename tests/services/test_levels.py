"""The computer levels: one table, in strength order; a computer seat shown under its level's
name in the page's language wherever the pages name it, and in English to the API."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.levels import ACCEPTED, LEVELS, computer_name, level_key, level_named
from scorekeeper.services import virtual
from tests.api.conftest import create_table


def test_each_level_and_each_technical_name_finds_its_level() -> None:
    for level in LEVELS:
        assert level_named(level.key) is level_named(level.computer) is level
        assert level_key(level.computer) == level.key
    assert ACCEPTED == (
        "novice",
        "beginner",
        "club",
        "expert",
        "random",
        "greedy",
        "strong",
        "search",
    )
    assert level_named("Club") is None and level_key(None) is None


def test_a_computer_seat_is_stored_under_its_levels_english_name() -> None:
    assert computer_name(3, "search") == "Computer 4 (Expert)"


@pytest.fixture
def virtual_game(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> tuple[FlaskClient, str]:
    """A phone holding the table's cookie, and the scoreboard of Ann's game against a Beginner."""
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: 1)
    client = sqlite_app.test_client()
    table = create_table(client, "Levels")
    (ann,) = table.add_players("Ann")
    seats = [{"player": ann}, {"computer": "beginner"}]
    game = table.post("/virtual-games", {"players": 2, "seats": seats}).get_json()["game"]
    client.set_cookie(f"table_{table.id}", table.token)
    return client, f"/t/{table.id}/games/{game['id']}"


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Computer 2 (Beginner)"), ("fr", "Ordinateur 2 (Débutant)")]
)
def test_the_scoreboard_and_the_tables_list_name_the_computer_in_the_pages_language(
    virtual_game: tuple[FlaskClient, str], language: str, name: str
) -> None:
    client, scoreboard = virtual_game
    headers = {"Accept-Language": language}
    assert name in client.get(scoreboard, headers=headers).text
    table_page = client.get(scoreboard.split("/games/")[0], headers=headers).text
    assert f"Ann – {name}" in table_page


def measured_shares() -> dict[tuple[str, str], float]:
    """The first player's share of each two-seat pairing in the computer players' guide's table
    of how strong they are ("strong vs classic" → 50.8)."""
    guide = (Path(__file__).parents[2] / "docs/contributing/computer-players.md").read_text()
    rows = re.findall(r"^\| (\w+) vs (\w+) \| [\d,]+ \| \**([\d.]+)%", guide, re.MULTILINE)
    return {(first, second): float(share) for first, second, share in rows}


def test_each_levels_strength_is_the_share_the_guide_measured() -> None:
    shares = measured_shares()
    for level in LEVELS:
        assert level.strength.classic == shares[level.computer, "classic"], level.key
        assert level.strength.contest == shares[level.computer, "contest"], level.key


@pytest.mark.parametrize("guide", ["docs/table.md", "docs/fr/table.md"])
def test_the_players_guides_round_the_same_strengths(guide: str) -> None:
    text = (Path(__file__).parents[2] / guide).read_text()
    rows = re.findall(r"^\| \*\*\w.*\| (\d+|[a-z ]+) / (\d+|[a-z ]+) \|$", text, re.MULTILINE)
    assert len(rows) == len(LEVELS)
    for level, (classic, contest) in zip(LEVELS, rows, strict=True):
        said = tuple(int(n) if n.isdigit() else 0 for n in (classic, contest))
        assert said == level.strength.games_in_100(), level.key
