"""Coup-fourré chances (RULES.md §6, §12): whose chance it is under each window, several hazards,
after the pile ran out, and private chances that do not tell who holds a safety."""

from __future__ import annotations

from random import Random

import pytest

from engine.cards import Card
from engine.moves import PASS, CoupFourre, Discard, Move, Play
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.view import seat_view
from tests.engine.positions import (
    battle,
    battle_top,
    coup_fourres,
    give,
    position,
    set_battle,
    set_draw_pile,
    set_hand,
    set_turn,
)

C = Card
VICTIMS_NEXT_TURN = {"coup_fourre_window": "victims_next_turn"}
FILLER = [C.DISTANCE_25] * 5


def rolling_table(players: int, variants: dict[str, str] | None = None) -> HandState:
    """Seat 0 to play; every side rolling; every other seat holding six cards of filler."""
    state = position([], players=players, variants=variants)
    for side in range(state.sides):
        set_battle(state, side, [C.ROLL])
    for seat in range(1, players):
        set_hand(state, seat, [*FILLER, C.DISTANCE_25])
    return state


# -- victims_next_turn: the chance belongs to the seat whose turn begins --------------------------


def test_under_victims_next_turn_a_partner_holding_the_safety_is_not_asked() -> None:
    state = rolling_table(4, VICTIMS_NEXT_TURN)
    set_hand(state, 0, [C.FLAT_TIRE, *FILLER])
    set_hand(state, 3, [C.PUNCTURE_PROOF, *FILLER])  # seat 3 partners seat 1 on side 1
    state.apply(Play(C.FLAT_TIRE, 1))
    assert (state.phase, state.to_act) == (Phase.PLAY, 1)  # seat 1's turn: it holds nothing
    state.apply(Discard(C.DISTANCE_25))
    state.apply(Discard(C.DISTANCE_25))  # seat 2
    assert (state.phase, state.to_act) == (Phase.PLAY, 3)  # side 1's turn came: chance gone
    assert CoupFourre(C.PUNCTURE_PROOF) not in state.legal_moves()


def test_under_victims_next_turn_the_seat_whose_turn_begins_is_asked_before_drawing() -> None:
    state = rolling_table(4, VICTIMS_NEXT_TURN)
    set_turn(state, 2)
    set_hand(state, 2, [C.FLAT_TIRE, *FILLER])
    set_hand(state, 3, [C.PUNCTURE_PROOF, *FILLER])
    state.apply(Play(C.FLAT_TIRE, 1), seat=2)
    assert (state.phase, state.to_act, len(state.hands[3])) == (Phase.COUP_FOURRE, 3, 6)
    assert state.legal_moves() == (CoupFourre(C.PUNCTURE_PROOF), PASS)


@pytest.mark.parametrize("players", [3, 6])
def test_under_victims_next_turn_a_covered_hazard_keeps_its_chance(players: int) -> None:
    """Seat 0 and seat 1 both attack the side of seat 2 before its turn (at 6 seats seat 5 is
    its partner); seat 2 answers the Stop, then the Flat Tire it uncovered."""
    state = rolling_table(players, VICTIMS_NEXT_TURN)
    victim = 2
    set_hand(state, 0, [C.FLAT_TIRE, *FILLER])
    set_hand(state, 1, [C.STOP, *FILLER])
    set_hand(state, victim, [C.RIGHT_OF_WAY, C.PUNCTURE_PROOF, *FILLER[:4]])
    state.apply(Play(C.FLAT_TIRE, 2))
    state.apply(Play(C.STOP, 2), seat=1)
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, victim)
    assert state.legal_moves() == (CoupFourre(C.RIGHT_OF_WAY), PASS)
    pile = len(state.draw_pile)
    state.apply(CoupFourre(C.RIGHT_OF_WAY))
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, victim)
    assert state.legal_moves() == (CoupFourre(C.PUNCTURE_PROOF), PASS)
    state.apply(CoupFourre(C.PUNCTURE_PROOF))
    assert battle(state, 2) == [C.ROLL]
    assert coup_fourres(state, 2) == [C.RIGHT_OF_WAY, C.PUNCTURE_PROOF]
    # Two replacements, then the seat's own turn draw.
    assert (state.phase, state.to_act, len(state.draw_pile)) == (Phase.PLAY, victim, pile - 3)


