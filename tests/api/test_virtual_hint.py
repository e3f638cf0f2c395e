"""A hint for a human seat: the strong computer player's choice from that seat's own view, given
only to the seat to act, the same every time it is asked, and leaving the game as it was.

The games are dealt from the seeds 1, 2, 3... of each test (``tests/api/test_virtual.py``), so
each test plays the same positions on every run, and a test that needs one asserts it got it.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from engine.moves import move_from_dict
from engine.players import make_player
from engine.rules import Rules
from engine.view import seat_view
from engine.virtual_game import VirtualGame
from scorekeeper.services import virtual
from tests.api.conftest import TableAccess
from tests.api.test_virtual import SeatAccess, Seeds, started

LAYOUTS = {
    "2 players": [None, "strong"],
    "3 players": [None, "greedy", "random"],
    "4 players, two teams": [None, "strong", None, "greedy"],
    "6 players, three teams": [None, "random", "greedy", "strong", "random", "greedy"],
}
"""Seats of the games tried: None for a person (a seat with a token), else a computer."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> Seeds:
    """Deal this test's virtual games from the seeds 1, 2, 3..."""
    seeds = Seeds()
    monkeypatch.setattr(virtual.lifecycle, "new_seed", seeds)
    return seeds


def ask(seat: SeatAccess, **headers: str) -> Any:
    """The seat's phone asks for a hint."""
    return seat.table.client.get(seat.url + "/hint", headers={**seat.headers, **headers})


def as_move(hint: dict[str, Any]) -> dict[str, Any]:
    """The hint as a move of ``legal_moves`` (no number, no label)."""
    return {key: value for key, value in hint.items() if key not in ("number", "label")}


