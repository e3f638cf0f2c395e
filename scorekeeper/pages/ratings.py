"""The leaderboard and a player's page: ratings, trends and head-to-head records, for a season."""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import flask_babel
from babel.numbers import get_decimal_symbol, get_group_symbol
from flask import Blueprint, render_template, request, url_for

from engine.sentences import N_
from scorekeeper.pages.access import page_table
from scorekeeper.pages.trends import trend_chart
from scorekeeper.results.head_to_head import head_to_head
from scorekeeper.results.leaderboard import Standing, board, standing
from scorekeeper.results.ratings import Entrant
from scorekeeper.results.season import Season, season_games_of_player
from scorekeeper.results.standings import player_statistics
from scorekeeper.schemas import load
from scorekeeper.schemas.ratings import SeasonQuerySchema
from scorekeeper.web.auth import table_player
from scorekeeper.web.i18n import with_minus_sign
from scorekeeper.web.words import level_name

if TYPE_CHECKING:
    from scorekeeper.storage.models import Table

bp = Blueprint("ratings", __name__)
SEASON_FIELDS = ("from", "to", "virtual")
NO_GAME = {
    "all_time": N_("No finished game yet."),
    "this_year": N_("No finished game this year."),
    "chosen": N_("No finished game in this season."),
}
"""What a page with no finished game says, in the words of the season chosen: "in this season"
would puzzle a new player who chose "All time"."""
NO_RIVAL = {
    "all_time": N_("No finished game with another player yet."),
    "this_year": N_("No finished game with another player this year."),
    "chosen": N_("No finished game with another player in this season."),
}
"""What a player's page says with no head-to-head record, in the words of the season chosen."""


@bp.app_template_filter("one_place")
def one_place(value: float) -> str:
    """A figure to one decimal place, kept even when it is 0 ("37.0", "37,0" in French), so a
    column of ratings lines up. Written with the locale's symbols around Python's own
    formatting: Babel's ``format_decimal`` took a quarter of a leaderboard's time."""
    decimal, group = _symbols(str(flask_babel.get_locale()))
    return with_minus_sign(f"{value:,.1f}".translate({ord(","): group, ord("."): decimal}))


@lru_cache(maxsize=16)
def _symbols(locale: str) -> tuple[str, str]:
    """The locale's decimal and grouping symbols."""
    return get_decimal_symbol(locale), get_group_symbol(locale)


def season_asked() -> Season:
    """The season the page's address asks for; the form's empty fields mean "no limit"."""
    asked = {key: value for key, value in request.args.items() if key in SEASON_FIELDS and value}
    season: Season = load(SeasonQuerySchema(), asked)["season"]
    return season


def season_links(season: Season) -> dict[str, Any]:
    """What the season form shows: the season asked, and the addresses of "this year" and "all
    time" in one tap (each keeping the virtual games' choice), on the page asked; and what the
    page says when the season holds no game, in the words of that choice."""
    this_year = Season.year(date.today().year, season.virtual)
    all_time = Season(virtual=season.virtual)
    here: dict[str, Any] = dict(request.view_args or {})
    endpoint = request.endpoint or ""
    period = "all_time" if season == all_time else "this_year" if season == this_year else "chosen"
    return {
        "season": season,
        "season_form": url_for(endpoint, **here),
        "this_year": (url_for(endpoint, **(here | this_year.query())), season == this_year),
        "all_time": (url_for(endpoint, **(here | all_time.query())), season == all_time),
        "no_game": NO_GAME[period],
        "no_rival": NO_RIVAL[period],
    }


@bp.get("/t/<id:table_id>/ratings")
def leaderboard(table_id: int) -> str:
    """Every player's and computer level's rating, best first, with its uncertainty."""
    table = page_table(table_id)
    season = season_asked()
    rows = board(standing(table.id, season).ledger, {p.id: p.name for p in table.players})
    for row in rows:
        if row["level"]:
            row["name"] = level_name(row["level"])
    return render_template("pages/ratings.html", table=table, rows=rows, **season_links(season))


@bp.get("/t/<id:table_id>/players/<id:player_id>")
def player_page(table_id: int, player_id: int) -> str:
    """A player's rating and statistics, their trends, and their record against each other."""
    table = page_table(table_id)
    player = table_player(table, player_id)
    season = season_asked()
    kept = standing(table.id, season)
    me = Entrant(player.id)
    return render_template(
        "pages/player.html",
        table=table,
        player=player,
        rating=kept.ledger.current.get(me),
        statistics=player_statistics(player.id, season_games_of_player(player.id, season)),
        trend=_trend(kept, me),
        rivals=_rivals(table, kept, me),
        **season_links(season),
    )


def _trend(kept: Standing, me: Entrant) -> dict[str, Any] | None:
    """The player's rating and their side's points per hand after each of their games."""
    rows: list[dict[str, Any]] = []
    for step in kept.ledger.history_of(me):
        side = step.result.side_of(me)
        assert side is not None
        hands = step.result.hand_count
        rows.append(
            {
                "game_id": step.result.game_id,
                "finished_at": step.result.finished_at,
                "rating": step.after[me].mu,
                "uncertainty": step.after[me].sigma,
                "average": round(step.result.totals[side] / hands, 1) if hands else 0.0,
            }
        )
    if not rows:
        return None
    return {
        "rows": rows,
        "rating": trend_chart([r["rating"] for r in rows], [r["uncertainty"] for r in rows]),
        "average": trend_chart([r["average"] for r in rows]),
    }


def _rivals(table: Table, kept: Standing, me: Entrant) -> list[dict[str, Any]]:
    """The head-to-head record against each player met as an opponent or a partner."""
    rivals = []
    for other in table.players:
        if other.id == me.player_id:
            continue
        record = head_to_head(kept.results, me, Entrant(other.id))
        if record.opponents.games or record.partners.games:
            rivals.append(
                {
                    "player": other,
                    "opponents": record.opponents.to_dict(),
                    "partners": record.partners.to_dict(),
                }
            )
    return rivals
