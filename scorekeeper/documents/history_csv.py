"""Files the history offers for download: the API's CSV, and the same rows in a page's language
or for a French spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from flask import Response

from scorekeeper.results.ratings import Entrant
from scorekeeper.results.standings import HISTORY_COLUMNS, history_rows
from scorekeeper.schemas.resources import HistoryRowSchema
from scorekeeper.storage.models import Game


def history_file(games: list[Game], ratings: Mapping[tuple[int, Entrant], float]) -> Response:
    """The history rows of ``games`` as a CSV download: the contract's columns and words."""
    rows = HistoryRowSchema().dump(list(history_rows(games, ratings)), many=True)
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
