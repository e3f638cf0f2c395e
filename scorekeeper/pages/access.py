"""Which table a phone may open: its token, kept in a cookie after the first visit."""

from __future__ import annotations

import hashlib

from flask import current_app, request, session
from flask_wtf.csrf import generate_csrf
from sqlalchemy import select
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from engine.sentences import N_
from scorekeeper.services.credentials import token_hash
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Table
from scorekeeper.web.security import ONE_YEAR, is_https


def cookie_name(table_id: int) -> str:
    return f"table_{table_id}"


def page_table(table_id: int) -> Table:
    """The table whose token this phone holds; 404 otherwise (as the API, no existence leak)."""
    token = request.cookies.get(cookie_name(table_id), "")
    table = db.session.execute(
        select(Table).where(Table.token_hash == token_hash(token))
    ).scalar_one_or_none()
    if table is None or table.id != table_id:
        raise NotFound(N_("This phone has not joined that table: open its share link or QR code."))
    return table


def remember(response: Response, table_id: int, token: str) -> Response:
    """Keep the table's token on this phone (HTTP only: scripts never see it; over HTTPS, never
    sent over plain HTTP)."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=ONE_YEAR,
        httponly=True,
        samesite="Lax",
        secure=is_https(),
    )
    return response


def forget(response: Response, table_id: int) -> Response:
    """Take the table's token off this phone (its "Leave this table")."""
    response.delete_cookie(cookie_name(table_id), httponly=True, samesite="Lax", secure=is_https())
    return response


def joined_tables() -> list[Table]:
    """The tables this phone holds a valid token for, in the order they were created.

    A cookie's name only claims a table; its token must open it (anyone can send
    ``table_16=junk``, and a table's name is the table's own business)."""
    claimed: dict[str, int] = {}
    for name, token in request.cookies.items():
        number = name.removeprefix("table_")
        if name.startswith("table_") and number.isascii() and number.isdigit():
            claimed[token_hash(token)] = int(number)
    if not claimed:
        return []
    tables = db.session.execute(
        select(Table).where(Table.token_hash.in_(claimed)).order_by(Table.id)
    ).scalars()
    return [table for table in tables if claimed[table.token_hash] == table.id]


def form_key() -> str:
    """A short digest of this phone's CSRF token, made now if its session has none yet.

    A page carrying forms puts it in its ETag: a copy the browser revalidates (304) then never
    holds a token its session no longer knows (a new session after the browser was reset, a
    server restarted with another key), which would make the form's next tap a 400.
    """
    generate_csrf()
    token = str(session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), ""))
    return hashlib.sha256(token.encode()).hexdigest()[:8]
