"""Hand positions built by hand for the scenario tests: seat 0 to play, the piles as given.

The engine keeps cards as codes (:mod:`engine.codes`); these helpers let the tests build and
read positions in :class:`~engine.cards.Card` names. A test that sets hands or piles directly
goes through them: they convert to codes and refresh what the tableaux allow.
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from engine.cards import Card
from engine.codes import CARDS, CODE, NO_CARD
from engine.moves import Discard, Move
from engine.rules import Rules
from engine.state import HandState, Phase


def codes(cards: Iterable[Card | None]) -> list[int]:
    """Cards as codes; None (a corrected hazard on a battle pile) as NO_CARD."""
    return [NO_CARD if card is None else CODE[card] for card in cards]


def cards(card_codes: Iterable[int]) -> list[Card | None]:
    """Codes as cards; NO_CARD (a corrected hazard on a battle pile) as None."""
    return [None if code == NO_CARD else CARDS[code] for code in card_codes]


def card(code: int) -> Card | None:
    """One code as a card (None for NO_CARD)."""
    return None if code == NO_CARD else CARDS[code]


# -- setting a position --------------------------------------------------------------------------


def set_hand(state: HandState, seat: int, hand: Iterable[Card]) -> None:
    state.hands[seat] = codes(hand)
    state.refresh()


def give(state: HandState, seat: int, *more: Card) -> None:
    """Add cards to ``seat``'s hand."""
    state.hands[seat].extend(codes(more))
    state.refresh()


def set_draw_pile(state: HandState, pile: Iterable[Card]) -> None:
    """The draw pile, bottom first (the top card last)."""
    state.draw_pile[:] = codes(pile)
    state.refresh()


def set_battle(state: HandState, side: int, battle: Iterable[Card | None]) -> None:
    state.tableaux[side].battle = codes(battle)
    state.refresh()


def set_speed(state: HandState, side: int, speed: Iterable[Card]) -> None:
    state.tableaux[side].speed = codes(speed)
    state.refresh()


def set_safeties(state: HandState, side: int, safeties: Iterable[Card]) -> None:
    """The side's safeties, laid with nothing cleared: the protection they give follows."""
    state.tableaux[side].safeties = codes(safeties)
    state.refresh()


def set_turn(state: HandState, seat: int) -> None:
    """``seat`` to play (in the play phase)."""
    state.to_act = state.turn = seat
    state.phase = Phase.PLAY
    state.refresh()


def position(
    hand: list[Card],
    own: list[Card] | None = None,
    other: list[Card] | None = None,
    players: int = 2,
    variants: dict[str, str] | None = None,
    own_speed: list[Card] | None = None,
    other_speed: list[Card] | None = None,
    own_safeties: list[Card] | None = None,
    other_safeties: list[Card] | None = None,
    own_distance: dict[int, int] | None = None,
) -> HandState:
    """Seat 0 to play, holding ``hand``; ``own`` / ``other`` are the battle piles (bottom first)."""
    rules = Rules.for_players(players, variants)
    state = HandState.shuffled(rules, Random(0), dealer=players - 1)
    set_hand(state, 0, hand)
    for side, battle, speed, safeties in (
        (0, own, own_speed, own_safeties),
        (1, other, other_speed, other_safeties),
    ):
        set_battle(state, side, battle or [])
        set_speed(state, side, speed or [])
        set_safeties(state, side, safeties or [])
    for km, count in (own_distance or {}).items():
        for _ in range(count):
            state.tableaux[0].add_distance(CODE[Card.distance(km)], 0)
    set_turn(state, 0)
    return state


# -- reading a position in cards -----------------------------------------------------------------


def hand(state: HandState, seat: int) -> list[Card]:
    return [CARDS[code] for code in state.hands[seat]]


def discards(state: HandState) -> list[Card]:
    return [CARDS[code] for code in state.discards]


def battle(state: HandState, side: int) -> list[Card | None]:
    return cards(state.tableaux[side].battle)


def battle_top(state: HandState, side: int) -> Card | None:
    return card(state.tableaux[side].battle_top)


def speed(state: HandState, side: int) -> list[Card]:
    return [CARDS[code] for code in state.tableaux[side].speed]


def coup_fourres(state: HandState, side: int) -> list[Card]:
    return [CARDS[code] for code in state.tableaux[side].coup_fourres]


def plays(state: HandState) -> set[Move]:
    return {move for move in state.legal_moves() if not isinstance(move, Discard)}
