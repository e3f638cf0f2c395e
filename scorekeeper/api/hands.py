"""Hands of a game: add (idempotent), read, correct (If-Match), undo the last (If-Match)."""

from __future__ import annotations

from flask import Blueprint, Response, request, url_for
from werkzeug.exceptions import NotFound

from scorekeeper import operations
from scorekeeper.api.games import table_game
from scorekeeper.auth import authorized_table
from scorekeeper.http import Produced, idempotent, json_body, respond
from scorekeeper.models import Game, Hand
from scorekeeper.schemas.resources import HandEntrySchema, HandOutSchema
from scorekeeper.standings import hand_view, sheet_of

bp = Blueprint("hands", __name__)
hand_schema = HandOutSchema()
entry_schema = HandEntrySchema()


def hand_body(game: Game, hand: Hand) -> dict[str, object]:
    totals = sheet_of(game).totals_after[hand.number - 1]
    body: dict[str, object] = hand_schema.dump(hand_view(hand, totals))
    return body


def hand_url(table_id: int, game_id: int, number: int) -> str:
    return url_for("api.hands.read_hand", table_id=table_id, game_id=game_id, number=number)


@bp.post("/tables/<id:table_id>/games/<id:game_id>/hands")
def add_hand(table_id: int, game_id: int) -> Response:
    """Record the next hand; a retry with the same Idempotency-Key records nothing twice."""
    table = authorized_table(table_id)
    document = json_body(entry_schema)

    def produce() -> Produced:
        game = operations.locked_game(table, game_id)
        hand = operations.add_hand(game, document)
        return 201, hand_body(game, hand), hand_url(table_id, game_id, hand.number), hand.etag

    return idempotent(table, produce)


@bp.get("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def read_hand(table_id: int, game_id: int, number: int) -> Response:
    """One hand: its report, its breakdown and the running totals after it (ETag, 304)."""
    game = table_game(authorized_table(table_id), game_id)
    hand = _numbered(game, number)
    return respond(hand_body(game, hand), etag=hand.etag)


@bp.put("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def correct_hand(table_id: int, game_id: int, number: int) -> Response:
    """Replace a hand's report (If-Match required); the totals after it are recomputed."""
    table = authorized_table(table_id)
    document = json_body(entry_schema)
    game = operations.locked_game(table, game_id)
    hand = operations.correct_hand(game, number, document, request.headers.get("If-Match"))
    return respond(hand_body(game, hand), etag=hand.etag)


@bp.delete("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def undo_hand(table_id: int, game_id: int, number: int) -> Response:
    """Undo the last hand (If-Match required)."""
    game = operations.locked_game(authorized_table(table_id), game_id)
    operations.undo_hand(game, number, request.headers.get("If-Match"))
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


def _numbered(game: Game, number: int) -> Hand:
    if not 1 <= number <= len(game.hands):
        raise NotFound(f"The game has no hand {number}." if number else "No such hand.")
    return game.hands[number - 1]
