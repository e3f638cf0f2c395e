"""Waiting for a game to change: each worker's watch over the versions of the games its requests
wait on.

A phone that shows a game asks whether it changed, and may ask the server to wait for the answer
(a long poll, :mod:`scorekeeper.web.live`). What tells a waiting request that the game changed must
reach it from any worker and any host that wrote the change, on SQLite and on PostgreSQL alike, so
the watch asks the database itself. While anyone waits, one thread per worker listens for changes
(:mod:`scorekeeper.storage.changes`) and wakes the requests whose game moved past the version
they showed, and only those. PostgreSQL's NOTIFY, heard at once, names the new versions: nothing
is read. SQLite's data version, looked at every ``LIVE_INTERVAL`` seconds (0.2 by default), says
only that another connection committed something: then the versions of every game waited on are
read, in one query. A commit in the same worker wakes its waiters at once, and a game newly
waited on is read alone (it may have moved before its waiter came). Nobody waiting: the thread
sleeps, listens to nothing and reads nothing.

The database's cost is at most one small indexed query per change committed elsewhere, per worker
with anyone waiting, however many phones wait; a request waiting holds no connection and no
transaction.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from flask import Flask, current_app, has_app_context
from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session, SessionTransaction

from scorekeeper.storage import changes
from scorekeeper.storage.extensions import db
from scorekeeper.storage.feed import written
from scorekeeper.storage.models import Game, Table

log = logging.getLogger(__name__)

GONE = 2**62
"""The version a game deleted meanwhile is taken to have: past any version a phone showed."""


GONE_EVERY = 5.0
"""Seconds between two looks at whether a waiting request's asker went away."""


class Watched(NamedTuple):
    """What a request waits on: a game (its version) or a table's feed (its event count)."""

    kind: changes.Kind
    id: int


def game(game_id: int) -> Watched:
    return Watched("game", game_id)


def feed(table_id: int) -> Watched:
    return Watched("feed", table_id)


