"""Random games, checked after every move: every card accounted for, hands of the right size, no
view showing another seat's hand, copies independent, reports accepted by the validator, replays
identical."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.codes import CARDS, NO_CARD
from engine.moves import CoupFourre, Discard, Play
from engine.players import make_player
from engine.rules import Rules
from engine.state import HAND_SIZE, HandState, Phase
from engine.validation import check_report
from engine.view import seat_view
from engine.virtual_game import VirtualGame
from tests.engine.positions import battle_top, hand

PLAYERS = st.sampled_from([2, 3, 4, 6])
VARIANTS = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.sampled_from(["reduced", "full"]),
        "hazards": st.sampled_from(["on_any_battle_card", "on_rolling"]),
        "speed_limit_on_limit": st.sampled_from(["forbidden", "allowed"]),
        "safety_on_hazard": st.sampled_from(["needs_roll", "rolls_at_once"]),
        "roll_after_remedy": st.sampled_from(["required", "not_required"]),
        "discard_safeties": st.sampled_from(["allowed", "forbidden"]),
        "safety_after_exhaustion": st.sampled_from(["extra_turn", "no_extra_turn"]),
        "exhaustion_end": st.sampled_from(["play_out", "no_playable"]),
        "coup_fourre_window": st.sampled_from(["until_next_draw", "victims_next_turn"]),
        "two_hundreds_limit": st.sampled_from(["side", "player"]),
        "shutout": st.sampled_from(["parker", "capot", "single"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(PLAYERS, VARIANTS, st.integers(0, 2**32), st.booleans())
def test_invariants_hold_after_every_move(
    players: int, variants: dict[str, str], seed: int, private_chances: bool
) -> None:
    rules = Rules.for_players(players, variants)
    rng = Random(seed)
    state = HandState.shuffled(rules, rng, dealer=seed % players, private_chances=private_chances)
    cards = rules.deck.total()
    while not state.over:
        seat = state.to_act
        if state.phase is Phase.PLAY and state.draw_pile:
            assert len(state.hands[seat]) == HAND_SIZE + 1
        view = seat_view(state, seat)
        assert list(view.hand) == hand(state, seat)
        # The API's promise (openapi.yaml, legal_moves): the seat the game waits for always has
        # a move (one can always discard, pass a chance, or answer the extension); the others
        # have none in the engine's view.
        assert view.legal_moves
        for other in range(players):  # what differs between seats' views is their own only
            assert _public(seat_view(state, other).to_dict()) == _public(view.to_dict())
            assert other == seat or seat_view(state, other).legal_moves == ()
        assert sum(view.hand_sizes) == sum(len(hand) for hand in state.hands)
        twin = state.copy()
        move = rng.choice(view.legal_moves)
        twin.apply(move, seat)
        state.apply(move, seat)
        assert state.cards_accounted() == cards
        assert _protected_hazard_showing(state) is None
        assert [len(h) for h in twin.hands] == [len(h) for h in state.hands]
        if state.phase is Phase.PLAY and state.draw_pile and state.to_act != seat:
            assert all(
                len(hand) <= HAND_SIZE for s, hand in enumerate(state.hands) if s != state.to_act
            )
    assert check_report(state.report(), rules) == []


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([2, 4]), st.integers(0, 2**32))
def test_a_whole_game_replays_identically(players: int, seed: int) -> None:
    game = VirtualGame(Rules.for_players(players), seed)
    names = ["greedy", "random"]
    game.play([make_player(names[seat % 2], Random(seed + seat)) for seat in range(players)])
    assert game.over
    record = json.loads(json.dumps(game.to_dict()))
    again = VirtualGame.replay(record)
    assert again.to_dict() == game.to_dict()


def _public(view: dict[str, object]) -> dict[str, object]:
    own = {"seat", "side", "hand", "legal_moves", "pending_hazard"}
    return {key: value for key, value in view.items() if key not in own}


def test_a_copy_does_not_share_state() -> None:
    state = HandState.shuffled(Rules.for_players(2), Random(1))
    twin = state.copy()
    twin.hands[state.to_act].clear()
    twin.tableaux[0].battle.append(NO_CARD)
    assert state.hands[state.to_act]
    assert not state.tableaux[0].battle


PLAY_VARIANTS = {
    "deck": ["reduced", "full"],
    "hazards": ["on_any_battle_card", "on_rolling"],
    "speed_limit_on_limit": ["forbidden", "allowed"],
    "safety_on_hazard": ["needs_roll", "rolls_at_once"],
    "roll_after_remedy": ["required", "not_required"],
    "discard_safeties": ["allowed", "forbidden"],
    "coup_fourre_window": ["until_next_draw", "victims_next_turn"],
    "safety_after_exhaustion": ["extra_turn", "no_extra_turn"],
    "exhaustion_end": ["play_out", "no_playable"],
}
"""Every play variant of RULES.md §12 with every value."""


def _every_combination() -> list[dict[str, str]]:
    combinations: list[dict[str, str]] = [{}]
    for key, values in PLAY_VARIANTS.items():
        combinations = [{**done, key: value} for done in combinations for value in values]
    return combinations


def _protected_hazard_showing(state: HandState) -> str | None:
    """RULES.md §5a's invariant: no side shows a hazard it is protected against."""
    for side, tableau in enumerate(state.tableaux):
        safeties = [CARDS[code] for code in tableau.safeties]
        protected = {hazard for safety in safeties for hazard in safety.answers}
        top = battle_top(state, side)
        if top in protected:
            return f"side {side} shows {top} with {safeties}"
        if tableau.limited and Card.SPEED_LIMIT in protected:
            return f"side {side} is limited with Right of Way"
    return None


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_no_side_ever_shows_a_hazard_it_is_protected_against(players: int) -> None:
    """One seeded hand under each of the 512 combinations of play variants, with and without
    private chances; moves chosen at random, but plays preferred to discards so that hazards
    stack and safeties land on them."""
    cleared_stacks = 0
    for number, variants in enumerate(_every_combination()):
        rng = Random(f"{players}/{number}")
        rules = Rules.for_players(players, variants)
        state = HandState.shuffled(rules, rng, number % players, private_chances=number % 2 == 1)
        while not state.over:
            moves = state.legal_moves()
            plays = [move for move in moves if not isinstance(move, Discard)]
            move = rng.choice(plays if plays and rng.random() < 0.9 else moves)
            discards = len(state.discards)
            state.apply(move)
            if isinstance(move, Play | CoupFourre) and len(state.discards) - discards > 1:
                cleared_stacks += 1
            assert _protected_hazard_showing(state) is None, (variants, state.events)
        assert check_report(state.report(), rules) == []
    assert cleared_stacks > 0  # the sweep did put safeties on stacked hazards
