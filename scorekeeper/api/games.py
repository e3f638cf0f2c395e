"""Games of a table: start, list with filters and a cursor, read, abandon."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from flask import Blueprint, Response, request, url_for

from engine.problems import Problem, ProblemCode
from engine.sentences import N_
from scorekeeper.domain.credentials import Scope
from scorekeeper.domain.games import game_etag
from scorekeeper.domain.limits import MAX_ID
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.results.queries import table_games
from scorekeeper.results.standings import game_view
from scorekeeper.schemas.resources import (
    GameCreateSchema,
    GamePageSchema,
    GameQuerySchema,
    GameSchema,
)
from scorekeeper.services import operations
from scorekeeper.web.auth import authorized_game_version, authorized_table, game_viewed
from scorekeeper.web.http import json_body, not_modified, queried, query, respond
from scorekeeper.web.i18n import language
from scorekeeper.web.paging import decode_cursor, encode_cursor
from scorekeeper.web.words import in_language

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game

bp = Blueprint("games", __name__)
game_schema = GameSchema()


def read_etag(game_id: int, version: int, virtual: bool) -> str:
    """A game's ETag as the API answers it: a virtual game's names its computers in the
    reader's language, so each language has its own tag (it takes no If-Match: its hands come
    from its moves). A tabletop game's is the game's own, which If-Match takes."""
    etag = game_etag(game_id, version)
    return f"{etag}-{language()}" if virtual else etag


def game_response(game: Game, status: int = 200, location: str | None = None) -> Response:
    body = game_schema.dump(in_language(game_view(game)))
    etag = read_etag(game.id, game.version, game.virtual)
    return respond(body, status, etag=etag, location=location)


@bp.post("/tables/<id:table_id>/games")
def start_game(table_id: int) -> Response:
    """Start a game: seated players, the sides and their players, the variants."""
    table = authorized_table(table_id)
    body = json_body(GameCreateSchema())
    game = operations.start_game(table, body["players"], body.get("variants") or {}, body["sides"])
    location = url_for("api.games.read_game", table_id=table_id, game_id=game.id)
    return game_response(game, 201, location)


@bp.get("/tables/<id:table_id>/games")
@queried(GameQuerySchema())
def list_games(table_id: int) -> Response:
    """The table's games, newest first, filtered by player, status and date, a page at a time."""
    table = authorized_table(table_id)
    asked = query()
    limit = asked["limit"]
    before = None
    if "cursor" in asked:
        (before,) = decode_cursor("g", asked["cursor"], below=MAX_ID + 1)
    games = table_games(
        table.id,
        limit=limit + 1,
        player=asked.get("player"),
        status=asked.get("status"),
        since=_naive(asked["since"], "from") if "since" in asked else None,
        until=_naive(asked["until"], "to") if "until" in asked else None,
        before=before,
    )
    next_cursor = encode_cursor("g", (games[limit - 1].id,)) if len(games) > limit else None
    page = {
        "items": [in_language(game_view(game, with_hands=False)) for game in games[:limit]],
        "next_cursor": next_cursor,
    }
    return respond(GamePageSchema().dump(page))


@bp.get("/tables/<id:table_id>/games/<id:game_id>")
def read_game(table_id: int, game_id: int) -> Response:
    """A game: sides, hands with running totals, leaders, status and winner (ETag, 304)."""
    if request.if_none_match:
        # Polling phones mostly hold the current ETag: answer them from the version alone.
        etag = read_etag(game_id, *authorized_game_version(table_id, game_id))
        if request.if_none_match.contains(etag):
            return not_modified(etag)
    return game_response(game_viewed(table_id, game_id))


@bp.post("/tables/<id:table_id>/games/<id:game_id>/abandon")
def abandon_game(table_id: int, game_id: int) -> Response:
    """Abandon a game before its end."""
    table = authorized_table(table_id, Scope.OWNER)
    return game_response(operations.abandon_game(operations.locked_game(table, game_id)))


def _naive(moment: datetime, field: str) -> datetime:
    """A query time as stored: UTC without a zone."""
    if moment.tzinfo is None:
        return moment
    try:
        return moment.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:
        raise InvalidRequest(
            [
                Problem.of(
                    ProblemCode.INVALID_FIELD,
                    f"/{field}",
                    N_("That time is outside the calendar once turned to UTC."),
                )
            ]
        ) from None
