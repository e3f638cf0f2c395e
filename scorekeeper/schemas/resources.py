"""Schemas of the stored resources: tables, players, games and hands, in and out."""

from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from engine.cards import Card
from engine.rules import SUPPORTED_PLAYERS
from scorekeeper.domain.credentials import ISSUED_SCOPES
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.limits import MAX_ID
from scorekeeper.schemas.fields import ComputerLevel, Name, StrictInteger, Text, UtcDateTime
from scorekeeper.schemas.reports import HandSchema

MAX_PAGE = 100


class Strict(Schema):
    """Refuses unknown fields: a typo in a field name is an error, not silently ignored."""

    class Meta:
        unknown = RAISE


# -- requests ------------------------------------------------------------------------------------


class TableCreateSchema(Strict):
    name = Name(required=True)


class PlayerCreateSchema(Strict):
    name = Name(required=True)


class TokenCreateSchema(Strict):
    name = Name(required=True)
    scope = fields.String(required=True, validate=validate.OneOf([s.value for s in ISSUED_SCOPES]))


class GameSideSchema(Strict):
    name = Name()
    players = fields.List(StrictInteger(), required=True, validate=validate.Length(min=1, max=2))


class GameCreateSchema(Strict):
    players = StrictInteger(required=True, validate=validate.OneOf(SUPPORTED_PLAYERS))
    variants = fields.Dict(keys=Text(), values=fields.Raw())
    sides = fields.List(
        fields.Nested(GameSideSchema), required=True, validate=validate.Length(min=2, max=3)
    )


class VirtualSeatSchema(Strict):
    player = StrictInteger(validate=validate.Range(min=1, max=MAX_ID))
    computer = ComputerLevel()


class VirtualGameCreateSchema(Strict):
    players = StrictInteger(required=True, validate=validate.OneOf(SUPPORTED_PLAYERS))
    variants = fields.Dict(keys=Text(), values=fields.Raw())
    seats = fields.List(
        fields.Nested(VirtualSeatSchema), required=True, validate=validate.Length(min=2, max=6)
    )


class StandInSchema(Strict):
    """The computer that plays a player's seat while the player is away."""

    computer = ComputerLevel(required=True)


class MoveSchema(Strict):
    """A move of a virtual game, numbered: the number the phone read as next."""

    number = StrictInteger(required=True, validate=validate.Range(min=0))
    move = fields.String(
        required=True,
        validate=validate.OneOf(
            ["play", "discard", "coup_fourre", "pass", "call_extension", "decline_extension"]
        ),
    )
    card = fields.String(validate=validate.OneOf([card.value for card in Card]))
    target = StrictInteger(validate=validate.Range(min=0, max=2))


class VirtualQuerySchema(Strict):
    since = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_ID))


class PageQuerySchema(Strict):
    """A page of a list: at most ``limit`` items (every item without it, on the lists that gave
    them all before pages came), after the item ``cursor`` names."""

    cursor = fields.String(validate=validate.Length(max=80))
    limit = fields.Integer(validate=validate.Range(min=1, max=MAX_PAGE))


class EventQuerySchema(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_ID))
    limit = fields.Integer(load_default=MAX_PAGE, validate=validate.Range(min=1, max=MAX_PAGE))


class GameQuerySchema(Strict):
    player = fields.Integer(validate=validate.Range(min=1, max=MAX_ID))
    status = fields.String(validate=validate.OneOf([s.value for s in GameStatus]))
    since = fields.DateTime(data_key="from")
    until = fields.DateTime(data_key="to")
    cursor = fields.String(validate=validate.Length(max=40))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=MAX_PAGE))


class HandEntrySchema(HandSchema):
    """A hand entered into a game: the game gives the players, the variants and the side names."""


class NewHandSchema(HandEntrySchema):
    """A new hand of a game; ``number``, if given, is the hand it must be (409 otherwise)."""

    number = StrictInteger(validate=validate.Range(min=1, max=MAX_ID))


# -- responses -----------------------------------------------------------------------------------


class TableSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    created_at = UtcDateTime()
    players = fields.Integer(attribute="player_count")
    games = fields.Integer(attribute="game_count")


class TokenSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    scope = fields.String()
    created_at = UtcDateTime()


class EventSchema(Schema):
    id = fields.Integer(attribute="number")
    kind = fields.String()
    at = UtcDateTime(attribute="created_at")
    game = fields.Integer(attribute="game_id", allow_none=True)
    hand = fields.Integer(allow_none=True)
    move = fields.Integer(allow_none=True)
    seat = fields.Integer(allow_none=True)
    player = fields.Integer(attribute="player_id", allow_none=True)
    token = fields.Integer(attribute="token_id", allow_none=True)


class EventPageSchema(Schema):
    items = fields.List(fields.Nested(EventSchema))
    last = fields.Integer()
    more = fields.Boolean()


class PlayerSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    created_at = UtcDateTime()


class PlayerStatisticsSchema(Schema):
    games_played = fields.Integer()
    games_finished = fields.Integer()
    games_won = fields.Integer()
    win_rate = fields.Float(allow_none=True)
    hands_played = fields.Integer()
    average_hand_score = fields.Float(allow_none=True)
    coup_fourres = fields.Integer()
    shutouts = fields.Integer()
    best_hand = fields.Integer(allow_none=True)


class PlayerWithStatisticsSchema(PlayerSchema):
    statistics = fields.Nested(PlayerStatisticsSchema)


class SeatSchema(Schema):
    seat = fields.Integer()
    player_id = fields.Integer(allow_none=True)
    computer = fields.String(allow_none=True)
    level = fields.String(allow_none=True)
    name = fields.String()


class GameSideOutSchema(Schema):
    index = fields.Integer()
    name = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    total = fields.Integer()


class HandOutSchema(Schema):
    number = fields.Integer()
    version = fields.Integer()
    report = fields.Raw()  # as entered: it passed HandEntrySchema when it was stored
    target = fields.Integer()
    sides = fields.Raw()  # the engine's breakdown, already in SideScoreSchema's shape
    totals = fields.List(fields.Integer())
    created_at = UtcDateTime()
    updated_at = UtcDateTime()


class GameSchema(Schema):
    id = fields.Integer()
    players = fields.Integer()
    virtual = fields.Boolean()
    variants = fields.Dict(keys=fields.String(), values=fields.String())
    status = fields.String()
    outcome = fields.String(allow_none=True)
    version = fields.Integer()
    sides = fields.List(fields.Nested(GameSideOutSchema))
    totals = fields.List(fields.Integer())
    leaders = fields.List(fields.Integer())
    winner = fields.Integer(allow_none=True)
    hands = fields.List(fields.Nested(HandOutSchema))
    created_at = UtcDateTime()
    updated_at = UtcDateTime()
    finished_at = UtcDateTime(allow_none=True)


class GameSummarySchema(GameSchema):
    class Meta:
        exclude = ("hands",)


class GamePageSchema(Schema):
    items = fields.List(fields.Nested(GameSummarySchema))
    next_cursor = fields.String(allow_none=True)


class HistoryRowSchema(Schema):
    game_id = fields.Integer()
    finished_at = UtcDateTime()
    players = fields.Integer()
    hands = fields.Integer()
    side = fields.Integer()
    side_name = fields.String()
    player_id = fields.Integer(allow_none=True)
    player = fields.String()
    total = fields.Integer()
    result = fields.String()
    virtual = fields.Boolean()
    rating = fields.Float(allow_none=True)
