"""Deleting tables: every row a table owns, in one transaction, child first.

The rows go by bulk ``DELETE`` statements, child before parent, rather than through the ORM's
cascades or the database's ``ON DELETE CASCADE``: ``seats.player_id`` has no ``ondelete``, so
the players could not go before the seats, and a cascade would leave the order to each database.
Bulk statements run no mapper event, so the feed (:mod:`scorekeeper.storage.feed`) notes nothing
for rows of a table that is going: no event is written for a table that no longer exists. The
requests waiting on a deleted game or feed are woken (:func:`scorekeeper.storage.versions.gone`)
and find it gone.

Every model keyed by a table, directly or through its games and sides, is deleted here; a new
one joins ``_owned``, or ``tests/api/test_forgetting.py``, which looks at every table of the
schema, finds its rows left behind.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Delete, delete, select

from scorekeeper.storage import versions
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import (
    AccessToken,
    Game,
    Hand,
    IdempotencyRecord,
    Player,
    Seat,
    Side,
    Table,
    TableEvent,
    VirtualMove,
)


def _owned(table_ids: Collection[int]) -> list[Delete]:
    """The statements deleting everything of ``table_ids``, in the order they must run."""
    games = select(Game.id).where(Game.table_id.in_(table_ids))
    sides = select(Side.id).where(Side.game_id.in_(games))
    return [
        delete(VirtualMove).where(VirtualMove.game_id.in_(games)),
        delete(Hand).where(Hand.game_id.in_(games)),
        delete(Seat).where(Seat.side_id.in_(sides)),
        delete(Side).where(Side.game_id.in_(games)),
        delete(Game).where(Game.table_id.in_(table_ids)),
        delete(Player).where(Player.table_id.in_(table_ids)),
        delete(AccessToken).where(AccessToken.table_id.in_(table_ids)),
        delete(TableEvent).where(TableEvent.table_id.in_(table_ids)),
        delete(IdempotencyRecord).where(IdempotencyRecord.table_id.in_(table_ids)),
        delete(Table).where(Table.id.in_(table_ids)),
    ]


def lock_tables(table_ids: Collection[int]) -> list[Table]:
    """The tables ``table_ids`` (those that are still there), locked for the rest of the
    transaction, as they stand: their games' rows first, then the tables', in the order a write
    takes them (a hand locks its game, then counts its event on its table's row). A write under
    way is waited for, not deadlocked with, and what it wrote is deleted too (or makes the version
    read stale); a game made meanwhile waits for the deletion, and finds its table gone."""
    ids = sorted(table_ids)
    db.session.execute(
        select(Game.id).where(Game.table_id.in_(ids)).order_by(Game.id).with_for_update()
    ).all()
    locked = (
        select(Table)
        .where(Table.id.in_(ids))
        .order_by(Table.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return list(db.session.execute(locked).scalars())


def delete_tables(table_ids: Collection[int]) -> None:
    """Delete the tables ``table_ids`` and every row they own, in the session's transaction,
    locked first (:func:`lock_tables`); the session forgets what it held of them."""
    if not table_ids:
        return
    ids = [table.id for table in lock_tables(table_ids)]
    game_ids = list(db.session.execute(select(Game.id).where(Game.table_id.in_(ids))).scalars())
    db.session.flush()  # nothing pending lands after the deletes
    for statement in _owned(ids):
        db.session.execute(statement, execution_options={"synchronize_session": False})
    db.session.expunge_all()
    versions.gone(db.session(), games=game_ids, tables=ids)
