"""What a seat of a virtual game sees and may do now, and what a watcher sees: made once, here,
and rendered by both the API and the seat's page, so what one offers the other offers too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from engine.cards import Card
from engine.legality import answers
from engine.moves import CoupFourre, Move, PassCoupFourre
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from scorekeeper.services.virtual.moves import window_seats
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, VirtualMove


@dataclass(frozen=True, slots=True)
class SeatChoices:
    """What a seat of a virtual game sees and may do now: the engine's view from its chair and,
    in an open coup-fourré window, the chance it is asked about before the chance reaches it
    (every person asked reads it at once). The API and the seat's page both render this, so
    what one offers the other offers too."""

    view: SeatView
    legal_moves: tuple[Move, ...]
    pending_hazard: Card | None
    in_window: bool
    """Whether the seat is asked in the open window: its page then offers no pass (the window
    closes by itself, so how long it stays open tells nothing), though the seat whose turn it
    is may still send one through the API."""

    @property
    def offered(self) -> tuple[Move, ...]:
        """The moves the seat's page offers: in an open coup-fourré window every person asked
        sees the same prompt at once, and a holder may lay the safety; nobody can close the
        window early (no pass button), it closes by itself."""
        if not self.in_window:
            return self.legal_moves
        return tuple(move for move in self.legal_moves if isinstance(move, CoupFourre))

    @property
    def to_play(self) -> bool:
        """Whether the seat is to play a card now (its turn, no window open)."""
        return self.view.to_act == self.view.seat and not self.in_window

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.view.to_dict(),
            "pending_hazard": None if self.pending_hazard is None else str(self.pending_hazard),
            "legal_moves": [move.to_dict() for move in self.legal_moves],
        }


def seat_choices(game: Game, played: VirtualGame, seat: int) -> SeatChoices | None:
    """What ``seat`` sees of ``played`` (the engine's game of ``game``) now; None once the game
    is over. The view is over a copy of the hand: the game goes back to the worker's cache when
    the block that holds it ends, and another request may play on it while this one answers."""
    if played.over:
        return None
    view = seat_view(played.hand.copy(), seat)
    chance = played.hand.chance  # a seat the chance does not ask needs no look at the window
    asked = chance is not None and seat in chance.seats and seat in window_seats(game, played)
    if not asked or played.hand.to_act == seat:
        return SeatChoices(view, view.legal_moves, view.pending_hazard, asked)
    coups_fourres = tuple(
        move for move in answers(played.hand, seat) if isinstance(move, CoupFourre)
    )
    return SeatChoices(view, coups_fourres, view.asked_hazard, asked)


@dataclass(frozen=True, slots=True)
class GameAsSeen:
    """A virtual game as one seat (or a watcher: ``seat`` None) sees it now."""

    game: Game
    seat: int | None
    next_move: int
    """The number the next move is played under."""
    hand_number: int
    """The hand being played (the last one, once the game is over)."""
    over: bool
    seat_choices: SeatChoices | None
    """What the seat sees and may do; None for a watcher, or once the game is over."""
    public: dict[str, Any] | None
    """What every seat sees of the hand (a watcher's state); None once the game is over."""
    events: list[dict[str, Any]]
    """The moves asked for, as the seat may see them (:func:`events`)."""
    moves_this_hand: int
    stand_in_hands: list[dict[str, Any]]


def game_as_seen(
    game: Game, played: VirtualGame, seat: int | None, since: int, *, last: int | None = None
) -> GameAsSeen:
    """What ``seat`` (None: a watcher) sees of ``played``, the engine's game of ``game``, with
    the moves from number ``since`` on (or the ``last`` ones)."""
    if last is not None:
        since = max(0, played.move_count - last)
    over = played.over
    return GameAsSeen(
        game=game,
        seat=seat,
        next_move=played.move_count,
        hand_number=len(played.sheet.hands) + (0 if over else 1),
        over=over,
        seat_choices=None if seat is None else seat_choices(game, played, seat),
        public=None if over or seat is not None else seat_view(played.hand, 0).public_dict(),
        events=events(played, seat, since),
        moves_this_hand=len(played.moves[-1]) if played.moves else 0,
        stand_in_hands=stand_in_hands(game, played),
    )


def stand_in_moves(game: Game) -> dict[int, str]:
    """The numbers of the moves a computer made in a player's place, each with that computer."""
    rows = db.session.execute(
        select(VirtualMove.number, VirtualMove.stand_in).where(
            VirtualMove.game_id == game.id, VirtualMove.stand_in.is_not(None)
        )
    )
    return {number: computer for number, computer in rows if computer is not None}


def stand_in_hands(game: Game, played: VirtualGame) -> list[dict[str, Any]]:
    """Who played which hands in a player's place: for each hand (numbered from 1) and seat,
    the computer that made at least one of the seat's moves in it, in order of hand and seat.
    A seat of a hand not listed was played by its own player (or is a computer's seat).

    ``played`` is the engine's game of ``game``."""
    numbers = stand_in_moves(game)
    if not numbers:
        return []
    events = played.events(min(numbers))
    found = {(hand, seat, numbers[number]) for number, hand, seat, _ in events if number in numbers}
    return [
        {"hand": hand, "seat": seat, "computer": computer} for hand, seat, computer in sorted(found)
    ]


def events(played: VirtualGame, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The moves from number ``since`` on, as ``seat`` (None: a watcher) may see them.

    Under private chances every seat of an attacked side answers every chance, holder or not,
    so every answer is shown. A game stored before them asked only the holder: there a seat
    letting a coup-fourré go is seen by that seat only.
    """
    return [
        {"number": number, "hand": hand, "seat": by, **move.to_dict()}
        for number, hand, by, move in played.events(since)
        if played.private_chances or by == seat or not isinstance(move, PassCoupFourre)
    ]
