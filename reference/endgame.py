"""The end of a two-seat hand, solved exactly when it is small enough.

With two seats and an empty draw pile, the cards a seat has not seen are exactly its rival's hand:
the rest of the hand is a game of perfect information, as short as the cards left in the two
hands. :class:`Endgame` searches it to the end (minimax: the seat's side takes the best move, the
rival the worst for it), every position valued once, and answers only within a budget of
positions, so a decision never takes long: early in the end, with a dozen cards in hand, it
gives up and the sampled search decides; a few turns later the same hand is solved. Positions
solved are kept for the rest of the hand, so the later turns cost little.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.moves import Move
from engine.phase import Phase
from engine.state import HandState
from engine.tableau import Tableau

NODES = 3_000
"""Positions searched at most for one decision (kept positions aside)."""

PlayoutValue = Callable[[HandState, int], float]

_Key = tuple[object, ...]


class _OutOfBudget(Exception):
    """The position is too big for the budget left."""


class Endgame:
    """An exact solver for the rest of a hand, one side's outcome maximised, with what it solved
    kept for the hand (values depend on the side, the outcome and the game totals)."""

    def __init__(self, outcome: PlayoutValue, nodes: int = NODES) -> None:
        self.outcome = outcome
        self.nodes = nodes
        self._values: dict[_Key, float] = {}
        self._owner: tuple[int, tuple[int, ...]] = (-1, ())
        self._left = 0

    def best(self, state: HandState, side: int) -> list[tuple[float, Move]] | None:
        """Every legal move of the seat to act with its exact value for ``side``, best first
        (the legal order kept among equals); None when the budget runs out first. ``state``
        must be the whole truth (two seats, the draw pile empty): it is not changed."""
        owner = (side, state.scores)
        if owner != self._owner:
            self._values, self._owner = {}, owner
        self._left = self.nodes
        seat = state.to_act
        valued: list[tuple[float, Move]] = []
        try:
            for move in state.legal_moves(seat):
                child = state.copy()
                child.apply_legal(move, seat)
                valued.append((self._value(child, side), move))
        except _OutOfBudget:
            return None
        order = {move: number for number, (_, move) in enumerate(valued)}
        valued.sort(key=lambda item: (-item[0], order[item[1]]))
        return valued

    def _value(self, state: HandState, side: int) -> float:
        if state.phase is Phase.OVER:
            return self.outcome(state, side)
        key = _key(state)
        known = self._values.get(key)
        if known is not None:
            return known
        if self._left <= 0:
            raise _OutOfBudget
        self._left -= 1
        seat = state.to_act
        mine = state.side_of(seat) == side
        best = float("-inf") if mine else float("inf")
        for move in state.legal_moves(seat):
            child = state.copy()
            child.apply_legal(move, seat)
            value = self._value(child, side)
            if (value > best) if mine else (value < best):
                best = value
        self._values[key] = best
        return best


def _key(state: HandState) -> _Key:
    """What decides the rest of the hand: whose turn and in what phase, the hands (as sets of
    cards), the tableaux, the open chance and the extension."""
    return (
        state.to_act,
        state.phase,
        tuple(tuple(sorted(hand)) for hand in state.hands),
        tuple(_tableau_key(tableau) for tableau in state.tableaux),
        state.chance,
        tuple(state.fresh),
        state.extension_caller,
    )


def _tableau_key(tableau: Tableau) -> _Key:
    return (
        tuple(tableau.battle),
        tuple(tableau.speed),
        tuple(tableau.distance_cards),
        tuple(tableau.safeties),
        tuple(tableau.coup_fourres),
    )


def solvable(state: HandState) -> bool:
    """Whether the position is one the solver is for: two seats, the draw pile empty."""
    return state.players == 2 and not state.draw_pile and state.phase is not Phase.OVER
