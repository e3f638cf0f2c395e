"""The strong player's judgement in positions whose best move the rules make plain, and its
strength against the reference opponents of the classic programs' kind."""

from __future__ import annotations

from random import Random

import pytest

from engine.cards import Card
from engine.codes import OUT_OF_GAS
from engine.moves import Discard, Move, Play
from engine.players import make_player
from engine.state import HandState
from engine.view import seat_view
from reference import make_player as make_reference_player
from scorekeeper.commands.simulate import Tally, simulate, tally
from tests.engine.positions import position, set_draw_pile, set_hand

C = Card
REFERENCES = ("classic", "contest")


def matches(names: list[str], players: int, games: int) -> dict[str, Tally]:
    """Each player's record over ``games`` seeded games (``scorekeeper simulate``'s, with the
    reference registry: ``benchmarks/match.py``)."""
    return tally(
        list(simulate(names, players, games, seed=14, variants={}, make=make_reference_player))
    )


def strong_move(state: HandState) -> Move:
    return make_player("strong", Random(0)).choose(seat_view(state, 0))


def test_it_completes_the_trip_when_a_card_does() -> None:
    state = position(
        [C.DISTANCE_100, C.DISTANCE_50, C.ROLL, C.REPAIRS, C.STOP, C.GASOLINE, C.DISTANCE_25],
        own=[C.ROLL],
        other=[C.ROLL],
        own_distance={100: 6},
    )
    assert strong_move(state) == Play(C.DISTANCE_100)


def test_it_lays_its_safeties_before_completing_the_trip() -> None:
    """A safety laid in turn gives another turn (RULES.md §4), so laying it before the card
    that completes the trip is 100 points more (§9) for nothing."""
    state = position(
        [C.DISTANCE_100, C.DRIVING_ACE, C.ROLL, C.REPAIRS, C.STOP, C.GASOLINE, C.DISTANCE_25],
        own=[C.ROLL],
        other=[C.ROLL],
        own_distance={100: 6},
    )
    assert strong_move(state) == Play(C.DRIVING_ACE)


def test_a_safety_that_cures_the_hazard_showing_is_laid() -> None:
    """Laid in turn on the Flat Tire showing, Puncture Proof corrects it (§5a) and the seat
    plays again: better than the Spare Tire, which needs a Roll after it just the same."""
    state = position(
        [C.PUNCTURE_PROOF, C.SPARE_TIRE, C.DISTANCE_100, C.STOP, C.ROLL, C.DISTANCE_75, C.REPAIRS],
        own=[C.ROLL, C.FLAT_TIRE],
        other=[C.ROLL],
    )
    assert strong_move(state) == Play(C.PUNCTURE_PROOF)


def test_it_holds_a_safety_for_a_coup_fourre_while_it_has_a_better_play() -> None:
    """Right of Way in hand may still answer a Stop or a Speed Limit as a coup-fourré (§6)."""
    state = position(
        [C.RIGHT_OF_WAY, C.DISTANCE_100, C.DISTANCE_75, C.REPAIRS, C.GASOLINE, C.ROLL, C.ROLL],
        own=[C.ROLL],
        other=[C.ROLL],
        other_safeties=[C.DRIVING_ACE, C.EXTRA_TANK, C.PUNCTURE_PROOF],
    )
    move = strong_move(state)
    assert isinstance(move, Play) and move.card is not C.RIGHT_OF_WAY


def test_a_safety_no_hazard_can_call_for_any_more_is_laid_at_once() -> None:
    """Every Out of Gas of the deck is face up: Extra Tank can make no coup-fourré, and laid in
    turn it scores 100 and gives another turn (§4, §9)."""
    state = position(
        [C.EXTRA_TANK, C.DISTANCE_100, C.DISTANCE_75, C.REPAIRS, C.SPARE_TIRE, C.ROLL, C.ROLL],
        own=[C.ROLL],
        other=[C.ROLL],
    )
    state.discards.extend([OUT_OF_GAS] * 2)  # both Out of Gas of the 2-player deck, face up
    set_hand(state, 1, [C.DISTANCE_50] * 6)
    set_draw_pile(state, [C.DISTANCE_25] * 40)
    assert strong_move(state) == Play(C.EXTRA_TANK)


def test_it_attacks_a_rolling_side_before_driving() -> None:
    """The Accident costs the rival a remedy and a Roll (§5); its safety is on this side's own
    tableau, so no coup-fourré can answer it (§6)."""
    state = position(
        [C.ACCIDENT, C.DISTANCE_100, C.DISTANCE_75, C.SPARE_TIRE, C.GASOLINE, C.ROLL, C.ROLL],
        own=[C.ROLL],
        other=[C.ROLL],
        own_safeties=[C.DRIVING_ACE],
    )
    assert strong_move(state) == Play(C.ACCIDENT, 1)


def test_it_does_not_pile_a_hazard_on_a_side_already_stopped() -> None:
    """Hazards stack (§5), but only the top one needs curing: an Out of Gas on an Accident
    changes which remedy the rival needs, not how long it stands still."""
    state = position(
        [C.OUT_OF_GAS, C.DISTANCE_100, C.DISTANCE_75, C.SPARE_TIRE, C.REPAIRS, C.ROLL, C.ROLL],
        own=[C.ROLL],
        other=[C.ROLL, C.ACCIDENT],
        own_safeties=[C.EXTRA_TANK],
    )
    assert strong_move(state) == Play(C.DISTANCE_100)


def test_it_discards_a_remedy_its_own_safety_makes_useless() -> None:
    """With Driving Ace laid, no Accident can stop the side (§3): Repairs is dead."""
    state = position(
        [
            C.REPAIRS,
            C.DISTANCE_100,
            C.DISTANCE_75,
            C.GASOLINE,
            C.SPARE_TIRE,
            C.STOP,
            C.END_OF_LIMIT,
        ],
        own=[C.ROLL, C.STOP],
        other=[C.ROLL],
        own_safeties=[C.DRIVING_ACE],
        other_safeties=[C.RIGHT_OF_WAY],
    )
    assert strong_move(state) == Discard(C.REPAIRS)


@pytest.mark.parametrize("reference", REFERENCES)
def test_strong_is_at_least_a_match_for_each_reference_seats_swapped(reference: str) -> None:
    """The references decide as BSD mille's computer and mille-ai's contest winner do, decision
    for decision (test_classic_faithful.py, test_contest_faithful.py). Over these seeded games
    strong wins half or more against each (docs/contributing/computer-players.md gives the shares
    measured over 4,000)."""
    games = 400
    record = matches(["strong", reference], 2, games)
    assert record["strong"].games == games
    assert record["strong"].wins / games >= 0.5


@pytest.mark.parametrize("reference", REFERENCES)
def test_strong_partners_match_a_reference_team(reference: str) -> None:
    games = 200
    record = matches(["strong", reference], 4, games)
    assert record["strong"].wins / games >= 0.5


@pytest.mark.parametrize("players", [3, 6])
def test_strong_wins_more_than_its_share_against_two_reference_sides(players: int) -> None:
    """Three sides: a third of the games is the share of a player no better than the others."""
    games = 90
    record = matches(["strong", *REFERENCES], players, games)
    assert record["strong"].wins / games > 1 / 3
