"""A player that counts cards, holds its safeties for coups-fourrés, attacks the leader and weighs
the extension: what a good table player does, without looking ahead."""

from __future__ import annotations

from random import Random
from typing import ClassVar

from engine.codes import (
    ANSWERS,
    CURES,
    DISTANCE,
    DISTANCE_200,
    HAZARD,
    KIND,
    KM,
    NO_CARD,
    REMEDY,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    SPEED_LIMIT,
)
from engine.moves import CALL, DECLINE, Discard, Move, Play
from engine.state import Phase
from engine.tableau import Tableau
from engine.view import SeatView

_COUP_FOURRE = Phase.COUP_FOURRE
_EXTENSION = Phase.EXTENSION

SAFETY_POINTS_NOW = 10
"""Draw-pile size under which holding a safety for a coup-fourré no longer pays: lay it."""


class StrongPlayer:
    """Heuristic play informed by every card seen so far."""

    name: ClassVar[str] = "strong"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        phase = view.phase
        if phase is _COUP_FOURRE:  # the coup-fourré if it holds the safety, else pass
            return moves[0]
        if phase is _EXTENSION:
            return CALL if self._should_extend(view) else DECLINE
        table = _Table(view)
        random = self.rng.random
        best, best_key = moves[0], (float("-inf"), 0.0)
        for move in moves:  # the first of the best, as ``ranked(view)[0]``: one draw per move
            key = (table.value(move), random())
            if key > best_key:
                best, best_key = move, key
        return best

    def ranked(self, view: SeatView) -> list[Move]:
        """The legal moves, best first by this player's judgement (ties in random order)."""
        table = _Table(view)
        random = self.rng.random
        moves = view.legal_moves
        return sorted(moves, key=lambda move: (table.value(move), random()), reverse=True)

    # -- what the seat knows -------------------------------------------------------------------

    @staticmethod
    def _should_extend(view: SeatView) -> bool:
        """Extend when the 300 more km look reachable and no opponent is close to 1,000."""
        mine = view.tableau(view.side)
        distance_in_hand = sum(KM[card] for card in view.hand_codes)
        rivals = max(view.tableau(side).distance for side in range(view.sides) if side != view.side)
        return (
            distance_in_hand >= 200
            and rivals < 500
            and view.draw_pile > 20
            and (mine.battle_top == ROLL or mine.protected(SPEED_LIMIT))
        )


class _Table:
    """What one decision needs to know, read from the view as it is asked."""

    __slots__ = ("view", "mine", "target", "draw_pile", "side", "sides")

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.side = view.side
        self.sides = view.sides
        self.mine: Tableau = view.tableau(self.side)
        self.target = view.target
        self.draw_pile = view.draw_pile

    def value(self, move: Move) -> float:
        """How good ``move`` is now."""
        if isinstance(move, Discard):
            return -self.keep(move.code)
        if not isinstance(move, Play):
            return 0.0
        card = move.code
        mine = self.mine
        kind = KIND[card]
        if kind == DISTANCE:
            remaining = self.target - mine.distance
            km = KM[card]
            if km == remaining:
                return 1000.0  # completes the trip
            value = 200.0 + km
            if card == DISTANCE_200 and mine.two_hundreds == 0 and remaining > 400:
                value -= 60  # keeps the safe trip (300) open a little longer
            return value
        if kind == SAFETY:
            top = mine.battle_top
            hazard_cured = (top != NO_CARD and bool(ANSWERS[card] >> top & 1)) or (
                card == RIGHT_OF_WAY and mine.speed_top == SPEED_LIMIT
            )
            if hazard_cured:
                return 260.0
            return 150.0 if self.draw_pile < SAFETY_POINTS_NOW else -50.0
        if kind == HAZARD and move.target is not None:
            target = self.view.tableau(move.target)
            value = 150.0 + target.distance / 10
            unseen = self.view.unseen_count
            if unseen(SAFETY_FOR[card]) > 0:
                value -= 60  # the safety may be in that side's hand: a coup-fourré waiting
            value += 20 * (2 - min(unseen(REMEDY_FOR[card]), 2))  # scarce remedies hurt more
            if card == SPEED_LIMIT:
                value -= 40 if target.distance < self.target - 200 else 0
            return value
        return 240.0  # Roll, a remedy, End of Limit: back on the road

    def keep(self, card: int) -> float:
        """How much ``card`` is worth holding on to."""
        kind = KIND[card]
        if kind == SAFETY:
            return 100.0
        mine = self.mine
        if kind == REMEDY:
            hazards = ANSWERS[card]
            if mine.protection & hazards:
                return 0.0  # protected already: this remedy is dead
            return 40.0 + 10 * self.view.unseen_count(CURES[card])
        if kind == DISTANCE:
            if mine.distance + KM[card] > self.target:
                return 1.0
            return 20.0 + KM[card] / 10
        view = self.view
        for side in range(self.sides):
            if side != self.side and not view.tableau(side).protected(card):
                return 30.0
        return 0.0  # nobody left to play it on
