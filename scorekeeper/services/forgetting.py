"""Forgetting: a table deleted with everything in it, a player's name erased from a table's
record, and the tables nobody has used for long pruned.

A table is deleted whole or not at all (:mod:`scorekeeper.storage.removal`); a player is erased,
not deleted, so the games they played keep their scores and every other player's statistics stay
as they were: only the name goes, everywhere the table stored it (the player, the sides named
after them, every hand's report and breakdown, the moves and the answers kept for a retry).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import count
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import selectinload

from engine.sentences import N_
from scorekeeper.domain.refusals import StaleVersion, VersionRequired
from scorekeeper.names import NAME_LIMIT, name_key, team_name
from scorekeeper.storage import removal
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import (
    Game,
    Hand,
    IdempotencyRecord,
    Player,
    Seat,
    Side,
    Table,
    TableEvent,
    VirtualMove,
    utcnow,
)

# TRANSLATORS: the name an erased player is stored and answered under ("Erased player 2").
ERASED_NAME = N_("Erased player %(number)s")
"""An erased player's name, stored in English: the first number free at the table, so names
stay unique there."""


def delete_table(table: Table, versions_read: Collection[str] | None) -> None:
    """Delete ``table`` and everything in it, provided ``versions_read`` (an ``If-Match``, or a
    page's confirmation) names its current version: whoever confirms has seen the table as it
    is, not as it was before the last hand."""
    (locked,) = removal.lock_tables([table.id])
    if versions_read is None:
        raise VersionRequired(
            N_("Deleting a table must say which version of it was read (its ETag, in If-Match).")
        )
    if locked.etag not in versions_read:
        raise StaleVersion(
            N_(
                "The table changed since you read it (a hand, a game or a player): read it "
                "again, and confirm once more, before deleting it."
            )
        )
    removal.delete_tables([locked.id])


def erase_player(player: Player) -> Player:
    """Replace ``player``'s name with :data:`ERASED_NAME` everywhere the table stored it,
    keeping their games and scores. Each game they played changes version, so no phone keeps
    showing the old name from a copy it holds."""
    old = player.name
    taken = {other.name_key for other in player.table.players if other.id != player.id}
    label = next(
        name
        for name in (ERASED_NAME % {"number": number} for number in count(1))
        if name_key(name) not in taken
    )
    games = list(
        db.session.execute(
            select(Game)
            .where(Game.played_by(player.id))
            .options(selectinload(Game.sides).selectinload(Side.seats).selectinload(Seat.player))
        ).scalars()
    )
    renamed: dict[str, str] = {old: label}
    by_game: dict[int, dict[str, str]] = {}
    for game in games:
        sides = {old: label}
        for side in game.sides:
            new = _side_name(side, player.id, old, label)
            if new != side.name:
                sides[side.name] = renamed[side.name] = new
                side.name = new
        by_game[game.id] = sides
        game.updated_at = utcnow()  # a new version: its ETag changes
    player.name = label
    db.session.flush()
    _scrub_hands(by_game)
    _scrub_records(player.table_id, old, renamed)
    return player


def _side_name(side: Side, player_id: int, old: str, label: str) -> str:
    """A side's name once its player ``player_id`` is called ``label``: a default name made
    from its seats' names is made again, and ``old`` is replaced wherever else it was put."""
    before = [seat.name for seat in side.seats]
    after = [label if seat.player_id == player_id else seat.name for seat in side.seats]
    if side.name == team_name(before):
        return team_name(after)
    replaced = re.sub(re.escape(old), lambda _match: label, side.name, flags=re.IGNORECASE)
    return replaced if len(replaced) <= NAME_LIMIT else replaced[: NAME_LIMIT - 1] + "…"


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (stored JSON) with every string that is one of ``names`` replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, names) for key, item in value.items()}
    return value


