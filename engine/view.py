"""What one seat may see: its own hand, every tableau, the piles, never another seat's hand.

A :class:`SeatView` is a window on the live hand, not a copy: computer players decide on every
move, so each fact is read only when a player asks for it, as the hand is at that moment; one view
per seat serves a whole hand.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from engine.cards import Card
from engine.codes import CARDS, COUNT, NO_CARD, SAFETY_FOR
from engine.moves import Move
from engine.randomness import shuffle
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.tableau import Tableau


def _card(code: int) -> Card | None:
    return None if code == NO_CARD else CARDS[code]


class TableauView:
    """A side's tableau as everyone at the table sees it, in cards: a window on the live
    tableau, read when asked (computer players read the codes of :meth:`SeatView.tableau`)."""

    __slots__ = ("_tableau",)

    def __init__(self, tableau: Tableau) -> None:
        self._tableau = tableau

    @property
    def battle(self) -> tuple[Card | None, ...]:
        """The battle pile, bottom first; None marks a corrected hazard (RULES.md §3)."""
        return tuple(_card(code) for code in self._tableau.battle)

    @property
    def speed(self) -> tuple[Card, ...]:
        return tuple(CARDS[code] for code in self._tableau.speed)

    @property
    def distance(self) -> int:
        return self._tableau.distance

    @property
    def cards(self) -> dict[int, int]:
        """Distance cards laid, by face value."""
        return self._tableau.cards_by_km()

    @property
    def two_hundreds_by_seat(self) -> dict[int, int]:
        return dict(self._tableau.two_hundreds_by_seat)

    @property
    def safeties(self) -> tuple[Card, ...]:
        return tuple(CARDS[code] for code in self._tableau.safeties)

    @property
    def coup_fourres(self) -> tuple[Card, ...]:
        return tuple(CARDS[code] for code in self._tableau.coup_fourres)

    @property
    def battle_top(self) -> Card | None:
        """The card showing on the battle pile (None when empty or corrected)."""
        return _card(self._tableau.battle_top)

    @property
    def corrected(self) -> bool:
        return self._tableau.corrected

    @property
    def speed_top(self) -> Card | None:
        return _card(self._tableau.speed_top)

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

    __slots__ = ("_state", "seat")

    def __init__(self, state: HandState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def side(self) -> int:
        return self._state.side_of(self.seat)

    @property
    def sides(self) -> int:
        return self._state.sides

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(CARDS[code] for code in self._state.hands[self.seat])

    @property
    def hand_codes(self) -> list[int]:
        """The seat's hand as codes: the live list, for reading only."""
        return self._state.hands[self.seat]

    @property
    def tableaux(self) -> tuple[TableauView, ...]:
        return tuple(TableauView(tableau) for tableau in self._state.tableaux)

    def tableau(self, side: int) -> Tableau:
        """Side ``side``'s live tableau, in codes, for reading only: what computer players
        read, with no copy and no translation."""
        return self._state.tableaux[side]

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's game total before this hand, as the score sheet shows it to all."""
        return self._state.scores

    @property
    def draw_pile(self) -> int:
        """How many cards are left to draw."""
        return len(self._state.draw_pile)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Every discard, bottom first: they are laid face up."""
        return tuple(CARDS[code] for code in self._state.discards)

    @property
    def discard_top(self) -> Card | None:
        discards = self._state.discards
        return CARDS[discards[-1]] if discards else None

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
        """The hazard this seat is asked about in a coup-fourré chance, now that the chance
        waits for it (only shown to that seat)."""
        return self.asked_hazard if self._state.to_act == self.seat else None

    @property
    def asked_hazard(self) -> Card | None:
        """The hazard the open coup-fourré chance asks this seat about, now or before it reaches
        the seat (a window asks every person at once): the one its safety answers if it holds
        one, else the first still answerable; None if the chance does not ask it."""
        state = self._state
        chance = state.chance
        if state.phase is not Phase.COUP_FOURRE or chance is None or self.seat not in chance.seats:
            return None
        hazards = state.chance_hazards
        hand = state.hands[self.seat]
        return CARDS[next((h for h in hazards if SAFETY_FOR[h] in hand), hazards[0])]

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
        return self._state.legal_moves(self.seat)

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """Every move of the hand so far, in order, as (seat, move): each made in view of the
        table (a draw is no move: which card a seat drew is its own). The live list, for
        reading only; what a seat may infer from it is its player's own reading (the search's
        research lever, ``reference/inference.py``)."""
        return self._state.events

    def unseen(self) -> Counter[Card]:
        """The cards this seat has not seen, by count: the other hands and the draw pile."""
        state, seat = self._state, self.seat
        return Counter(
            {CARDS[code]: count for code in range(COUNT) if (count := state.unseen(seat, code))}
        )

    def unseen_count(self, card: int) -> int:
        """How many of ``card`` (a code) this seat has not seen: the deck less the own hand and
        every card laid face up, which the hand keeps count of as it goes."""
        return self._state.unseen(self.seat, card)

    def deck_count(self, card: int) -> int:
        """How many of ``card`` (a code) the hand's deck holds (the rules' deck)."""
        return self._state.deck_counts[card]

    def seen_count(self, card: int) -> int:
        """How many of ``card`` this seat has seen: in its own hand or face up."""
        state = self._state
        return state.deck_counts[card] - state.unseen(self.seat, card)

    def sample(self, rng: Random) -> HandState:
        """A whole hand consistent with what this seat has seen, for search players.

        The seat's own hand and every card face up stay where they are; the cards it has not
        seen (the other hands and the draw pile, as one pool whose make-up the seat can count)
        are dealt again at random into hands of the same sizes and a pile of the same size.
        """
        state = self._state.copy()
        others = [seat for seat in range(state.players) if seat != self.seat]
        pool = [card for seat in others for card in state.hands[seat]] + state.draw_pile
        shuffle(rng, pool)
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
