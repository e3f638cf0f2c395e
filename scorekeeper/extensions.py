"""The app's extensions, created unbound so models and the factory can import them freely."""

from __future__ import annotations

import threading
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)


@dataclass(slots=True)
class _Writer:
    """A request that writes; whether it holds this process's SQLite write lock."""

    holds_lock: bool = False


_writer: ContextVar[_Writer | None] = ContextVar("writer", default=None)
_sqlite_writers = threading.Lock()
"""One SQLite writer at a time per process, so threads queue on a lock that wakes them at once
rather than in SQLite's busy handler, which polls with sleeps of up to 100 ms."""


def begin_writing() -> Token[_Writer | None]:
    """Mark the transactions begun from now on (until :func:`end_writing`) as writes.

    On SQLite they then start with ``BEGIN IMMEDIATE``: the write lock is taken before the first
    read, so a read-then-write never fails with SQLITE_BUSY_SNAPSHOT when another phone wrote in
    between; it waits (busy_timeout) and then sees that write. PostgreSQL needs no such thing:
    writes lock the game row they change (``SELECT ... FOR UPDATE``).
    """
    return _writer.set(_Writer())


def end_writing(token: Token[_Writer | None]) -> None:
    """Undo :func:`begin_writing` (always call it, after the request's last transaction)."""
    writer = _writer.get()
    if writer is not None and writer.holds_lock:
        _sqlite_writers.release()
    _writer.reset(token)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite per connection: WAL so readers never wait for a writer, foreign keys enforced,
    a busy timeout instead of instant "database is locked", and FULL sync so a recorded hand
    survives a power cut."""
    if not _is_sqlite(dbapi_connection):
        return
    # Let SQLAlchemy's "begin" below start transactions, instead of the driver's own deferred BEGIN.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "foreign_keys=ON",
        "busy_timeout=5000",
        "synchronous=FULL",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Any) -> None:
    """Begin SQLite transactions ourselves: IMMEDIATE for writes, DEFERRED for reads."""
    if connection.dialect.name != "sqlite":
        return
    writer = _writer.get()
    if writer is None:
        connection.exec_driver_sql("BEGIN")
        return
    if not writer.holds_lock:
        _sqlite_writers.acquire()
        writer.holds_lock = True
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _is_sqlite(dbapi_connection: Any) -> bool:
    return type(dbapi_connection).__module__.startswith("sqlite3")
