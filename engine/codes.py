"""The cards as the hot path sees them: small integers and bit masks.

A virtual hand asks "may this card go there?" thousands of times a second. Asked of
:class:`~engine.cards.Card` enums, every question is an attribute lookup or a hash through
Python code; asked of a card's code, it is an index into a tuple or one bit test, which mypyc
compiles to a machine instruction. So the state of a hand holds codes, and enums live at the
edges (the views' JSON, reports, records, names): :data:`CARDS` and :data:`CODE` translate.

A code is the card's position in :class:`~engine.cards.Card`, so codes sort as the enum does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final

from engine.cards import FULL_DECK, REDUCED_DECK, Card, CardKind
from engine.rules import Rules

CARDS: Final[tuple[Card, ...]] = tuple(Card)
"""Card of each code."""
CODE: Final[dict[Card, int]] = {card: code for code, card in enumerate(CARDS)}
"""Code of each card."""

DISTANCE_25: Final = 0
DISTANCE_50: Final = 1
DISTANCE_75: Final = 2
DISTANCE_100: Final = 3
DISTANCE_200: Final = 4
ACCIDENT: Final = 5
OUT_OF_GAS: Final = 6
FLAT_TIRE: Final = 7
STOP: Final = 8
SPEED_LIMIT: Final = 9
REPAIRS: Final = 10
GASOLINE: Final = 11
SPARE_TIRE: Final = 12
ROLL: Final = 13
END_OF_LIMIT: Final = 14
DRIVING_ACE: Final = 15
EXTRA_TANK: Final = 16
PUNCTURE_PROOF: Final = 17
RIGHT_OF_WAY: Final = 18
NO_CARD: Final = -1
"""What an empty pile shows; on the battle pile, also the mark of a corrected hazard (§3)."""

COUNT: Final = len(CARDS)
EVERY_CARD: Final = (1 << COUNT) - 1
"""The mask of every card."""

DISTANCE: Final = 0
HAZARD: Final = 1
REMEDY: Final = 2
SAFETY: Final = 3
_KIND_CODE = {
    CardKind.DISTANCE: DISTANCE,
    CardKind.HAZARD: HAZARD,
    CardKind.REMEDY: REMEDY,
    CardKind.SAFETY: SAFETY,
}
KIND: Final[tuple[int, ...]] = tuple(_KIND_CODE[card.kind] for card in CARDS)
"""Family of each code: :data:`DISTANCE`, :data:`HAZARD`, :data:`REMEDY` or :data:`SAFETY`."""
KM: Final[tuple[int, ...]] = tuple(card.value_km for card in CARDS)
"""Kilometres of each code (0 for every card but distance)."""
DISTANCES: Final[tuple[int, ...]] = tuple(code for code, km in enumerate(KM) if km)
"""The distance cards' codes, shortest first."""


def mask(cards: Iterable[Card]) -> int:
    """The bit mask of some cards (enums), bit ``code`` set for each."""
    bits = 0
    for card in cards:
        bits |= 1 << CODE[card]
    return bits


ANSWERS: Final[tuple[int, ...]] = tuple(mask(card.answers) for card in CARDS)
"""The hazards each remedy cures or safety protects against, as a mask."""
HAZARDS: Final = mask(card for card in CARDS if card.kind is CardKind.HAZARD)
BATTLE_HAZARDS: Final = HAZARDS & ~(1 << SPEED_LIMIT)
SAFETIES: Final = mask(card for card in CARDS if card.kind is CardKind.SAFETY)
LIMITED_DISTANCE: Final = (1 << DISTANCE_25) | (1 << DISTANCE_50)
"""Distance a side under a Speed Limit may still play."""
REMEDIES_BEFORE_ROLL: Final = (1 << REPAIRS) | (1 << GASOLINE) | (1 << SPARE_TIRE)
"""Remedies that go on the battle pile and call for a Roll after them (§5)."""


def _answering(kind: CardKind) -> tuple[int, ...]:
    """For each hazard code, the code of the card of ``kind`` answering it (else NO_CARD)."""
    found = [NO_CARD] * COUNT
    for code, card in enumerate(CARDS):
        if card.kind is kind:
            for hazard in card.answers:
                found[CODE[hazard]] = code
    return tuple(found)


SAFETY_FOR: Final[tuple[int, ...]] = _answering(CardKind.SAFETY)
"""The safety protecting against each hazard code."""
REMEDY_FOR: Final[tuple[int, ...]] = _answering(CardKind.REMEDY)
"""The remedy curing each hazard code."""
CURES: Final[tuple[int, ...]] = tuple(
    CODE[min(card.answers)] if card.kind is CardKind.REMEDY else NO_CARD for card in CARDS
)
"""The hazard each remedy code cures."""


def deck_codes(deck: Counter[Card]) -> tuple[int, ...]:
    """A deck as codes, in the order ``Counter.elements`` gives its cards, so a shuffle of
    codes deals exactly the cards a shuffle of enums would."""
    return tuple(CODE[card] for card in deck.elements())


_FULL_DECK: Final = deck_codes(FULL_DECK)
_REDUCED_DECK: Final = deck_codes(REDUCED_DECK)
_FULL_COUNTS: Final = tuple(FULL_DECK[card] for card in CARDS)
_REDUCED_COUNTS: Final = tuple(REDUCED_DECK[card] for card in CARDS)


def deck_of(rules: Rules) -> tuple[int, ...]:
    """The deck a hand under ``rules`` is shuffled from, as codes (built once, not per hand)."""
    return _REDUCED_DECK if rules.reduced_deck else _FULL_DECK


def counts_of(rules: Rules) -> tuple[int, ...]:
    """How many cards of each code the deck under ``rules`` holds."""
    return _REDUCED_COUNTS if rules.reduced_deck else _FULL_COUNTS


assert CARDS[RIGHT_OF_WAY] is Card.RIGHT_OF_WAY and CARDS[DISTANCE_200] is Card.DISTANCE_200
assert CARDS[SPEED_LIMIT] is Card.SPEED_LIMIT and CARDS[ROLL] is Card.ROLL
