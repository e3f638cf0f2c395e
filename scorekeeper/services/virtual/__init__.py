"""Virtual games: played in the app, move by move, against computer players or each other.

Each action a view takes is one call here, which owns the game's lock, brings the engine's game
back (once for a move; a read that closes a coup-fourré window takes it again, from the same
transaction) (:mod:`~scorekeeper.services.virtual.replay`), plays
(:mod:`~scorekeeper.services.virtual.moves`) and answers what the seat now sees
(:mod:`~scorekeeper.services.virtual.seen`). A game's life and its seats are
:mod:`~scorekeeper.services.virtual.lifecycle`. Nothing here commits: the request's transaction
does, and the engine's game goes back to the worker's cache once what it played is committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import ProblemCode
from engine.errors import InvalidRecord
from engine.moves import Move, move_from_dict
from engine.sentences import N_
from engine.view import SeatView, seat_view
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.refusals import NotNow
from scorekeeper.services.operations import invalid_request
from scorekeeper.services.virtual import lifecycle, moves, replay, seen
from scorekeeper.services.virtual.lifecycle import COMPUTERS
from scorekeeper.services.virtual.moves import suggest
from scorekeeper.services.virtual.replay import engine_game, virtual_game
from scorekeeper.services.virtual.seen import GameAsSeen, SeatChoices, game_as_seen
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Table

__all__ = [
    "COMPUTERS",
    "GameAsSeen",
    "Hint",
    "SeatChoices",
    "hand_to_computer",
    "hint",
    "lifecycle",
    "moves",
    "play_move",
    "read",
    "record",
    "rematch",
    "reissue",
    "replay",
    "seen",
    "seen_by",
    "stand_in_hands",
    "start",
    "suggest",
    "take_back",
    "up_to_date",
    "virtual_game",
    "window_left",
]


def start(
    table: Table, players: int, variants: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
) -> tuple[GameAsSeen, dict[int, str]]:
    """A new virtual game, the computers' first moves played, as a watcher sees it; each player's
    seat token (the only time it is known)."""
    return _first_moves(*lifecycle.deal(table, players, variants, seats))


def rematch(table: Table, game_id: int) -> tuple[GameAsSeen, dict[int, str]]:
    """Ended game ``game_id`` dealt again (:func:`lifecycle.rematch`), as a watcher sees it; each
    player's new token."""
    return _first_moves(*lifecycle.rematch(table, virtual_game(table.id, game_id, locked=True)))


def _first_moves(game: Game, tokens: dict[int, str]) -> tuple[GameAsSeen, dict[int, str]]:
    """A game just dealt, its computers' first moves played, as a watcher sees it; ``tokens``."""
    with engine_game(game) as played:
        moves.let_computers_play(game, played)
        return game_as_seen(game, played, None, 0), tokens


def up_to_date(game: Game) -> Game:
    """``game`` with its coup-fourré window closed if its time is up, for a request that reads
    it: the phones' reads close the window, nobody has to tap. The game is locked (and read
    again) only when there is a window to close; what closing it wrote is flushed, so the game's
    version (its ETag) is the one the request commits."""
    if moves.chance_window() <= 0 or game.status != GameStatus.IN_PROGRESS:
        return game
    with engine_game(game) as played:
        due = moves.window_is_due(game, played)
    if not due:
        return game
    game = virtual_game(game.table_id, game.id, locked=True)
    with engine_game(game) as played:
        if moves.close_window(game, played):
            db.session.flush()
    return game


def window_left(game: Game) -> float | None:
    """Seconds until ``game``'s open coup-fourré window closes (the read then closes it), or None
    if no window is open: a page waiting for the game to change must read it again by then."""
    if moves.chance_window() <= 0 or game.status != GameStatus.IN_PROGRESS:
        return None
    with engine_game(game) as played:
        closes = moves.window_closes_at(game, played)
    return None if closes is None else (closes - moves.clock()).total_seconds()


