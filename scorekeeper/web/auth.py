"""Who a request speaks for: the table or the seat whose bearer token it carries (looked up by
its hash, made in :mod:`scorekeeper.services.credentials`), and what of theirs it may reach."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from flask import request
from sqlalchemy import Row, Select, bindparam, select
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import NotFound, Unauthorized

from engine.sentences import N_
from scorekeeper.services.credentials import token_hash
from scorekeeper.storage.extensions import db
from scorekeeper.storage.locks import locking
from scorekeeper.storage.models import Game, Player, Seat, Table

_Owned = TypeVar("_Owned", Game, Player)


def bearer_token() -> str:
    """The request's bearer token; 401 without one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("This table's data needs 'Authorization: Bearer <token>'.")
    return token.strip()


def authorized_seat(table_id: int, game_id: int) -> Seat | None:
    """The seat of game ``game_id`` whose own token the request carries; None if it carries the
    table's token instead (a watcher). 401 for any other token; 404 if the seat's game is not
    ``game_id`` of table ``table_id``."""
    seat = db.session.execute(
        select(Seat).where(Seat.token_hash == token_hash(bearer_token()))
    ).scalar_one_or_none()
    if seat is None:
        authorized_table(table_id)
        return None
    if seat.side.game_id != game_id or seat.side.game.table_id != table_id:
        raise NotFound(N_("There is no such game at this table."))
    return seat


def authorized_table(table_id: int) -> Table:
    """The table the request's bearer token opens, which must be ``table_id``.

    A missing or wrong token is 401; a valid token for another table is 404, so a token never
    tells whether someone else's table exists.
    """
    table = db.session.execute(
        select(Table).where(Table.token_hash == token_hash(bearer_token()))
    ).scalar_one_or_none()
    if table is None:
        raise _unauthorized("The token is not valid (it may have been rotated).")
    if table.id != table_id:
        raise NotFound(N_("There is no such table."))
    return table


def game_of_token(*options: Any, lock: bool = False) -> Select[Any]:
    """A query of one game, provided the request's token opens its table, loading what
    ``options`` say (and locking the game's row for the transaction with ``lock``): run it with
    :func:`authorized_game`. Built once, when a view module is imported, since building a query
    costs as much as running it."""
    statement = _owned_game(Game).options(*options)
    if lock:
        # The locked row, not what the session read before.
        statement = locking(statement)
    return statement


def authorized_game(statement: Select[Any], table_id: int, game_id: int) -> Game:
    """Game ``game_id`` of table ``table_id`` by ``statement`` (a :func:`game_of_token`): the
    token and the game checked in one query. The answers are those of :func:`authorized_table`
    (401, 404), then 404 if the table has no such game."""
    game: Game = authorized_row(statement, table_id, game_id)[0]
    return game


def authorized_row(
    statement: Select[Any], table_id: int, game_id: int, parameters: Mapping[str, Any] = {}
) -> tuple[Any, ...]:
    """The row :func:`authorized_game` reads, for a ``statement`` that selects more beside the
    game (an idempotency key's record, :func:`scorekeeper.storage.locks.with_key_record`),
    bound with ``parameters`` too."""
    row: Row[Any] | None = (
        db.session.execute(statement, {**_parameters(table_id, game_id), **parameters})
        .unique()
        .one_or_none()
    )
    if row is None:
        raise _not_opened(table_id)
    return tuple(row)


def authorized_game_version(table_id: int, game_id: int) -> int:
    """The version of game ``game_id`` of table ``table_id`` (its ETag), checked as
    :func:`authorized_game` checks it, in one query that reads no more of the game."""
    version: int | None = db.session.execute(
        _GAME_VERSION, _parameters(table_id, game_id)
    ).scalar_one_or_none()
    if version is None:
        raise _not_opened(table_id)
    return version


def _owned_game(*columns: Any) -> Select[Any]:
    """Select ``columns`` of game ``:game_id`` of table ``:table_id`` whose token hashes to
    ``:token_hash``."""
    return (
        select(*columns)
        .select_from(Game)
        .join(Table, Table.id == Game.table_id)
        .where(
            Game.id == bindparam("game_id"),
            Game.table_id == bindparam("table_id"),
            Table.token_hash == bindparam("token_hash"),
        )
    )


_GAME_VERSION = _owned_game(Game.version)


def _parameters(table_id: int, game_id: int) -> dict[str, Any]:
    return {"table_id": table_id, "game_id": game_id, "token_hash": token_hash(bearer_token())}


def _not_opened(table_id: int) -> NotFound:
    """Why a game was not found with the request's token: 401 or 404 for the table (raised by
    :func:`authorized_table`), else the table has no such game (returned)."""
    authorized_table(table_id)
    return NotFound(N_("There is no such game at this table."))


def owned(table: Table, model: type[_Owned], id_: int, missing: str, *options: Any) -> _Owned:
    """The ``model`` row ``id_`` if it belongs to ``table``; 404 otherwise, whoever owns it,
    saying ``missing`` (a msgid)."""
    row = db.session.get(model, id_, options=options)
    if row is None or row.table_id != table.id:
        raise NotFound(missing)
    return row


def _unauthorized(description: str) -> Unauthorized:
    return Unauthorized(description, www_authenticate=WWWAuthenticate("Bearer", {"realm": "table"}))
