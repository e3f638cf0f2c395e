"""Virtual games: start one with seats for players and computers, read it as a seat (or watch
it with the table's token), ask for a hint, post moves, and fetch the full record once it has
ended."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, url_for
from werkzeug.exceptions import Forbidden

from engine.sentences import N_
from scorekeeper.api.games import game_schema
from scorekeeper.domain.credentials import Scope
from scorekeeper.results.standings import game_view
from scorekeeper.schemas.resources import (
    MoveSchema,
    StandInSchema,
    VirtualGameCreateSchema,
    VirtualQuerySchema,
)
from scorekeeper.services import virtual
from scorekeeper.web import live
from scorekeeper.web.auth import authorized_seat, authorized_table
from scorekeeper.web.http import json_body, queried, query, respond
from scorekeeper.web.i18n import language
from scorekeeper.web.move_words import MoveWords
from scorekeeper.web.words import in_language, side_label

bp = Blueprint("virtual", __name__)


def virtual_url(table_id: int, game_id: int) -> str:
    return url_for("api.virtual.read_virtual_game", table_id=table_id, game_id=game_id)


def view_body(shown: virtual.GameAsSeen) -> dict[str, Any]:
    """The game as its seat sees it (None: as a watcher, every hand hidden)."""
    state: dict[str, Any] | None = shown.public
    if shown.seat is not None:
        state = None if shown.seat_choices is None else shown.seat_choices.to_dict()
    game = shown.game
    return {
        "game": game_schema.dump(in_language(game_view(game))),
        "seat": shown.seat,
        "next_move": shown.next_move,
        "hand_number": shown.hand_number,
        "state": state,
        "events": shown.events,
        "stand_ins": [
            {"seat": chair.seat, "computer": chair.stand_in}
            for side in game.sides
            for chair in side.seats
            if chair.stand_in is not None
        ],
        "stand_in_hands": shown.stand_in_hands,
    }


def _answer(shown: virtual.GameAsSeen, since: int, status: int = 200) -> Response:
    """The game as its seat sees it; each seat sees its own hand, so each seat (and the
    watchers) has its own tag, in each language."""
    viewer = "watcher" if shown.seat is None else f"seat{shown.seat}"
    # Computers are named in the request's language: each language has its own tag.
    etag = f"{shown.game.etag}-{viewer}-since{since}-{language()}"
    return respond(view_body(shown), status, etag=etag)


def _dealt(shown: virtual.GameAsSeen, tokens: dict[int, str]) -> Response:
    document = view_body(shown)
    document["seat_tokens"] = [{"seat": seat, "token": token} for seat, token in tokens.items()]
    return respond(document, 201, location=virtual_url(shown.game.table_id, shown.game.id))


@bp.post("/tables/<id:table_id>/virtual-games")
def start_virtual_game(table_id: int) -> Response:
    """Start a virtual game; the answer holds each player's seat token, shown this once."""
    table = authorized_table(table_id)
    body = json_body(VirtualGameCreateSchema())
    return _dealt(*virtual.start(table, body["players"], body.get("variants") or {}, body["seats"]))


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/rematch")
def rematch_virtual_game(table_id: int, game_id: int) -> Response:
    """Deal an ended game again: same seats, same computers, same variants, a new deal; the
    answer holds each player's new seat token, shown this once."""
    return _dealt(*virtual.rematch(authorized_table(table_id), game_id))


@bp.get("/tables/<id:table_id>/virtual-games/<id:game_id>")
@queried(VirtualQuerySchema())
@live.waits
def read_virtual_game(table_id: int, game_id: int) -> Response:
    """The game as the token's seat sees it, or as a watcher with the table's token (ETag, 304;
    with ``Prefer: wait``, the 304 waits for the game to move: :mod:`~scorekeeper.web.live`);
    ``since`` limits the event log to the moves from that number on."""
    seat = authorized_seat(table_id, game_id)
    since = query()["since"]
    number = None if seat is None else seat.seat
    shown = virtual.read(table_id, game_id, number, since)
    live.watched(shown.game.id, shown.game.version, virtual.window_left(shown.game))
    return _answer(shown, since)


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/moves")
def play_move(table_id: int, game_id: int) -> Response:
    """Play the seat's move (its number is the one the phone read as next); the computers
    answer within the same request. A retried move is answered again, not played twice."""
    seat = authorized_seat(table_id, game_id)
    if seat is None:
        raise Forbidden(N_("The table's token watches a virtual game; moves need a seat's token."))
    body = json_body(MoveSchema())
    number = body.pop("number")
    shown, replayed = virtual.play_move(table_id, game_id, seat.seat, number, body)
    response = _answer(shown, number)
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/token")
def reissue_seat_token(table_id: int, game_id: int, seat: int) -> Response:
    """A new token for a player's seat whose link was lost, with the table's token; the old
    one stops working at once. The answer holds the token, shown this once."""
    authorized_table(table_id, Scope.OWNER)
    token = virtual.reissue(table_id, game_id, seat)
    response = respond({"seat": seat, "token": token}, 200)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/stand-in")
def hand_seat_to_computer(table_id: int, game_id: int, seat: int) -> Response:
    """A computer plays a player's seat while the player is away, with the table's token; it
    moves at once if the game waits for that seat. The answer is the game as a watcher sees it."""
    authorized_table(table_id)
    body = json_body(StandInSchema())
    return _answer(virtual.hand_to_computer(table_id, game_id, seat, body["computer"]), 0)


@bp.delete("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/stand-in")
def take_seat_back(table_id: int, game_id: int, seat: int) -> Response:
    """The player takes the seat back from the computer, with the table's token or the seat's
    own; the answer is the game as that token sees it."""
    holder = authorized_seat(table_id, game_id)
    if holder is not None and holder.seat != seat:
        raise Forbidden(N_("A seat's token takes back that seat only."))
    viewer = None if holder is None else holder.seat
    return _answer(virtual.take_back(table_id, game_id, seat, viewer), 0)


@bp.get("/tables/<id:table_id>/virtual-games/<id:game_id>/hint")
def read_hint(table_id: int, game_id: int) -> Response:
    """The strong computer player's choice for the seat's own move, from what that seat sees,
    to be played (or not) under ``number``; nothing is played. Kept by no cache: it is the
    seat's own, and tells its cards."""
    seat = authorized_seat(table_id, game_id)
    if seat is None:
        raise Forbidden(
            N_("The table's token watches a virtual game; a hint needs a seat's token.")
        )
    hint = virtual.hint(table_id, game_id, seat.seat)
    move = hint.move.to_dict()
    # Named as the seat's page names them: computers in the request's language.
    names = [side_label(side) for side in hint.game.sides]
    body = {"number": hint.number, **move, "label": MoveWords.of(hint.view, names).name(move)}
    # The label is in the request's language: each language has its own tag.
    response = respond(body, etag=f"{hint.game.etag}-seat{seat.seat}-hint-{language()}")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<id:table_id>/virtual-games/<id:game_id>/record")
def read_record(table_id: int, game_id: int) -> Response:
    """The whole game, seed and moves, to replay it: only once it has ended, since the seed
    tells every hand."""
    authorized_table(table_id)
    game, document = virtual.record(table_id, game_id)
    return respond(document, etag=game.etag)
