"""The request's one transaction: the only place a request's write is committed.

Services stage their writes and flush (:mod:`scorekeeper.services.operations`); views answer.
Every view that takes a write method is wrapped here: its answer below 400 commits what the
request wrote, any other answer, or an error raised, rolls it all back. A refusal therefore never
leaves half a write, and a commit that fails (the database stopped at that moment) is raised
inside the view's call, where the app's error handlers answer it (503, not a bare 500).

One service commits before the view answers, on purpose: a virtual game's move is committed
inside the block that holds the engine's game (:func:`scorekeeper.services.virtual.restored`),
since the worker's cache may keep only a game that matches what the database has committed.
Committing again here then finds nothing left to write.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, Response, make_response, request

from scorekeeper.storage.extensions import db

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def in_transaction(view: Callable[..., Any]) -> Callable[..., Response]:
    """``view`` with its write committed when it answers below 400, rolled back otherwise."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Response:
        if request.method not in WRITES:
            return make_response(view(*args, **kwargs))
        try:
            response = make_response(view(*args, **kwargs))
        except BaseException:
            db.session.rollback()
            raise
        if response.status_code < 400:
            db.session.commit()
        else:
            db.session.rollback()
        return response

    return wrapped


def init_app(app: Flask) -> None:
    """Wrap every view that takes a write method; called once the blueprints are registered."""
    for rule in app.url_map.iter_rules():
        if rule.methods and rule.methods & WRITES:
            app.view_functions[rule.endpoint] = in_transaction(app.view_functions[rule.endpoint])
