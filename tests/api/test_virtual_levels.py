"""Computer seats by level over the API: a seat is given a level (``club``) or the technical
name of its computer player (``strong``); answers carry both; any other word is refused."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.domain.levels import ACCEPTED, LEVELS
from scorekeeper.services import virtual
from tests.api.conftest import TableAccess


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal from a known seed, not from the system's entropy."""
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: 1)


def computer_seat(table: TableAccess, computer: Any) -> Any:
    """Ann against one computer seat given as ``computer``: the answer."""
    (ann,) = table.add_players("Ann")
    seats = [{"player": ann}, {"computer": computer}]
    return table.post("/virtual-games", {"players": 2, "seats": seats})


def seats_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [seat for side in body["game"]["sides"] for seat in side["seats"]]


def test_the_levels_are_the_four_computer_players_weakest_first() -> None:
    assert [(level.key, level.computer) for level in LEVELS] == [
        ("novice", "random"),
        ("beginner", "greedy"),
        ("club", "strong"),
        ("expert", "search"),
    ]
    assert virtual.COMPUTERS == ("random", "greedy", "strong", "search")


@pytest.mark.parametrize(
    ("word", "computer", "level"),
    [(lv.key, lv.computer, lv.key) for lv in LEVELS]
    + [(lv.computer, lv.computer, lv.key) for lv in LEVELS],
)
def test_a_seat_given_by_level_or_technical_name_seats_its_player_and_answers_both(
    table: TableAccess, word: str, computer: str, level: str
) -> None:
    response = computer_seat(table, word)
    assert response.status_code == 201, response.get_json()
    ann, machine = seats_of(response.get_json())
    assert (machine["computer"], machine["level"]) == (computer, level)
    assert (ann["computer"], ann["level"]) == (None, None)


def test_a_computer_seat_is_named_by_its_level(table: TableAccess) -> None:
    body = computer_seat(table, "expert").get_json()
    assert seats_of(body)[1]["name"] == "Computer 2 (Expert)"
    assert body["game"]["sides"][1]["name"] == "Computer 2 (Expert)"


def test_reading_the_game_answers_the_level(table: TableAccess) -> None:
    response = computer_seat(table, "beginner")
    watched = table.get(response.headers["Location"].removeprefix(table.url))
    assert watched.status_code == 200
    assert seats_of(watched.get_json())[1]["level"] == "beginner"
    game = table.get(f"/games/{watched.get_json()['game']['id']}").get_json()
    assert [seat["level"] for side in game["sides"] for seat in side["seats"]] == [
        None,
        "beginner",
    ]


@pytest.mark.parametrize("computer", ["oracle", "Club", "EXPERT", "", "strong ", 3, None])
def test_an_unknown_computer_is_refused_naming_the_field_and_the_accepted_words(
    table: TableAccess, computer: Any
) -> None:
    response = computer_seat(table, computer)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    errors = response.get_json()["errors"]
    assert [error["path"] for error in errors] == ["/seats/1/computer"]
    if isinstance(computer, str):
        assert all(name in errors[0]["detail"] for name in ACCEPTED)


def test_computers_are_named_in_the_readers_language(table: TableAccess) -> None:
    """The pages say "Ordinateur 2 (Club)" to a French reader; the API does too, in the game,
    the history and the leaderboard; an English reader reads "Computer 2 (Club)"."""
    (ann,) = table.add_players("Ann")
    seats = [{"player": ann}, {"computer": "club"}]
    started = table.post("/virtual-games", {"players": 2, "seats": seats})
    url = started.headers["Location"].removeprefix(table.url)
    french = {"Accept-Language": "fr"}
    in_french = table.get(url, headers=french)
    names = [
        seat["name"] for side in in_french.get_json()["game"]["sides"] for seat in side["seats"]
    ]
    assert names == ["Ann", "Ordinateur 2 (Club)"]
    assert "Accept-Language" in in_french.headers["Vary"]
    in_english = table.get(url)
    assert in_english.get_json()["game"]["sides"][1]["name"] == "Computer 2 (Club)"
    assert in_english.headers["ETag"] != in_french.headers["ETag"]
    game_id = started.get_json()["game"]["id"]
    read = table.get(f"/games/{game_id}", headers=french)
    assert read.get_json()["sides"][1]["seats"][0]["name"] == "Ordinateur 2 (Club)"
    # A copy held in French is not the English one: asked in English, the game comes again.
    english = table.get(f"/games/{game_id}", headers={"If-None-Match": read.headers["ETag"]})
    assert english.status_code == 200
    assert english.get_json()["sides"][1]["seats"][0]["name"] == "Computer 2 (Club)"
    held = {"If-None-Match": read.headers["ETag"], **french}
    assert table.get(f"/games/{game_id}", headers=held).status_code == 304
