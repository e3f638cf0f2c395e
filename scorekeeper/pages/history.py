"""The table's history: finished games, each player's statistics, and the CSV export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, render_template, request

from engine.sentences import N_
from engine.vocabulary import Language
from scorekeeper.documents.history_csv import csv_download, history_file
from scorekeeper.pages.access import page_table
from scorekeeper.pages.ratings import season_asked, season_links
from scorekeeper.results.season import season_games_of_table
from scorekeeper.results.standings import (
    finished_games,
    history_rows,
    player_statistics,
    table_ratings,
)
from scorekeeper.web.i18n import gettext, language, pgettext
from scorekeeper.web.words import history_in_language

if TYPE_CHECKING:
    pass

bp = Blueprint("history", __name__)


@bp.get("/t/<id:table_id>/history")
def history(table_id: int) -> str:
    """Finished games with each player's result, and every player's statistics, for a season
    (every game by default)."""
    table = page_table(table_id)
    season = season_asked()
    games = season_games_of_table(table.id, season)
    statistics = [(player, player_statistics(player.id, games)) for player in table.players]
    finished = finished_games(table, season)
    rows = history_in_language(history_rows(finished), finished)
    return render_template(
        "pages/history.html",
        table=table,
        rows=rows,
        statistics=statistics,
        **season_links(season),
    )


@bp.get("/t/<id:table_id>/history.csv")
def export(table_id: int) -> Response:
    """The history as CSV in the page's language: in English the API's own file; in French the
    headings, results and yes/no in French, and ``?spreadsheet=1`` makes it open as columns in
    a French spreadsheet (``;`` between cells, a byte order mark)."""
    table = page_table(table_id)
    games, ratings = finished_games(table), table_ratings(table)
    spreadsheet = request.args.get("spreadsheet") == "1"
    if language() is Language.EN and not spreadsheet:
        return history_file(games, ratings)
    results = {
        "won": pgettext("result", "won"),
        "lost": pgettext("result", "lost"),
        "tied": pgettext("result", "tied"),
    }
    rows = [
        {
            **row,
            "finished_at": row["finished_at"].isoformat(sep=" ", timespec="minutes"),
            "result": results[row["result"]],
            "virtual": gettext("yes") if row["virtual"] else gettext("no"),
            "rating": _decimal(row["rating"], comma=spreadsheet),
        }
        for row in history_in_language(history_rows(games, ratings), games)
    ]
    columns = {key: gettext(heading) for key, heading in EXPORT_HEADINGS.items()}
    return csv_download(columns, rows, spreadsheet=spreadsheet)


EXPORT_HEADINGS = {
    "game_id": N_("game"),
    "finished_at": N_("finished at (UTC)"),
    "players": N_("players"),
    "hands": N_("hands"),
    "side": N_("side number"),
    "side_name": N_("side"),
    "player_id": N_("player number"),
    "player": N_("player"),
    "total": N_("total"),
    "result": N_("result"),
    "virtual": N_("in the app"),
    "rating": N_("rating after the game"),
}
"""The export's headings in the page's language, one per column of the API's file."""


def _decimal(value: float | None, *, comma: bool) -> str:
    """A rating as a spreadsheet of the page's language reads it: a decimal comma in the file
    for French Excel, whose cells are separated by semicolons; empty where there is none."""
    if value is None:
        return ""
    return str(value).replace(".", ",") if comma else str(value)
