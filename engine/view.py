"""What one seat may see: its own hand, every tableau, the piles, never another seat's hand.

A :class:`SeatView` is a window on the live hand, not a copy: computer players decide on every
move, so each fact is read only when a player asks for it. It is valid until the next move.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random
from typing import Any

from engine.cards import Card, safety_for
from engine.moves import Move
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.tableau import Tableau


@dataclass(frozen=True, slots=True)
class TableauView:
    """A side's tableau as everyone at the table sees it."""

    battle: tuple[Card | None, ...]
    """The battle pile, bottom first; None marks a corrected hazard (RULES.md §3)."""
    speed: tuple[Card, ...]
    distance: int
    cards: dict[int, int]
    two_hundreds_by_seat: dict[int, int]
    safeties: tuple[Card, ...]
    coup_fourres: tuple[Card, ...]

    @classmethod
    def of(cls, tableau: Tableau) -> TableauView:
        return cls(
            battle=tuple(tableau.battle),
            speed=tuple(tableau.speed),
            distance=tableau.distance,
            cards=dict(tableau.cards),
            two_hundreds_by_seat=dict(tableau.two_hundreds_by_seat),
            safeties=tuple(tableau.safeties),
            coup_fourres=tuple(tableau.coup_fourres),
        )

    @property
    def battle_top(self) -> Card | None:
        """The card showing on the battle pile (None when empty or corrected)."""
        return self.battle[-1] if self.battle else None

    @property
    def corrected(self) -> bool:
        return bool(self.battle) and self.battle[-1] is None

    @property
    def speed_top(self) -> Card | None:
        return self.speed[-1] if self.speed else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "battle": [None if card is None else str(card) for card in self.battle],
            "battle_top": None if self.battle_top is None else str(self.battle_top),
            "corrected": self.corrected,
            "speed": [str(card) for card in self.speed],
            "speed_top": None if self.speed_top is None else str(self.speed_top),
            "distance": self.distance,
            "cards": {str(km): count for km, count in self.cards.items()},
            "safeties": [str(card) for card in self.safeties],
            "coup_fourres": [str(card) for card in self.coup_fourres],
        }


class SeatView:
    """The state of a hand from ``seat``'s chair."""

    __slots__ = ("_state", "seat", "_legal_moves", "_tableaux")

    def __init__(self, state: HandState, seat: int) -> None:
        self._state = state
        self.seat = seat
        self._legal_moves: tuple[Move, ...] | None = None
        self._tableaux: tuple[TableauView, ...] | None = None

    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def side(self) -> int:
        return self._state.side_of(self.seat)

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(self._state.hands[self.seat])

    @property
    def tableaux(self) -> tuple[TableauView, ...]:
        if self._tableaux is None:
            self._tableaux = tuple(TableauView.of(tableau) for tableau in self._state.tableaux)
        return self._tableaux

    @property
    def draw_pile(self) -> int:
        """How many cards are left to draw."""
        return len(self._state.draw_pile)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Every discard, bottom first: they are laid face up."""
        return tuple(self._state.discards)

    @property
    def discard_top(self) -> Card | None:
        discards = self._state.discards
        return discards[-1] if discards else None

    @property
    def discards(self) -> int:
        return len(self._state.discards)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._state.hands)

    @property
    def to_act(self) -> int:
        return self._state.to_act

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def target(self) -> int:
        return self._state.target

    @property
    def extension_caller(self) -> int | None:
        return self._state.extension_caller

    @property
    def pending_hazard(self) -> Card | None:
        """The hazard this seat is asked about in a coup-fourré chance (only shown to that
        seat): the one its safety answers if it holds one, else the first still answerable."""
        state = self._state
        if state.phase is not Phase.COUP_FOURRE or state.to_act != self.seat:
            return None
        hazards = state.chance_hazards
        hand = state.hands[self.seat]
        return next((h for h in hazards if safety_for(h) in hand), hazards[0])

    @property
    def pass_begins_turn(self) -> bool:
        """Whether letting this seat's coup-fourré chance go starts its own turn: then passing
        is simply its draw (one tap, not two)."""
        state = self._state
        chance = state.chance
        return (
            chance is not None
            and state.to_act == self.seat
            and chance.seats == (self.seat,)
            and chance.resume == self.seat
        )

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        if self._legal_moves is None:
            self._legal_moves = tuple(self._state.legal_moves(self.seat))
        return self._legal_moves

    def unseen(self) -> Counter[Card]:
        """The cards this seat has not seen, by count: the other hands and the draw pile.

        Exactly what counting every card laid face up tells (the deck less the own hand, the
        tableaux and the discards), read in one pass rather than recounted.
        """
        state = self._state
        pool = Counter(state.draw_pile)
        for seat, hand in enumerate(state.hands):
            if seat != self.seat:
                pool.update(hand)
        return pool

    def sample(self, rng: Random) -> HandState:
        """A whole hand consistent with what this seat has seen, for search players.

        The seat's own hand and every card face up stay where they are; the cards it has not
        seen (the other hands and the draw pile, as one pool whose make-up the seat can count)
        are dealt again at random into hands of the same sizes and a pile of the same size.
        """
        state = self._state.copy()
        others = [seat for seat in range(state.players) if seat != self.seat]
        pool = [card for seat in others for card in state.hands[seat]] + state.draw_pile
        rng.shuffle(pool)
        for seat in others:
            size = len(state.hands[seat])
            state.hands[seat], pool = pool[:size], pool[size:]
        state.draw_pile = pool
        return state

    def public_dict(self) -> dict[str, Any]:
        """What everyone at the table sees, the same from every chair."""
        return {
            "tableaux": [tableau.to_dict() for tableau in self.tableaux],
            "draw_pile": self.draw_pile,
            "discard_pile": [str(card) for card in self.discard_pile],
            "hand_sizes": list(self.hand_sizes),
            "to_act": self.to_act,
            "phase": str(self.phase),
            "target": self.target,
            "extension_caller": self.extension_caller,
        }

    def to_dict(self) -> dict[str, Any]:
        """The public part and this seat's own: its hand, its chance, its legal moves."""
        return {
            "seat": self.seat,
            "side": self.side,
            "hand": [str(card) for card in self.hand],
            **self.public_dict(),
            "pending_hazard": None if self.pending_hazard is None else str(self.pending_hazard),
            "legal_moves": [move.to_dict() for move in self.legal_moves],
        }


def seat_view(state: HandState, seat: int) -> SeatView:
    """``state`` as ``seat`` may see it."""
    return SeatView(state, seat)
