"""RULES.md §5a: a safety clears every hazard its side is protected against, in turn and as a
coup-fourré; each example of §5a and each stacked-hazard row of §13, played through the engine."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.moves import CoupFourre, Play
from engine.scoring import score_hand
from engine.state import HandState, Phase
from tests.engine.positions import (
    battle,
    battle_top,
    coup_fourres,
    discards,
    plays,
    position,
    set_hand,
    speed,
)

C = Card
ALL_DISTANCE = [C.DISTANCE_25, C.DISTANCE_50, C.DISTANCE_75, C.DISTANCE_100, C.DISTANCE_200]
OWN_CARDS = [C.ROLL, C.REPAIRS, C.GASOLINE, C.SPARE_TIRE, C.END_OF_LIMIT, *ALL_DISTANCE]
"""Every card a seat might lay on its own tableau (safeties aside)."""


def lay_in_turn(safety: Card, battle: list[Card], **kwargs: object) -> HandState:
    """Seat 0 lays ``safety`` in turn on its own ``battle`` pile, then holds every card it might
    play next (its extra turn)."""
    state = position([safety], own=battle, **kwargs)  # type: ignore[arg-type]
    state.apply(Play(safety))
    assert (state.phase, state.to_act) == (Phase.PLAY, 0)  # the safety's extra turn
    set_hand(state, 0, OWN_CARDS)
    return state


def coup_fourre(hazard: Card, battle: list[Card], safety: Card, **kwargs: object) -> HandState:
    """Seat 0 plays ``hazard`` on side 1, whose battle pile is ``battle`` and whose seat holds
    ``safety``; seat 1 declares the coup-fourré."""
    state = position([hazard], other=battle, **kwargs)  # type: ignore[arg-type]
    set_hand(state, 1, [safety, C.DISTANCE_25, C.DISTANCE_25, C.DISTANCE_25, C.DISTANCE_25])
    target = 1
    state.apply(Play(hazard, target))
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, 1)
    state.apply(CoupFourre(safety))
    return state


def own_plays(state: HandState, seat: int) -> set[Play]:
    """What ``seat`` may play on its own tableau (its hand set to every card that could go)."""
    set_hand(state, seat, OWN_CARDS)
    return {move for move in state.legal_moves(seat) if isinstance(move, Play)}


# -- the examples of §5a -------------------------------------------------------------------------


def test_right_of_way_in_turn_takes_both_stops_off() -> None:
    state = lay_in_turn(C.RIGHT_OF_WAY, [C.ROLL, C.STOP, C.STOP])
    assert discards(state).count(C.STOP) == 2
    assert state.tableaux[0].rolling
    assert Play(C.DISTANCE_100) in plays(state)


def test_matching_safety_in_turn_takes_two_identical_hazards_off_and_corrects() -> None:
    state = lay_in_turn(C.EXTRA_TANK, [C.ROLL, C.OUT_OF_GAS, C.OUT_OF_GAS])
    assert discards(state).count(C.OUT_OF_GAS) == 2
    assert state.tableaux[0].corrected
    assert plays(state) == {Play(C.ROLL)}  # a Roll is needed; no Gasoline, no distance


def test_a_covered_unprotected_hazard_shows_again_and_must_be_cured() -> None:
    state = lay_in_turn(C.DRIVING_ACE, [C.ROLL, C.FLAT_TIRE, C.ACCIDENT])
    assert discards(state).count(C.ACCIDENT) == 1
    assert battle_top(state, 0) is C.FLAT_TIRE
    assert plays(state) == {Play(C.SPARE_TIRE)}  # no Roll, no distance


def test_the_side_s_earlier_safeties_clear_too() -> None:
    state = lay_in_turn(
        C.DRIVING_ACE, [C.ROLL, C.FLAT_TIRE, C.ACCIDENT], own_safeties=[C.PUNCTURE_PROOF]
    )
    assert {C.ACCIDENT, C.FLAT_TIRE} <= set(discards(state))
    assert state.tableaux[0].corrected
    assert plays(state) == {Play(C.ROLL)}


def test_coup_fourre_on_a_second_identical_hazard_takes_both_off_and_counts_once() -> None:
    state = coup_fourre(C.ACCIDENT, [C.ROLL, C.ACCIDENT], C.DRIVING_ACE)
    assert battle(state, 1) == [C.ROLL]
    assert discards(state)[-2:] == [C.ACCIDENT, C.ACCIDENT]
    assert state.tableaux[1].rolling
    assert coup_fourres(state, 1) == [C.DRIVING_ACE]
    assert score_hand(state.report(), state.rules).sides[1].coup_fourres == 300


def test_right_of_way_coup_fourre_on_a_second_limit_clears_the_stop_and_both_limits() -> None:
    state = coup_fourre(
        C.SPEED_LIMIT,
        [C.ROLL, C.STOP],
        C.RIGHT_OF_WAY,
        other_speed=[C.SPEED_LIMIT],
        variants={"speed_limit_on_limit": "allowed"},
    )
    assert speed(state, 1) == [] and not state.tableaux[1].limited
    assert battle(state, 1) == [C.ROLL]
    assert discards(state)[-3:] == [C.SPEED_LIMIT, C.STOP, C.SPEED_LIMIT]  # the one played first
    assert state.tableaux[1].rolling
    assert {Play(C.DISTANCE_200), Play(C.DISTANCE_100)} <= own_plays(state, 1)


def test_right_of_way_coup_fourre_uncovers_a_remedy_and_rolls() -> None:
    state = coup_fourre(C.STOP, [C.OUT_OF_GAS, C.GASOLINE], C.RIGHT_OF_WAY)
    assert battle_top(state, 1) is C.GASOLINE
    assert state.tableaux[1].rolling


# -- §5a's two settled readings ------------------------------------------------------------------


def test_a_coup_fourre_uncovering_a_hazard_it_does_not_answer_leaves_it_to_cure() -> None:
    state = coup_fourre(C.STOP, [C.ROLL, C.FLAT_TIRE], C.RIGHT_OF_WAY)
    assert battle_top(state, 1) is C.FLAT_TIRE
    assert not state.tableaux[1].rolling
    assert own_plays(state, 1) == {Play(C.SPARE_TIRE)}


def test_under_on_rolling_a_remedy_that_needs_no_roll_may_be_attacked() -> None:
    variants = {"hazards": "on_rolling", "roll_after_remedy": "not_required"}
    state = position([C.FLAT_TIRE, C.STOP], other=[C.GASOLINE], variants=variants)
    assert plays(state) == {Play(C.FLAT_TIRE, 1), Play(C.STOP, 1)}
    strict = position([C.FLAT_TIRE], other=[C.GASOLINE], variants={"hazards": "on_rolling"})
    assert plays(strict) == set()


def test_safety_in_turn_that_takes_nothing_off_changes_nothing_on_the_battle_pile() -> None:
    state = lay_in_turn(C.DRIVING_ACE, [C.ROLL, C.STOP])
    assert battle(state, 0) == [C.ROLL, C.STOP]
    assert plays(state) == {Play(C.ROLL)}


def test_rolls_at_once_applies_to_a_cleared_pile() -> None:
    state = lay_in_turn(
        C.EXTRA_TANK,
        [C.ROLL, C.OUT_OF_GAS, C.OUT_OF_GAS],
        variants={"safety_on_hazard": "rolls_at_once"},
    )
    assert Play(C.DISTANCE_100) in plays(state)


def test_roll_after_remedy_does_not_make_a_corrected_pile_rolling() -> None:
    state = lay_in_turn(
        C.EXTRA_TANK, [C.ROLL, C.OUT_OF_GAS], variants={"roll_after_remedy": "not_required"}
    )
    assert plays(state) == {Play(C.ROLL)}


# -- the stacked-hazard rows of §13 --------------------------------------------------------------


@pytest.mark.parametrize(
    ("battle", "safety", "legal", "not_legal"),
    [
        ([C.ROLL, C.STOP, C.STOP], C.RIGHT_OF_WAY, ALL_DISTANCE, []),
        ([C.ROLL, C.OUT_OF_GAS, C.OUT_OF_GAS], C.EXTRA_TANK, [C.ROLL], [C.GASOLINE, *ALL_DISTANCE]),
        ([C.ROLL, C.FLAT_TIRE, C.ACCIDENT], C.DRIVING_ACE, [C.SPARE_TIRE], [C.ROLL, *ALL_DISTANCE]),
    ],
    ids=["two stops, right of way", "two out of gas, extra tank", "flat under accident, ace"],
)
def test_rows_of_a_safety_laid_in_turn_on_stacked_hazards(
    battle: list[Card], safety: Card, legal: list[Card], not_legal: list[Card]
) -> None:
    """The §13 rows "own battle pile …; <safety> laid in turn": what is legal, what is not."""
    plays_now = plays(lay_in_turn(safety, battle))
    assert set(map(Play, legal)) <= plays_now
    assert not set(map(Play, not_legal)) & plays_now


def test_row_accident_on_accident_then_driving_ace_coup_fourre_allows_distance() -> None:
    state = coup_fourre(C.ACCIDENT, [C.ROLL, C.ACCIDENT], C.DRIVING_ACE)
    legal = own_plays(state, 1)
    assert set(map(Play, ALL_DISTANCE)) <= legal
    assert Play(C.REPAIRS) not in legal


def test_row_two_speed_limits_then_right_of_way_in_turn_lifts_the_limit() -> None:
    state = lay_in_turn(
        C.RIGHT_OF_WAY,
        [C.ROLL],
        own_speed=[C.SPEED_LIMIT, C.SPEED_LIMIT],
        variants={"speed_limit_on_limit": "allowed"},
    )
    legal = plays(state)
    assert {Play(C.DISTANCE_75), Play(C.DISTANCE_100), Play(C.DISTANCE_200)} <= legal
    assert Play(C.END_OF_LIMIT) not in legal
    assert discards(state).count(C.SPEED_LIMIT) == 2


def test_right_of_way_takes_every_limit_off_even_under_an_end_of_limit() -> None:
    state = lay_in_turn(
        C.RIGHT_OF_WAY,
        [C.ROLL],
        own_speed=[C.SPEED_LIMIT, C.END_OF_LIMIT, C.SPEED_LIMIT],
        variants={"speed_limit_on_limit": "allowed"},
    )
    assert speed(state, 0) == [C.END_OF_LIMIT]
    assert discards(state).count(C.SPEED_LIMIT) == 2


def test_under_no_playable_a_side_cleared_by_its_safety_plays_on() -> None:
    """The knock-on of §5a under ``exhaustion_end: no_playable``: with the pile empty, Right of
    Way over two Stops leaves the side rolling, so the hand goes on instead of ending."""
    state = position(
        [C.RIGHT_OF_WAY, C.DISTANCE_100],
        own=[C.ROLL, C.STOP, C.STOP],
        variants={"exhaustion_end": "no_playable"},
    )
    state.draw_pile.clear()
    set_hand(state, 1, [C.DISTANCE_25])
    state.apply(Play(C.RIGHT_OF_WAY))
    assert (state.over, state.to_act) == (False, 0)
    assert plays(state) == {Play(C.DISTANCE_100)}