def test_under_victims_next_turn_a_hazard_older_than_the_side_s_last_turn_has_no_chance() -> None:
    state = rolling_table(3, VICTIMS_NEXT_TURN)
    set_hand(state, 0, [C.FLAT_TIRE, *FILLER])
    set_hand(state, 2, [C.RIGHT_OF_WAY, C.PUNCTURE_PROOF, *FILLER[:4]])
    state.apply(Play(C.FLAT_TIRE, 2))
    state.apply(Discard(C.DISTANCE_25), seat=1)
    state.apply(PASS, seat=2)  # lets the Flat Tire go
    state.apply(Discard(C.DISTANCE_25), seat=2)
    give(state, 0, C.STOP)
    state.apply(Play(C.STOP, 2), seat=0)
    state.apply(Discard(C.DISTANCE_25), seat=1)
    state.apply(CoupFourre(C.RIGHT_OF_WAY), seat=2)
    assert battle_top(state, 2) is C.FLAT_TIRE  # played before seat 2's last turn
    assert (state.phase, state.to_act) == (Phase.PLAY, 2)


# -- safety_after_exhaustion: no_extra_turn ------------------------------------------------------


NO_EXTRA_TURN = {"safety_after_exhaustion": "no_extra_turn"}


def test_no_extra_turn_for_a_safety_laid_on_the_turn_that_drew_the_last_card() -> None:
    state = rolling_table(4, NO_EXTRA_TURN)
    set_draw_pile(state, [C.DISTANCE_50])
    set_hand(state, 0, [C.DISTANCE_75])
    state.apply(Discard(C.DISTANCE_75))
    assert (state.to_act, state.draw_pile) == (1, [])
    give(state, 1, C.EXTRA_TANK)
    state.apply(Play(C.EXTRA_TANK), seat=1)
    assert (state.phase, state.to_act) == (Phase.PLAY, 2)


def test_extra_turn_by_default_after_the_pile_ran_out() -> None:
    state = rolling_table(4)
    state.draw_pile.clear()
    set_hand(state, 0, [C.EXTRA_TANK, C.DISTANCE_25])
    state.apply(Play(C.EXTRA_TANK))
    assert (state.phase, state.to_act) == (Phase.PLAY, 0)


@pytest.mark.parametrize("players", [4, 6])
def test_no_extra_turn_coup_fourre_after_the_pile_ran_out_goes_on_after_the_attacker(
    players: int,
) -> None:
    """The partner two seats on declares: it scores and clears, and nobody loses a turn."""
    state = rolling_table(players, NO_EXTRA_TURN)
    state.draw_pile.clear()
    partner = 1 + players // 2  # side 1's other seat
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    set_hand(state, partner, [C.DRIVING_ACE, *FILLER])
    state.apply(Play(C.ACCIDENT, 1))
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, partner)
    state.apply(CoupFourre(C.DRIVING_ACE))
    assert battle(state, 1) == [C.ROLL]
    assert coup_fourres(state, 1) == [C.DRIVING_ACE]
    assert (state.phase, state.to_act) == (Phase.PLAY, 1)  # the seat after the attacker


@pytest.mark.parametrize("players", [4, 6])
def test_by_default_a_coup_fourre_after_the_pile_ran_out_takes_the_turn(players: int) -> None:
    state = rolling_table(players)
    state.draw_pile.clear()
    partner = 1 + players // 2
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    set_hand(state, partner, [C.DRIVING_ACE, *FILLER])
    state.apply(Play(C.ACCIDENT, 1))
    state.apply(CoupFourre(C.DRIVING_ACE))
    assert (state.phase, state.to_act, len(state.hands[partner])) == (Phase.PLAY, partner, 5)
    state.apply(Discard(C.DISTANCE_25))
    assert state.to_act == (partner + 1) % players  # the seats in between lost their turn


