"""A table's match history: finished games and each player's result, as JSON or CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from flask import Blueprint, Response
from sqlalchemy import select

from scorekeeper.auth import authorized_table
from scorekeeper.extensions import db
from scorekeeper.http import respond
from scorekeeper.leaderboard import ratings_after, standing
from scorekeeper.models import Game, GameStatus, Table
from scorekeeper.ratings import Entrant
from scorekeeper.schemas.resources import HistoryRowSchema
from scorekeeper.season import Season
from scorekeeper.standings import HISTORY_COLUMNS, history_rows

bp = Blueprint("history", __name__)
ALL_TIME = Season()
row_schema = HistoryRowSchema()


def finished_games(table: Table, season: Season = ALL_TIME) -> list[Game]:
    """The table's finished games of ``season``, in the order they finished."""
    statement = (
        select(Game)
        .where(Game.table_id == table.id, Game.status == GameStatus.FINISHED, *season.where())
        .order_by(Game.finished_at, Game.id)
    )
    return list(db.session.execute(statement).scalars())


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
    return csv_response(finished_games(table), table_ratings(table))


def table_ratings(table: Table) -> dict[tuple[int, Entrant], float]:
    """Every rating after every finished game of the table (all time, virtual games counted)."""
    return ratings_after(standing(table.id, Season()).ledger)


def csv_response(games: list[Game], ratings: Mapping[tuple[int, Entrant], float]) -> Response:
    """The history rows of ``games`` as a CSV download: the contract's columns and words."""
    rows = row_schema.dump(list(history_rows(games, ratings)), many=True)
    return csv_download(dict(zip(HISTORY_COLUMNS, HISTORY_COLUMNS, strict=True)), rows)


def csv_download(
    columns: Mapping[str, str], rows: Iterable[Mapping[str, object]], *, spreadsheet: bool = False
) -> Response:
    """``rows`` as a CSV file whose header says ``columns`` (each key's heading). For a
    ``spreadsheet`` of a comma-decimal locale (French Excel), cells are separated by ``;`` and
    the file starts with a byte order mark, without which Excel reads UTF-8 as Latin-1."""
    buffer = io.StringIO()
    if spreadsheet:
        buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";" if spreadsheet else ",", lineterminator="\r\n")
    writer.writerow(columns.values())
    for row in rows:
        writer.writerow(_cell(row[key]) for key in columns)
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="history.csv"'},
    )


def _cell(value: object) -> object:
    """Cells a spreadsheet will not run as a formula (a name like '=1+1' stays text)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
