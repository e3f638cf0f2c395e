"""Hand positions built by hand for the scenario tests: seat 0 to play, the piles as given."""

from __future__ import annotations

from random import Random

from engine.cards import Card
from engine.moves import Discard, Move
from engine.rules import Rules
from engine.state import HandState, Phase


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
    state.hands[0] = list(hand)
    for side, battle, speed, safeties in (
        (0, own, own_speed, own_safeties),
        (1, other, other_speed, other_safeties),
    ):
        tableau = state.tableaux[side]
        tableau.battle = list(battle or [])
        tableau.speed = list(speed or [])
        tableau.safeties = list(safeties or [])
    for km, count in (own_distance or {}).items():
        for _ in range(count):
            state.tableaux[0].add_distance(Card.distance(km), 0)
    state.to_act = state.turn = 0
    state.phase = Phase.PLAY
    return state


def plays(state: HandState) -> set[Move]:
    return {move for move in state.legal_moves() if not isinstance(move, Discard)}
