"""Ratings and head-to-head records of a table's players, for a season."""

from __future__ import annotations

from flask import Blueprint, Response

from engine.problems import Problem, ProblemCode
from engine.sentences import N_, Sentence
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.results.head_to_head import head_to_head
from scorekeeper.results.leaderboard import board, standing
from scorekeeper.results.ratings import Entrant
from scorekeeper.results.season import Season
from scorekeeper.schemas.ratings import (
    HeadToHeadSchema,
    RatingsSchema,
    SeasonPageQuerySchema,
    SeasonQuerySchema,
)
from scorekeeper.web.auth import authorized_table, table_player
from scorekeeper.web.http import queried, query, respond
from scorekeeper.web.paging import page_of
from scorekeeper.web.words import board_in_language

bp = Blueprint("ratings", __name__)


def season_asked() -> Season:
    """The season the query string asks for (all time by default)."""
    season: Season = query()["season"]
    return season


@bp.get("/tables/<id:table_id>/ratings")
@queried(SeasonPageQuerySchema())
def ratings(table_id: int) -> Response:
    """Every player's and computer level's rating over the season's finished games, best first
    (a page at a time with ``limit``)."""
    table = authorized_table(table_id)
    season = season_asked()
    names = {player.id: player.name for player in table.players}
    rows = board_in_language(board(standing(table.id, season).ledger, names))
    asked = query()
    page, next_cursor = page_of(
        rows,
        letter="r",
        key=lambda row: (row["rank"],),
        limit=asked.get("limit") or len(rows),
        cursor=asked.get("cursor"),
    )
    body = {"season": season, "items": page, "next_cursor": next_cursor}
    return respond(RatingsSchema().dump(body))


@bp.get("/tables/<id:table_id>/players/<id:player_id>/head-to-head/<id:other_id>")
@queried(SeasonQuerySchema())
def head_to_head_record(table_id: int, player_id: int, other_id: int) -> Response:
    """Two players' games as opponents (wins each, points per hand) and as partners."""
    table = authorized_table(table_id)
    player, other = table_player(table, player_id), table_player(table, other_id)
    if player.id == other.id:
        sentence = Sentence(N_("A head-to-head needs two different players."))
        problem = Problem(code=ProblemCode.INVALID_FIELD, path="/other_id", sentence=sentence)
        raise InvalidRequest([problem])
    season = season_asked()
    record = head_to_head(standing(table.id, season).results, Entrant(player.id), Entrant(other.id))
    body = {
        "player": player,
        "other": other,
        "season": season,
        "opponents": record.opponents.to_dict(),
        "partners": record.partners.to_dict(),
    }
    return respond(HeadToHeadSchema().dump(body))
