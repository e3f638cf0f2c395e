"""Virtual games over the API: seats and their tokens, what each token may see and do, moves
checked by the engine, computers answering in the request, retries, races, and one history.

The server deals each game from a secret seed (``virtual.lifecycle.new_seed``); here the seeds are
1, 2, 3...
in each test, so every run plays the same games and a test that needs a situation from the deal
asserts that it got it."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from random import Random
from typing import Any

import pytest
from flask import Flask

from engine.cards import Card
from engine.virtual_game import VirtualGame
from scorekeeper.services import virtual
from tests.api.conftest import TableAccess
from tests.api.test_concurrency import PHONES, all_at_once

NAMES = itertools.count(1)


class Seeds:
    """The seeds the server deals this test's games from, in turn: 1, 2, 3... unless a test
    sets ``next``."""

    def __init__(self) -> None:
        self.next = 1

    def __call__(self) -> int:
        seed, self.next = self.next, self.next + 1
        return seed


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> Seeds:
    """Deal this test's virtual games from known seeds, not from the system's entropy."""
    seeds = Seeds()
    monkeypatch.setattr(virtual.lifecycle, "new_seed", seeds)
    return seeds


@dataclass
class SeatAccess:
    """One human seat of a virtual game, as its phone holds it."""

    table: TableAccess
    url: str
    seat: int
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def read(self, since: int = 0) -> dict[str, Any]:
        response = self.table.client.get(f"{self.url}?since={since}", headers=self.headers)
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def move(self, number: int, move: dict[str, Any]) -> Any:
        body = {"number": number, **move}
        return self.table.client.post(self.url + "/moves", json=body, headers=self.headers)


def start(table: TableAccess, seats: list[dict[str, Any]], **fields: Any) -> Any:
    return table.post("/virtual-games", {"players": len(seats), "seats": seats, **fields})


def started(
    table: TableAccess, computers: list[str | None]
) -> tuple[dict[str, Any], dict[int, SeatAccess]]:
    """A game with a player of the table wherever ``computers`` says None."""
    ids = table.add_players(*(f"Player {next(NAMES)}" for kind in computers if kind is None))
    players = iter(ids)
    seats = [{"computer": kind} if kind else {"player": next(players)} for kind in computers]
    response = start(table, seats)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    url = response.headers["Location"]
    return body, {
        entry["seat"]: SeatAccess(table, url, entry["seat"], entry["token"])
        for entry in body["seat_tokens"]
    }


def play_to_the_end(
    seats: dict[int, SeatAccess], rng: Random, hands: int | None = None
) -> dict[str, Any]:
    """Every human seat plays a random legal move in turn until the game (or ``hands`` hands)
    ends, checking what each seat sees on the way."""
    any_seat = next(iter(seats.values()))
    view = any_seat.read()
    while view["state"] is not None and (hands is None or len(view["game"]["hands"]) < hands):
        to_act = view["state"]["to_act"]
        assert to_act in seats, "a computer seat was left to move"
        mine = view if view["seat"] == to_act else seats[to_act].read()
        state = mine["state"]
        assert len(state["hand"]) == state["hand_sizes"][to_act]
        for other in seats.values():  # nobody else is shown this seat's cards or its moves
            if other.seat != to_act:
                theirs = other.read()["state"]
                assert theirs["hand_sizes"] == state["hand_sizes"]
                assert theirs["legal_moves"] == []
        move = rng.choice(state["legal_moves"])
        response = seats[to_act].move(mine["next_move"], move)
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
    return view


def test_a_virtual_game_gives_tokens_to_players_only(table: TableAccess) -> None:
    body, seats = started(table, [None, "strong"])
    assert list(seats) == [0]
    assert body["seat"] is None and "hand" not in body["state"]
    assert body["game"]["virtual"] is True
    assert [seat["computer"] for side in body["game"]["sides"] for seat in side["seats"]] == [
        None,
        "strong",
    ]
    assert body["game"]["sides"][1]["name"] == "Computer 2 (Club)"
    mine = seats[0].read()
    assert mine["seat"] == 0 and mine["state"]["to_act"] == 0
    # The computer, dealt to first, has played; seat 0 has drawn its seventh card.
    assert mine["state"]["pending_hazard"] is None and len(mine["state"]["hand"]) == 7
    assert [event["seat"] for event in mine["events"]] == [1]


def test_the_table_token_watches_without_seeing_a_hand(table: TableAccess) -> None:
    body, seats = started(table, [None, None])
    watched = table.client.get(
        f"{table.url}/virtual-games/{body['game']['id']}", headers=table.headers
    )
    assert watched.status_code == 200
    state = watched.get_json()["state"]
    assert not {"hand", "legal_moves", "pending_hazard"} & set(state)
    moved = table.client.post(
        f"{table.url}/virtual-games/{body['game']['id']}/moves",
        json={"number": 0, "move": "pass"},
        headers=table.headers,
    )
    assert moved.status_code == 403


def test_a_seat_token_opens_its_own_game_only(table: TableAccess) -> None:
    first, seats = started(table, [None, "greedy"])
    second, _ = started(table, [None, "greedy"])
    url = f"{table.url}/virtual-games/{second['game']['id']}"
    assert table.client.get(url, headers=seats[0].headers).status_code == 404
    bogus = {"Authorization": "Bearer mbs_not-a-token"}
    assert table.client.get(seats[0].url, headers=bogus).status_code == 401
    tabletop = table.start_game(2, [table.add_players("T1"), table.add_players("T2")])
    tabletop_url = f"{table.url}/virtual-games/{tabletop['id']}"
    assert table.client.get(tabletop_url, headers=table.headers).status_code == 404
    assert first["game"]["id"] != second["game"]["id"]


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(table: TableAccess) -> None:
    _, seats = started(table, [None, None])
    to_act = seats[0].read()["state"]["to_act"]
    seat = seats[to_act]
    view = seat.read()
    refused = seat.move(view["next_move"], {"move": "call_extension"})
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert (error["code"], error["path"]) == ("illegal_move", "/move")
    assert "must play or discard a card (rules §4)" in error["detail"]
    # Nobody rolls before a Roll: a distance card in the first hand is refused, naming why.
    distance = sorted({card for card in view["state"]["hand"] if card.startswith("distance")})
    assert distance, "the seeded deal gives the first seat to act a distance card"
    refused = seat.move(view["next_move"], {"move": "play", "card": distance[0]})
    assert refused.status_code == 422
    assert "rolling" in refused.get_json()["errors"][0]["detail"]
    assert seat.read()["next_move"] == view["next_move"]
    not_held = next(str(card) for card in Card if str(card) not in view["state"]["hand"])
    refused = seat.move(view["next_move"], {"move": "discard", "card": not_held})
    assert refused.status_code == 422
    assert "does not hold" in refused.get_json()["errors"][0]["detail"]


def test_a_move_out_of_turn_is_409(table: TableAccess) -> None:
    _, seats = started(table, [None, None])
    view = seats[0].read()
    waiting = seats[1 - view["state"]["to_act"]]
    card = waiting.read()["state"]["hand"][0]
    response = waiting.move(view["next_move"], {"move": "discard", "card": card})
    assert response.status_code == 409


def test_a_double_tapped_move_is_played_once(table: TableAccess) -> None:
    _, seats = started(table, [None, "strong"])
    view = seats[0].read()
    move = view["state"]["legal_moves"][0]
    first = seats[0].move(view["next_move"], move)
    again = seats[0].move(view["next_move"], move)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["next_move"] == first.get_json()["next_move"]
    other = next(m for m in view["state"]["legal_moves"] if m != move)
    assert seats[0].move(view["next_move"], other).status_code == 409


def test_a_reload_resumes_and_events_follow_the_cursor(table: TableAccess) -> None:
    _, seats = started(table, [None, "greedy"])
    view = seats[0].read()
    after = seats[0].move(view["next_move"], view["state"]["legal_moves"][-1]).get_json()
    again = seats[0].read()
    assert again["state"]["hand"] == after["state"]["hand"]
    assert [e["number"] for e in seats[0].read(since=view["next_move"])["events"]] == list(
        range(view["next_move"], again["next_move"])
    )
    response = table.client.get(seats[0].url, headers={**seats[0].headers})
    etag = response.headers["ETag"]
    cached = table.client.get(seats[0].url, headers={**seats[0].headers, "If-None-Match": etag})
    assert cached.status_code == 304


def test_virtual_hands_cannot_be_reported_by_hand(table: TableAccess) -> None:
    body, _ = started(table, [None, "greedy"])
    response = table.post(
        f"/games/{body['game']['id']}/hands", {"sides": [{"distance": 0}, {"distance": 0}]}
    )
    assert response.status_code == 409


@pytest.mark.parametrize(
    ("seats", "path"),
    [
        ([{"computer": "greedy"}], "/seats"),
        ([{"computer": "greedy"}, {"computer": "strong"}], "/seats"),
        ([{"player": 1}, {"computer": "oracle"}], "/seats/1/computer"),
        ([{"player": 1}, {"player": 1}], "/seats/1/player"),
        ([{"player": 1}, {"player": 999}], "/seats/1/player"),
        ([{"player": 1}, {"player": 1, "computer": "greedy"}], "/seats/1"),
    ],
)
def test_impossible_seatings_are_refused(
    table: TableAccess, seats: list[dict[str, Any]], path: str
) -> None:
    table.add_players("Ann")
    response = table.post("/virtual-games", {"players": 2, "seats": seats})
    assert response.status_code == 422
    assert path in [error["path"] for error in response.get_json()["errors"]]


def test_an_unknown_variant_is_refused(table: TableAccess) -> None:
    (ann,) = table.add_players("Ann")
    seats = [{"player": ann}, {"computer": "greedy"}]
    response = start(table, seats, variants={"deck": "tiny"})
    assert response.status_code == 422


@pytest.mark.parametrize("computers", [[None, None, "greedy"], [None, "strong", None, "greedy"]])
def test_teams_and_three_players_play_a_hand(
    table: TableAccess, computers: list[str | None]
) -> None:
    _, seats = started(table, computers)
    view = play_to_the_end(seats, Random(len(computers)), hands=1)
    assert len(view["game"]["hands"]) == 1
    assert view["game"]["players"] == len(computers)


def test_six_players_start_with_three_teams(table: TableAccess) -> None:
    body, seats = started(table, [None, "random", "greedy", "strong", "random", "greedy"])
    assert len(body["game"]["sides"]) == 3
    assert [seat["seat"] for seat in body["game"]["sides"][0]["seats"]] == [0, 3]
    view = seats[0].read()
    assert view["state"]["to_act"] == 0 and len(view["state"]["tableaux"]) == 3


def test_a_virtual_game_keeps_what_its_hands_add_up_to(
    app: Flask, table: TableAccess, seeds: Seeds
) -> None:
    seeds.next = 4  # a short game, as below
    _, seats = started(table, [None, "strong"])
    view = play_to_the_end(seats, Random(5))
    assert view["game"]["status"] == "finished"
    result = app.test_cli_runner().invoke(args=["db", "verify"])
    assert result.exit_code == 0, result.output


def test_a_whole_game_lands_in_the_history_and_replays(table: TableAccess, seeds: Seeds) -> None:
    seeds.next = 4  # a short game (four hands, 113 moves, when this was written)
    body, seats = started(table, [None, "strong"])
    url = seats[0].url
    assert table.client.get(url + "/record", headers=table.headers).status_code == 409
    view = play_to_the_end(seats, Random(5))
    game = view["game"]
    assert game["status"] == "finished" and view["state"] is None
    record = table.client.get(url + "/record", headers=table.headers).get_json()
    replayed = VirtualGame.replay(record)
    assert list(replayed.sheet.totals) == game["totals"]
    assert [hand["score"] for hand in record["hands"] if "score" in hand] == [
        {"target": hand["target"], "sides": hand["sides"]} for hand in game["hands"]
    ]
    history = table.get("/history").get_json()
    rows = [row for row in history["items"] if row["game_id"] == body["game"]["id"]]
    assert {row["virtual"] for row in rows} == {True}
    assert {row["total"] for row in rows} == set(game["totals"])
    csv = table.get("/history.csv").get_data(as_text=True)
    assert "Computer 2 (Club)" in csv
    assert seats[0].move(view["next_move"], {"move": "pass"}).status_code == 409
    # The player's last move is the request that ended the game: the winning move was either it
    # or a computer's answer played within that request. A double tap of it is answered again.
    events = seats[0].read()["events"]
    last = [event for event in events if event["seat"] == 0][-1]
    assert {event["seat"] for event in events if event["number"] > last["number"]} <= {1}
    move = {key: value for key, value in last.items() if key not in ("number", "hand", "seat")}
    retry = seats[0].move(last["number"], move)
    assert (retry.status_code, retry.headers.get("Idempotent-Replayed")) == (200, "true")
    assert retry.get_json()["game"] == view["game"]
    assert seats[0].read()["next_move"] == view["next_move"]  # nothing was played again


def test_concurrent_moves_never_fork_the_game(app: Flask, table: TableAccess) -> None:
    _, seats = started(table, [None, None])
    view = seats[0].read()
    to_act = seats[view["state"]["to_act"]]
    moves = to_act.read()["state"]["legal_moves"]

    def tap(client: Any, phone: int) -> int:
        move = moves[phone % len(moves)]
        body = {"number": view["next_move"], **move}
        response = client.post(to_act.url + "/moves", json=body, headers=to_act.headers)
        return int(response.status_code)

    statuses = all_at_once(app, tap)
    after = to_act.read(since=view["next_move"])
    assert after["next_move"] == view["next_move"] + 1
    (played,) = [e for e in after["events"] if e["number"] == view["next_move"]]
    played = {key: value for key, value in played.items() if key not in ("number", "hand", "seat")}
    # One move was played; the phones that sent that same move are answered as retries, the
    # others are refused, since their number is taken.
    same = [moves[phone % len(moves)] == played for phone in range(PHONES)]
    assert statuses == sorted(200 if retried else 409 for retried in same)


HAZARDS = {"accident", "out_of_gas", "flat_tire", "stop", "speed_limit"}
ANSWERS = {"pass", "coup_fourre"}


def test_every_hazard_is_answered_by_the_attacked_side_holder_or_not(table: TableAccess) -> None:
    """RULES.md §6 with private chances: after every hazard the game asks the attacked side, so
    the phase, the seat waited for and the event log are the same whether or not a seat holds
    the safety. Two people partner against two computers; both people are asked in turn."""
    _, seats = started(table, [None, "strong", None, "strong"])
    rng = Random(11)
    asked_without_safety = asked_with_safety = 0
    view = seats[0].read()
    while view["state"] is not None and len(view["game"]["hands"]) < 2:
        state = view["state"]
        mine = seats[state["to_act"]].read()
        moves = mine["state"]["legal_moves"]
        if state["phase"] == "coup_fourre":
            assert mine["state"]["pending_hazard"] in HAZARDS
            if moves == [{"move": "pass"}]:
                asked_without_safety += 1
            else:
                asked_with_safety += 1
            move = moves[0]
        else:
            plays = [move for move in moves if move["move"] == "play"]
            move = rng.choice(plays or moves)
        response = seats[state["to_act"]].move(mine["next_move"], move)
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
    assert asked_without_safety > 0  # the known deals did put hazards on the people's side
    watcher = table.client.get(seats[0].url, headers=table.headers).get_json()
    events = watcher["events"]
    hazards = [
        index
        for index, event in enumerate(events)
        if event["move"] == "play" and event.get("card") in HAZARDS
    ]
    assert len(hazards) > 5
    for index in hazards:
        if index + 1 == len(events) or events[index + 1]["hand"] != events[index]["hand"]:
            continue  # the hazard ended the hand
        answer = events[index + 1]
        assert answer["move"] in ANSWERS, (events[index], answer)
        assert answer["seat"] % 2 == events[index]["target"], (events[index], answer)


def test_every_viewer_sees_the_same_events_passes_included(table: TableAccess) -> None:
    """openapi.yaml: the event log is the same for every seat and the watcher, a seat's pass
    included (every seat of an attacked side is asked, so a pass tells nothing)."""
    _, seats = started(table, [None, "strong", None, "strong"])
    play_to_the_end(seats, Random(5), hands=1)
    watcher = table.client.get(seats[0].url, headers=table.headers).get_json()["events"]
    assert any(event["move"] == "pass" for event in watcher)
    for seat in seats.values():
        assert seat.read()["events"] == watcher


def test_a_lost_seat_link_is_issued_again_and_the_old_one_stops_at_once(
    table: TableAccess,
) -> None:
    body, seats = started(table, [None, "strong", None, "strong"])
    lost = seats[0]
    number = lost.read()["next_move"]
    reissue = f"{lost.url}/seats/0/token"
    # A seat's token is valid, and may not do this: 403 (it was 401, as if invalid).
    assert table.client.post(reissue, headers=lost.headers).status_code == 403
    response = table.client.post(reissue, headers=table.headers)
    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    fresh = SeatAccess(table, lost.url, 0, response.get_json()["token"])
    assert response.get_json()["seat"] == 0 and fresh.token != lost.token
    assert table.client.get(lost.url, headers=lost.headers).status_code == 401
    assert lost.move(number, {"move": "pass"}).status_code == 401
    view = fresh.read()
    assert (view["seat"], view["next_move"]) == (0, number)  # the game itself is unchanged
    assert seats[2].read()["seat"] == 2  # the partner's link still works


@pytest.mark.parametrize(("seat", "status"), [(1, 409), (5, 404)])
def test_only_a_player_s_seat_has_a_link_to_issue_again(
    table: TableAccess, seat: int, status: int
) -> None:
    _, seats = started(table, [None, "strong", None, "strong"])
    response = table.client.post(f"{seats[0].url}/seats/{seat}/token", headers=table.headers)
    assert response.status_code == status
    assert response.content_type == "application/problem+json"


def test_an_absent_player_s_seat_is_handed_to_a_computer_and_taken_back(
    table: TableAccess,
) -> None:
    """Ann and Bob against two computers; Bob leaves during hand 1: a computer plays his seat
    until he takes it back in hand 2, and the history says which hands it played for him."""
    _, seats = started(table, [None, "strong", None, "strong"])
    ann, bob = seats[0], seats[2]
    rng = Random(3)

    def play_until(done: Any) -> dict[str, Any]:
        view = ann.read()
        while not done(view):
            to_act = view["state"]["to_act"]
            mine = seats[to_act].read()
            move = rng.choice(mine["state"]["legal_moves"])
            response = seats[to_act].move(mine["next_move"], move)
            assert response.status_code == 200, response.get_json()
            view = response.get_json()
        return view

    play_until(lambda view: view["state"]["to_act"] == 2)
    stand_in = f"{ann.url}/seats/2/stand-in"
    response = table.client.put(stand_in, json={"computer": "novice"}, headers=table.headers)
    assert response.status_code == 200, response.get_json()
    view = response.get_json()
    assert view["stand_ins"] == [{"seat": 2, "computer": "random"}]
    assert view["state"]["to_act"] != 2  # the computer moved for Bob at once
    again = table.client.put(stand_in, json={"computer": "club"}, headers=table.headers)
    assert again.status_code == 409
    assert bob.move(view["next_move"], {"move": "pass"}).status_code == 409  # not his to play
    # Only people move from here on: Ann, and the computer in Bob's place within her requests.
    view = play_until(lambda view: view["hand_number"] == 2)
    assert ann.table.client.delete(stand_in, headers=ann.headers).status_code == 403
    response = table.client.delete(stand_in, headers=bob.headers)  # Bob, back, with his link
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["stand_ins"] == []
    assert table.client.delete(stand_in, headers=table.headers).status_code == 409
    view = play_until(lambda view: view["state"]["to_act"] == 2)
    history = view["stand_in_hands"]  # the computer may have begun hand 2 for Bob too
    assert {"hand": 1, "seat": 2, "computer": "random"} in history
    assert all(entry["seat"] == 2 and entry["hand"] <= 2 for entry in history)
    move = rng.choice(bob.read()["state"]["legal_moves"])
    view = bob.move(view["next_move"], move).get_json()
    assert view["stand_in_hands"] == history  # Bob's own move is his


@pytest.mark.parametrize(
    ("seat", "body", "status"),
    [(1, {"computer": "club"}, 409), (5, {"computer": "club"}, 404), (0, {"computer": "x"}, 422)],
)
def test_only_a_player_s_seat_goes_to_a_known_computer(
    table: TableAccess, seat: int, body: dict[str, str], status: int
) -> None:
    _, seats = started(table, [None, "strong"])
    url = f"{seats[0].url}/seats/{seat}/stand-in"
    response = table.client.put(url, json=body, headers=table.headers)
    assert response.status_code == status
    assert response.content_type == "application/problem+json"
    if status == 422:
        assert response.get_json()["errors"][0]["path"] == "/computer"


def test_an_ended_virtual_game_is_dealt_again_with_the_same_seats(table: TableAccess) -> None:
    body, seats = started(table, [None, "greedy", None, "strong"])
    url = seats[0].url
    variants = body["game"]["variants"]
    rematch = url + "/rematch"
    assert table.client.post(rematch, headers=table.headers).status_code == 409  # in progress
    stand_in = {"computer": "novice"}
    assert table.client.put(f"{url}/seats/2/stand-in", json=stand_in, headers=table.headers)
    game_id = url.rsplit("/", 1)[1]
    assert table.post(f"/games/{game_id}/abandon").status_code == 200
    response = table.client.post(rematch, headers=table.headers)
    assert response.status_code == 201, response.get_json()
    again = response.get_json()
    assert response.headers["Location"] != url
    assert again["game"]["variants"] == variants
    assert again["game"]["sides"] == body["game"]["sides"]  # the same players and computers
    assert again["stand_ins"] == []  # Bob's seat is his again
    assert sorted(entry["seat"] for entry in again["seat_tokens"]) == [0, 2]
    first = SeatAccess(table, url, 0, seats[0].token).read()
    fresh = SeatAccess(table, response.headers["Location"], 0, again["seat_tokens"][0]["token"])
    assert fresh.read()["state"]["hand"] != first["state"]["hand"]  # a new deal
