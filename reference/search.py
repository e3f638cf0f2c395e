"""The search player with its research levers: what was measured against the search the app plays.

:class:`engine.players.search.SearchPlayer` is the search as shipped. :class:`SearchVariant`
searches the same way, but every lever can be set, each measured against the defaults (README,
"Computer players"): deals weighted by what the other seats' moves revealed
(:func:`reference.inference.weighted_deal`), hands valued by the chance of winning the game
rather than by the hand's margin (:func:`game_chance`), and the end of a two-seat hand solved
exactly once the pile is empty (:mod:`reference.endgame`); and, for the ceiling benchmark
(``benchmarks/search_ceiling.py``), every turn searched, deals that know what no seat can know,
and playouts that play the rivals with the rival's own program. None of the levers made the
player measurably stronger, so the engine's player has none of them. With its defaults a
variant chooses exactly as the engine's player does (``tests/engine/test_search_variant.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random
from typing import ClassVar

from engine.moves import CALL, DECLINE, Move
from engine.players import ComputerPlayer
from engine.players.search import CANDIDATES, DEALS, LATE, SETTLED, clear_winner, hand_margin
from engine.players.strong import StrongPlayer
from engine.rules import GAME_TARGET
from engine.scoring import score_hand
from engine.state import HandState, Phase
from engine.view import SeatView, seat_view
from reference.endgame import Endgame

GAME = GAME_TARGET
"""The game total that ends a game (RULES.md §10)."""
HAND_SPREAD = 1_350
"""The spread (standard deviation) of one hand's score difference between two sides, in points
(strong against classic, 2 seats)."""
HAND_LEADER = 1_300
"""What the side ahead in a hand scores in it on average, in points: how fast a game ends."""

Dealer = Callable[[SeatView, Random], HandState]
"""Where the searched deals come from: a whole hand for a seat's view."""
PlayoutValue = Callable[[HandState, int], float]
"""What a hand played out is worth to a side: the measure the search maximises."""


def game_chance(state: HandState, side: int) -> float:
    """The chance that ``side`` wins the game, after this hand: the game totals before it
    (:attr:`HandState.scores`) plus the hand's scores. A side at 5,000 or more ends the game;
    otherwise the lead is weighed against the spread of the hands still to come (about one per
    :data:`HAND_LEADER` points the leader still needs), as a normal law. Early in a game it
    ranks outcomes as the margin does; late, a hand that wins the game is worth more than
    points, and points no more than a win."""
    scores = score_hand(state.report(), state.rules).sides
    totals = [before + score.total for before, score in zip(state.scores, scores, strict=True)]
    mine = totals[side]
    rival = max(total for other, total in enumerate(totals) if other != side)
    leader = max(mine, rival)
    if leader >= GAME:
        return 1.0 if mine > rival else 0.5 if mine == rival else 0.0
    hands = max(1.0, (GAME - leader) / HAND_LEADER)
    return 0.5 * (1.0 + math.erf((mine - rival) / (HAND_SPREAD * math.sqrt(2.0 * hands))))


def seat_knowledge(view: SeatView, rng: Random) -> HandState:
    """A deal of the cards the seat has not seen (:meth:`SeatView.sample`): all a player knows,
    and what the engine's player deals."""
    return view.sample(rng)


class SearchVariant:
    """The engine's search player with every research lever open; its defaults are the engine's
    player, decision for decision."""

    name: ClassVar[str] = "search variant"

    def __init__(
        self,
        rng: Random,
        deals: int = DEALS,
        candidates: int = CANDIDATES,
        late: int = LATE,
        dealer: Dealer = seat_knowledge,
        outcome: PlayoutValue = hand_margin,
        solve: int = 0,
        rivals: Callable[[Random], ComputerPlayer] = StrongPlayer,
    ) -> None:
        """``deals`` and ``candidates`` are the search's budget; ``late`` and ``dealer`` are
        there to measure what the search could gain (the ceiling benchmark searches every turn,
        deals weighted by the rival's moves, or deals knowing what the seat cannot know);
        ``outcome`` is what a playout is worth, ``solve`` a budget of positions for the exact
        endgame (0: none), ``rivals`` who plays the other sides in a playout (the ceiling
        benchmark tries the rival's own program, which no player at the table can know)."""
        self.rng = rng
        self.deals = deals
        self.candidates = candidates
        self.late = late
        self.dealer = dealer
        self.outcome = outcome
        self.endgame = Endgame(outcome, solve) if solve else None
        self.rivals = rivals
        self.heuristics = StrongPlayer(rng)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        if view.phase is Phase.COUP_FOURRE:
            return moves[0]  # 400 points now, and the hazard gone: never worse to wait
        if self.endgame is not None and view.rules.players == 2 and view.draw_pile == 0:
            solved = self._solved(view)
            if solved is not None:
                return solved
        if view.phase is Phase.EXTENSION:
            first = self.heuristics.choose(view)
            candidates = [first, DECLINE if first is CALL else CALL]
        else:
            values = self.heuristics.valued(view)
            if values[0][0] >= SETTLED or view.draw_pile > self.late:
                return values[0][1]
            candidates = [move for _, move in values[: self.candidates]]
        return self._search(view, candidates)

    def _solved(self, view: SeatView) -> Move | None:
        """The best move by the exact solution of the rest of the hand (:mod:`endgame`), the
        heuristics' first among equals; None if the hand is still too big to solve."""
        assert self.endgame is not None
        valued = self.endgame.best(view.sample(self.rng), view.side)  # the one deal left
        if valued is None:
            return None
        best = valued[0][0]
        ties = {move for value, move in valued if value == best}
        if len(ties) == 1:
            return valued[0][1]
        return next(move for move in self.heuristics.ranked(view) if move in ties)

    def _search(self, view: SeatView, candidates: list[Move]) -> Move:
        outcomes: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.deals):
            deal = self.dealer(view, self.rng)
            seed = self.rng.getrandbits(32)
            for number, move in enumerate(candidates):
                state = deal.copy()
                state.apply_legal(move, view.seat)
                _play_out(state, Random(seed), view.side, self.rivals)
                outcomes[number].append(self.outcome(state, view.side))
        return candidates[clear_winner(outcomes)]


def _play_out(
    state: HandState, rng: Random, side: int, rivals: Callable[[Random], ComputerPlayer]
) -> None:
    """The hand played to its end by the heuristics for ``side``, by ``rivals`` for the other
    sides (the heuristics too, unless the ceiling benchmark says otherwise)."""
    own, other = StrongPlayer(rng), rivals(rng)
    sides = state.rules.sides
    players = [own if seat % sides == side else other for seat in range(state.players)]
    views = [seat_view(state, seat) for seat in range(state.players)]
    while not state.over:
        seat = state.to_act
        state.apply_legal(players[seat].choose(views[seat]), seat)
