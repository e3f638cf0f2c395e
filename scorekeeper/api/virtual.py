"""Virtual games: start one with seats for players and computers, read it as a seat (or watch
it with the table's token), ask for a hint, post moves, and fetch the full record once it has
ended."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for
from werkzeug.exceptions import Conflict, Forbidden, NotFound

from engine.view import seat_view
from scorekeeper.api.games import game_schema, table_game
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import (
    MoveSchema,
    StandInSchema,
    VirtualGameCreateSchema,
    VirtualQuerySchema,
)
from scorekeeper.services import virtual
from scorekeeper.services.levels import side_label
from scorekeeper.services.move_words import MoveWords
from scorekeeper.services.operations import locked_game
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, GameStatus, Table
from scorekeeper.web.auth import authorized_seat, authorized_table
from scorekeeper.web.http import json_body, respond
from scorekeeper.web.i18n import N_, language

bp = Blueprint("virtual", __name__)


def virtual_url(table_id: int, game_id: int) -> str:
    return url_for("api.virtual.read_virtual_game", table_id=table_id, game_id=game_id)


def view_body(game: Game, seat: int | None, since: int) -> dict[str, Any]:
    """The game as ``seat`` sees it (None: as a watcher, every hand hidden)."""
    with virtual.restored(game) as played:
        state: dict[str, Any] | None = None
        if seat is not None:
            sight = virtual.seat_sight(game, played, seat)
            state = None if sight is None else sight.to_dict()
        elif not played.over:
            state = seat_view(played.hand, 0).public_dict()
        return {
            "game": game_schema.dump(game_view(game)),
            "seat": seat,
            "next_move": played.move_count,
            "hand_number": len(played.sheet.hands) + (0 if played.over else 1),
            "state": state,
            "events": virtual.events(played, seat, since),
            "stand_ins": [
                {"seat": chair.seat, "computer": chair.stand_in}
                for side in game.sides
                for chair in side.seats
                if chair.stand_in is not None
            ],
            "stand_in_hands": virtual.stand_in_hands(game, played),
        }


def _etag(game: Game, seat: int | None, since: int) -> str:
    """Each seat sees its own hand, so each seat (and the watchers) has its own tag."""
    viewer = "watcher" if seat is None else f"seat{seat}"
    return f"{game.etag}-{viewer}-since{since}"


@bp.post("/tables/<id:table_id>/virtual-games")
def start_virtual_game(table_id: int) -> Response:
    """Start a virtual game; the answer holds each player's seat token, shown this once."""
    table = authorized_table(table_id)
    body = json_body(VirtualGameCreateSchema())
    game, tokens = virtual.start(table, body["players"], body.get("variants") or {}, body["seats"])
    document = view_body(game, None, 0)
    document["seat_tokens"] = [{"seat": seat, "token": token} for seat, token in tokens.items()]
    return respond(document, 201, location=virtual_url(table_id, game.id))


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/rematch")
def rematch_virtual_game(table_id: int, game_id: int) -> Response:
    """Deal an ended game again: same seats, same computers, same variants, a new deal; the
    answer holds each player's new seat token, shown this once."""
    table = authorized_table(table_id)
    game, tokens = virtual.rematch(table, _locked_virtual_game(table, game_id))
    document = view_body(game, None, 0)
    document["seat_tokens"] = [{"seat": seat, "token": token} for seat, token in tokens.items()]
    return respond(document, 201, location=virtual_url(table_id, game.id))


