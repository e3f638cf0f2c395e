"""What a phone may keep of a response: nothing of one that carries a secret.

A table's token opens the table, and a seat's token plays the seat. Either may reach a response in
its address (``/play/mbs_...``), its body (the table page's share link, a page's "Back to your
seat" link, a virtual game's links), its ``Location`` (a move's redirect back to the seat's page)
or a ``Set-Cookie`` (joining a table). Such a response is sent ``Cache-Control: no-store``, so
neither the browser's cache nor the service worker's page cache (``static/sw.js``) keeps a copy
that anyone opening the phone later could read.

The rule is applied here, to every response, rather than left to each view: a page that one day
shows a seat's link in a new place is covered on the day it does, and a test walks every route
to check it. A page meant to be kept for offline use says so with a ``Cache-Control`` of its own
(the pages' default, :func:`offline_copies_allowed`); the service worker keeps nothing that has
none.
"""

from __future__ import annotations

import re

from flask import Flask, request
from werkzeug.wrappers import Response

TOKEN = re.compile(rb"(?<![A-Za-z0-9_-])mb[srw]?_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
"""A table's (``mb_``), a seat's (``mbs_``) or an issued (``mbr_``, ``mbw_``) token: a prefix
and 32 random bytes, URL-safe."""
SEAT_PATH = re.compile(r"/(?:play|wall)/[^/?#]+")
TEXT_TYPES = frozenset(
    {"text/html", "text/plain", "text/csv", "application/json", "application/problem+json"}
)
"""Bodies read for a token; a static file (sent as it is on disk) never holds one."""
TABLE_COOKIE = re.compile(r"\s*table_\d+=")


def holds_token(text: str | bytes) -> bool:
    """Whether ``text`` carries a table's, a seat's or an issued token, or the address of a
    seat's page or a wall screen.

    >>> holds_token("/t/1/join#mb_" + "x" * 43)
    True
    >>> holds_token("/play/mbs_token/move"), holds_token("mb_short")
    (True, False)
    """
    raw = text.encode() if isinstance(text, str) else text
    return bool(TOKEN.search(raw)) or bool(SEAT_PATH.search(raw.decode(errors="replace")))


def carries_secret(response: Response) -> bool:
    """Whether the response, or the address it answers, holds a table's or a seat's key."""
    if holds_token(request.full_path) or "token" in request.args:
        return True
    if holds_token(response.headers.get("Location", "")):
        return True
    if any(TABLE_COOKIE.match(cookie) for cookie in response.headers.getlist("Set-Cookie")):
        return True
    readable = not (response.direct_passthrough or response.is_streamed)
    return readable and response.mimetype in TEXT_TYPES and holds_token(response.get_data())


def no_store_for_secrets(response: Response) -> Response:
    """``no-store`` on every response that carries a secret, whatever the view said."""
    if carries_secret(response):
        response.headers["Cache-Control"] = "no-store"
    return response


def offline_copies_allowed(response: Response) -> Response:
    """A page the service worker may keep for offline use: one with no ``Cache-Control`` of its
    own is sent ``private, no-cache`` (revalidated on each visit, never kept by a shared cache).
    :func:`no_store_for_secrets` runs after, and a page with a secret loses it."""
    page = request.method == "GET" and response.status_code == 200
    if page and response.mimetype == "text/html" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "private, no-cache"
    return response


def init_app(app: Flask) -> None:
    """Check every response of the app (the pages', the API's, the errors')."""
    app.after_request(no_store_for_secrets)
