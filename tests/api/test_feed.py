"""A table's feed: every change to the table as an event, numbered in commit order, read a page
at a time from the last number a follower holds, and waited for with ``Prefer: wait`` (woken
by a write in this worker or in another, on SQLite and on PostgreSQL)."""

from __future__ import annotations

import threading
import time
from random import Random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import TableAccess
from tests.api.test_live import AT_ONCE
from tests.api.test_virtual import play_to_the_end, started
from tests.running import another_worker, written_while_waiting

SMALL = {"sides": [{"distance": 300}, {"distance": 450}]}
WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}


def events(table: TableAccess, after: int = 0, **query: Any) -> dict[str, Any]:
    response = table.get("/events", query_string={"after": after, **query})
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def kinds(table: TableAccess, after: int = 0) -> list[str]:
    return [event["kind"] for event in events(table, after)["items"]]


def test_each_change_is_an_event_in_the_order_it_was_made(table: TableAccess) -> None:
    assert events(table) == {"items": [], "last": 0, "more": False}
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    hands = f"/games/{game}/hands"
    first = table.post(hands, SMALL)
    corrected = table.put(hands + "/1", WIN, headers={"If-Match": first.headers["ETag"]})
    assert corrected.status_code == 200, corrected.get_json()
    assert table.post(hands, WIN).status_code == 201
    assert table.post(hands, WIN).status_code == 201  # 5,700: the game is won (RULES.md §10)
    read = table.get(f"/games/{game}")
    undone = table.delete(hands + "/3", headers={"If-Match": read.headers["ETag"]})
    assert undone.status_code == 204
    assert table.patch(f"/players/{bob}", {"name": "Bobby"}).status_code == 200
    second = table.start_game(2, [[ann], [bob]])["id"]
    assert table.post(f"/games/{second}/abandon").status_code == 200
    feed = events(table)
    assert [(e["kind"], e["game"], e["hand"], e["player"]) for e in feed["items"]] == [
        ("player_added", None, None, ann),
        ("player_added", None, None, bob),
        ("game_started", game, None, None),
        ("hand_recorded", game, 1, None),
        ("hand_corrected", game, 1, None),
        ("hand_recorded", game, 2, None),
        ("hand_recorded", game, 3, None),
        ("game_finished", game, None, None),
        ("hand_undone", game, 3, None),
        ("game_resumed", game, None, None),
        ("player_renamed", None, None, bob),
        ("game_started", second, None, None),
        ("game_abandoned", second, None, None),
    ]
    assert [event["id"] for event in feed["items"]] == list(range(1, 14))
    assert feed["last"] == 13 and feed["more"] is False


def test_a_refused_write_adds_no_event(table: TableAccess) -> None:
    """A name already taken is refused inside a savepoint; a bad report before any write."""
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    before = events(table)
    assert table.post("/players", {"name": "ann"}).status_code == 409
    assert table.patch(f"/players/{bob}", {"name": "ANN"}).status_code == 409
    assert table.post(f"/games/{game}/hands", {"sides": [{"distance": 725}, {}]}).status_code == 422
    assert events(table) == before


def test_a_follower_that_was_away_reads_everything_it_missed_a_page_at_a_time(
    table: TableAccess,
) -> None:
    table.add_players(*(f"Player {n}" for n in range(7)))
    whole = events(table)["items"]
    assert len(whole) == 7
    read: list[dict[str, Any]] = []
    after, pages = 0, 0
    while True:
        page = events(table, after, limit=3)
        read += page["items"]
        after, pages = page["last"], pages + 1
        if not page["more"]:
            break
    assert read == whole and pages == 3
    assert events(table, after) == {"items": [], "last": 7, "more": False}


def test_a_virtual_game_tells_who_moved_and_never_what(table: TableAccess) -> None:
    _, seats = started(table, [None, "club"])
    play_to_the_end(seats, Random(7), hands=1)
    feed = [e for e in events(table, limit=100)["items"] if e["kind"] == "move_played"]
    assert feed, "no move in the feed"
    assert [e["move"] for e in feed] == list(range(len(feed)))
    assert {e["seat"] for e in feed} <= {0, 1}
    fields = {"id", "kind", "at", "game", "hand", "move", "seat", "player", "token"}
    assert all(set(e) == fields for e in feed)


def test_tokens_issued_and_revoked_are_told_without_their_secret(table: TableAccess) -> None:
    issued = table.post("/tokens", {"name": "Wall", "scope": "read"}).get_json()
    assert table.delete(f"/tokens/{issued['id']}").status_code == 204
    feed = events(table)["items"]
    assert [(e["kind"], e["token"]) for e in feed] == [
        ("token_issued", issued["id"]),
        ("token_revoked", issued["id"]),
    ]
    assert issued["token"] not in str(feed)


