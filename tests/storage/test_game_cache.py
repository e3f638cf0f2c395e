"""The cache of virtual games on its own: lent entries, a bound, the further entry kept, threads."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.rules import Rules
from engine.virtual_game import VirtualGame
from scorekeeper import create_app
from scorekeeper.storage.game_cache import KEY, Cached, GameCache

ORIGIN = (1, True, 2, (), ("Ann", "Bob"))


def entry(moves: int = 0, origin: tuple[object, ...] = ORIGIN) -> Cached:
    return Cached(VirtualGame(Rules.for_players(2), 1), origin, moves, None)


def test_an_entry_is_lent_not_shared() -> None:
    cache = GameCache(4)
    first = entry()
    cache.put(1, first)
    assert 1 in cache and len(cache) == 1
    assert cache.take(1) is first
    assert cache.take(1) is None and 1 not in cache  # nobody else gets it while it is out
    cache.put(1, first)
    assert cache.take(1) is first


def test_the_least_recently_put_back_goes_first() -> None:
    cache = GameCache(2)
    entries = {game: entry() for game in (1, 2, 3)}
    cache.put(1, entries[1])
    cache.put(2, entries[2])
    cache.put(1, cache.take(1) or entry())  # game 1 used again: game 2 is now the oldest
    cache.put(3, entries[3])
    assert len(cache) == 2 and 2 not in cache
    assert cache.take(1) is entries[1] and cache.take(3) is entries[3]


def test_size_zero_keeps_nothing() -> None:
    cache = GameCache(0)
    cache.put(1, entry())
    assert len(cache) == 0 and cache.take(1) is None


def test_of_two_entries_for_one_game_the_one_further_along_is_kept() -> None:
    cache = GameCache(4)
    ahead, behind = entry(10), entry(4)
    cache.put(1, ahead)
    cache.put(1, behind)  # a request that read the game before the other's move was stored
    assert cache.take(1) is ahead
    cache.put(1, behind)
    cache.put(1, ahead)
    assert cache.take(1) is ahead
    other = entry(2, origin=(2, *ORIGIN[1:]))  # not the same game any more: the newest wins
    cache.put(1, ahead)
    cache.put(1, other)
    assert cache.take(1) is other


def test_threads_never_hold_the_same_entry_at_once() -> None:
    cache = GameCache(3)
    for game in range(5):
        cache.put(game, entry())
    held: set[int] = set()
    guard = threading.Lock()
    clashes = []

    def borrow(turn: int) -> int:
        game = turn % 5
        taken = cache.take(game)
        if taken is None:
            taken = entry()  # a miss: the request replays the game
        with guard:
            if id(taken) in held:
                clashes.append(game)
            held.add(id(taken))
        time.sleep(0.0005)
        with guard:
            held.discard(id(taken))
        cache.put(game, taken)
        return game

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(borrow, range(400)))
    assert clashes == []
    assert len(cache) == 3


@pytest.mark.parametrize(("setting", "size"), [(None, 32), ("0", 0), ("5", 5)])
def test_each_worker_keeps_as_many_games_as_set(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, size: int
) -> None:
    if setting is not None:
        monkeypatch.setenv("SCOREKEEPER_VIRTUAL_GAME_CACHE", setting)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.extensions[KEY].size == size
