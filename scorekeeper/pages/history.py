"""The table's history: finished games, each player's statistics, and the CSV export."""

from __future__ import annotations

from flask import Blueprint, Response, render_template
from sqlalchemy import select

from scorekeeper.api.history import csv_response, finished_games
from scorekeeper.extensions import db
from scorekeeper.levels import seat_label, side_label
from scorekeeper.models import Game
from scorekeeper.pages.access import page_table
from scorekeeper.standings import history_rows, player_statistics

bp = Blueprint("history", __name__)


@bp.get("/t/<id:table_id>/history")
def history(table_id: int) -> str:
    """Finished games with each player's result, and every player's statistics."""
    table = page_table(table_id)
    games = list(
        db.session.execute(
            select(Game).where(Game.table_id == table.id).options(*Game.everything())
        ).scalars()
    )
    statistics = [(player, player_statistics(player.id, games)) for player in table.players]
    finished = finished_games(table)
    # A row per seat, in the order history_rows gives them: computers named in the page's language.
    seats = [(side, seat) for game in finished for side in game.sides for seat in side.seats]
    rows = [
        {**row, "side_name": side_label(side), "player": seat_label(seat)}
        for row, (side, seat) in zip(history_rows(finished), seats, strict=True)
    ]
    return render_template("pages/history.html", table=table, rows=rows, statistics=statistics)


@bp.get("/t/<id:table_id>/history.csv")
def export(table_id: int) -> Response:
    """The history as CSV, the same file the API gives."""
    return csv_response(finished_games(page_table(table_id)))
