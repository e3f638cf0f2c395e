"""Tables: the group that owns players and games, its bearer token, and deleting it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, url_for
from werkzeug.exceptions import Conflict

from scorekeeper.documents import export
from scorekeeper.domain.credentials import Scope
from scorekeeper.results.queries import virtual_game_in_progress
from scorekeeper.schemas.resources import TableCreateSchema, TableSchema
from scorekeeper.services import forgetting, operations
from scorekeeper.web.auth import authorized_table
from scorekeeper.web.http import json_body, no_content, respond, versions_read
from scorekeeper.web.i18n import gettext

if TYPE_CHECKING:
    from scorekeeper.storage.models import Table

bp = Blueprint("tables", __name__)
table_schema = TableSchema()


def table_view(table: Table) -> dict[str, object]:
    view: dict[str, object] = table_schema.dump(
        {
            "id": table.id,
            "name": table.name,
            "created_at": table.created_at,
            "player_count": len(table.players),
            "game_count": operations.game_count(table),
        }
    )
    return view


@bp.post("/tables")
def create_table() -> Response:
    """Create a table; the answer carries its token, shown this once only."""
    table, token = operations.create_table(**json_body(TableCreateSchema()))
    location = url_for("api.tables.read_table", table_id=table.id)
    return respond({**table_view(table), "token": token}, 201, location=location)


@bp.get("/tables/<id:table_id>")
def read_table(table_id: int) -> Response:
    """A table with the number of its players and games; its ETag changes with every event of
    its feed, and is what deleting it asks for."""
    table = authorized_table(table_id)
    return respond(table_view(table), etag=table.etag)


@bp.delete("/tables/<id:table_id>")
def delete_table(table_id: int) -> Response:
    """Delete the table and everything in it, with the table's own token and its current ETag
    in ``If-Match`` (428 without, 412 when the table changed since it was read)."""
    forgetting.delete_table(authorized_table(table_id, Scope.OWNER), versions_read())
    return no_content()


@bp.get("/tables/<id:table_id>/export")
def export_table(table_id: int) -> Response:
    """The table as one document (``scorekeeper import`` reads it), once none of its virtual
    games is in progress: their seeds would tell every hand still to be played."""
    table = authorized_table(table_id)
    playing = virtual_game_in_progress(table.id)
    if playing is not None:
        raise Conflict(
            gettext(
                "Virtual game %(game)s is in progress: the export holds each virtual game's "
                "seed, which tells every hand, so it is given once they have all ended.",
                game=playing,
            )
        )
    return respond(export.export_table(table))


@bp.post("/tables/<id:table_id>/token")
def rotate_token(table_id: int) -> Response:
    """Replace the table's token: the old one stops working at once."""
    token = operations.rotate_token(authorized_table(table_id, Scope.OWNER))
    return respond({"token": token})