def test_no_extra_turn_tests_the_pile_when_the_coup_fourre_is_laid() -> None:
    """The replacement draw takes the last card: the pile was not empty when the safety was
    laid, so the declarer still takes its turn."""
    state = rolling_table(4, NO_EXTRA_TURN)
    set_draw_pile(state, [C.DISTANCE_50])
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    set_hand(state, 3, [C.DRIVING_ACE, *FILLER])
    state.apply(Play(C.ACCIDENT, 1))
    state.apply(CoupFourre(C.DRIVING_ACE))
    assert (state.phase, state.to_act, state.draw_pile) == (Phase.PLAY, 3, [])


# -- private chances ------------------------------------------------------------------------------


def private_attack(players: int, holder: int | None, variants: dict[str, str] | None = None):
    """Seat 0 attacks side 1 with an Accident; ``holder`` (or nobody) holds Driving Ace."""
    state = rolling_table(players, variants)
    state.private_chances = True
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    if holder is not None:
        set_hand(state, holder, [C.DRIVING_ACE, *FILLER])
    state.apply(Play(C.ACCIDENT, 1))
    return state


def public_story(state: HandState, answers: list[Move]) -> list[tuple[object, ...]]:
    """What a watcher sees while the asked seats answer ``answers`` in order."""
    story = []
    for move in answers:
        view = seat_view(state, (state.to_act + 1) % state.players).public_dict()
        story.append((state.phase, state.to_act, tuple(sorted(view.items(), key=str))))
        state.apply(move)
    story.append((state.phase, state.to_act, len(state.events)))
    return story


@pytest.mark.parametrize(("players", "asked"), [(2, [1]), (3, [1]), (4, [3, 1]), (6, [4, 1])])
def test_private_chances_ask_every_seat_of_the_side_the_next_to_play_last(
    players: int, asked: list[int]
) -> None:
    state = private_attack(players, holder=None)
    for seat in asked:
        assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, seat)
        assert state.legal_moves() == (PASS,)
        state.apply(PASS)
    assert (state.phase, state.to_act) == (Phase.PLAY, 1)


def test_with_the_pile_empty_the_seat_whose_turn_comes_next_is_asked_last() -> None:
    """RULES.md §6: the player whose turn comes next is asked last. Six seats, the pile empty,
    seat 0's left neighbour out of cards: §4 skips seat 1, so seat 2's turn comes next, and
    when seat 0 attacks seat 2's side (seats 2 and 5) seat 5 is asked first, seat 2 last."""
    state = rolling_table(6)
    state.private_chances = True
    state.draw_pile.clear()
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    set_hand(state, 1, [])
    state.apply(Play(C.ACCIDENT, 2))
    asked = []
    while state.phase is Phase.COUP_FOURRE:
        asked.append(state.to_act)
        state.apply(PASS)
    assert (asked, state.phase, state.to_act) == ([5, 2], Phase.PLAY, 2)


