"""Each worker's cache of virtual games: the engine's game as it stood after a known move.

A stored virtual game is its seed and its numbered moves; bringing the engine's game back by
replaying every move costs more the longer the game runs. This cache keeps, per worker process,
the engine games its last requests used, each with the number of moves it has applied and what
it was dealt from, so the next request on that game only checks them against the database (and
plays the moves another worker stored meanwhile) instead of replaying the whole game.

An engine game is small (about 50 KiB for a whole 6-seat game), so a few dozen per worker cost
little memory (``VIRTUAL_GAME_CACHE``, 32 by default; 0 keeps none and replays every request).

An entry is lent, not shared: :meth:`GameCache.take` removes it, so no two requests (threads of
one worker) ever hold the same engine game, and :func:`return_when_committed` gives it back once
the request is done with it. The cache keeps only a game that matches what the database has
committed, and it learns that from the session itself: an entry comes back at once if the
session's transaction has written nothing, when that transaction commits if it has, and never if
it rolls back; a request that fails simply drops what it took. Nobody commits for the cache. The
database stays the truth: an entry that does not match it is dropped and the game replayed from
its seed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from engine.virtual_game import VirtualGame
from scorekeeper.storage.extensions import has_writes


class DealtFrom(NamedTuple):
    """What an engine game is dealt from (:func:`scorekeeper.services.virtual.replay.dealt_from`):
    two games dealt from the same and played with the same moves are the same game."""

    seed: int
    private_chances: bool
    players: int
    variants: tuple[tuple[str, Any], ...]
    names: tuple[str, ...]


@dataclass(slots=True)
class Cached:
    """An engine game, what it was dealt from, and the moves it has applied: how many, and the
    last one as stored (its seat and move), to check against the database's."""

    game: VirtualGame
    dealt_from: DealtFrom
    moves: int
    last: tuple[int, dict[str, Any]] | None


class GameCache:
    """A bounded, thread-safe map from a game's id to its :class:`Cached` engine game, the least
    recently put back dropped first. A size of 0 keeps nothing."""

    def __init__(self, size: int) -> None:
        self.size = max(0, size)
        self._entries: OrderedDict[int, Cached] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: int) -> Cached | None:
        """The game's entry, removed: the caller holds it alone until it puts it back."""
        with self._lock:
            return self._entries.pop(game_id, None)

    def put(self, game_id: int, entry: Cached) -> None:
        """Give an entry back (or add one). Two requests on one game may both put one back:
        both match committed moves, so the one further along is kept."""
        if self.size == 0:
            return
        with self._lock:
            held = self._entries.get(game_id)
            same_game = held is not None and held.dealt_from == entry.dealt_from
            if held is not None and same_game and held.moves > entry.moves:
                entry = held
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return game_id in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


KEY = "virtual_game_cache"


def init_app(app: Flask) -> None:
    """Give the app (one per worker process) its cache, sized by ``VIRTUAL_GAME_CACHE``."""
    app.extensions[KEY] = GameCache(int(app.config["VIRTUAL_GAME_CACHE"]))


def cache() -> GameCache:
    """The current app's cache."""
    found: GameCache = current_app.extensions[KEY]
    return found


_TO_KEEP = "virtual_games_to_keep"
"""Where a session holds the entries to give back when its transaction commits."""


def take(session: Session, game_id: int) -> Cached | None:
    """The game's entry for ``session``, out of the cache: the one this session's transaction
    holds back until it commits, if it played the game already (it is ahead of the cache, and
    matches what this session reads), else the cache's own."""
    held = session.info.get(_TO_KEEP, {}).pop(game_id, None)
    return cache().take(game_id) if held is None else held[1]


def return_when_committed(session: Session, game_id: int, entry: Cached) -> None:
    """Give ``entry`` (the game as ``session`` left it) back to the current app's cache once it
    matches what is committed: at once if the session's transaction has written nothing, when
    the transaction commits if it has; never if it rolls back."""
    if not has_writes(session):
        cache().put(game_id, entry)
    else:
        session.info.setdefault(_TO_KEEP, {})[game_id] = (cache(), entry)


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    """The transaction's entries go back to the cache; a savepoint released (SQLAlchemy calls
    that a commit too) is not the transaction's commit, and keeps them back."""
    if session.in_nested_transaction():
        return
    for game_id, (kept_by, entry) in session.info.pop(_TO_KEEP, {}).items():
        kept_by.put(game_id, entry)


@event.listens_for(Session, "after_soft_rollback")
def _rolled_back(session: Session, _previous: SessionTransaction) -> None:
    session.info.pop(_TO_KEEP, None)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    """A transaction closed without a commit (the session closed) kept nothing either."""
    if transaction.parent is None:
        session.info.pop(_TO_KEEP, None)
