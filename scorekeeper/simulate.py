"""Self-play: games between computer players, summarised (for `scorekeeper simulate`)."""

from __future__ import annotations

import math
import multiprocessing
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from random import Random
from typing import Any

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.scoring import Category


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
) -> Iterator[tuple[Game, list[str]]]:
    """Play ``games`` games; yield each finished game with its seating, in order.

    Each game's seed derives from ``seed`` and its number alone, so the results are the same
    whatever the number of worker processes. A worker sends each game back as its record, played
    again here: the engine's objects need not pickle (those of a compiled engine do not).
    """
    if workers <= 1:
        yield from map(partial(play_game, names, players, seed, variants), range(games))
        return
    play = partial(play_recorded, names, players, seed, variants)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for record, kinds in pool.imap(play, range(games)):
            yield Game.replay(record), kinds


def play_game(
    names: Sequence[str], players: int, seed: int, variants: dict[str, str], number: int
) -> tuple[Game, list[str]]:
    """Game ``number`` of a simulation, played to its end."""
    rules = Rules.for_players(players, variants)
    kinds = seating(names, players, number)
    game_seed = Random(f"{seed}/{number}").getrandbits(64)
    computers = [
        make_player(kind, Random(f"{game_seed}/{seat}")) for seat, kind in enumerate(kinds)
    ]
    game = Game(rules, game_seed, names=[kinds[side] for side in range(rules.sides)])
    game.play(computers)
    return game, kinds


def play_recorded(
    names: Sequence[str], players: int, seed: int, variants: dict[str, str], number: int
) -> tuple[dict[str, Any], list[str]]:
    """Game ``number`` of a simulation as its record (what a worker process sends back)."""
    game, kinds = play_game(names, players, seed, variants, number)
    return game.to_dict(), kinds


def tally(results: Sequence[tuple[Game, list[str]]]) -> dict[str, Tally]:
    """Each computer player's record over ``results``; a tie shares the win."""
    tallies: dict[str, Tally] = {}
    for game, kinds in results:
        sides = game.rules.sides
        leaders = game.sheet.leaders
        for side in range(sides):
            record = tallies.setdefault(kinds[side], Tally())
            record.games += 1
            if side in leaders:
                record.wins += 1 / len(leaders)
            for hand in game.sheet.hands:
                score = hand.sides[side]
                record.hands += 1
                record.points += score.total
                for category in (
                    Category.COUP_FOURRES,
                    Category.EXTENSION,
                    Category.SHUTOUT,
                    Category.DELAYED_ACTION,
                    Category.TRIP,
                ):
                    if score.points(category):
                        record.bonuses[category.value] += 1
    return tallies
