"""A player that counts cards, holds its safeties for coups-fourrés, attacks the leader and weighs
the extension: what a good table player does, without looking ahead."""

from __future__ import annotations

from collections import Counter
from random import Random

from engine.cards import Card, CardKind, remedy_for, safety_for
from engine.moves import CALL, DECLINE, CoupFourre, Discard, Move, Play
from engine.rules import Rules
from engine.view import SeatView

SAFETY_POINTS_NOW = 10
"""Draw-pile size under which holding a safety for a coup-fourré no longer pays: lay it."""


class StrongPlayer:
    """Heuristic play informed by every card seen so far."""

    name = "strong"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        for move in moves:
            if isinstance(move, CoupFourre):
                return move
        if CALL in moves:
            return CALL if self._should_extend(view) else DECLINE
        unseen = self._unseen(view)
        return max(moves, key=lambda move: (self._value(view, move, unseen), self.rng.random()))

    # -- what the seat knows -------------------------------------------------------------------

    @staticmethod
    def _unseen(view: SeatView) -> Counter[Card]:
        """Cards not in this seat's hand nor on any tableau: in other hands or the draw pile.

        (Discards beyond the top one are not in the view; counting only the visible cards
        makes the estimate cautious, never wrong in sign.)
        """
        rules = Rules.for_players(len(view.hand_sizes))
        unseen = Counter(rules.deck)
        unseen.subtract(view.hand)
        for tableau in view.tableaux:
            for km, count in tableau.cards.items():
                unseen[Card.distance(km)] -= count
            unseen.subtract(tableau.safeties)
        return unseen

    def _should_extend(self, view: SeatView) -> bool:
        """Extend when the 300 more km look reachable and no opponent is close to 1,000."""
        mine = view.tableaux[view.side]
        distance_in_hand = sum(
            card.value_km for card in view.hand if card.kind is CardKind.DISTANCE
        )
        rivals = max(t.distance for side, t in enumerate(view.tableaux) if side != view.side)
        return (
            distance_in_hand >= 200
            and rivals < 500
            and view.draw_pile > 20
            and (mine.battle_top is Card.ROLL or Card.RIGHT_OF_WAY in mine.safeties)
        )

    # -- how good a move is ----------------------------------------------------------------------

    def _value(self, view: SeatView, move: Move, unseen: Counter[Card]) -> float:
        if isinstance(move, Discard):
            return -self._keep(view, move.card, unseen)
        if not isinstance(move, Play):
            return 0.0
        card = move.card
        mine = view.tableaux[view.side]
        kind = card.kind
        if kind is CardKind.DISTANCE:
            remaining = view.target - mine.distance
            if card.value_km == remaining:
                return 1000.0  # completes the trip
            value = 200.0 + card.value_km
            if card is Card.DISTANCE_200 and mine.cards[200] == 0 and remaining > 400:
                value -= 60  # keeps the safe trip (300) open a little longer
            return value
        if kind is CardKind.SAFETY:
            hazard_cured = mine.battle_top in card.answers or (
                card is Card.RIGHT_OF_WAY and (mine.speed_top is Card.SPEED_LIMIT)
            )
            if hazard_cured:
                return 260.0
            return 150.0 if view.draw_pile < SAFETY_POINTS_NOW else -50.0
        if kind is CardKind.HAZARD and move.target is not None:
            target = view.tableaux[move.target]
            value = 150.0 + target.distance / 10
            if unseen[safety_for(card)] > 0:
                value -= 60  # the safety may be in that side's hand: a coup-fourré waiting
            value += 20 * (2 - min(unseen[remedy_for(card)], 2))  # scarce remedies hurt more
            if card is Card.SPEED_LIMIT:
                value -= 40 if target.distance < view.target - 200 else 0
            return value
        return 240.0  # Roll, a remedy, End of Limit: back on the road

    @staticmethod
    def _keep(view: SeatView, card: Card, unseen: Counter[Card]) -> float:
        """How much ``card`` is worth holding on to."""
        mine = view.tableaux[view.side]
        if card.kind is CardKind.SAFETY:
            return 100.0
        if card.kind is CardKind.REMEDY:
            hazards = card.answers
            if any(hazard in safety.answers for safety in mine.safeties for hazard in hazards):
                return 0.0  # protected already: this remedy is dead
            return 40.0 + 10 * sum(unseen[hazard] for hazard in hazards)
        if card.kind is CardKind.DISTANCE:
            if mine.distance + card.value_km > view.target:
                return 1.0
            return 20.0 + card.value_km / 10
        opponents = [t for side, t in enumerate(view.tableaux) if side != view.side]
        if all(safety_for(card) in t.safeties for t in opponents):
            return 0.0  # nobody left to play it on
        return 30.0
