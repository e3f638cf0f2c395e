"""Following a virtual game live: a conditional GET with ``Prefer: wait`` waits for the game to
move (a long poll) and answers the moment it does, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from random import Random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gunicorn.workers.base_async import AsyncWorker

from scorekeeper.services import virtual
from scorekeeper.storage import changes, versions
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game
from scorekeeper.web import live
from tests.api.conftest import TableAccess
from tests.api.test_virtual import SeatAccess, started
from tests.api.test_virtual_window import SAFETY
from tests.running import written_while_waiting

AT_ONCE = 10.0
"""Seconds within which an answer that did not wait comes: far more than a busy machine adds to a
read, half the 20 s asked here (or the server's 25) that a wait not cut short would take."""


def ask(seat: SeatAccess, etag: str, prefer: str | None) -> tuple[Any, float]:
    headers = {**seat.headers, "If-None-Match": etag}
    if prefer is not None:
        headers["Prefer"] = prefer
    began = time.monotonic()
    response = seat.table.client.get(seat.url, headers=headers)
    return response, time.monotonic() - began


def two_people(table: TableAccess) -> tuple[dict[int, SeatAccess], dict[str, Any], str]:
    """A game between two people; seat 0's view and its tag."""
    _, seats = started(table, [None, None])
    response = table.client.get(seats[0].url, headers=seats[0].headers)
    return seats, response.get_json(), response.headers["ETag"]


@pytest.mark.parametrize("writer", ["this worker", "another worker"])
def test_a_wait_answers_the_moment_another_seat_moves(
    table: TableAccess, app: Flask, writer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is written by this worker, whose commit wakes the wait itself (the database's
    signals silenced here: no NOTIFY, a look at SQLite's data version every 30 s), or by
    another: an app of its own on the same database, whose commit this worker hears of from the
    database (SQLite's data version, PostgreSQL's NOTIFY)."""
    if writer == "this worker":
        monkeypatch.setattr(changes, "notify", lambda session, game_ids: None)
        monkeypatch.setattr(versions.watch(app), "interval", 30.0)
    seats, view, _ = two_people(table)
    to_act = view["state"]["to_act"]
    waiting = seats[1 - to_act]
    waiting_etag = table.client.get(waiting.url, headers=waiting.headers).headers["ETag"]
    mover = seats[to_act]
    mine = mover.read()
    body = {"number": mine["next_move"], **mine["state"]["legal_moves"][0]}

    def play(client: FlaskClient) -> None:
        answer = client.post(mover.url + "/moves", json=body, headers=mover.headers)
        assert answer.status_code == 200

    (response, _), took = written_while_waiting(
        app, writer, play, lambda: ask(waiting, waiting_etag, "wait=20")
    )
    assert response.status_code == 200
    assert response.headers["Preference-Applied"] == "wait=20"
    assert 0.4 < took < AT_ONCE, took  # woken by the move, long before the 20 s asked
    assert response.get_json()["next_move"] > mine["next_move"]
    assert "hand" in response.get_json()["state"]  # the seat's own view: its hand, nobody else's
    assert response.get_json()["seat"] == waiting.seat


def test_a_game_that_moved_before_its_wait_began_ends_it_at_once(
    table: TableAccess, app: Flask
) -> None:
    """The move came between the page's read and its wait (nothing was listening for that game
    yet): the watch reads a game's version as soon as someone waits on it."""
    _, view, _ = two_people(table)
    game_id = view["game"]["id"]
    with app.app_context():
        version = db.session.get_one(Game, game_id).version
    began = time.monotonic()
    assert versions.watch(app).wait(versions.game(game_id), version - 1, timeout=30)
    assert time.monotonic() - began < AT_ONCE


def test_a_wait_ends_with_304_when_nothing_moves(table: TableAccess) -> None:
    seats, _, etag = two_people(table)
    response, took = ask(seats[0], etag, "wait=1")
    assert response.status_code == 304
    assert response.headers["Preference-Applied"] == "wait=1"
    assert 0.9 < took < AT_ONCE, took  # the second asked, not the server's 25


def test_while_nothing_changes_the_watch_reads_nothing(table: TableAccess, app: Flask) -> None:
    """A wait costs the database one read of its game's version (it may have moved before the
    wait began), then nothing until another connection commits."""
    seats, _, etag = two_people(table)
    watch = versions.watch(app)
    before = watch.reads
    response, took = ask(seats[0], etag, "wait=2")
    assert response.status_code == 304 and took > 1.9
    assert watch.reads - before <= 1


def test_a_question_asked_again_as_answered_waits_without_being_read_first(
    table: TableAccess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat's page asks again with the tag it was just given: the worker remembers that
    answer, so the game is read once, after the wait, not before it too."""
    seats, _, etag = two_people(table)
    reads = []
    real_read = virtual.read
    monkeypatch.setattr(virtual, "read", lambda *args: reads.append(args) or real_read(*args))
    response, _ = ask(seats[0], etag, "wait=1")
    assert response.status_code == 304 and response.headers["Preference-Applied"] == "wait=1"
    assert len(reads) == 1
    response, _ = ask(seats[1], etag, "wait=1")  # another seat's question: not remembered
    assert response.status_code == 200 and len(reads) == 2


def test_a_token_revoked_before_a_remembered_question_gets_401_after_its_wait(
    table: TableAccess,
) -> None:
    """Not reading before the wait never answers a token that no longer opens the seat: the
    read after the wait refuses it."""
    seats, _, etag = two_people(table)
    assert ask(seats[0], etag, "wait=1")[0].status_code == 304  # remembered
    url = f"{seats[0].url}/seats/{seats[0].seat}/token"
    assert table.client.post(url, headers=table.headers).status_code == 200  # a new token
    response, _ = ask(seats[0], etag, "wait=1")
    assert response.status_code == 401


def holding_one_wait(app: Flask, ask_it: Any) -> tuple[threading.Thread, list[Any]]:
    """A question that waits (``ask_it()``) in a thread of its own, returned once it holds its
    place; its answer goes into the list."""
    answers: list[Any] = []
    waiting = threading.Thread(target=lambda: answers.append(ask_it()))
    waiting.start()
    deadline = time.monotonic() + 60
    while not live.holders(app).held and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.holders(app).held, "the first question never waited"
    return waiting, answers


def test_a_token_beyond_its_share_of_waits_is_answered_at_once(
    table: TableAccess, app: Flask
) -> None:
    """A token holds at most its share of a worker's waiting places; beyond it, its questions
    are answered at once (its page polls), while another token's still wait."""
    app.extensions["live_holders"] = live.WaitHolders(per_address=450, per_token=1)
    seats, _, etag = two_people(table)
    other_etag = table.client.get(seats[1].url, headers=seats[1].headers).headers["ETag"]
    waiting, answers = holding_one_wait(app, lambda: ask(seats[0], etag, "wait=4"))
    response, took = ask(seats[0], etag, "wait=4")
    assert response.status_code == 304 and "Preference-Applied" not in response.headers
    assert took < AT_ONCE
    response, _ = ask(seats[1], other_etag, "wait=1")
    assert response.headers["Preference-Applied"] == "wait=1"
    waiting.join(60)
    assert answers[0][0].headers["Preference-Applied"] == "wait=4"


def test_an_address_beyond_its_share_of_waits_is_answered_at_once(
    table: TableAccess, app: Flask
) -> None:
    """One address (a script, or one venue) holds at most its share of a worker's waiting
    places, whatever tokens it uses; a phone at another address still waits."""
    app.extensions["live_holders"] = live.WaitHolders(per_address=1, per_token=100)
    seats, _, etag = two_people(table)
    other_etag = table.client.get(seats[1].url, headers=seats[1].headers).headers["ETag"]
    waiting, answers = holding_one_wait(app, lambda: ask(seats[0], etag, "wait=4"))
    asked_again = {**seats[1].headers, "If-None-Match": other_etag, "Prefer": "wait=1"}
    response = table.client.get(seats[1].url, headers=asked_again)
    assert response.status_code == 304 and "Preference-Applied" not in response.headers
    elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
    response = table.client.get(seats[1].url, headers=asked_again, environ_base=elsewhere)
    assert response.headers["Preference-Applied"] == "wait=1"
    waiting.join(60)
    assert answers[0][0].headers["Preference-Applied"] == "wait=4"
    assert live.holders(app).held == 0  # every place given back


def test_without_prefer_304_comes_at_once(table: TableAccess) -> None:
    seats, _, etag = two_people(table)
    response, took = ask(seats[0], etag, None)
    assert response.status_code == 304 and "Preference-Applied" not in response.headers
    assert took < AT_ONCE  # not after the 25 s a wait would take


@pytest.mark.parametrize("prefer", ["wait=abc", "respond-async", "wait=", "wait=-3"])
def test_a_preference_it_cannot_read_is_ignored(table: TableAccess, prefer: str) -> None:
    seats, _, etag = two_people(table)
    response, took = ask(seats[0], etag, prefer)
    assert response.status_code == 304 and "Preference-Applied" not in response.headers
    assert took < AT_ONCE  # not after the 25 s a wait would take


def test_a_wait_is_capped_by_the_server(table: TableAccess, app: Flask) -> None:
    app.config["LIVE_WAIT"] = 1
    seats, _, etag = two_people(table)
    response, took = ask(seats[0], etag, "wait=600")
    assert response.status_code == 304 and response.headers["Preference-Applied"] == "wait=1"
    assert took < AT_ONCE


def test_at_its_budget_the_server_answers_at_once(table: TableAccess, app: Flask) -> None:
    app.extensions["live_budget"] = threading.BoundedSemaphore(1)
    app.extensions["live_budget"].acquire()  # the one place taken by another phone
    seats, _, etag = two_people(table)
    response, took = ask(seats[0], etag, "wait=20")
    assert response.status_code == 304 and "Preference-Applied" not in response.headers
    assert took < AT_ONCE  # not after the 20 s a wait would take


def test_a_stopping_worker_ends_the_waits(table: TableAccess, app: Flask) -> None:
    seats, _, etag = two_people(table)
    threading.Timer(0.3, app.extensions["version_watch"].stop).start()
    response, took = ask(seats[0], etag, "wait=20")
    assert response.status_code == 304
    assert took < AT_ONCE


class Worker:
    """A server's threaded worker as gunicorn's is, for its SIGTERM handler: its settings say its
    threads, and it has connections too (gthread's ``worker_connections``), which do not count."""

    def __init__(self, threads: int) -> None:
        self.cfg = type("Settings", (), {"threads": threads})()
        self.worker_connections = 1000

    def handle_exit(self, number: int, frame: Any) -> None:
        """The worker's own handler."""


class EventLoopWorker(AsyncWorker):  # type: ignore[misc]
    """gunicorn's event-loop worker (gevent's is one), made without a server behind it."""

    def __init__(self, connections: int) -> None:  # not gunicorn's: nothing to serve
        self.cfg = type("Settings", (), {"threads": 1})()
        self.worker_connections = connections


@pytest.mark.parametrize(("threads", "budget"), [(16, 12), (8, 4), (4, 0), (1, 0)])
def test_the_waiters_stay_below_the_workers_threads(
    app: Flask, caplog: pytest.LogCaptureFixture, threads: int, budget: int
) -> None:
    size = live.server_size(Worker(threads).handle_exit)
    assert size == live.ServerSize("threads", threads)
    assert live.waiters_allowed(app, size) == budget  # unset: all but 4 threads
    app.config["LIVE_WAITERS"] = 12
    assert live.waiters_allowed(app, size) == budget  # set higher: lowered, with a warning
    assert ("more than a worker of" in caplog.text) == (budget < 12)


@pytest.mark.parametrize(("connections", "budget"), [(1000, 900), (100, 90), (5, 4)])
def test_an_event_loop_worker_lets_all_but_a_tenth_of_its_connections_wait(
    app: Flask, connections: int, budget: int
) -> None:
    """Under gevent a waiting question holds a connection, not a thread: the budget is the
    worker's connections, less a tenth kept for the moves that end the waits."""
    size = live.server_size(EventLoopWorker(connections).handle_exit)
    assert size == live.ServerSize("connections", connections)
    assert live.waiters_allowed(app, size) == budget


def test_a_set_budget_below_the_workers_size_is_kept(app: Flask) -> None:
    app.config["LIVE_WAITERS"] = 7
    assert live.waiters_allowed(app, live.ServerSize("connections", 1000)) == 7
    assert live.waiters_allowed(app, live.ServerSize("threads", 16)) == 7


def test_a_server_that_does_not_say_its_size_keeps_a_dozen_waiters(app: Flask) -> None:
    assert live.server_size(lambda number, frame: None) is None
    assert live.waiters_allowed(app, None) == 12
    app.config["LIVE_WAITERS"] = 3
    assert live.waiters_allowed(app, None) == 3


def test_every_seat_waiting_through_a_window_sees_it_close(
    table: TableAccess, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both seats' pages wait through a coup-fourré window and wake together when it closes, and
    each one's read would close it: one writes the close, and neither is refused (on SQLite the
    other read meets a write it cannot join, and is read again in the writers' queue)."""
    # Long enough for the two reads below to find it open on a busy machine.
    monkeypatch.setitem(app.config, "VIRTUAL_CHANCE_WINDOW", 6.0)
    seats = two_people(table)[0]
    rng = Random(3)
    for _ in range(300):
        state = seats[0].read()["state"]
        if state["phase"] == "coup_fourre":
            break
        mover = seats[state["to_act"]]
        mine = mover.read()
        moves = mine["state"]["legal_moves"]
        plays = [m for m in moves if m["move"] == "play" and m["card"] not in SAFETY.values()]
        assert mover.move(mine["next_move"], rng.choice(plays or moves)).status_code == 200
    else:
        pytest.fail("no hazard opened a window")
    answers: dict[int, Any] = {}
    etags = {}
    for seat in seats.values():  # each page as it shows the open window
        shown = table.client.get(seat.url, headers=seat.headers)
        assert shown.get_json()["state"]["phase"] == "coup_fourre", "the 6 s went by already"
        etags[seat.seat] = shown.headers["ETag"]

    def wait(seat: SeatAccess) -> None:
        with app.test_client() as phone:
            headers = {**seat.headers, "If-None-Match": etags[seat.seat], "Prefer": "wait=10"}
            answers[seat.seat] = phone.get(seat.url, headers=headers)

    phones = [threading.Thread(target=wait, args=(seat,)) for seat in seats.values()]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert {seat: answer.status_code for seat, answer in answers.items()} == {0: 200, 1: 200}
    for answer in answers.values():
        assert answer.get_json()["state"]["phase"] != "coup_fourre"


def test_a_waited_answer_leaves_the_phones_session_as_it_is_now(
    table: TableAccess, app: Flask
) -> None:
    """A seat's page waited on for a while sends back no session cookie: the one the question
    came with may be older than what another tab of the phone saved meanwhile."""
    seats, _, _ = two_people(table)
    with app.test_client() as phone:
        page = f"/play/{seats[0].token}"
        first = phone.get(page)
        assert first.status_code == 200 and "Set-Cookie" in first.headers
        headers = {"If-None-Match": first.headers["ETag"], "Prefer": "wait=1"}
        waited = phone.get(page, headers=headers)
    assert waited.status_code == 304
    assert waited.headers["Preference-Applied"] == "wait=1"
    assert "Set-Cookie" not in waited.headers
