"""The versioned JSON API: one blueprint at ``/api/v1`` gathering one blueprint per resource."""

from __future__ import annotations

from contextvars import Token
from typing import Any

from flask import Blueprint, g, request

from scorekeeper.api import games, hands, history, players, scoring, tables
from scorekeeper.sqlite import begin_writing, end_writing

bp = Blueprint("api", __name__, url_prefix="/api/v1")
for resource in (scoring, tables, players, games, hands, history):
    bp.register_blueprint(resource.bp)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@bp.before_request
def _mark_writes() -> None:
    """Requests that change data begin their transactions as writes (see scorekeeper.sqlite)."""
    if request.method not in SAFE_METHODS:
        g.writing_token = begin_writing()


@bp.teardown_request
def _unmark_writes(_error: BaseException | None) -> None:
    token: Token[Any] | None = g.pop("writing_token", None)
    if token is not None:
        end_writing(token)