def seen_by(game: Game, seat: int | None, since: int, *, last: int | None = None) -> GameAsSeen:
    """:func:`~scorekeeper.services.virtual.seen.game_as_seen` of ``game`` as it stands."""
    with engine_game(game) as played:
        return game_as_seen(game, played, seat, since, last=last)


def stand_in_hands(game: Game) -> list[dict[str, Any]]:
    """:func:`~scorekeeper.services.virtual.seen.stand_in_hands` of ``game``, its engine's game
    brought back only if a computer ever stood in (the moves do not say their hand)."""
    if not seen.stand_in_moves(game):
        return []
    with engine_game(game) as played:
        return seen.stand_in_hands(game, played)


def read(table_id: int, game_id: int, seat: int | None, since: int) -> GameAsSeen:
    """Virtual game ``game_id`` as ``seat`` (None: a watcher) sees it, its window closed if its
    time is up, with the moves from number ``since`` on."""
    return seen_by(up_to_date(virtual_game(table_id, game_id)), seat, since)


def play_move(
    table_id: int, game_id: int, seat: int, number: int, document: Mapping[str, Any]
) -> tuple[GameAsSeen, bool]:
    """Play ``document`` (a move as the API writes it) as move ``number`` for ``seat``, then let
    the computers play; what the seat sees then, from move ``number`` on, and whether the move
    was a retry of one already played (nothing played again)."""
    move = _move(document)
    game = virtual_game(table_id, game_id, locked=True)
    with engine_game(game) as played:
        replayed = moves.play(game, played, seat, number, move)
        return game_as_seen(game, played, seat, number), replayed


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint for a seat's own move: the move, the number to play it under, the seat's view it
    was chosen from (a label words it by that view; a copy, the game's own hand goes on without
    it) and the game."""

    move: Move
    number: int
    view: SeatView
    game: Game


def hint(table_id: int, game_id: int, seat: int) -> Hint:
    """:func:`moves.hint` for ``seat`` of virtual game ``game_id``; nothing is played."""
    game = virtual_game(table_id, game_id)
    with engine_game(game) as played:
        move = moves.hint(game, played, seat)
        return Hint(move, played.move_count, seat_view(played.hand.copy(), seat), game)


def record(table_id: int, game_id: int) -> tuple[Game, dict[str, Any]]:
    """The whole game, seed and moves, to replay it: only once it has ended, since the seed
    tells every hand."""
    game = virtual_game(table_id, game_id)
    if game.status == GameStatus.IN_PROGRESS:
        raise NotNow(N_("The record is given once the game has ended: its seed tells every hand."))
    with engine_game(game) as played:
        return game, played.to_dict()


def reissue(table_id: int, game_id: int, seat: int) -> str:
    """:func:`lifecycle.reissue` on virtual game ``game_id``, its row locked."""
    return lifecycle.reissue(virtual_game(table_id, game_id, locked=True), seat)


def hand_to_computer(table_id: int, game_id: int, seat: int, computer: str) -> GameAsSeen:
    """:func:`lifecycle.hand_to_computer` on virtual game ``game_id``, its row locked; the game
    as a watcher sees it then."""
    game = virtual_game(table_id, game_id, locked=True)
    with engine_game(game) as played:
        lifecycle.hand_to_computer(game, played, seat, computer)
        return game_as_seen(game, played, None, 0)


def take_back(table_id: int, game_id: int, seat: int, viewer: int | None = None) -> GameAsSeen:
    """:func:`lifecycle.take_back` on virtual game ``game_id``, its row locked; the game as
    ``viewer`` (None: a watcher) sees it then."""
    game = virtual_game(table_id, game_id, locked=True)
    lifecycle.take_back(game, seat)
    return seen_by(game, viewer, 0)


def _move(document: Mapping[str, Any]) -> Move:
    try:
        return move_from_dict(dict(document))
    except InvalidRecord as error:
        raise invalid_request(
            "/move", ProblemCode.INVALID_FIELD, "%(why)s", why=str(error)
        ) from None
