"""The coup-fourré window (RULES.md §6 with people at a virtual game): the people of an attacked
side are asked all at once, for a fixed time, and the window closes by itself. What is stored and
what any other seat or a watcher sees is the same whether or not a seat holds the safety."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from scorekeeper.services import virtual
from scorekeeper.storage.extensions import db
from tests.api.conftest import TableAccess
from tests.api.test_virtual import SeatAccess, seeds, started
from tests.running import Clock

__all__ = ["seeds"]  # the games are dealt from the seeds 1, 2, 3... (test_virtual's fixture)

WINDOW = 5.0
SAFETY = {
    "accident": "driving_ace",
    "out_of_gas": "extra_tank",
    "flat_tire": "puncture_proof",
    "stop": "right_of_way",
    "speed_limit": "right_of_way",
}


@pytest.fixture
def clock(table: TableAccess, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Windows of ``WINDOW`` seconds on a clock of the test's own."""
    monkeypatch.setitem(table.client.application.config, "VIRTUAL_CHANCE_WINDOW", WINDOW)
    clock = Clock()
    monkeypatch.setattr(virtual.moves, "clock", clock)
    return clock


def hazard_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The move that opened the chance: the last one that is not a pass."""
    return next(event for event in reversed(events) if event["move"] != "pass")


def play_to_a_window(
    seats: dict[int, SeatAccess], rng: Random, clock: Clock
) -> dict[str, Any] | None:
    """The people play (a random play, keeping their safeties for a coup-fourré, else a
    discard), a second apart, until a window opens on them: the watcher's view then, or None
    if the game ends first."""
    watcher = next(iter(seats.values())).table
    url = next(iter(seats.values())).url
    while True:
        view = watcher.client.get(url, headers=watcher.headers).get_json()
        state = view["state"]
        if state is None:
            return None
        if state["phase"] == "coup_fourre" and state["to_act"] in seats:
            return dict(view)
        mine = seats[state["to_act"]].read()
        moves = mine["state"]["legal_moves"]
        plays = [m for m in moves if m["move"] == "play" and m["card"] not in SAFETY.values()]
        move = rng.choice(plays or moves)
        clock.wait(1)
        assert seats[state["to_act"]].move(mine["next_move"], move).status_code == 200


def test_the_window_closes_by_itself_the_same_for_holders_and_the_others(
    table: TableAccess, clock: Clock
) -> None:
    """Ann and Bob partner against two computers. Whenever a hazard lands on them, nothing moves
    until the window's time is up, whoever holds the safety; then both of them let it go in the
    order the chance asks them, without a request from either."""
    _, seats = started(table, [None, "strong", None, "strong"])
    rng = Random(4)
    windows = held = 0
    while windows < 3 or not held:
        view = play_to_a_window(seats, rng, clock)
        assert view is not None, "the game ended before a person held a safety"
        windows += 1
        hazard = hazard_of(view["events"])
        asked = [seat for seat in (0, 2) if view["state"]["hand_sizes"][seat]]
        holders = [s for s in asked if SAFETY[hazard["card"]] in seats[s].read()["state"]["hand"]]
        held += bool(holders)
        public = [s.read()["state"]["tableaux"] for s in seats.values()]
        clock.wait(WINDOW - 0.5)
        for seat in seats.values():  # a poll before the time is up changes nothing
            again = seat.read()
            assert again["next_move"] == view["next_move"]
            assert again["state"]["phase"] == "coup_fourre"
            assert again["state"]["tableaux"] == public[0] == public[1]
        clock.wait(0.5)
        after = seats[0].read(since=view["next_move"])
        answers = [event for event in after["events"] if event["hand"] == hazard["hand"]]
        passes = [event["seat"] for event in answers if event["move"] == "pass"]
        assert passes[: len(asked)] == sorted(asked, key=lambda s: (s == after_seat(hazard), s))
    assert held  # the known deals did put a safety in a person's hand


def after_seat(hazard: dict[str, Any]) -> int:
    """The seat whose turn comes next after the hazard (asked last; nobody out of cards here)."""
    return (int(hazard["seat"]) + 1) % 4


def test_a_holder_asked_later_lays_the_safety_within_the_window_and_not_after(
    table: TableAccess, clock: Clock
) -> None:
    """Within the window a holder need not wait for the partner asked before it: the partner
    lets the chance go as the chance would have it, then the coup-fourré. Once the time is up
    the window is closed, and a coup-fourré sent late is refused, the passes stored instead."""
    _, seats = started(table, [None, "strong", None, "strong"])
    rng = Random(4)
    early = late = False
    while not (early and late):
        view = play_to_a_window(seats, rng, clock)
        assert view is not None, "the game ended before both cases came up"
        hazard = hazard_of(view["events"])
        safety = SAFETY[hazard["card"]]
        holder = next((s for s in (0, 2) if safety in seats[s].read()["state"]["hand"]), None)
        if holder is None:
            clock.wait(WINDOW)
            continue
        coup_fourre = {"move": "coup_fourre", "card": safety}
        if not early and holder != view["state"]["to_act"]:
            clock.wait(WINDOW - 1)
            response = seats[holder].move(view["next_move"], coup_fourre)
            assert response.status_code == 200, response.get_json()
            events = response.get_json()["events"]
            assert [(e["seat"], e["move"]) for e in events[:2]] == [
                (view["state"]["to_act"], "pass"),
                (holder, "coup_fourre"),
            ]
            early = True
        elif early and not late:
            clock.wait(WINDOW)
            response = seats[holder].move(view["next_move"], coup_fourre)
            assert response.status_code == 409
            after = seats[holder].read(since=view["next_move"])["events"]
            assert after[0]["move"] == "pass" and "coup_fourre" not in {e["move"] for e in after}
            late = True
        else:
            clock.wait(WINDOW)


def test_every_person_asked_reads_its_chance_in_the_api_as_on_its_page(
    table: TableAccess, clock: Clock
) -> None:
    """In an open window every person asked, whether the chance waits for it yet or not, reads
    the hazard it is asked about and the coups-fourrés it may lay, through the API as on its own
    page: a REST client that follows ``legal_moves`` takes the chance a phone would."""
    _, seats = started(table, [None, "strong", None, "strong"])
    rng = Random(4)
    checked: set[bool] = set()  # whether a seat read its chance before the chance waited for it
    held = 0
    while checked != {True, False} or not held:
        view = play_to_a_window(seats, rng, clock)
        assert view is not None, (
            "the game ended before both kinds of seat, and a holder, were asked"
        )
        hazard = hazard_of(view["events"])["card"]
        for seat in (0, 2):
            mine = seats[seat].read()["state"]
            if not mine["hand"]:
                continue  # a seat with no cards is not asked
            holds = SAFETY[hazard] in mine["hand"]
            assert mine["pending_hazard"] is not None
            coups_fourres = [m for m in mine["legal_moves"] if m["move"] == "coup_fourre"]
            assert bool(coups_fourres) == holds
            assert (SAFETY[mine["pending_hazard"]] in mine["hand"]) == holds
            page = table.client.get(f"/play/{seats[seat].token}").text
            offered = re.findall(
                r'name="move" value="(\w+)">\s*<input [^>]*name="card" value="(\w+)"', page
            )
            assert set(offered) == {(m["move"], m["card"]) for m in coups_fourres}
            checked.add(seat == mine["to_act"])
            held += holds
        clock.wait(WINDOW)
    assert held  # the known deals did put a safety in an asked person's hand


def test_a_person_the_chance_does_not_ask_reads_no_chance(table: TableAccess, clock: Clock) -> None:
    """People on both sides (seats 0 and 1): while a window asks one of them, the other, whose
    side was not attacked, reads no hazard and no coup-fourré to lay."""
    _, seats = started(table, [None, None, "strong", "strong"])
    rng = Random(4)
    for _ in range(3):
        view = play_to_a_window(seats, rng, clock)
        assert view is not None, "the game ended before three windows opened"
        asked = view["state"]["to_act"]
        other = seats[1 - asked].read()["state"]
        assert other["pending_hazard"] is None
        assert [m for m in other["legal_moves"] if m["move"] == "coup_fourre"] == []
        assert seats[asked].read()["state"]["pending_hazard"] is not None
        clock.wait(WINDOW)


def test_the_seat_page_that_closes_the_window_answers_the_game_as_committed(
    table: TableAccess, clock: Clock
) -> None:
    """A poll of the seat's page after the window's time is up closes the window: its answer is
    the game after the passes (a new ETag, the version the request committed), not a 304."""
    _, seats = started(table, [None, "strong"])
    view = play_to_a_window(seats, Random(4), clock)
    assert view is not None, "the game ended before a window opened"
    page = f"/play/{seats[0].token}"
    before = table.client.get(page)
    assert before.status_code == 200
    clock.wait(WINDOW)
    after = table.client.get(page, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    watched = table.client.get(seats[0].url, headers=table.headers)
    committed = watched.headers["ETag"].strip('"').split("-watcher")[0]
    assert after.headers["ETag"].strip('"').startswith(committed + "-")
    assert watched.get_json()["next_move"] > view["next_move"]


def test_a_read_in_an_open_window_reads_when_it_opened_once(
    table: TableAccess, clock: Clock, app: Flask
) -> None:
    """A seat's read in an open window asks where the window stands three times (whether it is
    due, which seats it asks, when it closes); the time of the move that opened it is read from
    the database once."""
    _, seats = started(table, [None, "strong", None, "strong"])
    view = play_to_a_window(seats, Random(4), clock)
    assert view is not None
    asked: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if "virtual_moves.created_at" in statement and "virtual_moves.number =" in statement:
            asked.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            seen = seats[view["state"]["to_act"]].read()
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert seen["state"]["phase"] == "coup_fourre"
    assert seen["state"]["legal_moves"]  # the seat is asked: the window's seats were read
    assert len(asked) == 1
