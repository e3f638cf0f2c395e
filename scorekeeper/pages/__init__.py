"""The phone pages: server-rendered, usable without JavaScript, one module per screen."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.pages import games, hands, history, tables

bp = Blueprint("pages", __name__)
for screen in (tables, games, hands, history):
    bp.register_blueprint(screen.bp)
