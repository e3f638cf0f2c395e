"""The search's research levers (``reference/``): its reading of the other seats' moves, its
exact endgame, and the chance of winning the game."""

from __future__ import annotations

from random import Random

import pytest

from engine.cards import Card
from engine.codes import CODE, ROLL
from engine.moves import Discard, Play
from engine.players import make_player
from engine.players.search import hand_margin
from engine.rules import Rules
from engine.state import HandState
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from reference.endgame import Endgame, solvable
from reference.inference import (
    STOPPED_DISCARD,
    Clue,
    Reading,
    read,
    weighted_deal,
)
from reference.search import SearchVariant, game_chance
from tests.engine.positions import position, set_draw_pile, set_hand


def a_revealing_turn(seed: int) -> tuple[SeatView, Clue]:
    """Seat 0's turn in a two-seat game of strong players, right after seat 1, stopped,
    discarded rather than play what gets it going: a clue whose seat has drawn nothing since."""
    game = VirtualGame(Rules.for_players(2), seed=seed)
    players = [make_player("strong", Random(seat)) for seat in range(2)]
    while not game.over:
        hand, seat = game.hand, game.hand.to_act
        view = seat_view(hand, seat)
        if seat == 0 and len(view.legal_moves) > 1 and view.moves:
            reading = read(view)
            for clue in reading.clues:
                fresh = clue.drawn == reading.drawn[1]
                if fresh and clue.ratio == STOPPED_DISCARD and hand.hands[1]:
                    return view, clue
        game.apply_legal(players[seat].choose(view), seat)
    raise AssertionError("no revealing turn in the game")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_stopped_seat_that_discarded_is_never_dealt_what_it_lacked(seed: int) -> None:
    """Seat 1 was stopped and discarded: it held none of the clue's cards then, and has drawn
    none since, so no weighted deal gives it one; deals that ignore its moves often do."""
    view, clue = a_revealing_turn(seed)
    seat, _ = view.moves[-1]
    assert seat == 1 and isinstance(view.moves[-1][1], Discard)

    def holds(deal: HandState) -> bool:
        return any(clue.cards >> card & 1 for card in deal.hands[1])

    rng = Random(seed)
    assert not any(holds(weighted_deal(view, rng)) for _ in range(200))
    rng = Random(seed)
    assert sum(holds(view.sample(rng)) for _ in range(200)) > 20


def test_a_weighted_deal_keeps_what_the_seat_has_seen() -> None:
    view, _ = a_revealing_turn(4)
    hand = view._state  # the test reads the truth the deal must keep
    for number in range(20):
        deal = weighted_deal(view, Random(number))
        assert deal.hands[0] == hand.hands[0]
        assert [len(cards) for cards in deal.hands] == [len(cards) for cards in hand.hands]
        assert len(deal.draw_pile) == len(hand.draw_pile)
        assert deal.discards == hand.discards
        assert sorted(deal.hands[1] + deal.draw_pile) == sorted(hand.hands[1] + hand.draw_pile)


