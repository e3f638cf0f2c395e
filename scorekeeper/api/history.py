"""A table's match history: finished games and each player's result, as JSON or CSV."""

from __future__ import annotations

from flask import Blueprint, Response

from scorekeeper.documents.history_csv import history_file
from scorekeeper.results.standings import finished_games, history_rows, table_ratings
from scorekeeper.schemas.resources import HistoryRowSchema
from scorekeeper.web.auth import authorized_table
from scorekeeper.web.http import respond

bp = Blueprint("history", __name__)
row_schema = HistoryRowSchema()


@bp.get("/tables/<id:table_id>/history")
def history(table_id: int) -> Response:
    """Every finished game with one row per player: side, total, won / lost / tied."""
    table = authorized_table(table_id)
    rows = history_rows(finished_games(table), table_ratings(table))
    return respond({"items": row_schema.dump(list(rows), many=True)})


@bp.get("/tables/<id:table_id>/history.csv")
def history_csv(table_id: int) -> Response:
    """The same rows as CSV, for a spreadsheet."""
    table = authorized_table(table_id)
    return history_file(finished_games(table), table_ratings(table))
