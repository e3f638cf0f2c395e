"""Hands of a game: add (idempotent), read, correct (If-Match), undo the last (If-Match)."""

from __future__ import annotations

from flask import Blueprint, Response, url_for
from sqlalchemy.orm import joinedload

from scorekeeper.results.standings import hand_view, running
from scorekeeper.schemas.resources import HandEntrySchema, HandOutSchema
from scorekeeper.services import operations
from scorekeeper.storage.locks import KEY_PARAMETER, LockedWithKey, with_key_record
from scorekeeper.storage.models import Game, Hand, load_hands
from scorekeeper.web.auth import authorized_game, authorized_row, authorized_table, game_of_token
from scorekeeper.web.http import (
    Answer,
    body_read_early,
    idempotent,
    json_body,
    respond,
    versions_read,
)

bp = Blueprint("hands", __name__)
hand_schema = HandOutSchema()
entry_schema = HandEntrySchema()
locked_with_sides = with_key_record(game_of_token(joinedload(Game.sides), lock=True))
"""A new hand needs the sides' names (its breakdown names them), never the other hands; the
request's idempotency key is looked up in the same query."""
game_alone = game_of_token()
"""A hand's answer needs the hands up to it, read by :func:`load_hands`."""


def hand_body(hand: Hand, totals: list[int]) -> dict[str, object]:
    """A hand as answered, with the running ``totals`` after it."""
    body: dict[str, object] = hand_schema.dump(hand_view(hand, totals))
    return body


def totals_after(game: Game, number: int) -> list[int]:
    """The running totals after hand ``number`` of ``game`` (its hands loaded)."""
    *_, totals = running(game.hands[:number], len(game.totals))
    return totals


def hand_url(table_id: int, game_id: int, number: int) -> str:
    return url_for("api.hands.read_hand", table_id=table_id, game_id=game_id, number=number)


@bp.post("/tables/<id:table_id>/games/<id:game_id>/hands")
def add_hand(table_id: int, game_id: int) -> Response:
    """Record the next hand; a retry with the same Idempotency-Key records nothing twice.

    The token, the game, its lock and the idempotency key's record in one query, with the
    sides (their names go into the breakdown) but not the hands: the answer's totals are the
    game's own, kept with it.
    """
    read_body = body_read_early(entry_schema)

    def lock(key: str | None) -> LockedWithKey:
        row = authorized_row(locked_with_sides, table_id, game_id, {KEY_PARAMETER: key})
        return row[0], row[1]

    def produce(game: Game) -> Answer:
        hand = operations.add_hand(game, read_body())
        answer = hand_body(hand, game.totals)
        return 201, answer, hand_url(table_id, game_id, hand.number), hand.etag

    return idempotent(table_id, lock, produce)


@bp.get("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def read_hand(table_id: int, game_id: int, number: int) -> Response:
    """One hand: its report, its breakdown and the running totals after it (ETag, 304)."""
    game = authorized_game(game_alone, table_id, game_id)
    load_hands(game)
    hand = operations.numbered_hand(game, number)
    return respond(hand_body(hand, totals_after(game, number)), etag=hand.etag)


@bp.put("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def correct_hand(table_id: int, game_id: int, number: int) -> Response:
    """Replace a hand's report (If-Match required); the totals after it are recomputed."""
    table = authorized_table(table_id)
    document = json_body(entry_schema)
    game = operations.locked_game(table, game_id)
    hand = operations.correct_hand(game, number, document, versions_read())
    return respond(hand_body(hand, totals_after(game, number)), etag=hand.etag)


@bp.delete("/tables/<id:table_id>/games/<id:game_id>/hands/<id:number>")
def undo_hand(table_id: int, game_id: int, number: int) -> Response:
    """Undo the last hand (If-Match required)."""
    game = operations.locked_game(authorized_table(table_id), game_id)
    operations.undo_hand(game, number, versions_read())
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response
