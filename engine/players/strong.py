"""A player that counts cards, holds its safeties for coups-fourrés, attacks first and weighs
the extension: what a good table player does, without looking ahead.

Every legal move gets a value in points, roughly what it is worth to the side, and the best is
played. The order of those values is the player's strategy, learnt from the classic programs and
then measured against faithful references of them (``classic``, ``contest`` in ``reference/``;
tuned with ``benchmarks/tune_strong.py`` on seeds of its own, judged with
``benchmarks/match.py``):

- a safety laid in turn costs nothing (the same seat plays again), so one is laid at once when
  no coup-fourré can come of it any more, when it cures what shows, before completing the trip,
  when the hand may end soon, or rather than discard something useful; otherwise it is held;
- a hazard on a rolling side costs that side two turns or more, more than any distance card
  gains: attack first, aiming at the side nearest home, unless a coup-fourré is likely; but a
  side waiting for its Roll loses almost nothing to a hazard now (a Stop costs it nothing at
  all), so the hazard waits until it rolls;
- then cure, then drive, the longest card first; close to home a 25 or a 50 that its copies in
  hand cannot follow up is held, so that one longer card may still finish;
- a discard gives up the card least likely to be of use: what a safety already answers, what
  no hazard is left to call for, distance that no longer fits, spare copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import ClassVar

from engine.codes import (
    ANSWERS,
    CURES,
    DISTANCE,
    DISTANCE_25,
    DISTANCE_200,
    DISTANCES,
    END_OF_LIMIT,
    HAZARD,
    KIND,
    KM,
    NO_CARD,
    REMEDY,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import CALL, DECLINE, Discard, Move, Play
from engine.state import Phase
from engine.tableau import Tableau
from engine.view import SeatView

_COUP_FOURRE = Phase.COUP_FOURRE
_EXTENSION = Phase.EXTENSION
_HAZARDS_OF = tuple(
    tuple(hazard for hazard in range(len(KIND)) if ANSWERS[card] >> hazard & 1)
    for card in range(len(KIND))
)
"""The hazards each safety protects against (empty for other cards)."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The values behind the player's judgement, in points (tuned by self-play against the
    reference opponents; see the module's docstring)."""

    complete: float = 10_000
    safety_first: float = 20_000
    """A safety laid before a move that completes the trip, or that cures what shows."""
    safety_free: float = 9_000
    """A safety no coup-fourré can come of any more."""
    safety_hold: float = 60
    """The cost of laying a safety that might still make a coup-fourré."""
    safety_hold_per_hazard: float = 15
    safety_late: int = 12
    """Draw-pile size at which a held safety is laid anyway."""
    attack: float = 420
    attack_stacked: float = -300
    """A hazard on a side already stopped by another, or a Stop on a side that needs a Roll
    anyway: it costs that side nothing."""
    attack_waiting: float = -300
    """A hazard on a side waiting for its Roll (a remedy or nothing on top): it costs that side
    one card more, where the same hazard once it rolls costs it a remedy and a Roll."""
    attack_per_km: float = 0.3
    """More for each km the target has driven."""
    coup_fourre_risk: float = 450
    """Times the chance that the target holds the safety."""
    speed_limit: float = 250
    speed_limit_late: float = 40
    """A Speed Limit on a side with 100 km or less to go."""
    remedy: float = 190
    end_of_limit: float = 300
    distance: float = 150
    per_km: float = 1.0
    first_200: float = 60
    exact: float = 150
    """For a distance card after which the rest of the hand completes the trip exactly."""
    strand: float = 400
    """Against a 25 or 50 played 100 km or less from home when the copies held cannot make up
    the rest: kept, it still completes the trip with one more card, played it leaves one
    exact card to wait for (BSD mille's computer holds it back)."""
    """Given up by the first 200, which ends the hope of a safe trip."""
    keep_safety: float = 1_000
    keep_dead: float = 0
    keep_remedy: float = 60
    keep_remedy_per_hazard: float = 12
    keep_roll: float = 70
    keep_spare: float = 0.2
    """Share of its value a second copy keeps."""
    keep_hazard: float = 72
    keep_distance: float = 20
    keep_per_km: float = 0.25
    extend_pile: int = 20
    extend_rival: int = 450
    extend_hand_km: int = 150


DEFAULT = Weights()


