"""The reads the views need, each written once: a table or a seat by its token, a table's games,
a player's games, a game checked against the token that asks for it.

The views (the API, the pages) hold no SQL and never import the storage: they call these, the
other reads of :mod:`scorekeeper.results` or the services (the writes), and render. A statement
run on every request is built once, when this module is imported: building one costs about as
much as running it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, or_, select
from sqlalchemy.orm import contains_eager, joinedload, selectinload

from scorekeeper.domain.credentials import Scope, token_hash
from scorekeeper.domain.games import GameStatus
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import AccessToken, Game, Player, Seat, Side, Table, TableEvent

_TABLE_BY_TOKEN = select(Table).where(Table.token_hash == bindparam("token_hash"))
_ISSUED_TOKEN = (
    select(AccessToken)
    .where(AccessToken.token_hash == bindparam("token_hash"))
    .options(joinedload(AccessToken.table))
)
_SEAT_BY_TOKEN = (
    select(Seat)
    .join(Seat.side)
    .join(Side.game)
    .where(Seat.token_hash == bindparam("token_hash"))
    .options(contains_eager(Seat.side))
    .add_columns(Game.table_id)
)


def table_by_token(token: str) -> Table | None:
    """The table ``token`` opens, if any."""
    table: Table | None = db.session.execute(
        _TABLE_BY_TOKEN, {"token_hash": token_hash(token)}
    ).scalar_one_or_none()
    return table


def table_exists(table_id: int) -> bool:
    """Whether table ``table_id`` is (still) there."""
    return db.session.execute(select(Table.id).where(Table.id == table_id)).first() is not None


def table_access(token: str) -> tuple[Table, Scope] | None:
    """The table ``token`` opens and what it may do there: everything with the table's own
    token, the scope it was issued with for an issued one; None for any other token."""
    table = table_by_token(token)
    if table is not None:
        return table, Scope.OWNER
    issued: AccessToken | None = db.session.execute(
        _ISSUED_TOKEN, {"token_hash": token_hash(token)}
    ).scalar_one_or_none()
    return None if issued is None else (issued.table, Scope(issued.scope))


def issued_tokens(table_id: int) -> list[AccessToken]:
    """The tokens the table's owner issued, oldest first."""
    statement = select(AccessToken).where(AccessToken.table_id == table_id)
    return list(db.session.execute(statement.order_by(AccessToken.id)).scalars())


def issued_token(table_id: int, token_id: int) -> AccessToken | None:
    """The table's issued token ``token_id``, if any."""
    issued: AccessToken | None = db.session.get(AccessToken, token_id)
    return issued if issued is not None and issued.table_id == table_id else None


def table_events(table_id: int, *, after: int, limit: int) -> list[TableEvent]:
    """Up to ``limit`` of the table's events after number ``after``, in their order."""
    statement = (
        select(TableEvent)
        .where(TableEvent.table_id == table_id, TableEvent.number > after)
        .order_by(TableEvent.number)
        .limit(limit)
    )
    return list(db.session.execute(statement).scalars())


def tables_by_tokens(tokens: Iterable[str]) -> dict[str, Table]:
    """Each of ``tokens`` that opens a table, and its table."""
    by_hash = {token_hash(token): token for token in tokens}
    if not by_hash:
        return {}
    statement = select(Table).where(Table.token_hash.in_(by_hash))
    return {by_hash[table.token_hash]: table for table in db.session.execute(statement).scalars()}


def seat_by_token(token: str) -> Seat | None:
    """The seat of a virtual game whose own ``token`` this is, if any."""
    found = seat_and_table_by_token(token)
    return None if found is None else found[0]


def seat_and_table_by_token(token: str) -> tuple[Seat, int] | None:
    """The seat of a virtual game whose own ``token`` this is, with its side and its game's
    table id, in one query: the game itself is left to be loaded whole, with everything a view
    of it needs, by whoever reads it next (loaded here, it would be loaded bare, and each of its
    sides, seats and players then one query at a time)."""
    row = db.session.execute(_SEAT_BY_TOKEN, {"token_hash": token_hash(token)}).one_or_none()
    return None if row is None else (row[0], row[1])


