"""The versioned JSON API: one blueprint at ``/api/v1`` gathering one blueprint per resource."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.api import (
    feed,
    games,
    hands,
    history,
    players,
    ratings,
    score,
    tables,
    tokens,
    virtual,
)
from scorekeeper.web.http import check_query, tag_every_read

RESOURCES = tuple(
    module.bp
    for module in (score, tables, tokens, feed, players, games, hands, history, ratings, virtual)
)

bp = Blueprint("api", __name__, url_prefix="/api/v1")
for resource in RESOURCES:
    bp.register_blueprint(resource)
bp.before_request(check_query)
bp.after_request(tag_every_read)
