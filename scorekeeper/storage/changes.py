"""How a worker hears that another connection changed the database, without reading the games:
the watch over the versions (:mod:`scorekeeper.storage.versions`) reads them only when it has.

* **SQLite:** ``PRAGMA data_version`` on a connection of the watch's own. Its value changes each
  time any other connection commits, from any process on the file. A look costs a few
  microseconds, where reading the versions of the games waited on costs a query.
* **PostgreSQL:** LISTEN on a connection of the watch's own. A transaction that changes a game
  says so with NOTIFY (:func:`notify`), naming the new versions, which PostgreSQL delivers when it
  commits and drops when it rolls back: from any worker on any host, and nothing is read, neither
  while nothing changes nor when something does.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterable
from typing import Any, Literal, NamedTuple, Protocol

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

CHANNEL = "scorekeeper_games"
"""PostgreSQL's channel for the games and the feeds a transaction changed."""


Kind = Literal["game", "feed"]
Key = tuple[Kind, int]
"""What changed: ``("game", id)`` or ``("feed", table id)``."""


class Heard(NamedTuple):
    """What a listening connection heard: the versions some changes named (``versions``), and
    whether anything else may have changed (``unknown``: read every version waited on)."""

    unknown: bool
    versions: dict[Key, int]


NOTHING = Heard(False, {})
ANYTHING = Heard(True, {})


class Changes(Protocol):
    """A connection of its own that says whether the database changed."""

    def wait(self, bell: int) -> Heard:
        """Return when the database may have changed, or something is written to the file
        descriptor ``bell`` (the watch has a new game to read): what another connection
        committed since the last call, as far as it is known (a signal may be early, never
        late). Whatever was written to ``bell`` is read."""

    def close(self) -> None:
        """Give the connection back."""


class DataVersion:
    """SQLite's ``PRAGMA data_version``, looked at every ``interval`` seconds."""

    def __init__(self, engine: Engine, interval: float) -> None:
        # The raw connection is in autocommit (storage/sqlite.py), so no look holds a snapshot.
        self._connection: Any = engine.raw_connection()
        self._interval = interval
        self._last = self._version()

    def _version(self) -> int:
        cursor = self._connection.cursor()
        try:
            cursor.execute("PRAGMA data_version")
            version: int = cursor.fetchone()[0]
            return version
        finally:
            cursor.close()

    def wait(self, bell: int) -> Heard:
        ready(bell, self._interval)
        version = self._version()
        changed, self._last = version != self._last, version
        return ANYTHING if changed else NOTHING

    def close(self) -> None:
        self._connection.close()


class Notifications:
    """PostgreSQL's LISTEN: :meth:`wait` returns at the first notification.

    It waits on the connection's socket and reads what came with libpq's own calls: psycopg's
    ``notifies()`` costs about a millisecond of CPU a call."""

    def __init__(self, engine: Engine) -> None:
        import psycopg  # the postgres extra's driver, only where PostgreSQL is used

        url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # Keepalives: a connection cut without a word (a firewall's idle timeout) is noticed.
        self._connection = psycopg.connect(
            url, autocommit=True, connect_timeout=10, keepalives=1, keepalives_idle=60
        )
        self._connection.execute(f"LISTEN {CHANNEL}")
        self._libpq = self._connection.pgconn

    def wait(self, bell: int) -> Heard:
        began = time.monotonic()
        if ready(bell, QUIET, self._libpq.socket):
            self._libpq.consume_input()
        elif time.monotonic() - began >= QUIET:
            # Quiet for long: ask the connection something, which fails on one that died
            # (the watch then listens again). What it may have heard meanwhile is read anyway.
            self._connection.execute("SELECT 1")
            return ANYTHING
        heard = NOTHING
        while (notification := self._libpq.notifies()) is not None:
            heard = _with(heard, notification.extra.decode())
        return heard

    def close(self) -> None:
        self._connection.close()


QUIET = 30.0
"""The longest PostgreSQL's watch waits without a word (no notification, no bell), to look again."""


def ready(bell: int, seconds: float, *sockets: int) -> bool:
    """Wait up to ``seconds`` for the ``bell`` to ring or one of ``sockets`` to be readable:
    whether a socket is (the bell rung is read, so that it rings again only when rung again)."""
    readable, _, _ = select.select([bell, *sockets], [], [], seconds)
    if bell in readable:
        while True:
            try:
                if not os.read(bell, 512):
                    break
            except BlockingIOError:
                break
    return any(socket in readable for socket in sockets)


def listen(engine: Engine, interval: float) -> Changes:
    """The way ``engine``'s database says it changed (SQLite: looked at every ``interval``
    seconds)."""
    if engine.dialect.name == "postgresql":
        return Notifications(engine)
    return DataVersion(engine, interval)


PAYLOAD_LIMIT = 7000
"""Bytes of versions a NOTIFY carries at most (PostgreSQL's limit is 8,000): a transaction that
changed more says only that something changed, and every version waited on is read."""
_KINDS: dict[Kind, str] = {"game": "g", "feed": "t"}
_NAMED: dict[str, Kind] = {letter: kind for kind, letter in _KINDS.items()}


def notify(session: Session, changed: Iterable[tuple[Key, int]]) -> None:
    """Tell the watches of every worker, at the commit of ``session``'s transaction, the new
    versions of the games and the feeds it changed (``g12=7,t3=55``), so that no worker reads
    them: PostgreSQL; SQLite's data version needs nothing. ``changed``: each key with its
    version."""
    named = sorted(changed)
    if not named or session.get_bind().dialect.name != "postgresql":
        return
    payload = ",".join(f"{_KINDS[kind]}{key_id}={version}" for (kind, key_id), version in named)
    if len(payload) > PAYLOAD_LIMIT:
        payload = "*"
    session.connection().execute(
        text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload}
    )


def _with(heard: Heard, payload: str) -> Heard:
    """``heard`` and what one notification's ``payload`` says (:func:`notify`); one it cannot
    read (an older server's, or ``*``) says that anything may have changed."""
    versions = dict(heard.versions)
    try:
        for item in payload.split(","):
            named, _, version = item.partition("=")
            key = (_NAMED[named[0]], int(named[1:]))
            versions[key] = max(versions.get(key, 0), int(version))
    except (KeyError, ValueError, IndexError):
        return Heard(True, versions)
    return Heard(heard.unknown, versions)
