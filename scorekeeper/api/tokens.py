"""A table's issued tokens: a read token for a wall screen, a spectator or a stats bot, a record
token for a bot that records the club's hands; listed, issued (the token shown once) and revoked
by the table's own token only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Response, url_for

from scorekeeper.domain.credentials import Scope
from scorekeeper.results import queries
from scorekeeper.schemas.resources import PageQuerySchema, TokenCreateSchema, TokenSchema
from scorekeeper.services import operations
from scorekeeper.web.auth import authorized_table, issued_token
from scorekeeper.web.http import json_body, no_content, queried, respond
from scorekeeper.web.paging import id_page

if TYPE_CHECKING:
    from scorekeeper.storage.models import AccessToken

bp = Blueprint("tokens", __name__)
token_schema = TokenSchema()


def token_url(table_id: int, token_id: int) -> str:
    return url_for("api.tokens.read_token", table_id=table_id, token_id=token_id)


@bp.get("/tables/<id:table_id>/tokens")
@queried(PageQuerySchema())
def list_tokens(table_id: int) -> Response:
    """The tokens issued for the table, oldest first (never their secret)."""
    table = authorized_table(table_id, Scope.OWNER)
    page, next_cursor = id_page(queries.issued_tokens(table.id), "t")
    return respond({"items": token_schema.dump(page, many=True), "next_cursor": next_cursor})


@bp.post("/tables/<id:table_id>/tokens")
def issue_token(table_id: int) -> Response:
    """Issue a token with a name and a scope; the answer carries it, shown this once only."""
    table = authorized_table(table_id, Scope.OWNER)
    issued, token = operations.issue_token(table, **json_body(TokenCreateSchema()))
    response = respond(
        {**_view(issued), "token": token}, 201, location=token_url(table_id, issued.id)
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<id:table_id>/tokens/<id:token_id>")
def read_token(table_id: int, token_id: int) -> Response:
    """One issued token (never its secret)."""
    table = authorized_table(table_id, Scope.OWNER)
    return respond(_view(issued_token(table, token_id)))


@bp.delete("/tables/<id:table_id>/tokens/<id:token_id>")
def revoke_token(table_id: int, token_id: int) -> Response:
    """Revoke an issued token: it stops working at once (401)."""
    table = authorized_table(table_id, Scope.OWNER)
    operations.revoke_token(issued_token(table, token_id))
    return no_content()


def _view(issued: AccessToken) -> dict[str, object]:
    view: dict[str, object] = token_schema.dump(issued)
    return view
