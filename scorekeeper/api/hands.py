"""Hands of a game: add (idempotent), read, correct (If-Match), undo the last (If-Match)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, url_for

from scorekeeper.results.standings import hand_view
from scorekeeper.schemas.resources import HandEntrySchema, HandOutSchema, NewHandSchema
from scorekeeper.services import operations
from scorekeeper.web.auth import authorized_table, table_game_with_hands
from scorekeeper.web.http import json_body, load_body_first, no_content, respond, versions_read
from scorekeeper.web.idempotency import WriteAnswer, idempotent

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game, Hand

bp = Blueprint("hands", __name__)
hand_schema = HandOutSchema()
entry_schema = HandEntrySchema()
new_hand_schema = NewHandSchema()


def hand_body(hand: Hand, totals: list[int]) -> dict[str, object]:
    """A hand as answered, with the running ``totals`` after it."""
    body: dict[str, object] = hand_schema.dump(hand_view(hand, totals))
    return body


def hand_url(table_id: int, game_id: int, number: int) -> str:
    return url_for("api.hands.read_hand", table_id=table_id, game_id=game_id, number=number)


@bp.post("/tables/<id:table_id>/games/<id:game_id>/hands")
def add_hand(table_id: int, game_id: int) -> Response:
    """Record the next hand (the one the body's ``number`` names, if it names one); a retry
    with the same Idempotency-Key records nothing twice.

    The game is locked with its sides (their names go into the breakdown) but not its hands:
    the answer's totals are the game's own, kept with it.
    """
    body = load_body_first(new_hand_schema)
    table = authorized_table(table_id)

    def record(game: Game) -> WriteAnswer:
        document = dict(body.checked())
        number = document.pop("number", None)
        hand = operations.add_hand(game, document, number, versions_read())
        answer = hand_body(hand, game.totals)
        location = hand_url(table_id, game_id, hand.number)
        return WriteAnswer(201, answer, location, hand.etag(game.totals))

    return idempotent(table, game_id, record, hands=False)


@bp.get("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def read_hand(table_id: int, game_id: int, number: int) -> Response:
    """One hand: its report, its breakdown and the running totals after it (ETag, 304)."""
    game = table_game_with_hands(table_id, game_id)
    hand = operations.numbered_hand(game, number)
    totals = game.totals_after(number)
    return respond(hand_body(hand, totals), etag=hand.etag(totals))


@bp.put("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def correct_hand(table_id: int, game_id: int, number: int) -> Response:
    """Replace a hand's report (If-Match required); the totals after it are recomputed."""
    table = authorized_table(table_id)
    document = json_body(entry_schema)
    game = operations.locked_game(table, game_id)
    hand = operations.correct_hand(game, number, document, versions_read())
    totals = game.totals_after(number)
    return respond(hand_body(hand, totals), etag=hand.etag(totals))


@bp.delete("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def undo_hand(table_id: int, game_id: int, number: int) -> Response:
    """Undo the last hand (If-Match required)."""
    game = operations.locked_game(authorized_table(table_id), game_id)
    operations.undo_hand(game, number, versions_read())
    return no_content()
