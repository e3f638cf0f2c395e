"""A player that takes the best immediate gain and thinks no further."""

from __future__ import annotations

from random import Random
from typing import ClassVar

from engine.codes import DISTANCE, HAZARD, KIND, KM, REMEDY, ROLL, SAFETY
from engine.moves import CALL, PASS, CoupFourre, Discard, Move, Play
from engine.view import SeatView


class GreedyPlayer:
    """Coup-fourré whenever it can, the longest distance, then hazards on the leader, then
    remedies; discards what is least useful; extends whenever it can."""

    name: ClassVar[str] = "greedy"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        for move in moves:
            if isinstance(move, CoupFourre) or move is CALL:
                return move
        if moves[-1] is PASS:  # a chance without the safety (private chances ask every seat)
            return PASS
        return max(moves, key=lambda move: (self._value(view, move), self.rng.random()))

    @staticmethod
    def _value(view: SeatView, move: Move) -> float:
        if isinstance(move, Discard):
            return -_keep_value(move.code)
        if not isinstance(move, Play):
            return 0
        card = move.code
        kind = KIND[card]
        if kind == DISTANCE:
            return 100 + KM[card]
        if kind == SAFETY:
            return 90
        if kind == HAZARD and move.target is not None:
            return 60 + view.tableau(move.target).distance / 100
        return 80  # Roll, remedies, End of Limit: back on the road


def _keep_value(card: int) -> float:
    """How much a card is worth keeping: safeties most, then remedies, distance, hazards."""
    kind = KIND[card]
    if kind == SAFETY:
        return 50
    if kind == REMEDY:
        return 30 if card == ROLL else 20
    if kind == DISTANCE:
        return 10 + KM[card] / 100
    return 15
