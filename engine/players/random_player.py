"""A player that picks uniformly among the legal moves: the baseline, and a fuzzer of the rules."""

from __future__ import annotations

from random import Random

from engine.moves import Move
from engine.randomness import choice
from engine.view import SeatView


class RandomPlayer:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        return choice(self.rng, view.legal_moves)
