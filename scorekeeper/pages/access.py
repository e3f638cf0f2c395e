"""Which table a phone may open: its token, kept in a cookie after the first visit."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from flask import current_app, request, session
from flask_wtf.csrf import generate_csrf
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from engine.sentences import N_
from scorekeeper.results.queries import table_by_token, tables_by_tokens
from scorekeeper.web.security import ONE_YEAR, is_https

if TYPE_CHECKING:
    from scorekeeper.storage.models import Table


def cookie_name(table_id: int) -> str:
    return f"table_{table_id}"


def page_table(table_id: int) -> Table:
    """The table whose token this phone holds; 404 otherwise (as the API, no existence leak)."""
    token = request.cookies.get(cookie_name(table_id), "")
    return opened_table(
        table_id, token, N_("This phone has not joined that table: open its share link or QR code.")
    )


def opened_table(table_id: int, token: str, refused: str) -> Table:
    """Table ``table_id``, if ``token`` opens it; 404 saying ``refused`` (a msgid) otherwise,
    as the API does: no existence leak."""
    table = table_by_token(token)
    if table is None or table.id != table_id:
        raise NotFound(refused)
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
            claimed[token] = int(number)
    opened = tables_by_tokens(claimed)
    joined = [table for token, table in opened.items() if claimed[token] == table.id]
    return sorted(joined, key=lambda table: table.id)


def form_key() -> str:
    """A short digest of this phone's CSRF token, made now if its session has none yet.

    A page carrying forms puts it in its ETag: a copy the browser revalidates (304) then never
    holds a token its session no longer knows (a new session after the browser was reset, a
    server restarted with another key), which would make the form's next tap a 400.
    """
    generate_csrf()
    token = str(session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), ""))
    return hashlib.sha256(token.encode()).hexdigest()[:8]
