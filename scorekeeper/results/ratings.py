"""Ratings from finished games: Weng and Lin's Bayesian rating, through ``openskill``.

Why this library: Mille Bornes is played by two or three sides, and by teams of two sharing one
tableau. Elo and Glicko rate two people; TrueSkill rates teams but its one maintained Python
package (``trueskill``) has not been released since 2018 and rates three sides through a factor
graph that is slow and hard to check by hand. ``openskill`` implements Weng and Lin's closed-form
updates (JMLR 12, 2011) for any number of sides of any size, is typed, maintained and MIT
licensed, and each update is a few lines of arithmetic that a test can work by hand. Of its
models we use Plackett-Luce, the one its documentation recommends for games ranking more than two
sides, with its documented defaults: μ 25, σ 25/3, β 25/6, τ 25/300.

Each side is a team (one player, or two partners); sides are ranked by their final totals, the
winner first and equal totals sharing a rank, so a three-sided game counts the second place above
the third. Every computer level is one entrant of its own (all Club seats share Club's rating), so
a learner sees their rating beside the computers'. A level seated twice in one game (two Club
computers on different sides) is rated as two entrants and ends with the mean of their two new
ratings.

Ratings are a pure function of the ordered results: :func:`replay` from scratch and a
:class:`Ledger` grown one game at a time give the same floats, bit for bit, which the tests check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
"""The rating model with openskill's documented defaults (μ 25, σ 25/3, β 25/6, τ 25/300)."""

PROVISIONAL_GAMES = 5
"""A rating from fewer finished games than this is marked provisional."""

CONSERVATIVE_SIGMAS = 3
"""The leaderboard ranks by μ − 3σ: a rating the player is very likely to deserve, so two lucky
first games do not top the table."""


@dataclass(frozen=True, slots=True, order=True)
class Entrant:
    """Who is rated: a player of the table, or a computer level (``beginner``, ``club``, ...)."""

    player_id: int | None = None
    level: str | None = None

    @property
    def key(self) -> str:
        """A stable text key: ``player-3`` or ``level-club``."""
        return f"player-{self.player_id}" if self.player_id is not None else f"level-{self.level}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """A finished game as the ratings see it: who sat on each side, the totals and the winner."""

    game_id: int
    finished_at: datetime
    virtual: bool
    sides: tuple[tuple[Entrant, ...], ...]
    totals: tuple[int, ...]
    winner: int | None
    hand_count: int

    @property
    def ranks(self) -> list[int]:
        """Each side's place, 0 first: the winner, then by total, equal totals sharing a place.

        >>> Result(game_id=1, finished_at=datetime(2026, 1, 1), virtual=False,
        ...        sides=((), (), ()), totals=(5100, 3000, 3000), winner=0, hand_count=4).ranks
        [0, 1, 1]
        """
        ranks = [sum(other > total for other in self.totals) for total in self.totals]
        if self.winner is not None:
            ranks = [0 if side == self.winner else max(rank, 1) for side, rank in enumerate(ranks)]
        return ranks

    def side_of(self, entrant: Entrant) -> int | None:
        """The side ``entrant`` played for, or None."""
        for index, side in enumerate(self.sides):
            if entrant in side:
                return index
        return None


@dataclass(slots=True, kw_only=True)
class Rating:
    """An entrant's rating (μ and its uncertainty σ) and what it was earned over.

    Never changed once made (a new game makes a new one); not frozen only because a frozen
    dataclass is built several times slower, and a full replay builds one per seat per game.
    """

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    points: int = 0
    hands: int = 0

    @property
    def conservative(self) -> float:
        """μ − 3σ, what the leaderboard ranks by."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma

    @property
    def provisional(self) -> bool:
        """Whether the rating rests on too few finished games to be trusted yet."""
        return self.games < PROVISIONAL_GAMES

    @property
    def average_hand_score(self) -> float | None:
        """The entrant's side's points per hand over the rated games; None before any."""
        return round(self.points / self.hands, 1) if self.hands else None


PRIOR = Rating()
"""Everyone's rating before their first game."""


@dataclass(frozen=True, slots=True)
class Step:
    """One rated game: the new rating of each of its entrants."""

    result: Result
    after: dict[Entrant, Rating]


@dataclass(slots=True)
class Ledger:
    """Ratings after a sequence of results, grown one game at a time with :meth:`add`.

    A ledger handed out is never changed again: :meth:`extended` grows a copy, so a reader
    holding one sees the same figures to the end of its request.
    """

    current: dict[Entrant, Rating] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def rating(self, entrant: Entrant) -> Rating:
        """The entrant's rating now (the prior before their first game)."""
        return self.current.get(entrant, PRIOR)

    def add(self, result: Result) -> None:
        """Rate one more finished game (it must come after every game already rated)."""
        teams = []
        for side in result.sides:
            olds = [self.current.get(entrant, PRIOR) for entrant in side]
            teams.append([PlackettLuceRating(old.mu, old.sigma) for old in olds])
        rated = MODEL.rate(teams, ranks=[float(rank) for rank in result.ranks])
        after = self._credit(result, rated)
        self.current.update(after)
        self.steps.append(Step(result, after))

    def _credit(
        self, result: Result, rated: list[list[PlackettLuceRating]]
    ) -> dict[Entrant, Rating]:
        """Each entrant's new rating, games, wins and points (a level seated twice: the mean)."""
        seen: dict[Entrant, list[tuple[PlackettLuceRating, int]]] = {}
        for index, (side, ratings) in enumerate(zip(result.sides, rated, strict=True)):
            for entrant, new in zip(side, ratings, strict=True):
                seen.setdefault(entrant, []).append((new, index))
        after = {}
        for entrant, news in seen.items():
            old = self.rating(entrant)
            index = news[0][1]
            after[entrant] = Rating(
                mu=sum(new.mu for new, _ in news) / len(news),
                sigma=sum(new.sigma for new, _ in news) / len(news),
                games=old.games + 1,
                wins=old.wins + (result.winner == index),
                points=old.points + result.totals[index],
                hands=old.hands + result.hand_count,
            )
        return after

    def truncated(self, games: int) -> Ledger:
        """A new ledger holding only this one's first ``games`` games: where a replay of the
        games after them starts when a later game was corrected."""
        current: dict[Entrant, Rating] = {}
        for step in self.steps[:games]:
            current.update(step.after)
        return Ledger(current, self.steps[:games])

    def extended(self, results: Iterable[Result]) -> Ledger:
        """A new ledger: this one's games, then ``results``."""
        grown = Ledger(dict(self.current), list(self.steps))
        for result in results:
            grown.add(result)
        return grown

    def history_of(self, entrant: Entrant) -> Iterator[Step]:
        """The steps of the games ``entrant`` played, in order."""
        return (step for step in self.steps if entrant in step.after)

    def ranked(self) -> list[tuple[Entrant, Rating]]:
        """Every rated entrant, best conservative rating first (then most games, then key)."""
        return sorted(
            self.current.items(),
            key=lambda item: (-item[1].conservative, -item[1].games, item[0].key),
        )


def replay(results: Iterable[Result]) -> Ledger:
    """The ratings after ``results`` (in the order they finished), from every prior."""
    return Ledger().extended(results)