class StrongPlayer:
    """Heuristic play informed by every card seen so far."""

    name: ClassVar[str] = "strong"

    def __init__(self, rng: Random, weights: Weights = DEFAULT) -> None:
        self.rng = rng
        self.weights = weights

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        phase = view.phase
        if phase is _COUP_FOURRE:  # the coup-fourré if it holds the safety, else pass
            return moves[0]
        if phase is _EXTENSION:
            return CALL if self._should_extend(view) else DECLINE
        judge = _Judge(view, self.weights)
        random = self.rng.random
        best, best_key = moves[0], (float("-inf"), 0.0)
        for move in moves:  # the first of the best, as ``ranked(view)[0]``: one draw per move
            key = (judge.value(move), random())
            if key > best_key:
                best, best_key = move, key
        return best

    def ranked(self, view: SeatView) -> list[Move]:
        """The legal moves, best first by this player's judgement (ties in random order)."""
        moves = view.legal_moves
        if view.phase is not Phase.PLAY:
            first = self.choose(view)
            return [first] + [move for move in moves if move != first]
        return [move for _, move in self.valued(view)]

    def valued(self, view: SeatView) -> list[tuple[float, Move]]:
        """The legal moves of a turn (:attr:`Phase.PLAY`) with their values, best first."""
        judge = _Judge(view, self.weights)
        random = self.rng.random
        keyed = sorted(
            ((judge.value(move), random(), move) for move in view.legal_moves),
            key=lambda item: (item[0], item[1]),
            reverse=True,
        )
        return [(value, move) for value, _, move in keyed]

    def _should_extend(self, view: SeatView) -> bool:
        """Extend when the 300 more km look reachable and no opponent is close: the side is
        rolling, holds distance, the pile is deep, and every rival is far behind."""
        weights = self.weights
        mine = view.tableau(view.side)
        distance_in_hand = sum(KM[card] for card in view.hand_codes)
        rivals = max(view.tableau(side).distance for side in range(view.sides) if side != view.side)
        return (
            distance_in_hand >= weights.extend_hand_km
            and rivals < weights.extend_rival
            and view.draw_pile > weights.extend_pile
            and (mine.rolling or any(KIND[card] == SAFETY for card in view.hand_codes))
        )


