"""The 106 cards of Mille Bornes: what each card is, what it answers, and how many there are.

The values of :class:`Card` are the wire format (RULES.md §1), so a card serialises to JSON with no
mapping table and an unknown name fails where it is read.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum


class CardKind(StrEnum):
    """The four families of cards."""

    DISTANCE = "distance"
    HAZARD = "hazard"
    REMEDY = "remedy"
    SAFETY = "safety"


class Card(StrEnum):
    """Every card of the deck, by its contract id.

    >>> Card("right_of_way").kind
    <CardKind.SAFETY: 'safety'>
    >>> sorted(Card.RIGHT_OF_WAY.answers)
    [<Card.SPEED_LIMIT: 'speed_limit'>, <Card.STOP: 'stop'>]
    >>> Card.DISTANCE_75.value_km
    75
    """

    DISTANCE_25 = "distance_25"
    DISTANCE_50 = "distance_50"
    DISTANCE_75 = "distance_75"
    DISTANCE_100 = "distance_100"
    DISTANCE_200 = "distance_200"
    ACCIDENT = "accident"
    OUT_OF_GAS = "out_of_gas"
    FLAT_TIRE = "flat_tire"
    STOP = "stop"
    SPEED_LIMIT = "speed_limit"
    REPAIRS = "repairs"
    GASOLINE = "gasoline"
    SPARE_TIRE = "spare_tire"
    ROLL = "roll"
    END_OF_LIMIT = "end_of_limit"
    DRIVING_ACE = "driving_ace"
    EXTRA_TANK = "extra_tank"
    PUNCTURE_PROOF = "puncture_proof"
    RIGHT_OF_WAY = "right_of_way"

    kind: CardKind
    """The card's family."""
    answers: frozenset[Card]
    """The hazards this remedy cures or this safety protects against (empty otherwise)."""
    value_km: int
    """The distance a distance card adds; 0 for every other card."""

    @classmethod
    def distance(cls, km: int) -> Card:
        """The distance card worth ``km`` (25, 50, 75, 100 or 200)."""
        return _DISTANCE_BY_KM[km]


DISTANCE_VALUES: tuple[int, ...] = (25, 50, 75, 100, 200)
"""The face values of distance cards, smallest first."""

SAFETIES: tuple[Card, ...] = (
    Card.DRIVING_ACE,
    Card.EXTRA_TANK,
    Card.PUNCTURE_PROOF,
    Card.RIGHT_OF_WAY,
)
"""The four safeties, in the order score sheets list them."""

BATTLE_HAZARDS: frozenset[Card] = frozenset(
    {Card.ACCIDENT, Card.OUT_OF_GAS, Card.FLAT_TIRE, Card.STOP}
)
"""Hazards that go on the battle pile (Speed Limit goes on the speed pile)."""

_VALUE_KM: dict[Card, int] = {
    Card.DISTANCE_25: 25,
    Card.DISTANCE_50: 50,
    Card.DISTANCE_75: 75,
    Card.DISTANCE_100: 100,
    Card.DISTANCE_200: 200,
}
_DISTANCE_BY_KM: dict[int, Card] = {km: card for card, km in _VALUE_KM.items()}

_KIND: dict[Card, CardKind] = {
    **{card: CardKind.DISTANCE for card in _VALUE_KM},
    **{card: CardKind.HAZARD for card in BATTLE_HAZARDS | {Card.SPEED_LIMIT}},
    **{
        card: CardKind.REMEDY
        for card in (Card.REPAIRS, Card.GASOLINE, Card.SPARE_TIRE, Card.ROLL, Card.END_OF_LIMIT)
    },
    **{card: CardKind.SAFETY for card in SAFETIES},
}

_ANSWERS: dict[Card, frozenset[Card]] = {
    Card.REPAIRS: frozenset({Card.ACCIDENT}),
    Card.GASOLINE: frozenset({Card.OUT_OF_GAS}),
    Card.SPARE_TIRE: frozenset({Card.FLAT_TIRE}),
    Card.ROLL: frozenset({Card.STOP}),
    Card.END_OF_LIMIT: frozenset({Card.SPEED_LIMIT}),
    Card.DRIVING_ACE: frozenset({Card.ACCIDENT}),
    Card.EXTRA_TANK: frozenset({Card.OUT_OF_GAS}),
    Card.PUNCTURE_PROOF: frozenset({Card.FLAT_TIRE}),
    Card.RIGHT_OF_WAY: frozenset({Card.STOP, Card.SPEED_LIMIT}),
}

# Plain attributes rather than properties: the rules engine reads them on every move.
for _card in Card:
    _card.kind = _KIND[_card]
    _card.answers = _ANSWERS.get(_card, frozenset())
    _card.value_km = _VALUE_KM.get(_card, 0)
del _card

FULL_DECK: Counter[Card] = Counter(
    {
        Card.DISTANCE_25: 10,
        Card.DISTANCE_50: 10,
        Card.DISTANCE_75: 10,
        Card.DISTANCE_100: 12,
        Card.DISTANCE_200: 4,
        Card.ACCIDENT: 3,
        Card.OUT_OF_GAS: 3,
        Card.FLAT_TIRE: 3,
        Card.STOP: 5,
        Card.SPEED_LIMIT: 4,
        Card.REPAIRS: 6,
        Card.GASOLINE: 6,
        Card.SPARE_TIRE: 6,
        Card.ROLL: 14,
        Card.END_OF_LIMIT: 6,
        Card.DRIVING_ACE: 1,
        Card.EXTRA_TANK: 1,
        Card.PUNCTURE_PROOF: 1,
        Card.RIGHT_OF_WAY: 1,
    }
)
"""The 106-card deck (RULES.md §1)."""

REDUCED_DECK: Counter[Card] = FULL_DECK - Counter(BATTLE_HAZARDS | {Card.SPEED_LIMIT})
"""The 101-card deck for 2 or 3 seated players: one of each of the five hazards set aside."""

DISTANCE_CARDS_IN_DECK: dict[int, int] = {
    km: FULL_DECK[Card.distance(km)] for km in DISTANCE_VALUES
}
"""How many distance cards of each value a deck holds (both decks hold the same)."""


_REMEDY_FOR: dict[Card, Card] = {
    hazard: card
    for card, answered in _ANSWERS.items()
    if card.kind is CardKind.REMEDY
    for hazard in answered
}
_SAFETY_FOR: dict[Card, Card] = {hazard: card for card in SAFETIES for hazard in _ANSWERS[card]}


def remedy_for(hazard: Card) -> Card:
    """The remedy that cures ``hazard``.

    >>> remedy_for(Card.FLAT_TIRE)
    <Card.SPARE_TIRE: 'spare_tire'>
    """
    try:
        return _REMEDY_FOR[hazard]
    except KeyError:
        raise ValueError(f"{hazard} is not a hazard") from None


def safety_for(hazard: Card) -> Card:
    """The safety that protects against ``hazard``.

    >>> safety_for(Card.SPEED_LIMIT)
    <Card.RIGHT_OF_WAY: 'right_of_way'>
    """
    try:
        return _SAFETY_FOR[hazard]
    except KeyError:
        raise ValueError(f"{hazard} is not a hazard") from None