def _scrub_hands(by_game: dict[int, dict[str, str]]) -> None:
    """The games' hands and moves with their sides' new names. Written by statements, not
    through the mapper: a name is not a correction, and the feed tells none; each hand's
    version moves, so its ETag does too."""
    if not by_game:
        return
    hands = db.session.execute(
        select(Hand.id, Hand.game_id, Hand.report, Hand.breakdown).where(Hand.game_id.in_(by_game))
    )
    for hand_id, game_id, report, breakdown in hands.all():
        names = by_game[game_id]
        db.session.execute(
            update(Hand)
            .where(Hand.id == hand_id)
            .values(
                report=_renamed(report, names),
                breakdown=_renamed(breakdown, names),
                version=Hand.version + 1,
            ),
            execution_options={"synchronize_session": False},
        )
    moves = db.session.execute(
        select(VirtualMove.id, VirtualMove.game_id, VirtualMove.move).where(
            VirtualMove.game_id.in_(by_game)
        )
    )
    for move_id, game_id, move in moves.all():
        scrubbed = _renamed(move, by_game[game_id])
        if scrubbed != move:
            db.session.execute(
                update(VirtualMove).where(VirtualMove.id == move_id).values(move=scrubbed),
                execution_options={"synchronize_session": False},
            )
    for hand in [held for held in db.session.identity_map.values() if isinstance(held, Hand)]:
        db.session.expire(hand)


def _scrub_records(table_id: int, old: str, names: dict[str, str]) -> None:
    """The answers the table keeps for retries (:mod:`scorekeeper.storage.idempotency`) with the
    new names; one that still holds the old name anywhere (in a sentence) is deleted: its
    retry is then made again rather than answered from it."""
    records = db.session.execute(
        select(IdempotencyRecord.id, IdempotencyRecord.response).where(
            IdempotencyRecord.table_id == table_id
        )
    )
    folded = old.casefold()
    for record_id, response in records.all():
        scrubbed = _renamed(response, names)
        if folded in str(scrubbed).casefold():
            db.session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.id == record_id))
        elif scrubbed != response:
            db.session.execute(
                update(IdempotencyRecord)
                .where(IdempotencyRecord.id == record_id)
                .values(response=scrubbed),
                execution_options={"synchronize_session": False},
            )


@dataclass(frozen=True, slots=True)
class Unused:
    """A table nobody has used since ``last_used``: its id, name, and what it holds."""

    id: int
    name: str
    players: int
    games: int
    last_used: datetime


def unused_tables(before: datetime) -> list[Unused]:
    """The tables last used before ``before``, oldest first. A table is used when it is
    created, when one of its games changes (``updated_at``: started, a hand recorded,
    corrected or undone, a move, abandoned) and at every event of its feed (a player added or
    renamed, a token issued or revoked, and everything above); nothing else counts (reading a
    table is not using it)."""
    events = select(func.max(TableEvent.created_at)).where(TableEvent.table_id == Table.id)
    games = select(func.max(Game.updated_at)).where(Game.table_id == Table.id)
    players = select(func.count(Player.id)).where(Player.table_id == Table.id)
    game_count = select(func.count(Game.id)).where(Game.table_id == Table.id)
    rows = db.session.execute(
        select(
            Table.id,
            Table.name,
            Table.created_at,
            events.scalar_subquery(),
            games.scalar_subquery(),
            players.scalar_subquery(),
            game_count.scalar_subquery(),
        ).order_by(Table.id)
    ).all()
    found = []
    for table_id, name, created_at, last_event, last_game, player_count, games_held in rows:
        moments = [_moment(value) for value in (created_at, last_event, last_game) if value]
        last = max(moments)
        if last < before:
            found.append(Unused(table_id, name, player_count, games_held, last))
    return sorted(found, key=lambda unused: (unused.last_used, unused.id))


def prune(tables: Iterable[Unused]) -> None:
    """Delete ``tables`` (found by :func:`unused_tables`) and everything in them."""
    removal.delete_tables([table.id for table in tables])


def _moment(value: datetime | str) -> datetime:
    """A stored time: SQLite gives a ``max()`` back as text, PostgreSQL as a datetime."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)
