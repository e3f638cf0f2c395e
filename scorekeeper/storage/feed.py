"""A table's feed: each change to a table's players, games, hands and moves, written as an event
by the transaction that makes the change, numbered per table in the order of the commits.

The events are noted as the session flushes each row (so no write path can forget one), in the
order the flush writes them, and written just before the commit, after the transaction's last
flush. Numbering takes the table's row lock
(``UPDATE tables SET event_count = event_count + n``) for that instant only: two transactions
writing to one table commit their events in the order of their numbers, so a follower that read
up to number N never sees a number below N appear later. A savepoint rolled back takes its
events with it (a name refused as taken adds no player).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple

from sqlalchemy import bindparam, event, insert, inspect, select, update
from sqlalchemy.orm import Session, SessionTransaction, object_session
from sqlalchemy.orm.util import identity_key

from engine.sentences import N_
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.refusals import Missing
from scorekeeper.storage import changes
from scorekeeper.storage.models import (
    AccessToken,
    Game,
    Hand,
    Player,
    Seat,
    Side,
    Table,
    TableEvent,
    VirtualMove,
    utcnow,
)


class EventKind(StrEnum):
    """What a table's feed tells."""

    PLAYER_ADDED = "player_added"
    PLAYER_RENAMED = "player_renamed"
    GAME_STARTED = "game_started"
    GAME_FINISHED = "game_finished"
    GAME_ABANDONED = "game_abandoned"
    GAME_RESUMED = "game_resumed"
    """A finished game's last hand undone: it is in progress again."""
    HAND_RECORDED = "hand_recorded"
    HAND_CORRECTED = "hand_corrected"
    HAND_UNDONE = "hand_undone"
    MOVE_PLAYED = "move_played"
    STAND_IN_CHANGED = "stand_in_changed"
    """A computer took a player's seat of a virtual game, or gave it back."""
    TOKEN_ISSUED = "token_issued"
    TOKEN_REVOKED = "token_revoked"
    """An issued token revoked: a wall screen following the feed learns at once that its own
    link may have stopped."""


class Fact(NamedTuple):
    """An event noted at a flush, before its table and number are known."""

    kind: EventKind
    table_id: int | None = None
    game_id: int | None = None
    hand: int | None = None
    move: int | None = None
    seat: int | None = None
    player_id: int | None = None
    token_id: int | None = None


_NOTED = "feed_facts"
"""Where a session keeps the facts of each of its open transactions (a savepoint's apart)."""
_WRITTEN = "feed_written"
"""Where a session keeps the last event number written per table, to wake the followers."""

_STATUS_KINDS = {
    GameStatus.FINISHED: EventKind.GAME_FINISHED,
    GameStatus.ABANDONED: EventKind.GAME_ABANDONED,
    GameStatus.IN_PROGRESS: EventKind.GAME_RESUMED,
}


def inserted(instance: object) -> Fact | None:
    """The event of a row written anew, if it is one (a game imported already ended is told
    as started here, then ended: :func:`ended_when_written`)."""
    if isinstance(instance, Player):
        return Fact(EventKind.PLAYER_ADDED, instance.table_id, player_id=instance.id)
    if isinstance(instance, Game):
        return Fact(EventKind.GAME_STARTED, instance.table_id, instance.id)
    if isinstance(instance, Hand):
        return Fact(EventKind.HAND_RECORDED, None, instance.game_id, instance.number)
    if isinstance(instance, AccessToken):
        return Fact(EventKind.TOKEN_ISSUED, instance.table_id, token_id=instance.id)
    if isinstance(instance, VirtualMove):
        return Fact(
            EventKind.MOVE_PLAYED,
            game_id=instance.game_id,
            move=instance.number,
            seat=instance.seat,
        )
    return None


