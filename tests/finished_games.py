"""Finished games written straight into the database, for ratings, seasons and benchmarks.

Ratings read only what a game keeps (its sides and seats, totals, winner, number of hands and
when it finished), so a test that needs a game finished at midnight, or a benchmark that needs
2,000 games, writes those rows as the app would have left them, without playing the hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from scorekeeper.domain.games import GameStatus
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Seat, Side

Sitter = int | str
"""A player's id, or a computer level's technical name (``strong``) for a virtual game's seat."""


def add_finished_game(
    table_id: int,
    sides: Sequence[Sequence[Sitter]],
    totals: Sequence[int],
    *,
    finished_at: datetime,
    hands: int = 4,
    virtual: bool = False,
) -> Game:
    """A finished game of ``sides`` (each a list of sitters) ending on ``totals``; the highest
    total wins, or the game is tied. Added to the session, not committed."""
    best = max(totals)
    leaders = [index for index, total in enumerate(totals) if total == best]
    game = Game(
        table_id=table_id,
        players=sum(len(side) for side in sides),
        variants={},
        status=GameStatus.FINISHED,
        finished_at=finished_at,
        seed=1 if virtual else None,
        hand_count=hands,
        totals=list(totals),
        leaders=leaders,
        outcome="won" if len(leaders) == 1 else "tied",
        winner=leaders[0] if len(leaders) == 1 else None,
    )
    seat = 0
    for index, sitters in enumerate(sides):
        side = Side(index=index, name=f"Side {index + 1}")
        for sitter in sitters:
            if isinstance(sitter, int):
                side.seats.append(Seat(seat=seat, player_id=sitter))
            else:
                side.seats.append(Seat(seat=seat, computer=sitter))
            seat += 1
        game.sides.append(side)
    db.session.add(game)
    return game
