"""Random games, checked after every move: every card accounted for, hands of the right size, no
view showing another seat's hand, copies independent, reports accepted by the validator, replays
identical."""

from __future__ import annotations

import json
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.state import HAND_SIZE, HandState, Phase
from engine.validation import check_report
from engine.view import seat_view

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
@given(PLAYERS, VARIANTS, st.integers(0, 2**32))
def test_invariants_hold_after_every_move(
    players: int, variants: dict[str, str], seed: int
) -> None:
    rules = Rules.for_players(players, variants)
    rng = Random(seed)
    state = HandState.shuffled(rules, rng, dealer=seed % players)
    cards = rules.deck.total()
    while not state.over:
        seat = state.to_act
        if state.phase is Phase.PLAY and state.draw_pile:
            assert len(state.hands[seat]) == HAND_SIZE + 1
        view = seat_view(state, seat)
        assert view.hand == tuple(state.hands[seat])
        for other in range(players):  # what differs between seats' views is their own only
            assert _public(seat_view(state, other).to_dict()) == _public(view.to_dict())
        assert sum(view.hand_sizes) == sum(len(hand) for hand in state.hands)
        twin = state.copy()
        move = rng.choice(view.legal_moves)
        twin.apply(move, seat)
        state.apply(move, seat)
        assert state.cards_accounted() == cards
        assert [len(h) for h in twin.hands] == [len(h) for h in state.hands]
        if state.phase is Phase.PLAY and state.draw_pile and state.to_act != seat:
            assert all(
                len(hand) <= HAND_SIZE for s, hand in enumerate(state.hands) if s != state.to_act
            )
    assert check_report(state.report(), rules) == []


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([2, 4]), st.integers(0, 2**32))
def test_a_whole_game_replays_identically(players: int, seed: int) -> None:
    game = Game(Rules.for_players(players), seed)
    names = ["greedy", "random"]
    game.play([make_player(names[seat % 2], Random(seed + seat)) for seat in range(players)])
    assert game.over
    record = json.loads(json.dumps(game.to_dict()))
    again = Game.replay(record)
    assert again.to_dict() == game.to_dict()


def _public(view: dict[str, object]) -> dict[str, object]:
    own = {"seat", "side", "hand", "legal_moves", "pending_hazard"}
    return {key: value for key, value in view.items() if key not in own}


def test_a_copy_does_not_share_state() -> None:
    state = HandState.shuffled(Rules.for_players(2), Random(1))
    twin = state.copy()
    twin.hands[state.to_act].clear()
    twin.tableaux[0].battle.append(None)
    assert state.hands[state.to_act]
    assert not state.tableaux[0].battle
