"""Computer players: each chooses among the legal moves from what its seat may see.

Every player is built with its own ``random.Random``, so a game is reproducible from its seed.
These are the players the app plays; the reference opponents they are measured against are not
part of the engine (``reference/`` in a source checkout, with its own registry).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from engine.moves import Move
from engine.view import SeatView


class ComputerPlayer(Protocol):
    """The one interface every computer player implements."""

    @property
    def name(self) -> str:
        """The player's registry name (a class attribute of each player)."""
        ...

    def choose(self, view: SeatView) -> Move:
        """One of ``view.legal_moves`` (coups-fourrés and the extension question included)."""
        ...


def make_player(name: str, rng: Random) -> ComputerPlayer:
    """A computer player by its registry name: one the app plays."""
    from engine.players.greedy import GreedyPlayer
    from engine.players.random_player import RandomPlayer
    from engine.players.search import SearchPlayer
    from engine.players.strong import StrongPlayer

    registry: dict[str, Callable[[Random], ComputerPlayer]] = {
        RandomPlayer.name: RandomPlayer,
        GreedyPlayer.name: GreedyPlayer,
        StrongPlayer.name: StrongPlayer,
        SearchPlayer.name: SearchPlayer,
    }
    try:
        return registry[name](rng)
    except KeyError:
        raise ValueError(f"no computer player {name!r}; there are {', '.join(registry)}") from None
