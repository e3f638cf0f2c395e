"""Self-play: games between computer players, summarised (for `scorekeeper simulate`).

A simulated game travels as a summary, plain data (:class:`Played`): worker processes send it back
pickled, and the objects of a compiled engine do not pickle.
"""

from __future__ import annotations

import math
import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from random import Random
from typing import Any

from engine.categories import Category
from engine.players import ComputerPlayer, make_player
from engine.rules import Rules
from engine.virtual_game import VirtualGame

BONUSES = (
    Category.COUP_FOURRES,
    Category.EXTENSION,
    Category.SHUTOUT,
    Category.DELAYED_ACTION,
    Category.TRIP,
)
"""The bonuses a summary counts: hands in which a side earned each."""

PlayerMaker = Callable[[str, Random], ComputerPlayer]
"""Builds a computer player by its name: the engine's registry (:func:`make_player`) unless a
caller brings its own (the benchmarks' and tests' reference opponents)."""


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game, as a summary reads it: plain data, so a worker process can send it back
    pickled (the objects of a compiled engine do not pickle)."""

    kinds: list[str]
    """The kind of computer player at each seat."""
    leaders: list[int]
    """The side or sides with the highest total at the end."""
    hands: int
    points: list[int]
    """Each side's points over the game's hands."""
    bonuses: list[dict[str, int]]
    """Each side's count of hands with each bonus of :data:`BONUSES`."""
    record: dict[str, Any] | None = None
    """The game's whole record (:meth:`engine.virtual_game.VirtualGame.to_dict`), when it was
    asked for: building it cost a sixth of a simulation that nobody asked to keep."""


@dataclass(slots=True)
class Tally:
    """What one computer player achieved over the games it sat in."""

    games: int = 0
    wins: float = 0.0
    hands: int = 0
    points: int = 0
    bonuses: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else None,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "mean_hand_score": round(self.points / self.hands, 1) if self.hands else None,
            "bonuses": dict(self.bonuses),
        }


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound even near 0% or 100%).

    >>> [round(bound, 3) for bound in wilson(60, 100)]
    [0.502, 0.691]
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def seating(names: Sequence[str], players: int, game: int) -> list[str]:
    """Who sits where in game ``game``: the named players take the sides in turn, rotated every
    game so each plays every side equally (partners play the same kind)."""
    sides = Rules.for_players(players).sides
    kinds = [names[(side + game) % len(names)] for side in range(sides)]
    return [kinds[seat % sides] for seat in range(players)]


def simulate(
    names: Sequence[str],
    players: int,
    games: int,
    seed: int,
    variants: dict[str, str],
    workers: int = 1,
    *,
    records: bool = False,
    make: PlayerMaker = make_player,
) -> Iterator[Played]:
    """Play ``games`` games; yield each one's summary, with its record if ``records``, in order.

    Each game's seed derives from ``seed`` and its number alone, so the results are the same
    whatever the number of worker processes. ``make`` builds the players by name (a module's
    function, so that worker processes can be sent it).
    """
    play = partial(play_game, names, players, seed, variants, records, make)
    if workers <= 1:
        yield from map(play, range(games))
        return
    # Games go to a worker in batches, fewer round trips between the processes; a batch is small
    # enough that each worker still gets eight of them, so the progress bar moves.
    batch = max(1, min(64, games // workers // 8))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(play, range(games), chunksize=batch)


def play_game(
    names: Sequence[str],
    players: int,
    seed: int,
    variants: dict[str, str],
    records: bool,
    make: PlayerMaker,
    number: int,
) -> Played:
    """Game ``number`` of a simulation, played to its end."""
    rules = Rules.for_players(players, variants)
    kinds = seating(names, players, number)
    game_seed = Random(f"{seed}/{number}").getrandbits(64)
    computers = [make(kind, Random(f"{game_seed}/{seat}")) for seat, kind in enumerate(kinds)]
    game = VirtualGame(rules, game_seed, names=[kinds[side] for side in range(rules.sides)])
    game.play(computers)
    sheet = game.sheet
    points = [0] * rules.sides
    bonuses: list[Counter[str]] = [Counter() for _ in range(rules.sides)]
    for hand in sheet.hands:
        for side, score in enumerate(hand.sides):
            points[side] += score.total
            bonuses[side].update(category.value for category in BONUSES if score.points(category))
    return Played(
        kinds,
        list(sheet.leaders),
        len(sheet.hands),
        points,
        [dict(counts) for counts in bonuses],
        game.to_dict() if records else None,
    )


def tally(results: Sequence[Played]) -> dict[str, Tally]:
    """Each computer player's record over ``results``; a tie shares the win."""
    tallies: dict[str, Tally] = {}
    for game in results:
        for side, points in enumerate(game.points):
            record = tallies.setdefault(game.kinds[side], Tally())
            record.games += 1
            if side in game.leaders:
                record.wins += 1 / len(game.leaders)
            record.hands += game.hands
            record.points += points
            record.bonuses.update(game.bonuses[side])
    return tallies
