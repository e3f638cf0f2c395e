"""Each worker's cache of virtual games (``scorekeeper.storage.game_cache``): the same answers as a
replay from the seed, whether the cache is warm, cold, or behind another worker's moves; nothing a
failed request touched is kept; an entry that does not match the stored moves is not used.

A second app on the same database is a second worker. Replays are counted by wrapping
``Game.resume``, the engine's replay of every stored move."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from engine.moves import move_from_dict
from engine.virtual_game import VirtualGame
from scorekeeper import create_app
from scorekeeper.services import virtual
from scorekeeper.storage.extensions import db
from scorekeeper.storage.game_cache import KEY, Cached, GameCache
from scorekeeper.storage.models import Game, VirtualMove
from tests.api.conftest import TableAccess
from tests.api.test_virtual import SeatAccess, Seeds, start, started

SIX = [None, "strong", "strong", "strong", "strong", "strong"]
"""One person and five strong computers: the game of the issue, a move costing the same late."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> Seeds:
    seeds = Seeds()
    monkeypatch.setattr(virtual.lifecycle, "new_seed", seeds)
    return seeds


class _CountedReplays(list[int]):
    """Stands for the engine's Game in scorekeeper.services.virtual (a compiled class cannot be
    patched): every replay from the seed goes through, and its number of moves is noted."""

    def resume(self, *args: Any, **kwargs: Any) -> VirtualGame:
        game = VirtualGame.resume(*args, **kwargs)
        self.append(game.move_count)
        return game


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every replay from the seed, as the number of moves it replayed."""
    counted = _CountedReplays()
    monkeypatch.setattr(virtual.replay, "VirtualGame", counted)
    return counted


@pytest.fixture
def worker(app: Flask) -> Iterator[Flask]:
    """A second worker: another app on the same database, with its own cache."""
    other = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    )
    yield other
    with other.app_context():
        db.engine.dispose()


def cache_of(app: Flask) -> GameCache:
    cache: GameCache = app.extensions[KEY]
    return cache


def on(seat: SeatAccess, app: Flask) -> SeatAccess:
    """The same seat, its requests served by ``app`` (not checked against the contract, as the
    other tests do: a whole game's answers, three times, would take a while)."""
    table = TableAccess(FlaskClient(app, app.response_class), seat.table.id, seat.table.token)
    return SeatAccess(table, seat.url, seat.seat, seat.token)


def answer(response: Any, game_id: int) -> tuple[int, Any, str | None]:
    """A response with its game's id and times taken out, so two games dealt alike and played
    alike compare equal."""

    def timeless(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if not k.endswith("_at")}
        return [timeless(v) for v in value] if isinstance(value, list) else value

    body = timeless(response.get_json())
    if isinstance(body, dict) and isinstance(body.get("game"), dict):
        body["game"]["id"] = None
    etag = response.headers.get("ETag")
    return response.status_code, body, etag and etag.replace(f"game-{game_id}-", "game-")


def transcript(seat: SeatAccess, game_id: int, route: Callable[[int], SeatAccess]) -> list[Any]:
    """Play the seat to the end of the game, a seeded random legal move each turn; every answer,
    each request sent through ``route(request number)``."""
    answers: list[Any] = []
    number = 0

    def send(make: Callable[[SeatAccess], Any]) -> Any:
        nonlocal number
        response = make(route(number))
        number += 1
        answers.append(answer(response, game_id))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    rng = Random(7)
    view = send(lambda seat: seat.table.client.get(seat.url, headers=seat.headers))
    while view["state"] is not None:
        move = rng.choice(view["state"]["legal_moves"])
        view = send(lambda seat, at=view["next_move"], move=move: seat.move(at, move))
        send(
            lambda seat, since=view["next_move"] - 3: seat.table.client.get(
                f"{seat.url}?since={since}", headers=seat.headers
            )
        )
    return answers


def stored_moves(app: Flask, game_id: int) -> list[tuple[int, int, dict[str, Any]]]:
    with app.app_context():
        rows = db.session.execute(
            select(VirtualMove).where(VirtualMove.game_id == game_id).order_by(VirtualMove.number)
        ).scalars()
        return [(row.number, row.seat, row.move) for row in rows]


def test_warm_cold_and_two_workers_give_the_same_answers(
    app: Flask, worker: Flask, table: TableAccess, seeds: Seeds, replays: list[int]
) -> None:
    """The same game (the same seed, the same moves) three times, to its end: served from the
    cache, with the cache emptied before every request, and by two workers in turn."""
    (ann,) = table.add_players("Ann")  # sits in each game, so the three are named alike
    games: list[tuple[int, SeatAccess]] = []

    def play(route: Callable[[SeatAccess, int], SeatAccess]) -> list[Any]:
        seeds.next = 5  # a whole game of 3 hands when this was written (5 before strong changed)
        response = start(table, [{"player": ann}] + [{"computer": "strong"}] * 5)
        body, url = response.get_json(), response.headers["Location"]
        seat = on(SeatAccess(table, url, 0, body["seat_tokens"][0]["token"]), app)
        games.append((body["game"]["id"], seat))
        replays.clear()
        return transcript(seat, body["game"]["id"], lambda number: route(seat, number))

    def cold(seat: SeatAccess, _: int) -> SeatAccess:
        cache_of(app).clear()
        return seat

    warm_answers = play(lambda seat, _: seat)
    assert replays == []  # dealt, then served from the cache alone, to the last move
    cold_answers = play(cold)
    assert len(replays) == len(cold_answers)  # every request replayed the game
    shared_answers = play(lambda seat, number: seat if number % 3 else on(seat, worker))
    assert len(replays) == 1  # the second worker's first request; then each plays the other's

    last = warm_answers[-2][1]
    assert last["state"] is None and len(last["game"]["hands"]) >= 3  # the game, to its end
    assert warm_answers == cold_answers == shared_answers
    moves = [stored_moves(app, game_id) for game_id, _ in games]
    assert moves[0] == moves[1] == moves[2]
    record = table.client.get(games[0][1].url + "/record", headers=table.headers).get_json()
    assert VirtualGame.replay(record).move_count == len(moves[0])


def test_a_worker_behind_plays_only_the_moves_stored_since(
    app: Flask, worker: Flask, table: TableAccess, replays: list[int]
) -> None:
    _, seats = started(table, SIX)
    here, there = seats[0], on(seats[0], worker)
    before = here.read()
    there.read()  # the second worker replays the game once
    rng = Random(3)
    view = before
    for _ in range(5):  # moves served by the second worker only
        view = there.move(view["next_move"], rng.choice(view["state"]["legal_moves"])).get_json()
    assert view["next_move"] > before["next_move"]
    replays.clear()
    caught_up = here.read()
    assert replays == []  # the first worker played the new moves on the game it kept
    assert caught_up == there.read()
    cache_of(app).clear()
    assert here.read() == caught_up
    assert replays == [caught_up["next_move"]]


def test_an_illegal_move_keeps_nothing_it_touched(table: TableAccess, app: Flask) -> None:
    body, seats = started(table, SIX)
    seat = seats[0]
    view = seat.read()
    refused = seat.move(view["next_move"], {"move": "call_extension"})
    assert refused.status_code == 422
    assert body["game"]["id"] not in cache_of(app)  # the game it took was dropped
    assert seat.read() == view
    move = view["state"]["legal_moves"][0]
    played = seat.move(view["next_move"], move)
    assert played.status_code == 200
    cache_of(app).clear()
    assert seat.read(view["next_move"]) == played.get_json()


def test_a_failed_commit_keeps_nothing_it_touched(
    table: TableAccess, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move and the computers' answers are played on the cached game before the commit;
    when the commit fails, that game must not be the next request's."""
    started_game, seats = started(table, SIX)
    seat = seats[0]
    view = seat.read()
    move = view["state"]["legal_moves"][0]

    def fail() -> None:
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    plain = FlaskClient(app, app.response_class)  # an unchecked client: any answer is read
    with monkeypatch.context() as patch:
        patch.setattr(db.session, "commit", fail)
        body = {"number": view["next_move"], **move}
        failed = plain.post(seat.url + "/moves", json=body, headers=seat.headers)
    assert failed.status_code == 503  # the database could not answer: try again later
    assert started_game["game"]["id"] not in cache_of(app)
    assert seat.read() == view  # nothing was stored, and nothing of it shows
    played = seat.move(view["next_move"], move)
    assert played.status_code == 200 and "Idempotent-Replayed" not in played.headers
    assert played.get_json()["next_move"] > view["next_move"]
    cache_of(app).clear()
    assert seat.read(view["next_move"]) == played.get_json()


def play_first_move_in_a_block(app: Flask, game_id: int, view: dict[str, Any]) -> None:
    """Inside the app's context: the seat's first legal move played on the engine's game and
    stored, not committed; the cache must not hold the game yet."""
    wire = view["state"]["legal_moves"][0]
    stored = db.session.get(Game, game_id)
    assert stored is not None
    with virtual.replay.engine_game(stored) as played:
        played.apply(move_from_dict(wire), 0)
        db.session.add(VirtualMove(game_id=game_id, number=view["next_move"], seat=0, move=wire))
    assert game_id not in cache_of(app)


@pytest.mark.parametrize("commits", [False, True])
def test_a_changed_game_goes_back_to_the_cache_once_its_change_is_committed(
    table: TableAccess, app: Flask, commits: bool
) -> None:
    """The cache learns of the commit from the session, nobody puts the game back for it; a
    change rolled back leaves the cache without the game the database never saw."""
    body, seats = started(table, SIX)
    game_id, view = body["game"]["id"], seats[0].read()
    with app.app_context():
        cache_of(app).clear()
        play_first_move_in_a_block(app, game_id, view)
        if commits:
            db.session.commit()
        else:
            db.session.rollback()
        assert (game_id in cache_of(app)) is commits
    assert seats[0].read()["next_move"] == view["next_move"] + commits


@pytest.mark.parametrize("tamper", ["ahead", "another last move", "dealt from another seed"])
def test_an_entry_that_does_not_match_the_stored_moves_is_replaced(
    table: TableAccess, app: Flask, replays: list[int], tamper: str
) -> None:
    body, seats = started(table, SIX)
    game_id, seat = body["game"]["id"], seats[0]
    view = seat.read()
    cache = cache_of(app)
    entry = cache.take(game_id)
    assert entry is not None and entry.moves == view["next_move"]
    if tamper == "ahead":  # a move the database never stored
        wire = view["state"]["legal_moves"][0]
        entry.game.apply(move_from_dict(wire), 0)
        entry = Cached(entry.game, entry.dealt_from, entry.moves + 1, (0, wire))
    elif tamper == "another last move":
        entry = Cached(
            entry.game, entry.dealt_from, entry.moves, (9, {"move": "pass"})
        )  # no seat 9
    else:
        entry = Cached(entry.game, (12345, *entry.dealt_from[1:]), entry.moves, entry.last)
    cache.put(game_id, entry)
    replays.clear()
    assert seat.read() == view
    assert replays == [view["next_move"]]
    assert seat.read() == view and len(replays) == 1  # the replayed game was kept


def test_the_cache_is_bounded_and_an_evicted_game_still_answers(
    app: Flask, table: TableAccess, replays: list[int]
) -> None:
    cache = cache_of(app)
    cache.size = 2
    first, seats = started(table, [None, "strong"])
    views = [seats[0].read()]
    for _ in range(2):
        _, others = started(table, [None, "greedy"])
        others[0].read()
    assert len(cache) == 2 and first["game"]["id"] not in cache
    replays.clear()
    assert seats[0].read() == views[0]
    assert len(replays) == 1 and first["game"]["id"] in cache and len(cache) == 2


def test_no_cache_keeps_nothing(app: Flask, table: TableAccess) -> None:
    cache_of(app).size = 0
    _, seats = started(table, [None, "strong"])
    view = seats[0].read()
    assert seats[0].move(view["next_move"], view["state"]["legal_moves"][0]).status_code == 200
    assert len(cache_of(app)) == 0


def test_what_a_seat_saw_stays_as_it_was_when_the_game_moves_on(
    table: TableAccess, app: Flask
) -> None:
    """A read gives the engine's game back to the cache before its answer is written; another
    request may then play on that game. What the read saw is its own copy: it does not move."""
    body, seats = started(table, SIX)
    game_id, view = body["game"]["id"], seats[0].read()
    with app.app_context():
        stored = db.session.get(Game, game_id)
        assert stored is not None
        shown = virtual.seen_by(stored, 0, 0)
        assert shown.seat_choices is not None
        seen = shown.seat_choices.to_dict()
        assert game_id in cache_of(app)  # given back: the next request plays on it
        wire = view["state"]["legal_moves"][0]
        assert seats[0].move(view["next_move"], wire).status_code == 200
        assert shown.seat_choices.to_dict() == seen
        assert shown.next_move == view["next_move"]


def test_a_released_savepoint_is_not_the_commit_the_cache_waits_for(
    table: TableAccess, app: Flask
) -> None:
    body, seats = started(table, SIX)
    game_id, view = body["game"]["id"], seats[0].read()
    with app.app_context():
        cache_of(app).clear()
        with db.session.begin_nested():
            play_first_move_in_a_block(app, game_id, view)
        assert game_id not in cache_of(app)  # released, but the transaction may still roll back
        db.session.rollback()
        assert game_id not in cache_of(app)
    assert seats[0].read() == view
