"""A table as one JSON document, to move it to another server or keep it: the export.

The document (format ``mille-bornes-table``, version :data:`VERSION`; ``TableExport`` in
openapi.yaml) holds everything needed to rebuild the table: its players, its games with their
sides and seats, every hand with its report (as last corrected) and the engine's breakdown, each
game's kept totals, and each virtual game's seed, variants and stored moves. Ids are the
database's own, so a document imported on a new server and exported again is the same bytes.
Idempotency records are left out: they only replay a retried POST, and expire in 48 hours.

The seeds and tokens are stored as they are: a seed tells every deal of a virtual game, so the
API gives the document only when no virtual game of the table is in progress (the CLI, run by
whoever runs the server, gives it always); token hashes open nothing (:mod:`scorekeeper.web.auth`).
:mod:`scorekeeper.documents.importing` reads the document back.

How the document grows. A field the import can do without is added within a version: optional,
its absence given a meaning in ``TableExport`` (openapi.yaml), and read by the import whether it
is there or not. Anything else (a field the import needs, a meaning changed, a field removed) is
a new :data:`VERSION`, and the import goes on reading every older version it can rebuild a table
from. An app refuses a field it does not know (the schemas are strict, so a misspelt field is
never silently dropped): a document moves to an app at least as new as the one that wrote it.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Hand, Player, Seat, Side, Table, VirtualMove

FORMAT = "mille-bornes-table"
VERSION = 1


def stamp(moment: datetime | None) -> str | None:
    """A stored UTC time in the document: always with microseconds and a ``Z``, so it reads
    back to the same value and writes out to the same bytes."""
    return None if moment is None else moment.isoformat(timespec="microseconds") + "Z"


def export_table(table: Table) -> dict[str, Any]:
    """The document of ``table``: the same content for the same stored rows, in id order."""
    games = list(
        db.session.execute(
            select(Game).where(Game.table_id == table.id).order_by(Game.id)
        ).scalars()
    )
    ids = [game.id for game in games]
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": {
            "id": table.id,
            "name": table.name,
            "token_hash": table.token_hash,
            "created_at": stamp(table.created_at),
        },
        "players": [_player(player) for player in _rows(Player, Player.table_id == table.id)],
        "games": [_game(game) for game in games],
        "hands": [_hand(hand) for hand in _rows(Hand, Hand.game_id.in_(ids), Hand.number)],
        "moves": [
            _move(move)
            for move in _rows(VirtualMove, VirtualMove.game_id.in_(ids), VirtualMove.number)
        ],
    }


def dumps(document: dict[str, Any]) -> str:
    """The document as the CLI writes it: one field per line, keys in the document's order."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _rows(model: Any, where: Any, *order: Any) -> list[Any]:
    by_game = (model.game_id,) if hasattr(model, "game_id") else ()
    statement = select(model).where(where).order_by(*by_game, *order, model.id)
    return list(db.session.execute(statement).scalars())


def _player(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "created_at": stamp(player.created_at)}


def _game(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "players": game.players,
        "variants": game.variants,
        "status": game.status,
        "version": game.version,
        "created_at": stamp(game.created_at),
        "updated_at": stamp(game.updated_at),
        "finished_at": stamp(game.finished_at),
        "sides": [_side(side) for side in game.sides],
        "kept": {
            "hand_count": game.hand_count,
            "totals": game.totals,
            "leaders": game.leaders,
            "outcome": game.outcome,
            "winner": game.winner,
        },
        "virtual": None
        if game.seed is None
        else {"seed": game.seed, "private_chances": game.private_chances},
    }


def _side(side: Side) -> dict[str, Any]:
    return {"index": side.index, "name": side.name, "seats": [_seat(seat) for seat in side.seats]}


def _seat(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "player": seat.player_id,
        "computer": seat.computer,
        "stand_in": seat.stand_in,
        "token_hash": seat.token_hash,
    }


def _hand(hand: Hand) -> dict[str, Any]:
    return {
        "game": hand.game_id,
        "number": hand.number,
        "version": hand.version,
        "created_at": stamp(hand.created_at),
        "updated_at": stamp(hand.updated_at),
        "report": hand.report,
        "breakdown": hand.breakdown,
    }


def _move(move: VirtualMove) -> dict[str, Any]:
    return {
        "game": move.game_id,
        "number": move.number,
        "seat": move.seat,
        "move": move.move,
        "stand_in": move.stand_in,
        "created_at": stamp(move.created_at),
    }
