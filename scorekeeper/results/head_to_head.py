"""Head-to-head: how two players of a table did against each other, and together as partners.

Drawn from the season's finished games (abandoned and unfinished games never count), from what
each game keeps: its sides, its totals, its winner and its number of hands. A side's points per
hand in a game are its final total over the game's hands, since every hand scores every side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scorekeeper.results.ratings import Entrant, Result


def _per_hand(points: int, hands: int) -> float | None:
    return round(points / hands, 1) if hands else None


@dataclass(slots=True)
class Opponents:
    """Games the two played on different sides: who won, and each one's points per hand."""

    games: int = 0
    player_wins: int = 0
    other_wins: int = 0
    hands: int = 0
    player_points: int = 0
    other_points: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The wire form."""
        return {
            "games": self.games,
            "player_wins": self.player_wins,
            "other_wins": self.other_wins,
            "hands": self.hands,
            "player_average_hand_score": _per_hand(self.player_points, self.hands),
            "other_average_hand_score": _per_hand(self.other_points, self.hands),
        }


@dataclass(slots=True)
class Partners:
    """Games the two played on the same side: how often their team won, and its points."""

    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The wire form."""
        return {
            "games": self.games,
            "wins": self.wins,
            "hands": self.hands,
            "average_hand_score": _per_hand(self.points, self.hands),
        }


@dataclass(slots=True)
class HeadToHead:
    """Two players' record against each other and together."""

    opponents: Opponents
    partners: Partners


def head_to_head(results: Iterable[Result], player: Entrant, other: Entrant) -> HeadToHead:
    """The record of ``player`` and ``other`` over ``results``.

    In a three-sided game the two may both lose to the third side: the game counts for both,
    as a win for neither.
    """
    record = HeadToHead(Opponents(), Partners())
    for result in results:
        mine, theirs = result.side_of(player), result.side_of(other)
        if mine is None or theirs is None:
            continue
        if mine == theirs:
            _count_partners(record.partners, result, mine)
        else:
            _count_opponents(record.opponents, result, mine, theirs)
    return record


def _count_partners(partners: Partners, result: Result, side: int) -> None:
    partners.games += 1
    partners.wins += result.winner == side
    partners.hands += result.hand_count
    partners.points += result.totals[side]


def _count_opponents(opponents: Opponents, result: Result, mine: int, theirs: int) -> None:
    opponents.games += 1
    opponents.player_wins += result.winner == mine
    opponents.other_wins += result.winner == theirs
    opponents.hands += result.hand_count
    opponents.player_points += result.totals[mine]
    opponents.other_points += result.totals[theirs]
