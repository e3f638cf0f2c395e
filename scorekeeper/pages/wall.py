"""A table's wall screen: every game in progress at the table and the last ones finished, live,
read-only, for a screen on the club's wall or a spectator's phone.

It opens with a read token in its address (``/wall/<token>``, made on the table's page with
its QR code), so it can be shown on a screen that holds no key of the table, and stops working
the moment the token is revoked. It follows the table's feed (:mod:`scorekeeper.storage.feed`):
a copy held asks again with ``Prefer: wait`` and is answered the moment anything at the table
changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound

from engine.rules import GAME_TARGET
from engine.sentences import N_
from scorekeeper.domain.credentials import Scope
from scorekeeper.domain.games import GameStatus
from scorekeeper.pages.access import page_table
from scorekeeper.pages.tables import qr_svg
from scorekeeper.results.queries import issued_token, issued_tokens, table_access, table_games
from scorekeeper.results.standings import game_view
from scorekeeper.services import operations
from scorekeeper.web import live
from scorekeeper.web.i18n import gettext, language, language_asked
from scorekeeper.web.words import in_language

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game

bp = Blueprint("wall", __name__)

PLAYING = 12
"""The games in progress a wall shows, newest first: more than a club's room plays at once."""
FINISHED = 3
"""The games finished a wall shows under them, newest first."""


@bp.get("/wall/<token>")
@live.waits
def wall(token: str) -> Response:
    """The wall screen of the table whose read token this is (conditional, and waited for)."""
    found = table_access(token)
    if found is None or found[1] is not Scope.READ:
        raise NotFound(N_("This wall screen's link is not valid: it may have been revoked."))
    table = found[0]
    etag = f"wall-{table.id}-{table.event_count}-{language()}"
    live.watched_feed(table.id, table.event_count, idle=None)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
        response.set_etag(etag)
        return response
    playing = table_games(table.id, limit=PLAYING, status=GameStatus.IN_PROGRESS)
    finished = table_games(table.id, limit=FINISHED, status=GameStatus.FINISHED)
    response = make_response(
        render_template(
            "pages/wall.html",
            wall_table=table,
            playing=[shown(game) for game in playing],
            finished=[shown(game) for game in finished],
            target=GAME_TARGET,
            etag=etag,
            poll=url_for(".wall", token=token, **language_asked()),
        )
    )
    response.set_etag(etag)
    return response


def shown(game: Game) -> dict[str, Any]:
    """A game as the wall shows it: its sides named in the screen's language, their totals,
    and how many hands it has."""
    return {**in_language(game_view(game, with_hands=False)), "hand_count": game.hand_count}


@bp.post("/t/<id:table_id>/wall")
def make_wall_link(table_id: int) -> Response:
    """A new read token for a wall screen, shown this once as a link and a QR code; named with
    a number (the table's page lists them), so each has its own Revoke button."""
    table = page_table(table_id)
    name = gettext("Wall screen %(number)s", number=len(issued_tokens(table.id)) + 1)
    _, token = operations.issue_token(table, name, Scope.READ)
    link = url_for(".wall", token=token, _external=True)
    page = render_template("pages/wall_link.html", table=table, link=link, qr=qr_svg(link))
    return make_response(page, 201)


@bp.post("/t/<id:table_id>/tokens/<id:token_id>/revoke")
def revoke(table_id: int, token_id: int) -> Any:
    """Revoke a token the table issued: a wall screen showing it says so at its next question."""
    table = page_table(table_id)
    issued = issued_token(table.id, token_id)
    if issued is not None:  # revoked already (a second tap): nothing more to do
        operations.revoke_token(issued)
    return redirect(url_for("pages.tables.table", table_id=table_id), 303)