def expected_hint(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """The strong player's choice, worked out here from the seed and the moves the seat has
    seen, on the hint's own random stream (named by the seed and the move number)."""
    game = view["game"]
    played = VirtualGame.resume(
        Rules.for_players(game["players"], game["variants"]),
        seed,
        [side["name"] for side in game["sides"]],
        ((event["seat"], move_from_dict(event)) for event in view["events"]),
        private_chances=True,
    )
    number = view["next_move"]
    assert played.move_count == number
    player = make_player("strong", Random(f"{seed}/{number}/hint"))
    return player.choose(seat_view(played.hand, view["seat"])).to_dict()


def to_act(seats: dict[int, SeatAccess]) -> tuple[SeatAccess, dict[str, Any]]:
    """The human seat the game waits for, and the game as it sees it."""
    waiting = next(iter(seats.values())).read()["state"]["to_act"]
    seat = seats[waiting]
    return seat, seat.read()


@pytest.mark.parametrize("computers", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_a_hint_is_the_strong_players_choice_from_the_seats_own_view(
    table: TableAccess, seeds: Seeds, computers: list[str | None]
) -> None:
    _, seats = started(table, computers)
    seed = seeds.next - 1
    for _ in range(12):  # a dozen turns of the people, each playing the move suggested
        seat, view = to_act(seats)
        response = ask(seat)
        assert response.status_code == 200, response.get_json()
        hint = response.get_json()
        assert hint["number"] == view["next_move"]
        assert as_move(hint) in view["state"]["legal_moves"]
        assert as_move(hint) == expected_hint(view, seed)
        assert seat.move(hint["number"], as_move(hint)).status_code == 200


def test_a_hint_names_its_move_as_the_page_does(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    english = ask(seats[0]).get_json()
    french = ask(seats[0], **{"Accept-Language": "fr"}).get_json()
    # seed 1: the strong player opens by limiting the rival (an attack before driving)
    assert (english["move"], english["card"], english["target"]) == ("play", "speed_limit", 1)
    assert english["label"] == "Play Speed Limit on Computer 2 (Club)"
    assert french["label"] == "Jouer Limitation de vitesse sur Ordinateur 2 (Club)"
    assert as_move(english) == as_move(french)


def test_a_hint_asked_again_is_the_same_and_kept_by_no_cache(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    first, again = ask(seats[0]), ask(seats[0])
    assert first.get_json() == again.get_json()
    assert first.headers["ETag"] == again.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-store"
    unchanged = ask(seats[0], **{"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304


def test_asking_for_a_hint_leaves_the_game_as_it_was(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    before = table.client.get(seats[0].url, headers=seats[0].headers)
    assert ask(seats[0]).status_code == 200
    after = table.client.get(seats[0].url, headers=seats[0].headers)
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json() == before.get_json()


def test_the_computers_play_the_same_whether_or_not_hints_were_asked(
    new_table: Any, seeds: Seeds
) -> None:
    """Two games dealt from one seed, the person playing the same moves in both: in one every
    move follows a hint asked three times, in the other none is asked. The computers, who draw
    on random streams of their own, answer alike move for move, and the second hand is dealt
    the same."""
    logs = []
    for name, hints in (("With hints", 3), ("Without hints", 0)):
        seeds.next = 2
        _, seats = started(new_table(name), [None, "strong", "random"])
        rng = Random(7)
        view = seats[0].read()
        second_hand = 0
        while second_hand < 10:  # the first hand, then ten moves of the second
            second_hand += view["hand_number"] == 2
            for _ in range(hints):
                assert ask(seats[0]).status_code == 200
            move = rng.choice(view["state"]["legal_moves"])
            response = seats[0].move(view["next_move"], move)
            assert response.status_code == 200, response.get_json()
            view = response.get_json()
        logs.append(seats[0].read()["events"])
    with_hints, without = logs
    assert sum(event["seat"] != 0 and event["hand"] == 1 for event in with_hints) > 40
    assert sum(event["hand"] == 2 for event in with_hints) > 10
    assert with_hints == without


def test_the_tables_token_gets_no_hint(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    response = table.client.get(seats[0].url + "/hint", headers=table.headers)
    assert response.status_code == 403
    assert response.mimetype == "application/problem+json"
    assert "seat's token" in response.get_json()["detail"]


def test_a_hint_needs_the_seats_own_token(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    _, others = started(table, [None, "strong"])
    url = seats[0].url + "/hint"
    assert table.client.get(url).status_code == 401
    bogus = {"Authorization": "Bearer mbs_not-a-token"}
    assert table.client.get(url, headers=bogus).status_code == 401
    assert table.client.get(url, headers=others[0].headers).status_code == 404


def test_a_seat_waiting_for_another_gets_no_hint(table: TableAccess) -> None:
    _, seats = started(table, [None, None])
    seat, _ = to_act(seats)
    waiting = seats[1 - seat.seat]
    response = ask(waiting)
    assert response.status_code == 409
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["detail"] == (
        f"It is not seat {waiting.seat}'s move: the game waits for seat {seat.seat}, and a hint "
        "is given for the seat's own move only."
    )


def test_a_coup_fourre_chance_offered_to_another_seat_gives_it_no_hint(
    table: TableAccess,
) -> None:
    """Two people, each playing the moves suggested, until one lays a hazard on the other: the
    attacked seat is asked for its coup-fourré, and the seat that attacked gets no hint."""
    _, seats = started(table, [None, None])
    for _ in range(200):
        seat, view = to_act(seats)
        if view["state"]["phase"] == "coup_fourre":
            break
        hint = ask(seat).get_json()
        assert seat.move(hint["number"], as_move(hint)).status_code == 200
    else:
        pytest.fail("no hazard in 200 moves of the seeded game")
    assert ask(seat).status_code == 200  # the attacked seat has a hint: lay it, or let it go
    attacker = seats[1 - seat.seat]
    response = ask(attacker)
    assert response.status_code == 409
    assert f"waits for seat {seat.seat}" in response.get_json()["detail"]


def test_a_finished_game_gives_no_hint(table: TableAccess, seeds: Seeds) -> None:
    """Seed 4 is a short game (test_virtual.py); here the person plays every move suggested."""
    seeds.next = 4
    _, seats = started(table, [None, "strong"])
    view = seats[0].read()
    while view["state"] is not None:
        hint = ask(seats[0]).get_json()
        response = seats[0].move(hint["number"], as_move(hint))
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
    assert view["game"]["status"] == "finished"
    response = ask(seats[0])
    assert response.status_code == 409
    assert response.get_json()["detail"] == "The game is finished: there is no move to suggest."


def test_an_abandoned_game_gives_no_hint(table: TableAccess) -> None:
    body, seats = started(table, [None, "strong"])
    assert table.post(f"/games/{body['game']['id']}/abandon").status_code == 200
    response = ask(seats[0])
    assert response.status_code == 409
    assert response.get_json()["detail"] == "The game is abandoned: there is no move to suggest."
