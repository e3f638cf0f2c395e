"""A table's match history: finished games and each player's result, as JSON or CSV, for a
season and a player if asked."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from flask import Blueprint, Response

from scorekeeper.documents.history_csv import history_file
from scorekeeper.results.standings import finished_games, history_rows, table_ratings
from scorekeeper.schemas.ratings import HistoryFilterSchema, HistoryQuerySchema
from scorekeeper.schemas.resources import HistoryRowSchema
from scorekeeper.web.auth import authorized_table
from scorekeeper.web.http import queried, query, respond
from scorekeeper.web.paging import page_of
from scorekeeper.web.words import history_in_language

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game

bp = Blueprint("history", __name__)
EPOCH = datetime(1970, 1, 1)
MICROSECOND = timedelta(microseconds=1)
row_schema = HistoryRowSchema()


@bp.get("/tables/<id:table_id>/history")
@queried(HistoryQuerySchema())
def history(table_id: int) -> Response:
    """Every finished game with one row per player: side, total, won / lost / tied; a page of
    games at a time with ``limit``, in the order they finished."""
    table = authorized_table(table_id)
    asked = query()
    games = finished_games(table, asked["season"], asked.get("player"))
    page, next_cursor = page_of(
        games,
        letter="h",
        key=finish_order,
        parts=2,
        limit=asked.get("limit") or len(games),
        cursor=asked.get("cursor"),
    )
    rows = history_in_language(history_rows(page, table_ratings(table)), page)
    return respond({"items": row_schema.dump(list(rows), many=True), "next_cursor": next_cursor})


@bp.get("/tables/<id:table_id>/history.csv")
@queried(HistoryFilterSchema())
def history_csv(table_id: int) -> Response:
    """The same rows as CSV, for a spreadsheet: every game the filters keep."""
    table = authorized_table(table_id)
    asked = query()
    return history_file(
        finished_games(table, asked["season"], asked.get("player")), table_ratings(table)
    )


def finish_order(game: Game) -> tuple[int, int]:
    """Where a finished game stands in the history: when it finished (in microseconds), then
    its id."""
    return ((game.finished_at or EPOCH) - EPOCH) // MICROSECOND, game.id