class _Judge:
    """What one decision needs to know, read from the view once."""

    __slots__ = (
        "view",
        "weights",
        "mine",
        "target",
        "draw_pile",
        "hand",
        "finishing",
        "rival_home",
        "unseen_total",
        "rivals",
    )

    def __init__(self, view: SeatView, weights: Weights) -> None:
        self.view = view
        self.weights = weights
        self.mine: Tableau = view.tableau(view.side)
        self.target = view.target
        self.draw_pile = view.draw_pile
        self.hand = view.hand_codes
        room = self.target - self.mine.distance
        self.finishing = any(
            KM[move.code] == room
            for move in view.legal_moves
            if isinstance(move, Play) and KIND[move.code] == DISTANCE
        )
        self.rivals = [view.tableau(side) for side in range(view.sides) if side != view.side]
        self.rival_home = any(_near_home(view, rival) for rival in self.rivals)
        self.unseen_total = max(1, self.draw_pile + sum(view.hand_sizes) - len(self.hand))
        """The cards this seat has not seen: the draw pile and the other hands."""

    def value(self, move: Move) -> float:
        """How good ``move`` is now."""
        if isinstance(move, Discard):
            return -self.keep(move.code)
        if not isinstance(move, Play):
            return 0.0
        card = move.code
        kind = KIND[card]
        if kind == SAFETY:
            return self._safety(card)
        if kind == DISTANCE:
            return self._distance(card)
        if kind == HAZARD:
            assert move.target is not None
            return self._attack(card, move.target)
        return self._remedy(card)

    # -- plays ---------------------------------------------------------------------------------

    def _safety(self, card: int) -> float:
        weights, mine = self.weights, self.mine
        showing = mine.hazard_showing
        if (showing != NO_CARD and ANSWERS[card] >> showing & 1) or (
            card == RIGHT_OF_WAY and mine.limited
        ):
            return weights.safety_first
        if self.finishing or self.rival_home:
            return weights.safety_first
        unseen = sum(self.view.unseen_count(hazard) for hazard in _HAZARDS_OF[card])
        if unseen == 0:
            return weights.safety_free
        if self.draw_pile <= weights.safety_late:
            return weights.safety_free
        return -(weights.safety_hold + weights.safety_hold_per_hazard * unseen)

    def _distance(self, card: int) -> float:
        weights, mine = self.weights, self.mine
        km = KM[card]
        if mine.distance + km == self.target:
            return weights.complete
        value = weights.distance + weights.per_km * km
        if card == DISTANCE_200 and mine.two_hundreds == 0:
            value -= weights.first_200
        room = self.target - mine.distance - km
        if room <= 200 and self._completes(room, card):
            value += weights.exact
        elif self._strands(card, room + km):
            value -= weights.strand
        return value

    def _strands(self, card: int, room: int) -> bool:
        """Whether playing ``card`` (a 25 or a 50), ``room`` km from home, gives up a way home
        that holding it keeps: the copies held cannot cover ``room`` alone, so it would wait
        for one exact card where, held, a longer one would do."""
        km = KM[card]
        if km > 50 or room > 100 or self.draw_pile == 0:
            return False
        if km == 50 and (room % 50 or (room == 75 and DISTANCE_25 in self.hand)):
            return False
        return room // km > self.hand.count(card)

    def _completes(self, room: int, played: int) -> bool:
        """Whether distance cards of the hand, ``played`` set aside, add up to ``room``."""
        reachable = 1  # bit k: k × 25 km can be made
        skipped = False
        for card in self.hand:
            if KIND[card] != DISTANCE:
                continue
            if card == played and not skipped:
                skipped = True
                continue
            reachable |= reachable << (KM[card] // 25)
        return bool(reachable >> (room // 25) & 1)

    def _attack(self, card: int, side: int) -> float:
        weights, view = self.weights, self.view
        rival = view.tableau(side)
        risk = self._coup_fourre_chance(card, side)
        if card == SPEED_LIMIT:
            room = self.target - rival.distance
            if room <= 50:
                return -1.0
            value = weights.speed_limit_late if room <= 100 else weights.speed_limit
        elif rival.rolling:
            value = weights.attack
        elif card == STOP or rival.hazard_showing != NO_CARD:
            value = weights.attack_stacked
        else:
            value = weights.attack_waiting
        value += weights.attack_per_km * rival.distance
        if _near_home(view, rival):
            value += weights.attack
        return value - weights.coup_fourre_risk * risk

    def _coup_fourre_chance(self, hazard: int, side: int) -> float:
        """The chance that side ``side`` holds the safety answering ``hazard``: its hands'
        share of the cards this seat has not seen, if the safety is one of them."""
        view = self.view
        if view.unseen_count(SAFETY_FOR[hazard]) == 0:
            return 0.0
        sides = view.sides
        held = sum(size for seat, size in enumerate(view.hand_sizes) if seat % sides == side)
        return min(1.0, held / self.unseen_total)

    def _remedy(self, card: int) -> float:
        weights, mine = self.weights, self.mine
        if card == END_OF_LIMIT:
            if self.target - mine.distance <= 50:
                return weights.keep_dead
            return weights.end_of_limit
        return weights.remedy

    # -- discards ------------------------------------------------------------------------------

    def keep(self, card: int) -> float:
        """How much ``card`` is worth holding on to."""
        weights, view, mine = self.weights, self.view, self.mine
        kind = KIND[card]
        if kind == SAFETY:
            return weights.keep_safety
        copies = self.hand.count(card)
        spare = 1.0 if copies == 1 else weights.keep_spare
        if kind == REMEDY:
            hazard = CURES[card]
            if mine.protected(hazard) or SAFETY_FOR[hazard] in self.hand:
                return weights.keep_dead
            unseen = view.unseen_count(hazard)
            if card == ROLL:
                return spare * (weights.keep_roll + weights.keep_remedy_per_hazard * unseen)
            facing = mine.limited if card == END_OF_LIMIT else mine.hazard_showing == hazard
            if unseen == 0 and not facing:
                return weights.keep_dead
            return spare * (weights.keep_remedy + weights.keep_remedy_per_hazard * unseen)
        if kind == DISTANCE:
            room = self.target - mine.distance
            km = KM[card]
            if km > room and self.target != 700:
                return weights.keep_dead
            if card == DISTANCE_200 and mine.two_hundreds >= 2:
                return weights.keep_dead
            value = weights.keep_distance + weights.keep_per_km * km
            if km > room:
                value *= 0.2
            return value
        if all(rival.protected(card) for rival in self.rivals):
            return weights.keep_dead
        return spare * weights.keep_hazard


def _near_home(view: SeatView, side: Tableau) -> bool:
    """Whether ``side`` could complete the trip with its next card, as far as this seat knows."""
    room = view.target - side.distance
    if room > 200 or not side.rolling:
        return False
    for card in DISTANCES:
        if KM[card] == room:
            if side.limited and room > 50:
                return False
            if card == DISTANCE_200 and side.two_hundreds >= 2:
                return False
            return view.unseen_count(card) > 0
    return False
