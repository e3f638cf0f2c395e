"""A Club candidate: the strong player's moves judged again by the learned evaluation.

For each legal move of a turn, the position it leads to is valued by
:meth:`reference.evaluation.Evaluation.preference` (weights fitted to tell positions one move
apart, as the seat sees them, in log-odds); the best is played. What the seat cannot see is
dealt again (:meth:`SeatView.sample`): a safety draws the seat a card, and a hazard meets a
coup-fourré if the rival holds the safety, so those moves are valued over several deals; every
other move leads to a position the seat sees the same whatever the hidden cards are, valued on
one deal. A coup-fourré chance or an extension question that the move opens is answered as the
strong player would, before the position is valued; a move that ends the hand is valued by the
game's totals after it.

The strong player's judgement stays where it is sure (a single move, a coup-fourré, completing
the trip, a safety that costs nothing), and ``keep`` (log-odds) is added to its first choice,
so another move must look better by more than that. Research code until it is measured to
beat ``strong`` (``benchmarks/match.py``).
"""

from __future__ import annotations

from random import Random
from typing import ClassVar

from engine.codes import HAZARD, KIND, SAFETY
from engine.moves import Discard, Move, Play
from engine.players.search import CANDIDATES, LATE, SETTLED, SearchPlayer, clear_winner
from engine.players.strong import StrongPlayer
from engine.state import HandState, Phase
from engine.view import SeatView, seat_view
from reference.evaluation import Evaluation, default_evaluation, log_odds

DEALS = 6
"""Deals on which a move whose outcome hangs on hidden cards (a safety, a hazard) is valued."""
KEEP = 0.0
"""What the strong player's first choice is given over the others, in log-odds."""


class EvaluatedPlayer:
    """The strong player's choice, corrected by the learned evaluation."""

    name: ClassVar[str] = "evaluated"

    def __init__(
        self,
        rng: Random,
        evaluation: Evaluation | None = None,
        deals: int = DEALS,
        keep: float = KEEP,
        candidates: int = 0,
        discards: bool = False,
        safeties: bool = False,
        residual: float = 0.0,
    ) -> None:
        """``candidates``: how many of the strong player's best moves are valued (0: all);
        ``discards``: only which card to discard is judged again, when the strong player
        discards; ``safeties``: every safety decision is the strong player's (it lays a safety
        when the strong player would, and otherwise no move that plays or discards one is
        valued); ``residual``: when above 0, the move with the best strong value plus
        ``residual`` times its preference (strong's value units per log-odds) is played,
        rather than the best preference."""
        self.rng = rng
        self.evaluation = evaluation or default_evaluation()
        self.deals = deals
        self.keep = keep
        self.candidates = candidates
        self.discards = discards
        self.safeties = safeties
        self.residual = residual
        self.heuristics = StrongPlayer(rng)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1 or view.phase is not Phase.PLAY:
            return self.heuristics.choose(view)
        valued = self.heuristics.valued(view)
        if valued[0][0] >= SETTLED:
            return valued[0][1]
        if self.discards:
            if not isinstance(valued[0][1], Discard):
                return valued[0][1]
            valued = [item for item in valued if isinstance(item[1], Discard)]
        if self.safeties:
            if _safety(valued[0][1]):
                return valued[0][1]
            valued = [item for item in valued if not _safety(item[1])]
        if self.candidates:
            valued = valued[: self.candidates]
        return self.ranked(view, valued)[0]

    def ranked(self, view: SeatView, valued: list[tuple[float, Move]]) -> list[Move]:
        """The moves of ``valued`` (the strong player's, with its values, best first) ranked
        by this candidate, best first: by their preference (the first given ``keep`` more), or
        with ``residual``, by the strong value plus ``residual`` times the preference. Only the
        order counts: the scores are on no scale that :data:`SETTLED` speaks of."""
        deals = [view.sample(self.rng) for _ in range(self.deals)]
        scored = []
        for number, (value, move) in enumerate(valued):
            chance = self.chance_after(view, move, deals)
            if self.residual > 0:
                chance = value + self.residual * chance
            elif number == 0:
                chance += self.keep
            scored.append((-chance, number, move))
        return [move for _, _, move in sorted(scored)]

    def chance_after(self, view: SeatView, move: Move, deals: list[HandState]) -> float:
        """How much the seat likes the position after ``move`` (log-odds), over ``deals`` of
        the unseen cards (one of them unless the move's outcome hangs on those cards)."""
        hidden = isinstance(move, Play) and KIND[move.code] in (SAFETY, HAZARD)
        used = deals if hidden else deals[:1]
        total = 0.0
        for deal in used:
            state = deal.copy()
            state.apply_legal(move, view.seat)
            total += self._value(state, view.seat)
        return total / len(used)

    def _value(self, state: HandState, seat: int, *, winning: bool = False) -> float:
        """How much ``seat``'s side likes ``state`` (log-odds), once the questions the move
        opened (a coup-fourré chance, the extension) are answered as the strong player would.

        A finished hand is valued by the chance of winning the game after it. A position inside
        the hand is valued by the preference, whose level is meaningful only between positions
        one move apart; or, ``winning``, by the chance of winning it (the scale of a finished
        hand's value), to compare playouts that may end the hand or not."""
        heuristics = self.heuristics
        while not state.over and state.phase is not Phase.PLAY:
            asked = state.to_act
            state.apply_legal(heuristics.choose(seat_view(state, asked)), asked)
        side = state.side_of(seat)
        if state.over:
            return log_odds(self.evaluation.after_hand(state, side))
        view = seat_view(state, seat)
        return self.evaluation.logit(view) if winning else self.evaluation.preference(view)


