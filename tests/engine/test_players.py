"""Computer players: legal moves only, reproducible from their seeds, and stronger means better."""

from __future__ import annotations

from random import Random

import pytest

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.view import seat_view
from scorekeeper.simulate import simulate, tally


@pytest.mark.parametrize("name", ["random", "greedy", "strong"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_players_only_choose_legal_moves(name: str, players: int) -> None:
    game = Game(Rules.for_players(players), seed=players)
    computers = [make_player(name, Random(seat)) for seat in range(players)]
    for _ in range(3000):
        if game.over:
            break
        seat = game.hand.to_act
        view = seat_view(game.hand, seat)
        move = computers[seat].choose(view)
        assert move in view.legal_moves
        game.apply(move, seat)


def test_unknown_players_are_refused() -> None:
    with pytest.raises(ValueError, match="no computer player"):
        make_player("oracle", Random(0))


def test_strong_beats_greedy_with_seats_swapped() -> None:
    results = list(simulate(["strong", "greedy"], 2, games=100, seed=11, variants={}))
    record = tally(results)
    assert record["strong"].games == record["greedy"].games == 100
    assert record["strong"].wins / 100 > 0.6
