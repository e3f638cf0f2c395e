"""The phone pages: server-rendered, usable without JavaScript, one module per screen."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.pages import games, hands, history, install, queue, tables, virtual

bp = Blueprint("pages", __name__)
for screen in (tables, games, hands, history, virtual, install, queue):
    bp.register_blueprint(screen.bp)
