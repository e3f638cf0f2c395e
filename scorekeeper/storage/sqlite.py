"""How the app uses SQLite: per-connection settings, and one writer at a time without polling.

SQLite allows one writer. A second writer waits in SQLite's busy handler, which polls with sleeps of
up to 100 ms: under a burst of hands from several phones that is where tail latency comes from.
So write requests queue instead on locks that wake the next writer as soon as the previous one
commits: a thread lock within a worker process (a greenlet's under gevent), and ``flock`` on a
file beside the database between worker processes (waited for off the event loop under gevent),
held from a write transaction's ``BEGIN IMMEDIATE`` until it has committed or rolled back.
Reads never wait (WAL).
"""

from __future__ import annotations

import fcntl
import os
import threading
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, SessionTransaction

from scorekeeper.storage import event_loop

PRAGMAS = ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000", "synchronous=FULL")
"""WAL so readers never wait for the writer; foreign keys enforced; a busy timeout rather than an
instant "database is locked"; FULL sync so a recorded hand survives a power cut."""


@dataclass(slots=True)
class _Writer:
    """A request that writes, and the database whose write lock it holds (if any yet)."""

    locked: str | None = None


_writer: ContextVar[_Writer | None] = ContextVar("sqlite_writer", default=None)
_thread_lock = threading.Lock()
_lock_files: dict[str, int] = {}


def begin_writing() -> Token[_Writer | None]:
    """Mark the transactions begun from now on (until :func:`end_writing`) as writes.

    On SQLite they then start with ``BEGIN IMMEDIATE``: the write lock is taken before the first
    read, so a read-then-write never fails with SQLITE_BUSY_SNAPSHOT when another phone wrote in
    between. PostgreSQL needs none of this: writes lock the game row they change.
    """
    return _writer.set(_Writer())


def lost_to_a_writer(error: BaseException) -> bool:
    """Whether ``error`` is SQLite refusing a read's transaction the write it attempted, because
    another connection wrote since it began (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits
    out). Only a transaction begun outside the writers' queue meets it: begun again inside it
    (:func:`begin_writing`), it would not."""
    original = getattr(error, "orig", None)
    return (
        _writer.get() is None
        and type(original).__module__.startswith("sqlite3")
        and "database is locked" in str(original)
    )


def end_writing(token: Token[_Writer | None]) -> None:
    """Undo :func:`begin_writing` (always, after the request's last transaction)."""
    _unlock()
    _writer.reset(token)


def _unlock() -> None:
    """Let the next writer in, if this request holds the write lock."""
    writer = _writer.get()
    if writer is not None and writer.locked is not None:
        fcntl.flock(_lock_files[writer.locked], fcntl.LOCK_UN)
        _thread_lock.release()
        writer.locked = None


@event.listens_for(Session, "after_transaction_end")
def _transaction_ended(_session: Session, transaction: SessionTransaction) -> None:
    """The next writer may begin as soon as this transaction has ended in SQLite, not only when
    the request does: what follows the commit (the request's teardown, its log line, sending the
    answer) keeps nobody waiting. The answer itself is built before the commit, since its status
    decides between commit and rollback (:mod:`scorekeeper.web.transactions`). (A later
    transaction of the same request queues again, and begins IMMEDIATE again.) A savepoint's
    end is not the transaction's: SQLite still holds the write lock, so the queue does too."""
    if transaction.parent is None:
        _unlock()


def _lock(database: str) -> None:
    _thread_lock.acquire()
    try:
        descriptor = _lock_files.get(database)
        if descriptor is None:
            descriptor = os.open(database + "-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
            _lock_files[database] = descriptor
        event_loop.off_the_loop(fcntl.flock, descriptor, fcntl.LOCK_EX)
    except BaseException:
        _thread_lock.release()
        raise


@event.listens_for(Engine, "connect")
def _set_pragmas(dbapi_connection: Any, _record: Any) -> None:
    if not type(dbapi_connection).__module__.startswith("sqlite3"):
        return
    # Transactions are begun by _begin below, not by the driver's implicit deferred BEGIN.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


@event.listens_for(Engine, "begin")
def _begin(connection: Any) -> None:
    """IMMEDIATE for the transactions of a write request (after queueing), DEFERRED otherwise."""
    if connection.dialect.name != "sqlite":
        return
    writer = _writer.get()
    if writer is None:
        connection.exec_driver_sql("BEGIN")
        return
    database = connection.engine.url.database
    if writer.locked is None and database and database != ":memory:":
        _lock(os.path.abspath(database))
        writer.locked = os.path.abspath(database)
    connection.exec_driver_sql("BEGIN IMMEDIATE")
