"""A player that picks uniformly among the legal moves: the baseline, and a fuzzer of the rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import ClassVar

from engine.moves import Move
from engine.randomness import chooser
from engine.view import SeatView


class RandomPlayer:
    """Any legal move, uniformly."""

    name: ClassVar[str] = "random"

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self._pick: Callable[[Sequence[Move]], Move] = chooser(rng)

    def choose(self, view: SeatView) -> Move:
        return self._pick(view.legal_moves)
