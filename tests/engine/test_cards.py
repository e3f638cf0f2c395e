"""The deck of RULES.md §1: composition, relations, and names in both languages."""

from __future__ import annotations

import pytest

from engine.cards import (
    FULL_DECK,
    REDUCED_DECK,
    SAFETIES,
    Card,
    CardKind,
    remedy_for,
    safety_for,
)
from engine.categories import Category
from engine.rules import Rules
from engine.vocabulary import CARD_NAMES, CATEGORY_NAMES, Language


def count(deck: dict[Card, int], kind: CardKind) -> int:
    return sum(n for card, n in deck.items() if card.kind is kind)


def test_full_deck_holds_106_cards() -> None:
    assert FULL_DECK.total() == 106
    assert [count(FULL_DECK, kind) for kind in CardKind] == [46, 18, 38, 4]


def test_distance_cards_add_up_to_3500_km() -> None:
    assert sum(card.value_km * n for card, n in FULL_DECK.items()) == 3500


def test_reduced_deck_sets_one_of_each_hazard_aside() -> None:
    assert REDUCED_DECK.total() == 101
    removed = FULL_DECK - REDUCED_DECK
    assert set(removed) == {c for c in Card if c.kind is CardKind.HAZARD}
    assert set(removed.values()) == {1}


@pytest.mark.parametrize(("players", "cards"), [(2, 101), (3, 101), (4, 106), (6, 106)])
def test_deck_for_each_table(players: int, cards: int) -> None:
    assert Rules.for_players(players).deck.total() == cards


def test_full_deck_variant_for_two_players() -> None:
    assert Rules.for_players(2, {"deck": "full"}).deck.total() == 106


@pytest.mark.parametrize(
    ("hazard", "remedy", "safety"),
    [
        (Card.ACCIDENT, Card.REPAIRS, Card.DRIVING_ACE),
        (Card.OUT_OF_GAS, Card.GASOLINE, Card.EXTRA_TANK),
        (Card.FLAT_TIRE, Card.SPARE_TIRE, Card.PUNCTURE_PROOF),
        (Card.STOP, Card.ROLL, Card.RIGHT_OF_WAY),
        (Card.SPEED_LIMIT, Card.END_OF_LIMIT, Card.RIGHT_OF_WAY),
    ],
)
def test_each_hazard_has_its_remedy_and_safety(hazard: Card, remedy: Card, safety: Card) -> None:
    assert remedy_for(hazard) is remedy
    assert safety_for(hazard) is safety
    assert hazard in remedy.answers and hazard in safety.answers


def test_right_of_way_answers_stop_and_speed_limit() -> None:
    assert Card.RIGHT_OF_WAY.answers == {Card.STOP, Card.SPEED_LIMIT}


def test_only_remedies_and_safeties_answer_anything() -> None:
    assert all(
        not card.answers for card in Card if card.kind in (CardKind.HAZARD, CardKind.DISTANCE)
    )


def test_four_safeties_one_each() -> None:
    assert [FULL_DECK[card] for card in SAFETIES] == [1, 1, 1, 1]


def test_asking_for_the_remedy_of_a_non_hazard_is_an_error() -> None:
    with pytest.raises(ValueError):
        remedy_for(Card.ROLL)


def test_every_card_and_category_is_named_in_english_and_french() -> None:
    for names in (*CARD_NAMES.values(), *CATEGORY_NAMES.values()):
        assert set(names) == set(Language) and all(names.values())
    assert set(CARD_NAMES) == set(Card)
    assert set(CATEGORY_NAMES) == set(Category)
