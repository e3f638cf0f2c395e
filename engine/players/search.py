"""A search player: determinised Monte Carlo over the cards it has not seen.

For the few moves the strong heuristics rank highest, it deals the unseen cards again many ways
(:meth:`SeatView.sample`), plays the rest of the hand out with the strong heuristics at every
seat, and plays the move that ends the hand best for its side on average. Every candidate is
tried on the same sampled deals and the same random choices, so the comparison is not drowned
by the luck of the deal. Decisions the heuristics settle beyond doubt (a single legal move, a
coup-fourré, completing the trip, a safety that cures) are not searched, so the budget goes to
the close calls. The budget is a number of playouts, never a clock, so a game stays
reproducible from its seed.

This is the search the app plays, and only that. The levers measured against it and left off
(docs/contributing/computer-players.md: deals weighted by what the other seats' moves revealed,
hands valued by the chance of winning the game, the exact end of a two-seat hand, every turn
searched) are research code in ``reference/search.py``, not part of the engine.
"""

from __future__ import annotations

import math
import statistics
from random import Random
from typing import ClassVar

from engine.moves import CALL, DECLINE, Move
from engine.players.strong import DEFAULT, StrongPlayer
from engine.scoring import score_hand
from engine.state import HandState, Phase
from engine.view import SeatView, seat_view

DEALS = 12
"""Sampled deals per decision searched."""
CANDIDATES = 3
"""Moves searched, the strong player's best first."""
LATE = 30
"""Draw-pile size from which turns are searched: earlier, what is hidden is too much for a few
deals to say more than the heuristics know; later, a sampled deal is close to the real one."""
SETTLED = DEFAULT.safety_free
"""A heuristic value from which the strong player's choice is not searched: it completes the
trip, or lays a safety that costs nothing."""
EVIDENCE = 1.5
"""Standard errors by which another move must beat the heuristics' choice on the same deals:
less than that is the noise of a few deals, and the heuristics know things a playout does not."""


def hand_margin(state: HandState, side: int) -> float:
    """The hand's score for ``side`` less its best rival's: what a playout is worth."""
    scores = score_hand(state.report(), state.rules).sides
    rival = max(score.total for other, score in enumerate(scores) if other != side)
    return float(scores[side].total - rival)


class SearchPlayer:
    """Looks ahead to the end of the hand through sampled deals."""

    name: ClassVar[str] = "search"

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.heuristics = StrongPlayer(rng)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        if view.phase is Phase.COUP_FOURRE:
            return moves[0]  # 400 points now, and the hazard gone: never worse to wait
        if view.phase is Phase.EXTENSION:
            first = self.heuristics.choose(view)
            candidates = [first, DECLINE if first is CALL else CALL]
        else:
            values = self.heuristics.valued(view)
            if values[0][0] >= SETTLED or view.draw_pile > LATE:
                return values[0][1]
            candidates = [move for _, move in values[:CANDIDATES]]
        return self._search(view, candidates)

    def _search(self, view: SeatView, candidates: list[Move]) -> Move:
        """The candidate the playouts on :data:`DEALS` sampled deals favour (:func:`clear_winner`),
        every candidate played out on the same deals with the same random choices."""
        outcomes: list[list[float]] = [[] for _ in candidates]
        for _ in range(DEALS):
            deal = view.sample(self.rng)
            seed = self.rng.getrandbits(32)
            for number, move in enumerate(candidates):
                state = deal.copy()
                state.apply_legal(move, view.seat)
                _play_out(state, Random(seed), view.side)
                outcomes[number].append(hand_margin(state, view.side))
        return candidates[clear_winner(outcomes)]


def _play_out(state: HandState, rng: Random, side: int) -> None:
    """The hand played to its end by the strong heuristics at every seat."""
    own, other = StrongPlayer(rng), StrongPlayer(rng)
    sides = state.rules.sides
    players = [own if seat % sides == side else other for seat in range(state.players)]
    views = [seat_view(state, seat) for seat in range(state.players)]
    while not state.over:
        seat = state.to_act
        state.apply_legal(players[seat].choose(views[seat]), seat)


def clear_winner(outcomes: list[list[float]], evidence: float = EVIDENCE) -> int:
    """The candidate whose playouts beat the first one's (the heuristics' choice) by the most,
    on the same deals, if by more than ``evidence`` standard errors; else the first."""
    best, best_gain = 0, 0.0
    first = outcomes[0]
    for number in range(1, len(outcomes)):
        gains = [a - b for a, b in zip(outcomes[number], first, strict=True)]
        mean = statistics.fmean(gains)
        error = statistics.stdev(gains) / math.sqrt(len(gains))
        if mean > evidence * error and mean > best_gain:
            best, best_gain = number, mean
    return best
