"""The one way a write locks a game, and the one order of its locks.

A write locks the game's row for its transaction (``SELECT ... FOR UPDATE``; SQLite's write
transaction is exclusive already), and reads the row as locked, not as the session read it
before. A write of a hand takes its locks in one order, the game's row and then its idempotency
key (the API's, the form's and the offline queue's alike): two requests with one key on one game
then queue on the game instead of each holding what the other waits for. Reading the key's
record in the locking query also spares a statement while the lock is held.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVarTuple

from sqlalchemy import Select, and_, bindparam, select
from sqlalchemy.orm import joinedload

from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, IdempotencyRecord

_Row = TypeVarTuple("_Row")


@dataclass(frozen=True, slots=True)
class LockedGame:
    """A game whose row is locked for the rest of the transaction, and the record of the
    request's idempotency key (None for a new key, or a request without one)."""

    game: Game
    key_record: IdempotencyRecord | None = None


def locking(statement: Select[*_Row]) -> Select[*_Row]:
    """``statement`` (a query of one game) locking the game's row, and reading it as locked."""
    return statement.with_for_update(of=Game).execution_options(populate_existing=True)


def _locked_with_key(*options: Any) -> Select[Game, IdempotencyRecord]:
    """Game ``:game_id`` of table ``:table_id`` locked, loading what ``options`` say, with the
    record of the key bound as ``:key`` beside it."""
    statement = (
        select(Game, IdempotencyRecord)
        .where(Game.id == bindparam("game_id"), Game.table_id == bindparam("table_id"))
        .outerjoin(
            IdempotencyRecord,
            and_(
                IdempotencyRecord.table_id == Game.table_id,
                IdempotencyRecord.key == bindparam("key"),
            ),
        )
        .options(*options)
    )
    return locking(statement)


_WITH_HANDS = _locked_with_key(*Game.everything())
_SIDES_ONLY = _locked_with_key(joinedload(Game.sides))
"""Both built once: building a statement costs as much as running it. A new hand needs the
sides' names (its breakdown names them), never the other hands."""


def lock_game(
    table_id: int, game_id: int, *, key: str | None = None, hands: bool = True
) -> LockedGame | None:
    """Game ``game_id`` of table ``table_id`` locked, with its sides and seats and, if
    ``hands``, its hands; and the record of the idempotency ``key``. None if the table has no
    such game."""
    statement = _WITH_HANDS if hands else _SIDES_ONLY
    row = (
        db.session.execute(statement, {"game_id": game_id, "table_id": table_id, "key": key})
        .unique()
        .one_or_none()
    )
    return None if row is None else LockedGame(row[0], row[1])