def table_game(table: Table, game_id: int) -> Game | None:
    """The table's game ``game_id``, with everything a view of it needs (None if the table has
    no such game)."""
    game: Game | None = db.session.get(Game, game_id, options=Game.everything())
    return game if game is not None and game.table_id == table.id else None


def table_player(table: Table, player_id: int) -> Player | None:
    """The table's player ``player_id`` (None if the table has no such player)."""
    player: Player | None = db.session.get(Player, player_id)
    return player if player is not None and player.table_id == table.id else None


def table_games(
    table_id: int,
    *,
    limit: int,
    player: int | None = None,
    status: GameStatus | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    before: int | None = None,
) -> list[Game]:
    """Up to ``limit`` of the table's games, newest first, with their sides and seats: those
    ``player`` sat in, with ``status``, started from ``since`` and before ``until`` (UTC), and
    older than game ``before``."""
    statement = select(Game).where(Game.table_id == table_id)
    if player is not None:
        statement = statement.where(Game.played_by(player))
    if status is not None:
        statement = statement.where(Game.status == status)
    if since is not None:
        statement = statement.where(Game.created_at >= since)
    if until is not None:
        statement = statement.where(Game.created_at < until)
    if before is not None:
        statement = statement.where(Game.id < before)
    statement = statement.order_by(Game.id.desc()).limit(limit).options(_SIDES_AND_SEATS)
    return list(db.session.execute(statement).scalars())


_SIDES_AND_SEATS = selectinload(Game.sides).selectinload(Side.seats).joinedload(Seat.player)


def games_where(filters: Iterable[ColumnElement[bool]], *, hands: bool = True) -> list[Game]:
    """The games that pass every filter (a season's: :meth:`~scorekeeper.results.season.Season.
    where`), with their sides and seats, and their hands unless ``hands`` is false."""
    statement = select(Game).where(*filters)
    options = Game.everything() if hands else [_SIDES_AND_SEATS]
    return list(db.session.execute(statement.options(*options)).scalars())


def virtual_game_in_progress(table_id: int) -> int | None:
    """The first of the table's virtual games still in progress (its id), if any."""
    game_id: int | None = db.session.scalar(
        select(Game.id)
        .where(Game.table_id == table_id, Game.seed.is_not(None))
        .where(Game.status == GameStatus.IN_PROGRESS)
        .order_by(Game.id)
        .limit(1)
    )
    return game_id


def _game_of_token(*columns: Any) -> Select[Any]:
    """Select ``columns`` of game ``:game_id`` of table ``:table_id`` whose own token, or a
    token it issued, hashes to ``:token_hash``: the token and the game checked in one query
    (every token of a table reads its games)."""
    issued = select(AccessToken.table_id).where(AccessToken.token_hash == bindparam("token_hash"))
    return (
        select(*columns)
        .select_from(Game)
        .join(Table, Table.id == Game.table_id)
        .where(
            Game.id == bindparam("game_id"),
            Game.table_id == bindparam("table_id"),
            or_(Table.token_hash == bindparam("token_hash"), Table.id.in_(issued)),
        )
    )


_GAME_VIEWED = _game_of_token(Game).options(*Game.viewed())
_GAME_ALONE = _game_of_token(Game)
_GAME_VERSION = _game_of_token(Game.version, Game.seed.is_not(None))


def game_by_token(token: str, table_id: int, game_id: int, *, seated: bool) -> Game | None:
    """Game ``game_id`` of table ``table_id`` if ``token`` opens that table; with its sides,
    seats and players if ``seated`` (joined to the same query), never its hands
    (:func:`~scorekeeper.storage.models.load_hands` reads them in one more)."""
    statement = _GAME_VIEWED if seated else _GAME_ALONE
    parameters = {"table_id": table_id, "game_id": game_id, "token_hash": token_hash(token)}
    game: Game | None = db.session.execute(statement, parameters).unique().scalar_one_or_none()
    return game


def game_version_by_token(token: str, table_id: int, game_id: int) -> tuple[int, bool] | None:
    """The version of game ``game_id`` of table ``table_id``, and whether it is a virtual game,
    if ``token`` opens that table: all a poll that still holds the current ETag needs."""
    parameters = {"table_id": table_id, "game_id": game_id, "token_hash": token_hash(token)}
    found = db.session.execute(_GAME_VERSION, parameters).one_or_none()
    return None if found is None else (found[0], bool(found[1]))