@bp.get("/tables/<id:table_id>/virtual-games/<id:game_id>")
def read_virtual_game(table_id: int, game_id: int) -> Response:
    """The game as the token's seat sees it, or as a watcher with the table's token (ETag, 304);
    ``since`` limits the event log to the moves from that number on."""
    seat = authorized_seat(table_id, game_id)
    game = virtual.settle(_virtual_game(table_id, game_id))
    since = load(VirtualQuerySchema(), request.args.to_dict())["since"]
    number = None if seat is None else seat.seat
    return respond(view_body(game, number, since), etag=_etag(game, number, since))


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/moves")
def play_move(table_id: int, game_id: int) -> Response:
    """Play the seat's move (its number is the one the phone read as next); the computers
    answer within the same request. A retried move is answered again, not played twice."""
    seat = authorized_seat(table_id, game_id)
    if seat is None:
        raise Forbidden(N_("The table's token watches a virtual game; moves need a seat's token."))
    body = json_body(MoveSchema())
    number = body.pop("number")
    table = db.session.get(Table, table_id)
    assert table is not None
    game = locked_game(table, game_id)
    with virtual.restored(game) as played:
        replayed = virtual.play(game, played, seat.seat, number, body)
    response = respond(view_body(game, seat.seat, number), etag=_etag(game, seat.seat, number))
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/token")
def reissue_seat_token(table_id: int, game_id: int, seat: int) -> Response:
    """A new token for a player's seat whose link was lost, with the table's token; the old
    one stops working at once. The answer holds the token, shown this once."""
    game = _locked_virtual_game(authorized_table(table_id), game_id)
    token = virtual.reissue(game, seat)
    response = respond({"seat": seat, "token": token}, 200)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/stand-in")
def hand_seat_to_computer(table_id: int, game_id: int, seat: int) -> Response:
    """A computer plays a player's seat while the player is away, with the table's token; it
    moves at once if the game waits for that seat. The answer is the game as a watcher sees it."""
    table = authorized_table(table_id)
    body = json_body(StandInSchema())
    game = _locked_virtual_game(table, game_id)
    virtual.hand_to_computer(game, seat, body["computer"])
    return respond(view_body(game, None, 0), etag=_etag(game, None, 0))


@bp.delete("/tables/<id:table_id>/virtual-games/<id:game_id>/seats/<int:seat>/stand-in")
def take_seat_back(table_id: int, game_id: int, seat: int) -> Response:
    """The player takes the seat back from the computer, with the table's token or the seat's
    own; the answer is the game as that token sees it."""
    holder = authorized_seat(table_id, game_id)
    if holder is not None and holder.seat != seat:
        raise Forbidden("A seat's token takes back that seat only.")
    table = db.session.get(Table, table_id)
    assert table is not None
    game = _locked_virtual_game(table, game_id)
    virtual.take_back(game, seat)
    number = None if holder is None else holder.seat
    return respond(view_body(game, number, 0), etag=_etag(game, number, 0))


def _locked_virtual_game(table: Table, game_id: int) -> Game:
    game = locked_game(table, game_id)
    if not game.virtual:
        raise NotFound("This game is played at a table, not in the app: see its games resource.")
    return game


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
    game = _virtual_game(table_id, game_id)
    with virtual.restored(game) as played:
        move = virtual.hint(game, played, seat.seat).to_dict()
        # Named as the seat's page names them: computers in the request's language.
        names = [side_label(side) for side in game.sides]
        words = MoveWords.of(seat_view(played.hand, seat.seat), names)
        body = {"number": played.move_count, **move, "label": words.name(move)}
    # The label is in the request's language: each language has its own tag.
    response = respond(body, etag=f"{game.etag}-seat{seat.seat}-hint-{language()}")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<id:table_id>/virtual-games/<id:game_id>/record")
def read_record(table_id: int, game_id: int) -> Response:
    """The whole game, seed and moves, to replay it: only once it has ended, since the seed
    tells every hand."""
    game = _virtual_game(table_id, game_id, authorized_table(table_id))
    if game.status == GameStatus.IN_PROGRESS:
        raise Conflict(
            N_("The record is given once the game has ended: its seed tells every hand.")
        )
    with virtual.restored(game) as played:
        return respond(played.to_dict(), etag=game.etag)


def _virtual_game(table_id: int, game_id: int, table: Table | None = None) -> Game:
    table = table or db.session.get(Table, table_id)
    if table is None:
        raise NotFound(N_("There is no such table."))
    game = table_game(table, game_id)
    if not game.virtual:
        raise NotFound(
            N_("This game is played at a table, not in the app: see its games resource.")
        )
    return game
