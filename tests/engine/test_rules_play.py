"""Scenario positions of RULES.md §13 (and the turn rules of §4–§8) against the legal moves."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.errors import IllegalMove
from engine.moves import CALL, DECLINE, PASS, CoupFourre, Discard, Play
from engine.state import HandState, Phase
from tests.engine.positions import (
    battle,
    battle_top,
    coup_fourres,
    discards,
    hand,
    plays,
    position,
    set_battle,
    set_draw_pile,
    set_hand,
)

C = Card


def test_empty_battle_pile_without_right_of_way() -> None:
    state = position([C.ROLL, C.SPEED_LIMIT, C.EXTRA_TANK, C.DISTANCE_100, C.REPAIRS, C.ACCIDENT])
    assert plays(state) == {Play(C.ROLL), Play(C.SPEED_LIMIT, 1), Play(C.EXTRA_TANK)}
    assert Discard(C.DISTANCE_100) in state.legal_moves()


def test_opponent_rolling_and_unprotected_takes_any_hazard() -> None:
    state = position([C.ACCIDENT, C.OUT_OF_GAS, C.FLAT_TIRE, C.STOP, C.SPEED_LIMIT], other=[C.ROLL])
    assert plays(state) == {Play(card, 1) for card in hand(state, 0)}


def test_hazards_stack_by_default_but_not_under_on_rolling() -> None:
    hand = [C.FLAT_TIRE]
    assert plays(position(hand, other=[C.ROLL, C.ACCIDENT])) == {Play(C.FLAT_TIRE, 1)}
    assert (
        plays(position(hand, other=[C.ROLL, C.ACCIDENT], variants={"hazards": "on_rolling"}))
        == set()
    )
    assert plays(position(hand, other=[C.GASOLINE])) == {Play(C.FLAT_TIRE, 1)}
    assert plays(position(hand, other=[C.GASOLINE], variants={"hazards": "on_rolling"})) == set()


def test_stop_on_top_of_an_accident_needs_only_a_roll() -> None:
    state = position([C.ROLL, C.REPAIRS], own=[C.ROLL, C.ACCIDENT, C.STOP])
    assert plays(state) == {Play(C.ROLL)}


def test_flat_tire_takes_the_spare_not_a_roll_nor_distance() -> None:
    state = position([C.SPARE_TIRE, C.ROLL, C.DISTANCE_25], own=[C.ROLL, C.FLAT_TIRE])
    assert plays(state) == {Play(C.SPARE_TIRE)}


def test_after_a_remedy_a_roll_is_needed() -> None:
    state = position([C.ROLL, C.DISTANCE_25], own=[C.SPARE_TIRE])
    assert plays(state) == {Play(C.ROLL)}
    relaxed = position(
        [C.ROLL, C.DISTANCE_25], own=[C.SPARE_TIRE], variants={"roll_after_remedy": "not_required"}
    )
    assert Play(C.DISTANCE_25) in plays(relaxed)


def test_right_of_way_rolls_after_a_remedy() -> None:
    state = position([C.ROLL, C.DISTANCE_100], own=[C.SPARE_TIRE], own_safeties=[C.RIGHT_OF_WAY])
    assert plays(state) == {Play(C.ROLL), Play(C.DISTANCE_100)}


def test_stop_takes_a_roll_or_right_of_way_not_gasoline() -> None:
    state = position([C.ROLL, C.RIGHT_OF_WAY, C.GASOLINE], own=[C.ROLL, C.STOP])
    assert plays(state) == {Play(C.ROLL), Play(C.RIGHT_OF_WAY)}


def test_speed_limit_allows_25_and_50_only() -> None:
    hand = [
        C.DISTANCE_25,
        C.DISTANCE_50,
        C.DISTANCE_75,
        C.DISTANCE_100,
        C.DISTANCE_200,
        C.END_OF_LIMIT,
    ]
    state = position(hand, own=[C.ROLL], own_speed=[C.SPEED_LIMIT])
    assert plays(state) == {Play(C.DISTANCE_25), Play(C.DISTANCE_50), Play(C.END_OF_LIMIT)}


def test_never_past_the_target() -> None:
    state = position(
        [C.DISTANCE_25, C.DISTANCE_50, C.DISTANCE_75, C.DISTANCE_100],
        own=[C.ROLL],
        players=4,
        own_distance={100: 9, 50: 1},
    )
    assert plays(state) == {Play(C.DISTANCE_25), Play(C.DISTANCE_50)}


def test_a_200_past_the_target_is_refused_for_the_target_not_the_200s() -> None:
    state = position([C.DISTANCE_200, C.DISTANCE_100], own=[C.ROLL], own_distance={100: 6})
    assert plays(state) == {Play(C.DISTANCE_100)}
    with pytest.raises(IllegalMove, match="to 800 km, past the target of 700"):
        state.apply(Play(C.DISTANCE_200))


def test_a_third_200_is_refused_to_the_side() -> None:
    state = position([C.DISTANCE_200, C.DISTANCE_100], own=[C.ROLL], own_distance={200: 2})
    assert plays(state) == {Play(C.DISTANCE_100)}
    with pytest.raises(IllegalMove, match="two 200"):
        state.apply(Play(C.DISTANCE_200))


def test_right_of_way_protects_against_stop_and_speed_limit() -> None:
    hand = [C.ACCIDENT, C.STOP, C.SPEED_LIMIT]
    state = position(hand, other=[C.GASOLINE], other_safeties=[C.RIGHT_OF_WAY])
    assert plays(state) == {Play(C.ACCIDENT, 1)}


def test_battle_hazard_never_on_an_empty_pile() -> None:
    state = position([C.ACCIDENT, C.STOP, C.SPEED_LIMIT])
    assert plays(state) == {Play(C.SPEED_LIMIT, 1)}


def test_second_speed_limit_only_under_its_variant() -> None:
    assert plays(position([C.SPEED_LIMIT], other_speed=[C.SPEED_LIMIT])) == set()
    allowed = position(
        [C.SPEED_LIMIT], other_speed=[C.SPEED_LIMIT], variants={"speed_limit_on_limit": "allowed"}
    )
    assert plays(allowed) == {Play(C.SPEED_LIMIT, 1)}


def test_illegal_moves_name_the_rule() -> None:
    state = position([C.DISTANCE_100, C.ACCIDENT])
    with pytest.raises(IllegalMove, match="rolling"):
        state.apply(Play(C.DISTANCE_100))
    with pytest.raises(IllegalMove, match="empty"):
        state.apply(Play(C.ACCIDENT, 1))
    with pytest.raises(IllegalMove, match="does not hold"):
        state.apply(Play(C.ROLL))
    with pytest.raises(IllegalMove, match="may not act"):
        state.apply(Discard(C.ACCIDENT), seat=1)


def test_safeties_may_be_discarded_unless_forbidden() -> None:
    assert Discard(C.EXTRA_TANK) in position([C.EXTRA_TANK]).legal_moves()
    strict = position([C.EXTRA_TANK], variants={"discard_safeties": "forbidden"})
    assert Discard(C.EXTRA_TANK) not in strict.legal_moves()


def test_a_safety_gives_another_turn() -> None:
    state = position([C.EXTRA_TANK, C.ROLL])
    state.apply(Play(C.EXTRA_TANK))
    assert (state.to_act, state.phase) == (0, Phase.PLAY)


def test_safety_in_turn_corrects_the_hazard_but_a_roll_is_still_needed() -> None:
    state = position([C.DRIVING_ACE, C.DISTANCE_100, C.ROLL], own=[C.ROLL, C.ACCIDENT])
    state.apply(Play(C.DRIVING_ACE))
    assert Play(C.DISTANCE_100) not in state.legal_moves()
    assert Play(C.ROLL) in state.legal_moves()
    assert C.ACCIDENT in discards(state)


def test_coup_fourre_is_offered_to_the_partner_who_holds_the_safety() -> None:
    state = position([C.FLAT_TIRE], players=4, other=[C.ROLL])
    partner = 3  # seats 1 and 3 play for side 1
    set_hand(state, partner, [C.PUNCTURE_PROOF, C.DISTANCE_25])
    set_hand(state, 1, [C.DISTANCE_50])
    state.apply(Play(C.FLAT_TIRE, 1))
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, partner)
    assert state.legal_moves() == (CoupFourre(C.PUNCTURE_PROOF), PASS)
    before = len(state.draw_pile)
    state.apply(CoupFourre(C.PUNCTURE_PROOF))
    assert coup_fourres(state, 1) == [C.PUNCTURE_PROOF]
    assert battle(state, 1) == [C.ROLL]  # the Flat Tire went to the discards: rolling at once
    assert state.tableaux[1].rolling
    # The declarer replaced the safety and drew for its full turn; seats 1 and 2 lose theirs.
    assert (state.to_act, state.phase) == (partner, Phase.PLAY)
    assert len(state.draw_pile) == before - 2
    assert len(state.hands[partner]) == 1 + 2  # what it kept, the replacement, its turn's draw


def test_passing_the_coup_fourre_goes_on_after_the_attacker() -> None:
    state = position([C.STOP], other=[C.ROLL])
    set_hand(state, 1, [C.RIGHT_OF_WAY])
    state.apply(Play(C.STOP, 1))
    state.apply(PASS)
    assert (state.to_act, state.phase) == (1, Phase.PLAY)
    assert battle_top(state, 1) is C.STOP


def test_extension_decision_at_700() -> None:
    state = position([C.DISTANCE_100], own=[C.ROLL], own_distance={100: 6})
    state.apply(Play(C.DISTANCE_100))
    assert state.phase is Phase.EXTENSION
    state.apply(CALL)
    assert (state.target, state.phase, state.to_act) == (1000, Phase.PLAY, 1)


def test_declining_the_extension_completes_the_trip() -> None:
    state = position([C.DISTANCE_100], own=[C.ROLL], own_distance={100: 6})
    state.apply(Play(C.DISTANCE_100))
    state.apply(DECLINE)
    assert state.over and state.completer == 0
    assert state.report().sides[0].completed_trip


def test_no_extension_in_the_team_game() -> None:
    state = position([C.DISTANCE_100], own=[C.ROLL], players=4, own_distance={100: 6})
    state.apply(Play(C.DISTANCE_100))
    assert state.phase is Phase.PLAY and state.target == 1000


def test_completion_after_the_pile_ran_out_is_a_delayed_action() -> None:
    state = position([C.DISTANCE_100], own=[C.ROLL], players=4, own_distance={100: 9})
    state.draw_pile.clear()
    state.apply(Play(C.DISTANCE_100))
    assert state.over and state.delayed_action


VICTIMS_NEXT_TURN = {"coup_fourre_window": "victims_next_turn"}


def three_player_attack(variants: dict[str, str] | None = None) -> HandState:
    """Seat 0 puts a Stop on seat 2, who rolls and holds Right of Way; seat 1 sits in between."""
    state = position([C.STOP, C.FLAT_TIRE], players=3, variants=variants)
    set_battle(state, 2, [C.ROLL])
    set_hand(state, 1, [C.DISTANCE_25] * 6)
    set_hand(state, 2, [C.RIGHT_OF_WAY] + [C.DISTANCE_50] * 5)
    state.apply(Play(C.STOP, 2))
    return state


def test_by_default_the_chance_comes_before_the_next_draw() -> None:
    state = three_player_attack()
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, 2)
    state.apply(CoupFourre(C.RIGHT_OF_WAY))
    assert (state.phase, state.to_act) == (Phase.PLAY, 2)  # seat 1 lost its turn
    assert len(state.hands[1]) == 6


def test_under_victims_next_turn_the_chance_waits_for_the_victims_turn() -> None:
    state = three_player_attack(VICTIMS_NEXT_TURN)
    assert (state.phase, state.to_act) == (Phase.PLAY, 1)  # seat 1 draws and plays first
    state.apply(Discard(C.DISTANCE_25))
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, 2)
    assert len(state.hands[2]) == 6  # offered before its draw
    state.apply(CoupFourre(C.RIGHT_OF_WAY))
    assert coup_fourres(state, 2) == [C.RIGHT_OF_WAY]
    assert battle(state, 2) == [C.ROLL]
    assert (state.phase, state.to_act, len(state.hands[2])) == (Phase.PLAY, 2, 7)


def test_under_victims_next_turn_a_pass_starts_the_victims_turn() -> None:
    state = three_player_attack(VICTIMS_NEXT_TURN)
    state.apply(Discard(C.DISTANCE_25))
    state.apply(PASS)
    assert (state.phase, state.to_act, len(state.hands[2])) == (Phase.PLAY, 2, 7)
    assert battle_top(state, 2) is C.STOP


def test_under_victims_next_turn_only_the_last_hazard_may_be_answered() -> None:
    state = position([C.FLAT_TIRE], players=3, variants=VICTIMS_NEXT_TURN)
    set_battle(state, 2, [C.ROLL])
    set_hand(state, 1, [C.STOP] * 6)
    set_hand(state, 2, [C.PUNCTURE_PROOF] + [C.DISTANCE_50] * 5)
    state.apply(Play(C.FLAT_TIRE, 2))
    state.apply(Play(C.STOP, 2), seat=1)  # covers the Flat Tire before seat 2's turn
    assert (state.phase, state.to_act) == (Phase.PLAY, 2)


def test_no_playable_ends_the_hand_as_soon_as_the_last_draw_leaves_no_play() -> None:
    """RULES.md §12 ``exhaustion_end: no_playable``: the seat that draws the last card does not
    discard first when nobody, itself included, can play."""
    state = position([C.DISTANCE_25, C.DISTANCE_50], variants={"exhaustion_end": "no_playable"})
    set_draw_pile(state, [C.DISTANCE_75])
    set_hand(state, 1, [C.DISTANCE_25])
    state.apply(Discard(C.DISTANCE_50))
    assert state.over and state.draw_pile == []
    assert hand(state, 1) == [C.DISTANCE_25, C.DISTANCE_75]
