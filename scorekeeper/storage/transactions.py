"""The commands' transactions, owned here as the web's are owned by
:mod:`scorekeeper.web.transactions`: nothing else commits or rolls back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scorekeeper.storage import sqlite
from scorekeeper.storage.extensions import db


@contextmanager
def one_write() -> Iterator[None]:
    """One write transaction for the block: on SQLite the write lock is taken before its first
    read; what the block wrote is committed when it ends and rolled back if it raises (a refusal,
    ``sys.exit`` included); the session is closed either way, before the lock is released."""
    writing = sqlite.begin_writing()
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        db.session.remove()
        sqlite.end_writing(writing)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """One read transaction for the block, ended when it does: it wrote nothing, so ending it
    undoes nothing (on PostgreSQL, what it read was one snapshot if the block asked for
    REPEATABLE READ)."""
    try:
        yield
    finally:
        db.session.rollback()
