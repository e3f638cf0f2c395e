"""The research variant of the search player (``reference/search.py``): with its defaults it is
the engine's player, decision for decision, and its levers do what they say."""

from __future__ import annotations

from random import Random

import pytest

from engine.moves import Move
from engine.players import ComputerPlayer
from engine.players.search import SETTLED, SearchPlayer
from engine.players.strong import StrongPlayer
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from reference.search import SearchVariant, seat_knowledge


def a_game(searcher: ComputerPlayer, players: int) -> list[Move]:
    """The moves of a whole game, seat 0 played by ``searcher``, the others by strong."""
    game = VirtualGame(Rules.for_players(players), seed=20 + players)
    others = [StrongPlayer(Random(seat)) for seat in range(players)]
    moves: list[Move] = []
    while not game.over:
        seat = game.hand.to_act
        move = (searcher if seat == 0 else others[seat]).choose(seat_view(game.hand, seat))
        moves.append(move)
        game.apply(move, seat)
    return moves


@pytest.mark.parametrize("players", [2, 3])
def test_the_variant_with_its_defaults_is_the_engine_player(players: int) -> None:
    """The research rows of the benchmarks differ from the engine's player only by the levers
    they set: left at its defaults, the variant makes the same choices, searched turns included
    (its dealer, the default one counted, says how many turns were searched)."""
    searched: list[int] = []

    def counting(view: SeatView, rng: Random) -> HandState:
        searched.append(view.seat)
        return seat_knowledge(view, rng)

    shipped = a_game(SearchPlayer(Random(1)), players)
    assert a_game(SearchVariant(Random(1), dealer=counting), players) == shipped
    assert len(searched) >= 10 * 12  # ten turns or more, 12 deals each


def test_the_search_deals_only_through_its_dealer_and_early_turns_only_when_told() -> None:
    """Every deal searched comes from the player's dealer (by default the seat's own view), and
    an early turn is left to the heuristics unless ``late`` reaches it."""
    game = VirtualGame(Rules.for_players(2), seed=5)
    strong = StrongPlayer(Random(0))
    while not an_open_turn(game.hand, strong):
        game.apply(strong.choose(seat_view(game.hand, game.hand.to_act)))
    view = seat_view(game.hand, game.hand.to_act)
    assert view.draw_pile > 70
    asked: list[int] = []

    def counting(seen: SeatView, rng: Random) -> HandState:
        asked.append(seen.seat)
        return seat_knowledge(seen, rng)

    SearchVariant(Random(1), deals=3, dealer=counting).choose(view)
    assert asked == []  # the heuristics' choice stands this early
    SearchVariant(Random(1), deals=3, late=view.draw_pile, dealer=counting).choose(view)
    assert asked == [view.seat] * 3


def an_open_turn(hand: HandState, strong: StrongPlayer) -> bool:
    """A turn of play with a choice the strong heuristics do not settle alone."""
    view = seat_view(hand, hand.to_act)
    if view.phase is not Phase.PLAY or len(view.legal_moves) < 2:
        return False
    return strong.valued(view)[0][0] < SETTLED