def test_another_tables_feed_is_not_shown(table: TableAccess, new_table: Any) -> None:
    other = new_table("Other")
    other.add_players("Zoe")
    table.add_players("Ann")
    assert [e["player"] for e in events(table)["items"]] != [
        e["player"] for e in events(other)["items"]
    ]
    assert len(events(table)["items"]) == 1


@pytest.mark.parametrize("after", [-1, 2, "x", 2**31])
def test_a_number_the_table_never_gave_is_refused(table: TableAccess, after: Any) -> None:
    table.add_players("Ann")
    response = table.get("/events", query_string={"after": after})
    assert response.status_code == 422
    assert [error["path"] for error in response.get_json()["errors"]] == ["/after"]


def test_an_unknown_parameter_is_refused(table: TableAccess) -> None:
    response = table.get("/events", query_string={"since": 3})
    assert response.status_code == 422
    assert [error["path"] for error in response.get_json()["errors"]] == ["/since"]


@pytest.mark.parametrize("writer", ["this worker", "another worker"])
def test_a_follower_waiting_is_woken_by_a_hand_recorded(
    table: TableAccess, app: Flask, writer: str
) -> None:
    """The hand is recorded by this worker or by another (an app of its own on the same
    database): the waiting follower gets it long before the 20 s it asked to wait."""
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    held = events(table)["last"]

    def record(client: FlaskClient) -> None:
        answer = client.post(table.url + f"/games/{game}/hands", json=SMALL, headers=table.headers)
        assert answer.status_code == 201

    def follow() -> Any:
        return table.get("/events", query_string={"after": held}, headers={"Prefer": "wait=20"})

    response, took = written_while_waiting(app, writer, record, follow)
    assert response.status_code == 200
    assert response.headers["Preference-Applied"] == "wait=20"
    assert 0.4 < took < AT_ONCE, took
    assert [(e["kind"], e["hand"]) for e in response.get_json()["items"]] == [("hand_recorded", 1)]


def test_a_wait_on_a_quiet_table_ends_empty_when_its_time_is_up(table: TableAccess) -> None:
    table.add_players("Ann")
    began = time.monotonic()
    response = table.get("/events", query_string={"after": 1}, headers={"Prefer": "wait=1"})
    assert 0.9 < time.monotonic() - began < AT_ONCE
    assert response.status_code == 200
    assert response.get_json() == {"items": [], "last": 1, "more": False}


def test_a_follower_with_events_waiting_is_answered_at_once(table: TableAccess) -> None:
    table.add_players("Ann", "Bob")
    began = time.monotonic()
    response = table.get("/events", query_string={"after": 1}, headers={"Prefer": "wait=20"})
    assert time.monotonic() - began < AT_ONCE
    assert [e["player"] is not None for e in response.get_json()["items"]] == [True]
    assert "Preference-Applied" not in response.headers


def test_writes_racing_from_two_workers_number_their_events_without_a_gap(
    table: TableAccess, app: Flask
) -> None:
    """Players added at once through this worker and another (an app of its own on the same
    database), while a follower reads: every event is numbered once, 1 to N with no gap, and
    what the follower read on the way is the start of the final feed, never a number skipped."""
    with another_worker(app) as other:
        seen = race(table, [app, other, app, other])
    final = events(table)["items"]
    assert [event["id"] for event in final] == list(range(1, 21))
    assert len({event["player"] for event in final}) == 20
    for read in seen:  # each read on the way: a prefix of the final numbering
        assert read == list(range(1, len(read) + 1)), read


def race(table: TableAccess, workers: list[Flask]) -> list[list[int]]:
    """Five players added through each of ``workers`` at once, while a follower reads the
    feed: the event numbers of each of its reads."""
    seen: list[list[int]] = []
    done = threading.Event()

    def add(worker: Flask, index: int) -> None:
        with worker.test_client() as client:
            for number in range(5):
                name = {"name": f"Player {index}-{number}"}
                answer = client.post(table.url + "/players", json=name, headers=table.headers)
                assert answer.status_code == 201

    def follow() -> None:
        while not done.is_set():
            seen.append([event["id"] for event in events(table)["items"]])

    adders = [threading.Thread(target=add, args=(w, i)) for i, w in enumerate(workers)]
    follower = threading.Thread(target=follow)
    follower.start()
    for thread in adders:
        thread.start()
    for thread in adders:
        thread.join()
    done.set()
    follower.join()
    return seen


def test_a_computer_taking_a_seat_and_giving_it_back_is_told(table: TableAccess) -> None:
    body, seats = started(table, [None, "club"])
    url = f"/virtual-games/{body['game']['id']}/seats/0/stand-in"
    assert table.put(url, {"computer": "club"}).status_code == 200
    assert table.delete(url).status_code in (200, 409)  # 409: the computer already ended it
    told = [e for e in events(table)["items"] if e["kind"] == "stand_in_changed"]
    assert told and all((e["game"], e["seat"]) == (body["game"]["id"], 0) for e in told)
