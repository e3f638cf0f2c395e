"""What the stored hands add up to: a game's state, a player's statistics, a table's history.

Every figure here comes from the engine: the breakdowns stored with each hand, and what the game's
row keeps of them (:mod:`scorekeeper.storage.running_totals`); nothing is typed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from engine import Outcome
from engine.scoring import COUP_FOURRE_POINTS, added
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.levels import level_key
from scorekeeper.results.leaderboard import ratings_after, standing
from scorekeeper.results.ratings import Entrant
from scorekeeper.results.season import Season
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Hand, Seat, Table

ALL_TIME = Season()


def hand_view(hand: Hand, totals: Iterable[int]) -> dict[str, Any]:
    """A hand as answered: its report, its breakdown and the running totals after it."""
    return {
        "number": hand.number,
        "version": hand.version,
        "report": hand.report,
        "target": hand.breakdown["target"],
        "sides": hand.breakdown["sides"],
        "totals": list(totals),
        "created_at": hand.created_at,
        "updated_at": hand.updated_at,
    }


def game_view(game: Game, with_hands: bool = True) -> dict[str, Any]:
    """A game as answered: sides and seats, hands with running totals, leaders, winner.

    Where the game stands is what its row keeps (:mod:`scorekeeper.storage.running_totals`); the
    running totals beside each hand are added from the totals stored with the hands.
    """
    view: dict[str, Any] = {
        "id": game.id,
        "players": game.players,
        "virtual": game.virtual,
        "variants": game.rules.variants,
        "status": game.status,
        "outcome": game.outcome,
        "version": game.version,
        "sides": [
            {
                "index": side.index,
                "name": side.name,
                "seats": [
                    {
                        "seat": seat.seat,
                        "player_id": seat.player_id,
                        "computer": seat.computer,
                        "level": level_key(seat.computer),
                        "name": seat.name,
                    }
                    for seat in side.seats
                ],
                "total": game.totals[side.index],
            }
            for side in game.sides
        ],
        "totals": list(game.totals),
        "leaders": list(game.leaders),
        "winner": game.winner,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
    }
    if with_hands:
        view["hands"] = [
            hand_view(hand, totals)
            for hand, totals in zip(game.hands, running(game.hands, len(game.totals)), strict=True)
        ]
    return view


def running(hands: Iterable[Hand], sides: int) -> Iterator[list[int]]:
    """The running totals after each of ``hands`` (a game's first hands, in order), added from
    the totals stored in their breakdowns: what a view shows beside each hand."""
    totals: Sequence[int] = [0] * sides
    for hand in hands:
        totals = added(totals, [side["total"] for side in hand.breakdown["sides"]])
        yield list(totals)


@dataclass(slots=True)
class PlayerStatistics:
    """A player's record over the games of their table."""

    games_played: int = 0
    games_finished: int = 0
    games_won: int = 0
    hands_played: int = 0
    points: int = 0
    coup_fourres: int = 0
    shutouts: int = 0
    best_hand: int | None = None

    @property
    def win_rate(self) -> float | None:
        """Games won over finished games; None before the first finished game."""
        return round(self.games_won / self.games_finished, 4) if self.games_finished else None

    @property
    def average_hand_score(self) -> float | None:
        """The player's side's average hand total; None before the first hand."""
        return round(self.points / self.hands_played, 1) if self.hands_played else None

    def to_dict(self) -> dict[str, Any]:
        """The wire form."""
        return {
            "games_played": self.games_played,
            "games_finished": self.games_finished,
            "games_won": self.games_won,
            "win_rate": self.win_rate,
            "hands_played": self.hands_played,
            "average_hand_score": self.average_hand_score,
            "coup_fourres": self.coup_fourres,
            "shutouts": self.shutouts,
            "best_hand": self.best_hand,
        }


def side_of_player(game: Game, player_id: int) -> int | None:
    """The index of the side ``player_id`` played for in ``game``."""
    for side in game.sides:
        if any(seat.player_id == player_id for seat in side.seats):
            return side.index
    return None


def player_statistics(player_id: int, games: Iterable[Game]) -> PlayerStatistics:
    """The statistics of ``player_id`` over ``games`` (abandoned games count as played only).

    A team's hand counts for both partners: they share one tableau and one score.
    """
    stats = PlayerStatistics()
    for game in games:
        index = side_of_player(game, player_id)
        if index is None:
            continue
        stats.games_played += 1
        if game.status == GameStatus.ABANDONED:
            continue
        if game.status == GameStatus.FINISHED:
            stats.games_finished += 1
            stats.games_won += game.winner == index
        for hand in game.hands:
            side = hand.breakdown["sides"][index]
            stats.hands_played += 1
            stats.points += side["total"]
            stats.coup_fourres += side["coup_fourres"] // COUP_FOURRE_POINTS
            stats.shutouts += side["shutout"] > 0
            stats.best_hand = max(stats.best_hand or 0, side["total"])
    return stats


HISTORY_COLUMNS = (
    "game_id",
    "finished_at",
    "players",
    "hands",
    "side",
    "side_name",
    "player_id",
    "player",
    "total",
    "result",
    "virtual",
    "rating",
)


def entrant_of(seat: Seat) -> Entrant:
    """Who a seat's games rate: its player, or its computer's level."""
    if seat.player_id is not None:
        return Entrant(player_id=seat.player_id)
    return Entrant(level=level_key(seat.computer))


def history_rows(
    games: Iterable[Game], ratings: Mapping[tuple[int, Entrant], float] | None = None
) -> Iterator[dict[str, Any]]:
    """One row per player per finished game: their side, its total, won / lost / tied, and the
    rating of the seat's player (or computer level) after the game, from ``ratings`` (keyed by
    game id and entrant; None where it has none)."""
    ratings = ratings or {}
    for game in games:
        leaders = set(game.leaders)
        for side in game.sides:
            if game.winner == side.index:
                result = "won"
            elif game.outcome == Outcome.TIED and side.index in leaders:
                result = "tied"
            else:
                result = "lost"
            for seat in side.seats:
                yield {
                    "game_id": game.id,
                    "finished_at": game.finished_at,
                    "players": game.players,
                    "hands": game.hand_count,
                    "side": side.index,
                    "side_name": side.name,
                    "player_id": seat.player_id,
                    "player": seat.name,
                    "virtual": game.virtual,
                    "total": game.totals[side.index],
                    "result": result,
                    "rating": ratings.get((game.id, entrant_of(seat))),
                }


def finished_games(
    table: Table, season: Season = ALL_TIME, player: int | None = None
) -> list[Game]:
    """The table's finished games of ``season`` (those ``player`` sat in, if given), in the order
    they finished."""
    statement = (
        select(Game)
        .where(Game.table_id == table.id, Game.status == GameStatus.FINISHED, *season.where())
        .order_by(Game.finished_at, Game.id)
    )
    if player is not None:
        statement = statement.where(Game.played_by(player))
    return list(db.session.execute(statement).scalars())


def table_ratings(table: Table) -> dict[tuple[int, Entrant], float]:
    """Every rating after every finished game of the table (all time, virtual games counted)."""
    return ratings_after(standing(table.id, ALL_TIME).ledger)