def ended_when_written(instance: object) -> Fact | None:
    """A game written already finished or abandoned (a table imported): its end, told after
    its start."""
    if isinstance(instance, Game) and instance.status != GameStatus.IN_PROGRESS:
        return Fact(_STATUS_KINDS[GameStatus(instance.status)], instance.table_id, instance.id)
    return None


def updated(instance: object) -> Fact | None:
    """The event of a row changed, if what changed is one."""
    if isinstance(instance, Player) and _changed(instance, "name"):
        return Fact(EventKind.PLAYER_RENAMED, instance.table_id, player_id=instance.id)
    if isinstance(instance, Game) and _changed(instance, "status"):
        return Fact(_STATUS_KINDS[GameStatus(instance.status)], instance.table_id, instance.id)
    if isinstance(instance, Hand) and _changed(instance, "report"):
        return Fact(EventKind.HAND_CORRECTED, None, instance.game_id, instance.number)
    if isinstance(instance, Seat) and _changed(instance, "stand_in"):
        return Fact(EventKind.STAND_IN_CHANGED, None, _game_of_seat(instance), seat=instance.seat)
    return None


def _game_of_seat(seat: Seat) -> int | None:
    """The game of a seat the flush has in hand (its side held by the session: the write locked
    the game with its sides), without a query."""
    session = object_session(seat)
    side = None if session is None else session.identity_map.get(identity_key(Side, seat.side_id))
    game_id = None if side is None else inspect(side).dict.get("game_id")
    return game_id if isinstance(game_id, int) else None


def deleted(instance: object) -> Fact | None:
    """The event of a row deleted (a hand undone: an orphan of its game, deleted by the
    flush itself), if it is one."""
    if isinstance(instance, Hand):
        return Fact(EventKind.HAND_UNDONE, None, instance.game_id, instance.number)
    if isinstance(instance, AccessToken):
        return Fact(EventKind.TOKEN_REVOKED, instance.table_id, token_id=instance.id)
    return None


def _changed(instance: Any, attribute: str) -> bool:
    return bool(inspect(instance).attrs[attribute].history.has_changes())


def _noting(making: Callable[[object], Fact | None]) -> Callable[..., None]:
    """A mapper event's listener that notes ``making``'s fact with the row's transaction, in
    the order the flush writes the rows."""

    def note(_mapper: Any, _connection: Any, instance: object) -> None:
        fact = making(instance)
        session = object_session(instance)
        transaction = None if session is None else _innermost(session)
        if fact is None or session is None or transaction is None:
            return
        game = None if fact.game_id is None else _game_held(session, fact.game_id)
        if fact.table_id is None and game is not None:
            fact = fact._replace(table_id=game.get("table_id"))
        if fact.kind is EventKind.MOVE_PLAYED and _hidden(instance, game):
            return
        _facts(session).setdefault(transaction, []).append(fact)

    return note


for _model in (Player, Game, Hand, VirtualMove, AccessToken, Seat):
    event.listen(_model, "after_insert", _noting(inserted))
    event.listen(_model, "after_insert", _noting(ended_when_written))
    event.listen(_model, "after_update", _noting(updated))
    event.listen(_model, "after_delete", _noting(deleted))


def _game_held(session: Session, game_id: int) -> dict[str, Any] | None:
    """What the session holds of a game the flush has in hand (a hand's or a move's: the write
    locked it), read without a query; None if it holds none."""
    game = session.identity_map.get(identity_key(Game, game_id))
    return None if game is None else dict(inspect(game).dict)


def _hidden(move: object, game: dict[str, Any] | None) -> bool:
    """Whether a virtual game's move is kept out of the feed: a seat letting a coup-fourré
    chance go, in a game stored before private chances, where only the safety's holder was
    asked (its pass would tell who holds it, as its watchers are not told either)."""
    passed = isinstance(move, VirtualMove) and move.move.get("move") == "pass"
    return passed and not (game or {}).get("private_chances", False)