def _safety(move: Move) -> bool:
    """Whether ``move`` plays or discards a safety."""
    return isinstance(move, (Play, Discard)) and KIND[move.code] == SAFETY


class EvaluatedSearch:
    """An Expert candidate: the search's playouts cut after ``plies`` moves and valued by the
    learned evaluation, rather than played to the end of the hand and valued by its score.

    The candidates are the evaluated player's best moves by its own valuation; each is played
    on the same ``deals`` sampled deals and the same random choices, followed by ``plies``
    moves of the strong player at every seat, and the one with the best mean chance of winning
    is played if it beats the first by more than ``evidence`` standard errors."""

    name: ClassVar[str] = "evaluated_search"

    def __init__(
        self,
        rng: Random,
        deals: int = 12,
        plies: int = 6,
        candidates: int = 3,
        evidence: float = 1.0,
        residual: float = 0.0,
    ) -> None:
        """``residual``: the candidates ranked as :class:`EvaluatedPlayer` ranks them with that
        setting (by the strong player's value plus ``residual`` times the preference), rather
        than by the preference alone (0)."""
        self.rng = rng
        self.deals = deals
        self.plies = plies
        self.candidates = candidates
        self.evidence = evidence
        self.club = EvaluatedPlayer(rng, residual=residual)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        club = self.club
        if len(moves) == 1 or view.phase is not Phase.PLAY:
            return club.heuristics.choose(view)
        valued = club.heuristics.valued(view)
        if valued[0][0] >= SETTLED:
            return valued[0][1]
        candidates = club.ranked(view, valued)[: self.candidates]
        if len(candidates) == 1:
            return candidates[0]
        outcomes: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.deals):
            deal = view.sample(self.rng)
            seed = self.rng.getrandbits(32)
            for number, move in enumerate(candidates):
                state = deal.copy()
                state.apply_legal(move, view.seat)
                self._play_on(state, Random(seed))
                outcomes[number].append(club._value(state, view.seat, winning=True))
        return candidates[clear_winner(outcomes, self.evidence)]

    def _play_on(self, state: HandState, rng: Random) -> None:
        """``plies`` more moves of the strong player at every seat (fewer if the hand ends)."""
        player = StrongPlayer(rng)
        views = [seat_view(state, seat) for seat in range(state.players)]
        for _ in range(self.plies):
            if state.over:
                return
            seat = state.to_act
            state.apply_legal(player.choose(views[seat]), seat)


class ResidualSearch:
    """An Expert candidate: the shipped search (:class:`engine.players.search.SearchPlayer`,
    its deals, candidates, late turns and playouts to the end of the hand by the strong player)
    over the residual Club candidate's ranking (:meth:`EvaluatedPlayer.ranked`): its first
    choice is played unless the playouts clearly favour one of its next best. Where the strong
    player's choice is settled, it is played, as the search plays it."""

    name: ClassVar[str] = "residual_search"

    def __init__(self, rng: Random, residual: float = 1000.0) -> None:
        self.rng = rng
        self.club = EvaluatedPlayer(rng, residual=residual)
        self.search = SearchPlayer(rng)
        self.searched = 0
        """How many decisions went to the playouts (the tests check that some do)."""

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1 or view.phase is not Phase.PLAY:
            return self.search.choose(view)
        valued = self.club.heuristics.valued(view)
        if valued[0][0] >= SETTLED:
            return valued[0][1]
        ranked = self.club.ranked(view, valued)
        if view.draw_pile > LATE:
            return ranked[0]
        self.searched += 1
        return self.search._search(view, ranked[:CANDIDATES])
