"""Self-play: games between computer players, summarised (for `scorekeeper simulate`).

A simulated game travels as its record (:meth:`engine.game.Game.to_dict`), plain data: worker
processes send it back pickled, and the objects of a compiled engine do not pickle.
"""

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
from engine.scoring import Category, HandScore
from engine.sheet import ScoreSheet

Played = tuple[dict[str, Any], list[str]]
"""A finished game's record, and the kind of computer player at each seat."""


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
) -> Iterator[Played]:
    """Play ``games`` games; yield each finished game's record with its seating, in order.

    Each game's seed derives from ``seed`` and its number alone, so the results are the same
    whatever the number of worker processes.
    """
    play = partial(play_game, names, players, seed, variants)
    if workers <= 1:
        yield from map(play, range(games))
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(play, range(games))


def play_game(
    names: Sequence[str], players: int, seed: int, variants: dict[str, str], number: int
) -> Played:
    """Game ``number`` of a simulation, played to its end."""
    rules = Rules.for_players(players, variants)
    kinds = seating(names, players, number)
    game_seed = Random(f"{seed}/{number}").getrandbits(64)
    computers = [
        make_player(kind, Random(f"{game_seed}/{seat}")) for seat, kind in enumerate(kinds)
    ]
    game = Game(rules, game_seed, names=[kinds[side] for side in range(rules.sides)])
    game.play(computers)
    return game.to_dict(), kinds


def finished_sheet(record: dict[str, Any]) -> ScoreSheet:
    """A simulated game's score sheet, read back from its record without playing it again."""
    rules = Rules.for_players(record["players"], record["variants"])
    sheet = ScoreSheet(rules, record["names"])
    for hand in record["hands"]:
        sheet.append(HandScore.from_dict(hand["score"]))
    return sheet


def tally(results: Sequence[Played]) -> dict[str, Tally]:
    """Each computer player's record over ``results``; a tie shares the win."""
    tallies: dict[str, Tally] = {}
    for game, kinds in results:
        sheet = finished_sheet(game)
        leaders = sheet.leaders
        for side in range(sheet.rules.sides):
            record = tallies.setdefault(kinds[side], Tally())
            record.games += 1
            if side in leaders:
                record.wins += 1 / len(leaders)
            for hand in sheet.hands:
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
