"""The phone pages: server-rendered, usable without JavaScript, one module per screen."""

from __future__ import annotations

from flask import Blueprint, session

from scorekeeper.pages import (
    games,
    hands,
    history,
    install,
    play,
    queue,
    ratings,
    tables,
    virtual,
    wall,
)
from scorekeeper.web.page_cache import offline_copies_allowed
from scorekeeper.web.words import seat_label, side_label

bp = Blueprint("pages", __name__)
for screen in (tables, games, hands, history, ratings, virtual, play, wall, install, queue):
    bp.register_blueprint(screen.bp)
# A stored seat's or side's name in the page's language (computers by their level).
bp.add_app_template_global(seat_label)
bp.add_app_template_global(side_label)
# A page without a secret may be kept for offline use (the service worker keeps no other).
bp.after_request(offline_copies_allowed)


@bp.before_request
def keep_the_session() -> None:
    """A page's session (its forms' CSRF token) lasts beyond the browser's closing: the phone
    at the table is closed and reopened all evening, with hands kept for sending."""
    if not session.permanent:
        session.permanent = True
