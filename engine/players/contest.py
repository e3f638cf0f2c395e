"""A second reference opponent: the way the winner of the ``mille-ai`` AI contest (KevinAI)
decides, written afresh for this engine from reading how that player reasons.

Its strength is order, not counting: finish the trip if a card does it; otherwise attack
whenever a hazard may be played, choosing the most hurtful (a side near home, a side far ahead,
a hazard whose safety is already out); then cure; then the longest distance (two cards that
finish come first); then a safety that cures. Safeties are held for coups-fourrés and laid
rather than discarding something useful. Its discards go from dead cards (remedies covered by a
safety or whose hazards are all out, hazards on a protected opponent, distance that no longer
fits) through spare copies to the shortest distance.

It reads the hand only, not the game's score, and extends only in a runaway hand.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar

from engine.codes import (
    CURES,
    DISTANCE,
    DISTANCE_200,
    END_OF_LIMIT,
    GASOLINE,
    HAZARD,
    KIND,
    KM,
    REMEDY,
    REPAIRS,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import CALL, DECLINE, Discard, Move, Play
from engine.state import Phase
from engine.view import SeatView

CAREFUL_BELOW = 10
"""Draw-pile size under which it no longer risks a hazard whose safety it has not seen."""


class ContestPlayer:
    """Attack first, then cure, then drive; discard the dead before the useful."""

    name: ClassVar[str] = "contest"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if view.phase is Phase.COUP_FOURRE:
            return moves[0]
        if view.phase is Phase.EXTENSION:
            return CALL if _runaway(view) else DECLINE
        plays = [move for move in moves if isinstance(move, Play)]
        discards = [move for move in moves if isinstance(move, Discard)]
        mine = view.tableau(view.side)
        distance = [move for move in plays if KIND[move.code] == DISTANCE]
        for move in distance:
            if mine.distance + KM[move.code] == view.target:
                return move
        attack = _best_attack(view, [move for move in plays if KIND[move.code] == HAZARD])
        if attack is not None:
            return attack
        remedies = sorted(
            (move for move in plays if KIND[move.code] == REMEDY),
            key=lambda m: _REMEDY_ORDER[m.code],
        )
        if remedies:
            if remedies[0].code == END_OF_LIMIT and distance and view.target - mine.distance <= 50:
                return max(distance, key=lambda move: KM[move.code])
            return remedies[0]
        if distance:
            return _longest(view, distance)
        safeties = [move for move in plays if KIND[move.code] == SAFETY]
        showing = mine.hazard_showing
        for move in safeties:
            if showing >= 0 and SAFETY_FOR[showing] == move.code:
                return move
            if mine.limited and move.code == RIGHT_OF_WAY:
                return move
        return _discard(view, discards, safeties) if discards else moves[0]


_REMEDY_ORDER = {
    card: order for order, card in enumerate((SPARE_TIRE, GASOLINE, REPAIRS, ROLL, END_OF_LIMIT))
}
"""Spare Tire, Gasoline, Repairs, then Roll, then End of Limit: the order it cures in."""


def _runaway(view: SeatView) -> bool:
    """Extend only when far ahead early: rolling, the pile still deep, every rival stopped and
    under 300 km."""
    rivals = [view.tableau(side) for side in range(view.sides) if side != view.side]
    return (
        view.tableau(view.side).rolling
        and view.draw_pile > 75
        and not any(rival.rolling for rival in rivals)
        and max(rival.distance for rival in rivals) < 300
    )


def _best_attack(view: SeatView, attacks: list[Play]) -> Play | None:
    """The hazard that hurts most, unless every one is too risky near the end of the pile."""
    mine = view.tableau(view.side)
    target = view.target
    best, best_weight = None, -1.0
    for move in attacks:
        assert move.target is not None
        rival = view.tableau(move.target)
        card = move.code
        weight = 0.0
        if rival.distance >= mine.distance + 400:
            weight += 1
        if rival.distance >= target - 200:
            if rival.distance >= target - 50 and card == SPEED_LIMIT:
                weight = -10.0
            else:
                weight += 1
        if card not in (SPEED_LIMIT, STOP):
            weight += 0.6
        elif card == STOP:
            weight += 0.01
        safety = SAFETY_FOR[card]
        safety_known = view.seen_count(safety) > 0
        if safety_known:
            weight += 0.5
        elif view.draw_pile < CAREFUL_BELOW:
            weight = -10.0
        else:
            weight -= 0.5
        if weight > best_weight or (weight == best_weight and best is not None):
            best, best_weight = move, weight
    return best


def _longest(view: SeatView, distance: list[Play]) -> Play:
    """The longest distance, unless two cards in hand finish the trip within 200 km."""
    mine = view.tableau(view.side)
    ordered = sorted(distance, key=lambda move: KM[move.code], reverse=True)
    if len(ordered) > 2 and mine.distance > view.target - 200:
        for number, first in enumerate(ordered):
            for second in ordered[number + 1 :]:
                if mine.distance + KM[first.code] + KM[second.code] == view.target:
                    return first
    return ordered[0]


def _discard(view: SeatView, discards: list[Discard], safeties: list[Play]) -> Move:
    """Dead cards first, then spare copies; a safety is laid rather than discarding something
    useful; then spare hazards, and the shortest distance last."""
    mine = view.tableau(view.side)
    target = view.target
    rivals = [view.tableau(side) for side in range(view.sides) if side != view.side]
    held = {move.code for move in safeties} | set(view.hand_codes)
    remedies = [move for move in discards if KIND[move.code] == REMEDY]
    hazards = [move for move in discards if KIND[move.code] == HAZARD]
    distance = sorted(
        (move for move in discards if KIND[move.code] == DISTANCE), key=lambda m: KM[m.code]
    )
    for move in remedies:
        hazard = CURES[move.code]
        safety = SAFETY_FOR[hazard]
        if safety in held or mine.protected(hazard):
            return move
        if view.unseen_count(hazard) == 0:
            return move
    if len(rivals) == 1:
        for move in hazards:
            if rivals[0].protected(move.code):
                return move
    if distance and mine.limited and view.seen_count(END_OF_LIMIT) == view.deck_count(END_OF_LIMIT):
        for move in distance:
            if KM[move.code] > 50:
                return move
    for move in distance:
        km = KM[move.code]
        if move.code == DISTANCE_200 and (mine.two_hundreds >= 2 or mine.distance > target - 200):
            return move
        if km < 200 and mine.distance + km > target:
            return move
    hand = view.hand_codes
    for card, spare in ((SPARE_TIRE, 1), (GASOLINE, 1), (REPAIRS, 1), (ROLL, 2), (END_OF_LIMIT, 1)):
        if hand.count(card) > spare:
            return next(move for move in remedies if move.code == card)
    if safeties:
        return safeties[0]
    if len(hazards) > 2:
        for move in hazards:
            if move.code in (SPEED_LIMIT, STOP):
                return move
    if len(distance) == 1:
        for move in sorted(remedies, key=lambda m: -m.code):
            if move.code != ROLL:
                return move
        if hazards:
            return max(hazards, key=lambda move: move.code)
    if distance:
        return distance[0]
    return discards[0]
