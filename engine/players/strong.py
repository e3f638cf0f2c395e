"""A player that counts cards, holds its safeties for coups-fourrés, attacks the leader and weighs
the extension: what a good table player does, without looking ahead."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import NamedTuple

from engine.cards import Card, CardKind, remedy_for, safety_for
from engine.moves import CALL, DECLINE, PASS, CoupFourre, Discard, Move, Play
from engine.view import SeatView, TableauView

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
        if moves[-1] is PASS:  # a chance without the safety (private chances ask every seat)
            return PASS
        if CALL in moves:
            return CALL if self._should_extend(view) else DECLINE
        return self.ranked(view)[0]

    def ranked(self, view: SeatView) -> list[Move]:
        """The legal moves, best first by this player's judgement (ties in random order)."""
        table = _Table.read(view)
        rng = self.rng
        return sorted(
            view.legal_moves,
            key=lambda move: (_value(table, move), rng.random()),
            reverse=True,
        )

    # -- what the seat knows -------------------------------------------------------------------

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


class _Table(NamedTuple):
    """What one decision needs to know, read from the view once."""

    tableaux: tuple[TableauView, ...]
    mine: TableauView
    opponents: list[TableauView]
    unseen: Counter[Card]
    target: int
    draw_pile: int

    @classmethod
    def read(cls, view: SeatView) -> _Table:
        tableaux = view.tableaux
        side = view.side
        return cls(
            tableaux=tableaux,
            mine=tableaux[side],
            opponents=[tableau for other, tableau in enumerate(tableaux) if other != side],
            unseen=view.unseen(),
            target=view.target,
            draw_pile=view.draw_pile,
        )


def _value(table: _Table, move: Move) -> float:
    """How good ``move`` is now."""
    if isinstance(move, Discard):
        return -_keep(table, move.card)
    if not isinstance(move, Play):
        return 0.0
    card = move.card
    mine = table.mine
    kind = card.kind
    if kind is CardKind.DISTANCE:
        remaining = table.target - mine.distance
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
        return 150.0 if table.draw_pile < SAFETY_POINTS_NOW else -50.0
    if kind is CardKind.HAZARD and move.target is not None:
        target = table.tableaux[move.target]
        value = 150.0 + target.distance / 10
        if table.unseen[safety_for(card)] > 0:
            value -= 60  # the safety may be in that side's hand: a coup-fourré waiting
        value += 20 * (2 - min(table.unseen[remedy_for(card)], 2))  # scarce remedies hurt more
        if card is Card.SPEED_LIMIT:
            value -= 40 if target.distance < table.target - 200 else 0
        return value
    return 240.0  # Roll, a remedy, End of Limit: back on the road


def _keep(table: _Table, card: Card) -> float:
    """How much ``card`` is worth holding on to."""
    kind = card.kind
    if kind is CardKind.SAFETY:
        return 100.0
    mine = table.mine
    if kind is CardKind.REMEDY:
        hazards = card.answers
        if any(hazard in safety.answers for safety in mine.safeties for hazard in hazards):
            return 0.0  # protected already: this remedy is dead
        return 40.0 + 10 * sum(table.unseen[hazard] for hazard in hazards)
    if kind is CardKind.DISTANCE:
        if mine.distance + card.value_km > table.target:
            return 1.0
        return 20.0 + card.value_km / 10
    if all(safety_for(card) in tableau.safeties for tableau in table.opponents):
        return 0.0  # nobody left to play it on
    return 30.0
