"""Players of a table: create, list, rename, erase, and read with their statistics."""

from __future__ import annotations

from flask import Blueprint, Response, url_for

from scorekeeper.domain.credentials import Scope
from scorekeeper.results.season import Season, season_games_of_player
from scorekeeper.results.standings import player_statistics
from scorekeeper.schemas.ratings import SeasonQuerySchema
from scorekeeper.schemas.resources import (
    PageQuerySchema,
    PlayerCreateSchema,
    PlayerSchema,
    PlayerWithStatisticsSchema,
)
from scorekeeper.services import forgetting, operations
from scorekeeper.web.auth import authorized_table, table_player
from scorekeeper.web.http import json_body, queried, query, respond
from scorekeeper.web.paging import id_page

bp = Blueprint("players", __name__)
player_schema = PlayerSchema()


@bp.post("/tables/<id:table_id>/players")
def create_player(table_id: int) -> Response:
    """Add a player to the table (names are unique within a table)."""
    player = operations.create_player(authorized_table(table_id), **json_body(PlayerCreateSchema()))
    location = url_for("api.players.read_player", table_id=table_id, player_id=player.id)
    return respond(player_schema.dump(player), 201, location=location)


@bp.get("/tables/<id:table_id>/players")
@queried(PageQuerySchema())
def list_players(table_id: int) -> Response:
    """The table's players, in the order they joined (a page at a time with ``limit``)."""
    table = authorized_table(table_id)
    page, next_cursor = id_page(table.players, "p")
    return respond({"items": player_schema.dump(page, many=True), "next_cursor": next_cursor})


@bp.get("/tables/<id:table_id>/players/<id:player_id>")
@queried(SeasonQuerySchema())
def read_player(table_id: int, player_id: int) -> Response:
    """A player with their statistics over the games they played at this table: every game, or
    a season's (``from``, ``to``, ``virtual``; a season counts the games that ended in it)."""
    player = table_player(authorized_table(table_id), player_id)
    season: Season = query()["season"]
    statistics = player_statistics(player.id, season_games_of_player(player.id, season))
    body = {
        "id": player.id,
        "name": player.name,
        "created_at": player.created_at,
        "statistics": statistics.to_dict(),
    }
    return respond(PlayerWithStatisticsSchema().dump(body))


@bp.patch("/tables/<id:table_id>/players/<id:player_id>")
def rename_player(table_id: int, player_id: int) -> Response:
    """Rename a player."""
    player = table_player(authorized_table(table_id), player_id)
    operations.rename_player(player, **json_body(PlayerCreateSchema()))
    return respond(player_schema.dump(player))


@bp.post("/tables/<id:table_id>/players/<id:player_id>/erase")
def erase_player(table_id: int, player_id: int) -> Response:
    """Erase a player's name, with the table's own token: the player keeps their games and
    scores under a neutral name ("Erased player 2"), and the old name is gone from everything
    the table stored. Not a ``DELETE``: the player, and every game they played, stay."""
    player = table_player(authorized_table(table_id, Scope.OWNER), player_id)
    return respond(player_schema.dump(forgetting.erase_player(player)))
