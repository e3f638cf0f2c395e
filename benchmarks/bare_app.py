"""The bare reference the API is measured against: Flask, Flask-SQLAlchemy and marshmallow doing
a hand POST's and a game GET's database work, and nothing else.

It reads and writes the project's own tables (``tables``, ``games``, ``hands``) on the same
database with the same connection settings (importing :mod:`scorekeeper.storage.extensions`
registers them: SQLite in WAL with ``synchronous=FULL``, foreign keys and a busy timeout;
PostgreSQL as configured by ``DATABASE_URL``), so the two apps differ only in what the project does
on top: no rules engine, no idempotency record, no totals, no problem+json. It still checks the
bearer token in the same query as the game, as any endpoint of a shared service would.

- ``GET /games/<id>``: the game and its hands, dumped with an ETag; ``If-None-Match`` with the
  current ETag is answered 304 from the game row alone.
- ``POST /games/<id>/hands``: load the hand with a schema, bump the game's version (one
  ``UPDATE ... RETURNING``, which also takes the write lock), insert the hand, commit, dump it:
  201.

Serve it with ``gunicorn 'benchmarks.bare_app:create_app()'`` from the top of the repository;
``benchmarks/api_vs_bare.py`` does.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from marshmallow import EXCLUDE, Schema, fields
from sqlalchemy import JSON, ForeignKey, String, func, insert, select, update
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from werkzeug.exceptions import BadRequest, NotFound

from scorekeeper.config import database_url
from scorekeeper.storage import extensions  # noqa: F401  (the project's connection settings)


class Base(DeclarativeBase):
    """The reference's own mapping of the project's tables: only the columns it uses."""


db = SQLAlchemy(model_class=Base)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Table(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))


class Game(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    players: Mapped[int]
    variants: Mapped[dict[str, str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    hands: Mapped[list[Hand]] = relationship(order_by="Hand.number")


class Hand(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "hands"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int]
    report: Mapped[dict[str, Any]] = mapped_column(JSON)
    breakdown: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    version: Mapped[int]


class SideEntrySchema(Schema):
    class Meta:
        unknown = EXCLUDE

    distance = fields.Raw(required=True)
    two_hundreds = fields.Integer()
    safeties = fields.List(fields.String())
    coup_fourres = fields.List(fields.String())
    completed_trip = fields.Boolean()
    delayed_action = fields.Boolean()
    claims = fields.List(fields.String())


class HandEntrySchema(Schema):
    sides = fields.List(fields.Nested(SideEntrySchema), required=True)
    extension_called_by = fields.Integer(allow_none=True)


class HandSchema(Schema):
    number = fields.Integer()
    version = fields.Integer()
    report = fields.Raw()
    breakdown = fields.Raw()
    created_at = fields.DateTime()
    updated_at = fields.DateTime()


class GameSchema(Schema):
    id = fields.Integer()
    players = fields.Integer()
    variants = fields.Dict(keys=fields.String(), values=fields.String())
    status = fields.String()
    version = fields.Integer()
    hands = fields.List(fields.Nested(HandSchema))
    created_at = fields.DateTime()
    updated_at = fields.DateTime()


entry_schema = HandEntrySchema()
hand_schema = HandSchema()
game_schema = GameSchema()


def _token_hash() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return hashlib.sha256(token.strip().encode()).hexdigest()


def _owned(game_id: int, *columns: Any) -> Any:
    """``columns`` of the game, if the request's token opens its table: one query for both."""
    return (
        select(*columns)
        .select_from(Game)
        .join(Table, Table.id == Game.table_id)
        .where(Game.id == game_id, Table.token_hash == _token_hash())
    )


def _etag(game_id: int, version: int) -> str:
    return f"game-{game_id}-v{version}"


def create_app() -> Flask:
    """The reference app on ``DATABASE_URL`` (the project's tables, migrated before)."""
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(os.getcwd())
    db.init_app(app)

    @app.get("/games/<int:game_id>")
    def read_game(game_id: int) -> Response:
        if request.if_none_match:  # a poll: the version alone decides
            version = db.session.execute(_owned(game_id, Game.version)).scalar_one_or_none()
            if version is None:
                raise NotFound()
            if request.if_none_match.contains(_etag(game_id, version)):
                response = Response(status=304)
                response.set_etag(_etag(game_id, version))
                return response
        game = db.session.execute(_owned(game_id, Game)).scalar_one_or_none()
        if game is None:
            raise NotFound()
        response = jsonify(game_schema.dump(game))  # the hands: one more query
        response.set_etag(_etag(game_id, game.version))
        return response

    @app.post("/games/<int:game_id>/hands")
    def add_hand(game_id: int) -> Response:
        body = request.get_json()
        if not isinstance(body, dict):
            raise BadRequest()
        document = entry_schema.load(body)
        # The write first, the token checked inside it: a read before it would let SQLite fail
        # the transaction's upgrade to a write when another worker wrote in between.
        owner = select(Table.id).where(Table.token_hash == _token_hash())
        version = db.session.execute(
            update(Game)
            .where(Game.id == game_id, Game.table_id.in_(owner.scalar_subquery()))
            .values(version=Game.version + 1, updated_at=_now())
            .returning(Game.version)
        ).scalar_one_or_none()
        if version is None:
            raise NotFound()
        number = (
            select(func.coalesce(func.max(Hand.number), 0) + 1)
            .where(Hand.game_id == game_id)
            .scalar_subquery()
        )
        now = _now()
        hand = db.session.execute(
            insert(Hand)
            .values(
                game_id=game_id,
                number=number,
                report=document,
                breakdown={},
                created_at=now,
                updated_at=now,
                version=1,
            )
            .returning(Hand)
        ).scalar_one()
        body = hand_schema.dump(hand)
        etag = f"hand-{hand.id}-v1-g{version}"
        db.session.commit()
        response = jsonify(body)
        response.status_code = 201
        response.set_etag(etag)
        return response

    return app