def _innermost(session: Session) -> SessionTransaction | None:
    """The transaction a row is written in: the innermost savepoint, else the transaction."""
    return session.get_nested_transaction() or session.get_transaction()


def _facts(session: Session) -> dict[SessionTransaction, list[Fact]]:
    noted: dict[SessionTransaction, list[Fact]] = session.info.setdefault(_NOTED, {})
    return noted


@event.listens_for(Session, "before_commit")
def _write(session: Session) -> None:
    """A savepoint released (the innermost, while one is open) hands its facts to the
    transaction around it; the transaction's own commit flushes what is left, then writes the
    events."""
    savepoint = session.get_nested_transaction()
    session.flush()  # what is still pending is written (and noted) in the transaction ending
    if savepoint is not None:
        own = _facts(session).pop(savepoint, [])
        if own and savepoint.parent is not None:
            _facts(session).setdefault(savepoint.parent, []).extend(own)
        return
    transaction = session.get_transaction()
    if transaction is None:
        return
    facts = _facts(session).pop(transaction, [])
    if facts:
        session.info[_WRITTEN] = write_events(session, facts)


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: SessionTransaction) -> None:
    """A transaction or a savepoint over without its commit (rolled back, its session closed)
    takes its facts with it; once the outermost is over, what it wrote has been told
    (:func:`written`)."""
    _facts(session).pop(transaction, None)
    if transaction.parent is None:
        session.info.pop(_WRITTEN, None)


_TABLES, _EVENT_ROWS = Table.__table__, TableEvent.__table__
_COUNT = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("table"))
    .values(event_count=_TABLES.c.event_count + bindparam("added"))
    .returning(_TABLES.c.event_count)
)
_EVENTS = insert(_EVENT_ROWS)


def write_events(session: Session, facts: list[Fact]) -> dict[int, int]:
    """Write ``facts`` as the events of their tables, numbered after each table's last; the
    last number written per table. A game's new status is told after the hands and moves that
    brought it, though the flush writes the game's row first."""
    facts = sorted(facts, key=lambda fact: fact.kind in _STATUS_KINDS.values())
    games = {fact.game_id for fact in facts if fact.table_id is None}  # none held: rare
    tables_of: dict[int | None, int] = {}
    if games:
        held = session.execute(select(Game.id, Game.table_id).where(Game.id.in_(games)))
        tables_of = {game_id: table_id for game_id, table_id in held}
    by_table: dict[int, list[Fact]] = defaultdict(list)
    for fact in facts:
        table_id = fact.table_id if fact.table_id is not None else tables_of.get(fact.game_id)
        if table_id is not None:
            by_table[table_id].append(fact)
    last: dict[int, int] = {}
    now = utcnow()
    connection = session.connection()  # Core statements, built once: the ORM's cost is not paid
    for table_id in sorted(by_table):  # one order for every transaction: no deadlock
        table_facts = by_table[table_id]
        numbered = connection.execute(_COUNT, {"table": table_id, "added": len(table_facts)})
        count = numbered.scalar_one_or_none()
        if count is None:  # deleted by its owner while this write was under way
            raise Missing(N_("There is no such table."))
        first = count - len(table_facts) + 1
        rows = [
            {
                "table_id": table_id,
                "number": first + offset,
                "kind": str(fact.kind),
                "game_id": fact.game_id,
                "hand": fact.hand,
                "move": fact.move,
                "seat": fact.seat,
                "player_id": fact.player_id,
                "token_id": fact.token_id,
                "created_at": now,
            }
            for offset, fact in enumerate(table_facts)
        ]
        connection.execute(_EVENTS, rows)
        last[table_id] = count
    changes.notify(session, ((("feed", table_id), count) for table_id, count in last.items()))
    return last


def written(session: Session) -> dict[int, int]:
    """The last event number per table the transaction just committed wrote (taken: asked once,
    after the commit)."""
    found: dict[int, int] = session.info.pop(_WRITTEN, {})
    return found
