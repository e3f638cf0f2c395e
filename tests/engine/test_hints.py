"""A hint tells nothing its seat could not see: on two hands alike from the seat's chair (its own
hand, every tableau, the discards, the piles' sizes, the moves so far) but with the other hands
and the draw pile dealt differently, it is the same move.

The positions are every decision with a choice in the first hands of seeded games between strong
players (some hundreds a game); the second hand of each pair is :meth:`SeatView.sample`'s re-deal
of the cards the seat has not seen. A control shows the check has teeth: a chooser that peeks at
the next card to draw is caught.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import pytest

from engine.moves import Move
from engine.players import make_player
from engine.rules import Rules
from engine.state import HandState
from engine.view import seat_view
from engine.virtual_game import VirtualGame
from scorekeeper.services.virtual import suggest

SEED = 2024
"""The seed the hints' random streams are named by (the games' own seeds vary)."""
HANDS = 6
"""Hands played in each game (fewer if the game ends first)."""
DEALS = 3
"""Re-deals of the unseen cards tried at each position."""

Chooser = Callable[[HandState, int, int], Move]
"""A choice for ``seat`` at move ``number`` of a whole hand (which may look at more than the
seat's view: the control does)."""


def hint(state: HandState, seat: int, number: int) -> Move:
    """The hint the API gives: the strong player's choice from the seat's view."""
    return suggest(seat_view(state, seat), SEED, number)


def peek(state: HandState, seat: int, number: int) -> Move:
    """A cheat: the legal move picked by the card on top of the draw pile."""
    moves = seat_view(state, seat).legal_moves
    return moves[(state.draw_pile[-1] if state.draw_pile else 0) % len(moves)]


def alike_but_hidden(state: HandState, seat: int, number: int) -> HandState:
    """``state`` with the cards ``seat`` has not seen dealt again; the moves so far (public)
    kept, so the seat's view of it is the same in every respect."""
    other = seat_view(state, seat).sample(Random(f"re-deal {number}"))
    other.events = state.events[:]
    return other


def positions(players: int) -> list[tuple[HandState, int, int]]:
    """Every position of the first :data:`HANDS` hands of a seeded game between strong players
    where the seat to act has a choice: (a copy of the hand then, the seat, the move number)."""
    game = VirtualGame(Rules.for_players(players), seed=players, private_chances=True)
    computers = [make_player("strong", Random(seat)) for seat in range(players)]
    found = []
    while not game.over and len(game.sheet.hands) < HANDS:
        hand, seat = game.hand, game.hand.to_act
        view = seat_view(hand, seat)
        if len(view.legal_moves) > 1:
            found.append((hand.copy(), seat, game.move_count))
            found[-1][0].events = hand.events[:]
        game.apply(computers[seat].choose(view), seat)
    return found


def differences(choose: Chooser, players: int) -> tuple[int, int]:
    """At how many positions ``choose`` chose differently on a hand alike from the seat's chair
    but dealt differently where the seat cannot see, out of how many such pairs were tried."""
    tried = differ = 0
    for state, seat, number in positions(players):
        chosen = choose(state, seat, number)
        for deal in range(DEALS):
            other = alike_but_hidden(state, seat, number * DEALS + deal)
            assert seat_view(other, seat).to_dict() == seat_view(state, seat).to_dict()
            if other.hands == state.hands and other.draw_pile == state.draw_pile:
                continue  # the few unseen cards late in a hand fell as they were
            tried += 1
            differ += choose(other, seat, number) != chosen
    return differ, tried


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_hint_is_the_same_however_the_unseen_cards_lie(players: int) -> None:
    differ, tried = differences(hint, players)
    assert tried > 300
    assert differ == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_check_catches_a_chooser_that_peeks(players: int) -> None:
    differ, tried = differences(peek, players)
    assert differ > tried // 10
