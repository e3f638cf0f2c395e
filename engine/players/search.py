"""A search player: determinised Monte Carlo over the cards it has not seen.

For each of the few moves the strong heuristics rank highest, it deals the unseen cards again
many ways (:meth:`SeatView.sample`), plays the rest of the hand out with the strong heuristics at
every seat, and keeps the heuristics' choice unless another move clearly ends the hand better for
its side. Every candidate is tried on
the same sampled deals, so the comparison is not drowned by the luck of the deal. The budget is a
number of playouts, never a clock, so a game stays reproducible from its seed.
"""

from __future__ import annotations

import math
import statistics
from random import Random
from typing import ClassVar

from engine.moves import CALL, DECLINE, CoupFourre, Move
from engine.players.strong import StrongPlayer
from engine.scoring import score_hand
from engine.state import HandState
from engine.view import SeatView, seat_view

DEALS = 8
"""Sampled deals per decision."""
CANDIDATES = 3
"""Moves searched, the strong player's best first."""
EVIDENCE = 1.0
"""Standard errors by which a move must beat the heuristics' choice to replace it."""


class SearchPlayer:
    """Looks ahead to the end of the hand through sampled deals."""

    name: ClassVar[str] = "search"

    def __init__(self, rng: Random, deals: int = DEALS, candidates: int = CANDIDATES) -> None:
        self.rng = rng
        self.deals = deals
        self.candidates = candidates
        self.heuristics = StrongPlayer(rng)
        self.rollout = StrongPlayer(rng)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if isinstance(move, CoupFourre):
                return move  # 400 points now, and the hazard gone: never worse to wait
        candidates: list[Move]
        if CALL in moves:
            first = self.heuristics.choose(view)
            candidates = [first, DECLINE if first is CALL else CALL]
        else:
            candidates = self.heuristics.ranked(view)[: self.candidates]
        outcomes: dict[Move, list[int]] = {move: [] for move in candidates}
        for number in range(self.deals):
            if number == self.deals // 2:  # halfway, drop the moves doing no better than the first
                first = candidates[0]
                candidates = [first] + [
                    move for move in candidates[1:] if sum(outcomes[move]) > sum(outcomes[first])
                ]
                if len(candidates) == 1:
                    return first
            deal = view.sample(self.rng)
            for move in candidates:
                state = deal.copy()
                state.apply_legal(move, view.seat)
                outcomes[move].append(self._play_out(state, view.side))
        return self._best(candidates, outcomes)

    def _best(self, candidates: list[Move], outcomes: dict[Move, list[int]]) -> Move:
        """The heuristics' choice, unless another move did clearly better on the same deals:
        its mean gain over that choice must exceed ``EVIDENCE`` standard errors."""
        choice, gain_needed = candidates[0], 0.0
        for move in candidates[1:]:
            gains = [a - b for a, b in zip(outcomes[move], outcomes[candidates[0]], strict=True)]
            mean = statistics.fmean(gains)
            error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
            if mean > max(EVIDENCE * error, gain_needed):
                choice, gain_needed = move, mean
        return choice

    def _play_out(self, state: HandState, side: int) -> int:
        """The hand played to its end by the heuristics at every seat: ``side``'s score less
        its best rival's."""
        views = [seat_view(state, seat) for seat in range(state.players)]
        while not state.over:
            seat = state.to_act
            state.apply_legal(self.rollout.choose(views[seat]), seat)
        scores = score_hand(state.report(), state.rules).sides
        rival = max(score.total for other, score in enumerate(scores) if other != side)
        return scores[side].total - rival