class VersionWatch:
    """The games and feeds waited on in one worker, their last versions read, and the thread
    that reads them. :meth:`wait` blocks a request's thread until its game (or feed) moves, its
    time is up, or the worker stops (:meth:`stop`)."""

    def __init__(self, app: Flask, interval: float) -> None:
        self.app = app
        self.interval = interval
        # One lock, a condition for each game (or feed) waited on and one for the thread: the
        # requests waiting on a game are woken when its version moves, and no others (a move
        # would otherwise wake every request waiting in the worker, hundreds under gevent); the
        # thread when someone starts waiting, and no request (200 followers of a feed asking
        # again after an event would otherwise wake one another 200 × 200 times).
        self._lock = threading.Lock()
        self._changed: dict[Watched, threading.Condition] = {}  # one per game or feed waited on
        self._wanted = threading.Condition(self._lock)
        self._waiting: Counter[Watched] = Counter()  # what is waited on -> requests waiting
        self._versions: dict[Watched, int] = {}  # what is waited on -> highest version seen
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._unread: set[Watched] = set()  # waited on, their versions not read yet
        # The thread's bell (a pipe, made with the thread): rung when it has a new game to read,
        # or must stop.
        self._bell: int | None = None
        self._ringer: int | None = None
        self.reads = 0  # queries made, for the benchmark
        self._engine: Engine | None = None

    @property
    def waiting(self) -> int:
        """How many requests wait now."""
        with self._lock:
            return sum(self._waiting.values())

    def wait(
        self,
        watched: Watched,
        version: int,
        timeout: float,
        gone: Callable[[], bool] | None = None,
    ) -> bool:
        """Block until ``watched`` is past ``version`` (True), ``timeout`` seconds have passed
        (False), or the worker stops (True: answer at once, the phone asks again); with
        ``gone``, also once it says the asker went away (False), looked at every
        ``GONE_EVERY`` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            if watched not in self._waiting:
                self._unread.add(watched)  # it may have moved before its waiter came: read it
                self._ring()
                self._changed[watched] = threading.Condition(self._lock)
            changed = self._changed[watched]
            try:
                self._waiting[watched] += 1
                self._start()
                self._wanted.notify()  # the thread may be asleep with nobody to read for
                while not self._stopped and self._versions.get(watched, 0) <= version:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or (gone is not None and gone()):
                        return False
                    changed.wait(remaining if gone is None else min(remaining, GONE_EVERY))
                return True
            finally:
                self._waiting[watched] -= 1
                if self._waiting[watched] <= 0:
                    del self._waiting[watched]
                    del self._changed[watched]
                    self._versions.pop(watched, None)

    def seen(self, versions: dict[Watched, int]) -> None:
        """Versions learnt (read, or committed in this worker): wake whoever waits on them."""
        with self._lock:
            for watched, version in versions.items():
                if watched in self._waiting and version > self._versions.get(watched, 0):
                    self._versions[watched] = version
                    self._changed[watched].notify_all()

    def stop(self) -> None:
        """The worker stops: every request waiting answers now, and the thread ends."""
        with self._lock:
            self._stopped = True
            for changed in self._changed.values():
                changed.notify_all()
            self._wanted.notify_all()
            self._ring()

    def _ring(self) -> None:
        if self._ringer is None:
            return
        try:
            os.write(self._ringer, b".")
        except BlockingIOError:  # rung already, and not yet heard
            pass

    def _start(self) -> None:
        if self._bell is None:
            self._bell, self._ringer = os.pipe()
            os.set_blocking(self._bell, False)
            os.set_blocking(self._ringer, False)
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="version-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self._bell is not None  # made by _start
        listening: changes.Changes | None = None
        try:
            while True:
                with self._lock:
                    while not self._waiting and not self._stopped:
                        if listening is not None:  # nobody waits: listen to nothing
                            listening.close()
                            listening = None
                        self._wanted.wait()
                    if self._stopped:
                        return
                try:
                    if listening is None:
                        listening = changes.listen(self._database(), self.interval)
                        heard = changes.ANYTHING  # what changed before it listened
                    else:
                        heard = listening.wait(self._bell)
                    # The changes named with their versions: nothing to read.
                    self.seen({Watched(*key): version for key, version in heard.versions.items()})
                    with self._lock:
                        unread, self._unread = self._unread, set()
                        to_read = list(self._waiting) if heard.unknown else list(unread)
                    if to_read:
                        self.seen(self._read(to_read))
                except Exception:  # the database away for a moment: listen and read again
                    log.warning("could not read the versions of the games waited on", exc_info=True)
                    if listening is not None:
                        listening.close()
                        listening = None
                    time.sleep(1)
        finally:
            if listening is not None:
                listening.close()

    def _database(self) -> Engine:
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine

    def _read(self, watched: list[Watched]) -> dict[Watched, int]:
        # A connection of the pool, without a session or an app context: half the CPU per read.
        found: dict[Watched, int] = {}
        games = [item.id for item in watched if item.kind == "game"]
        feeds = [item.id for item in watched if item.kind == "feed"]
        with self._database().connect() as connection:
            if games:
                rows = connection.execute(select(Game.id, Game.version).where(Game.id.in_(games)))
                found |= {game(game_id): version for game_id, version in rows}
            if feeds:
                statement = select(Table.id, Table.event_count).where(Table.id.in_(feeds))
                found |= {
                    feed(table_id): count for table_id, count in connection.execute(statement)
                }
        self.reads += 1
        return {item: found.get(item, GONE) for item in watched}


def watch(app: Flask) -> VersionWatch:
    """The app's watch (this worker's)."""
    found: VersionWatch = app.extensions["version_watch"]
    return found


def init_app(app: Flask) -> None:
    """Give the app (one per worker process) its watch."""
    app.extensions["version_watch"] = VersionWatch(app, float(app.config["LIVE_INTERVAL"]))


_CHANGED = "games_changed"


@event.listens_for(Session, "after_flush")
def _note(session: Session, _context: Any) -> None:
    """The games this transaction changed, and their versions, to wake their waiters once
    committed: this worker's (:func:`_wake`) and, on PostgreSQL, every other's (NOTIFY)."""
    noted = session.info.setdefault(_CHANGED, {})
    flushed = {
        game(instance.id): instance.version
        for instance in (*session.new, *session.dirty)
        if isinstance(instance, Game) and instance.id is not None
    }
    noted.update(flushed)
    changes.notify(session, flushed.items())


def gone(session: Session, *, games: Iterable[int], tables: Iterable[int]) -> None:
    """Games and tables the transaction deletes (bulk statements, which no flush notes): once
    it commits, whoever waits on them wakes, here and, on PostgreSQL, in every worker, and
    reads them gone."""
    games, tables = list(games), list(tables)
    noted = session.info.setdefault(_CHANGED, {})
    gone_now = {game(game_id): GONE for game_id in games}
    gone_now.update({feed(table_id): GONE for table_id in tables})
    noted.update(gone_now)
    changes.notify(session, gone_now.items())


@event.listens_for(Session, "after_commit")
def _wake(session: Session) -> None:
    """This worker's waiters on a game just committed wake now, not at the watch's next read."""
    if session.in_nested_transaction():
        return
    noted = session.info.pop(_CHANGED, {})
    noted |= {feed(table_id): count for table_id, count in written(session).items()}
    if noted and has_app_context() and "version_watch" in current_app.extensions:
        watch(current_app).seen(noted)


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: SessionTransaction) -> None:
    """The transaction is over (committed, its waiters woken; rolled back; or its session
    closed): nothing noted outlives it. A savepoint's end keeps what was noted: a waiter woken
    for a change rolled back reads the game again and finds it as it was."""
    if transaction.parent is None:
        session.info.pop(_CHANGED, None)
