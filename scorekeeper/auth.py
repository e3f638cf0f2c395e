"""Bearer tokens: one secret per table, shown once, stored only as a hash.

Tokens are 256-bit random strings, so a plain SHA-256 is the right hash: there is nothing to
brute-force, and lookup by hash stays a single indexed query.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, TypeVar

from flask import request
from sqlalchemy import select
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import NotFound, Unauthorized

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Table

_Owned = TypeVar("_Owned", Game, Player)

TOKEN_PREFIX = "mb_"


def new_token() -> str:
    """A fresh table token."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def authorized_table(table_id: int) -> Table:
    """The table the request's bearer token opens, which must be ``table_id``.

    A missing or wrong token is 401; a valid token for another table is 404, so a token never
    tells whether someone else's table exists.
    """
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("This table's data needs 'Authorization: Bearer <token>'.")
    table = db.session.execute(
        select(Table).where(Table.token_hash == token_hash(token.strip()))
    ).scalar_one_or_none()
    if table is None:
        raise _unauthorized("The token is not valid (it may have been rotated).")
    if table.id != table_id:
        raise NotFound("There is no such table.")
    return table


def owned(table: Table, model: type[_Owned], id_: int, what: str, *options: Any) -> _Owned:
    """The ``model`` row ``id_`` if it belongs to ``table``; 404 otherwise, whoever owns it."""
    row = db.session.get(model, id_, options=options)
    if row is None or row.table_id != table.id:
        raise NotFound(f"There is no such {what} at this table.")
    return row


def _unauthorized(description: str) -> Unauthorized:
    return Unauthorized(description, www_authenticate=WWWAuthenticate("Bearer", {"realm": "table"}))
