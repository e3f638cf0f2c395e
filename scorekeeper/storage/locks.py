"""The one way a write locks a game, and the one order of its locks.

A write locks the game's row for its transaction (``SELECT ... FOR UPDATE``; SQLite's write
transaction is exclusive already), and reads the row as locked, not as the session read it
before. A write of a hand takes its locks in one order, the game's row and then its idempotency
key (the API's, the form's and the offline queue's alike): two requests with one key on one game
then queue on the game instead of each holding what the other waits for. Reading the key's
record in the locking query also spares a statement while the lock is held.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, and_, bindparam

from scorekeeper.storage.models import Game, IdempotencyRecord


def locking(statement: Select[Any]) -> Select[Any]:
    """``statement`` (a query of one game) locking the game's row, and reading it as locked."""
    return statement.with_for_update(of=Game).execution_options(populate_existing=True)


def with_key_record(statement: Select[Any]) -> Select[Any]:
    """``statement`` (one game, its row locked) with, beside the game, the record of the key
    bound as ``:idempotency_key`` (None if the key is new, or with no key): the key is looked up
    in the locking query, with no statement of its own while the lock is held. Built once, when
    a view module is imported."""
    return statement.add_columns(IdempotencyRecord).outerjoin(
        IdempotencyRecord,
        and_(
            IdempotencyRecord.table_id == Game.table_id,
            IdempotencyRecord.key == bindparam(KEY_PARAMETER),
        ),
    )


KEY_PARAMETER = "idempotency_key"
"""The name :func:`with_key_record` binds the request's key to."""

LockedWithKey = tuple[Game, IdempotencyRecord | None]
"""A game locked by a :func:`with_key_record` query, and its key's record."""