@pytest.mark.parametrize("players", [4, 6])
def test_whoever_is_out_of_cards_the_seat_asked_last_is_the_one_whose_turn_comes_next(
    players: int,
) -> None:
    """§6 against §4 for every attacker, attacked side and set of seats out of cards (the pile
    empty): when every seat asked lets the chance go, the turn begins for the seat asked last,
    if that seat is on the attacked side at all."""
    for attacker in range(players):
        for empty in range(1 << players):
            if empty >> attacker & 1:
                continue
            for side in range(players // 2):
                if side == attacker % (players // 2):
                    continue
                state = rolling_table(players)
                state.private_chances = True
                state.draw_pile.clear()
                for seat in range(players):
                    set_hand(state, seat, [] if empty >> seat & 1 else [*FILLER, C.DISTANCE_25])
                set_hand(state, attacker, [C.ACCIDENT, *FILLER])
                set_turn(state, attacker)
                state.apply(Play(C.ACCIDENT, side))
                last = None
                while state.phase is Phase.COUP_FOURRE:
                    last = state.to_act
                    state.apply(PASS)
                if last is not None and state.to_act % (players // 2) == side:
                    assert state.to_act == last, (attacker, bin(empty), side)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_private_chances_look_the_same_whether_or_not_a_seat_holds_the_safety(
    players: int,
) -> None:
    seats = len(private_attack(players, None).chance.seats)  # type: ignore[union-attr]
    holder = 1 + players // 2 if players > 2 else 1
    nobody = public_story(private_attack(players, None), [PASS] * seats)
    held = public_story(private_attack(players, holder), [PASS] * seats)
    assert nobody == held


def test_private_chances_under_victims_next_turn_ask_the_seat_whose_turn_begins() -> None:
    state = private_attack(4, holder=None, variants=VICTIMS_NEXT_TURN)
    assert (state.phase, state.to_act, state.legal_moves()) == (Phase.COUP_FOURRE, 1, (PASS,))
    state.apply(PASS)
    assert (state.phase, state.to_act, len(state.hands[1])) == (Phase.PLAY, 1, 7)  # drew


def test_private_chances_let_the_holder_declare() -> None:
    state = private_attack(4, holder=3)
    assert state.legal_moves() == (CoupFourre(C.DRIVING_ACE), PASS)
    state.apply(CoupFourre(C.DRIVING_ACE))
    assert (state.phase, state.to_act) == (Phase.PLAY, 3)


def test_by_default_only_the_holder_is_asked() -> None:
    state = rolling_table(4)
    set_hand(state, 0, [C.ACCIDENT, *FILLER])
    state.apply(Play(C.ACCIDENT, 1))
    assert (state.phase, state.to_act) == (Phase.PLAY, 1)


def test_private_chances_survive_a_copy() -> None:
    state = HandState.shuffled(Rules.for_players(4), Random(3), private_chances=True)
    assert state.copy().private_chances


def test_under_victims_next_turn_a_skipped_seat_passes_the_turn_with_its_chance() -> None:
    """Pile empty: seat 1 answers with its last card, so its turn passes to seat 2, whose side
    was attacked since its last turn: seat 2 is asked before it plays."""
    state = rolling_table(3, VICTIMS_NEXT_TURN)
    state.draw_pile.clear()
    set_turn(state, 2)
    set_hand(state, 2, [C.ACCIDENT, C.PUNCTURE_PROOF, C.DISTANCE_25])
    set_hand(state, 0, [C.FLAT_TIRE, C.DISTANCE_25])
    set_hand(state, 1, [C.DRIVING_ACE])
    state.apply(Play(C.ACCIDENT, 1), seat=2)
    state.apply(Play(C.FLAT_TIRE, 2), seat=0)
    state.apply(CoupFourre(C.DRIVING_ACE), seat=1)
    assert state.hands[1] == []
    assert (state.phase, state.to_act) == (Phase.COUP_FOURRE, 2)
    assert state.legal_moves() == (CoupFourre(C.PUNCTURE_PROOF), PASS)


def test_the_seat_asked_is_told_the_hazard_its_safety_answers() -> None:
    """Under victims_next_turn two hazards may wait at once; the seat is told about the one it
    can answer."""
    state = rolling_table(3, VICTIMS_NEXT_TURN)
    set_hand(state, 0, [C.FLAT_TIRE, *FILLER])
    set_hand(state, 1, [C.SPEED_LIMIT, *FILLER])
    set_hand(state, 2, [C.RIGHT_OF_WAY, *FILLER])
    state.apply(Play(C.FLAT_TIRE, 2))
    state.apply(Play(C.SPEED_LIMIT, 2), seat=1)
    assert state.legal_moves() == (CoupFourre(C.RIGHT_OF_WAY), PASS)
    assert seat_view(state, 2).pending_hazard is C.SPEED_LIMIT
