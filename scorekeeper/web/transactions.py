"""The request's one transaction: the only place a request's write is committed or rolled back.

Services stage their writes and flush; views answer. Every view runs inside one
(:class:`TransactionalFlask`). A request that
may change data (a write method, unless its view is marked :func:`reads_only`) begins its
transactions as writes (on SQLite, in the writers' queue of :mod:`scorekeeper.storage.sqlite`);
its answer below 400 commits what it wrote; any other answer, or an exception raised (a refusal,
or a page's redirect raised by :func:`unwritten`), rolls it all back. A refusal therefore never
leaves half a write, and a commit that fails (the database stopped at that moment) is raised
inside the view's call, where the app's error handlers answer it (503, not a bare 500).

A read may write too: a virtual game read after its coup-fourré window's time is up closes the
window. What it wrote is committed the same way. On SQLite, a read that tries to write after
another request wrote (the phones woken together by a window's close) is refused by SQLite, and
runs again, queued as a write. The game cache learns what was committed from
the session itself (:mod:`scorekeeper.storage.game_cache`), so no caller commits for it.

The commands own their transactions the same way, through
:func:`scorekeeper.storage.transactions.one_write`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn, TypeVar

from flask import Flask, Response, abort, g, make_response, request
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.storage import sqlite
from scorekeeper.storage.extensions import db, has_writes

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change data: the only list of them (CSRF checks these too)."""

View = TypeVar("View", bound=Callable[..., Any])


def reads_only(view: View) -> View:
    """Mark a POST view that changes nothing (a preview), so it takes no write lock."""
    view.reads_only = True  # type: ignore[attr-defined]
    return view


def unwritten(answer: BaseResponse) -> NoReturn:
    """Answer with ``answer`` (a redirect, say), and nothing the request wrote: raised, so the
    request's transaction rolls it all back, whatever the answer's status. A page refusing a
    write raises its refusal, or this."""
    abort(answer)


def start_over() -> None:
    """Undo everything the request wrote so far, and go on reading: for the web layer's own
    flows alone (an idempotent write finding its key's answer committed by another request
    meanwhile); a view raises its refusal instead."""
    db.session.rollback()


def in_transaction(view: Callable[..., Any]) -> Callable[..., Response]:
    """``view`` with what it wrote committed when it answers below 400, rolled back otherwise."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Response:
        try:
            response = make_response(view(*args, **kwargs))
        except BaseException as error:
            db.session.rollback()
            if not sqlite.lost_to_a_writer(error):
                raise
            # A read that wrote (a window's close) after another request wrote the same: read
            # again, in the writers' queue this time, and find it written.
            g.sqlite_writer = sqlite.begin_writing()
            try:
                response = make_response(view(*args, **kwargs))
            except BaseException:
                db.session.rollback()
                raise
        if not has_writes(db.session()):
            if request.method in WRITES:
                db.session.rollback()  # ends it now: SQLite's next writer need not wait
            return response
        if response.status_code < 400:
            db.session.commit()
        else:
            db.session.rollback()
        return response

    return wrapped


def init_app(app: Flask) -> None:
    """Mark the requests that may write, before any other hook reads the database. The request's
    session is closed before SQLite's write lock is released, never after."""

    @app.before_request
    def _mark_writes() -> None:
        view = app.view_functions.get(request.endpoint or "")
        if request.method in WRITES and not getattr(view, "reads_only", False):
            g.sqlite_writer = sqlite.begin_writing()

    @app.teardown_request
    def _unmark_writes(_error: BaseException | None) -> None:
        token = g.pop("sqlite_writer", None)
        if token is not None:
            try:
                db.session.remove()
            finally:
                sqlite.end_writing(token)


class TransactionalFlask(Flask):
    """A Flask app whose every view runs in the request's one transaction
    (:func:`in_transaction`), whenever and however it was registered: a view added later (a
    blueprint, a test's) cannot forget it."""

    def dispatch_request(self) -> Response:
        return in_transaction(super().dispatch_request)()