def test_a_card_drawn_since_a_clue_may_be_held() -> None:
    """A clue binds only the cards held at its moment: with one card drawn since, a copy of
    the card may be that one (about one chance in the hand's size), with none it may not."""
    roll = 1 << ROLL
    hands = [[], [ROLL, 0, 1, 2, 3, 4]]
    clue = Clue(seat=1, cards=roll, drawn=3, ratio=0.0)
    assert Reading((clue,), (0, 3)).likelihood(hands) == 0.0
    assert Reading((clue,), (0, 4)).likelihood(hands) == pytest.approx(1 / 6)
    assert Reading((clue,), (0, 3)).likelihood([[], [0, 1, 2, 3, 4, 5]]) == 1.0
    two_rolls = [[], [ROLL, ROLL, 0, 1, 2, 3]]
    assert Reading((clue,), (0, 4)).likelihood(two_rolls) == 0.0  # two copies, one draw
    soft = Clue(seat=1, cards=roll, drawn=3, ratio=0.2)
    assert Reading((soft,), (0, 3)).likelihood(hands) == pytest.approx(0.2)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_clues_concern_other_seats_and_count_their_draws(players: int) -> None:
    """Every clue is about another seat than the reader's, at a moment before now; the draws
    counted from the moves add up to the cards gone from the pile."""
    game = VirtualGame(Rules.for_players(players), seed=players)
    computers = [make_player("strong", Random(seat)) for seat in range(players)]
    readings = 0
    while not game.over and len(game.sheet.hands) < 2:
        hand, seat = game.hand, game.hand.to_act
        view = seat_view(hand, seat)
        reading = read(view)
        dealt = sum(view.deck_count(card) for card in range(len(CODE))) - 6 * players
        assert sum(reading.drawn) == dealt - view.draw_pile
        for clue in reading.clues:
            assert clue.seat != seat and 0 <= clue.drawn <= reading.drawn[clue.seat]
        readings += bool(reading.clues)
        game.apply_legal(computers[seat].choose(view), seat)
    assert readings > 20


def test_a_position_built_by_hand_gives_no_clues() -> None:
    state = position([Card.ROLL, Card.DISTANCE_100])
    reading = read(seat_view(state, 0))
    assert reading.clues == ()


def stop_or_drive() -> HandState:
    """Two seats, the pile empty. Seat 1 is rolling at 600 km holding the 100 that completes;
    seat 0 holds a Stop and a 25. Driving lets seat 1 complete; the Stop leaves its 100 dead."""
    state = position(
        [Card.STOP, Card.DISTANCE_25],
        own=[Card.ROLL],
        other=[Card.ROLL],
    )
    for _ in range(6):
        state.tableaux[1].add_distance(CODE[Card.DISTANCE_100], 1)
    set_hand(state, 1, [Card.DISTANCE_100])
    set_draw_pile(state, [])
    return state


def test_the_endgame_solver_finds_the_stop_that_saves_the_hand() -> None:
    state = stop_or_drive()
    assert solvable(state)
    valued = Endgame(hand_margin).best(state, 0)
    assert valued is not None
    values = {move: value for value, move in valued}
    stop = Play(Card.STOP, 1)
    drive = Play(Card.DISTANCE_25)
    assert valued[0][1] == stop
    # Stopped, seat 1 scores its 600 km; driving, 700 + trip 400 + delayed action 300 + safe
    # trip 300 against 25.
    assert values[stop] == 25 - 600
    assert values[drive] == 25 - 1_700
    assert state.hands[0] == [CODE[Card.STOP], CODE[Card.DISTANCE_25]]  # not changed


def test_the_endgame_solver_gives_up_beyond_its_budget() -> None:
    state = stop_or_drive()
    assert Endgame(hand_margin, nodes=0).best(state, 0) is None


def test_the_search_player_solves_the_endgame_when_told() -> None:
    state = stop_or_drive()
    view = seat_view(state, 0)
    assert SearchVariant(Random(0), solve=100).choose(view) == Play(Card.STOP, 1)


def test_the_game_chance_weighs_the_hand_by_the_totals() -> None:
    """The same hand, 575 points behind, is a small loss early in a game, a lost game when the
    rival reaches 5,000 with it, and a won game when the seat does and stays ahead."""
    state = stop_or_drive()
    for move in (Play(Card.STOP, 1), Discard(Card.DISTANCE_100), Play(Card.DISTANCE_25)):
        state.apply(move)
    assert state.over and hand_margin(state, 0) == -575
    assert 0.3 < game_chance(state, 0) < 0.5
    state.scores = (4_500, 4_400)
    assert game_chance(state, 0) == 0.0
    state.scores = (4_990, 3_000)
    assert game_chance(state, 0) == 1.0
    state.scores = (2_000, 1_000)
    assert 0.5 < game_chance(state, 0) < 0.7  # 425 ahead, 3,400 to go
