"""Schemas of the season filter, the ratings and the head-to-head record."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from engine.sentences import N_
from scorekeeper.domain.limits import MAX_ID
from scorekeeper.results.season import Season, VirtualGames
from scorekeeper.schemas.loading import Said
from scorekeeper.schemas.resources import PageQuerySchema, PlayerSchema, Strict


def _virtual_games(value: str) -> None:
    if value not in {choice.value for choice in VirtualGames}:
        raise ValidationError(
            Said(N_("Not a choice for virtual games: give include, exclude or only."))
        )


class SeasonQuerySchema(Strict):
    """``from`` and ``to`` (days, both included, in UTC) and ``virtual``: a :class:`Season`."""

    start = fields.Date(data_key="from")
    end = fields.Date(data_key="to")
    virtual = fields.String(load_default=VirtualGames.INCLUDE.value, validate=_virtual_games)

    @validates_schema
    def _ends_after_it_starts(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise ValidationError(
                Said(N_("The season ends before it starts: give a day on or after from.")),
                "to",
            )

    @post_load
    def _season(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        start, end, virtual = data.pop("start", None), data.pop("end", None), data.pop("virtual")
        return {**data, "season": Season(start=start, end=end, virtual=VirtualGames(virtual))}


class SeasonPageQuerySchema(SeasonQuerySchema, PageQuerySchema):
    """A page of a season's list (the ratings)."""


class HistoryFilterSchema(SeasonQuerySchema):
    """A season's finished games, those ``player`` sat in if given."""

    player = fields.Integer(validate=validate.Range(min=1, max=MAX_ID))


class HistoryQuerySchema(HistoryFilterSchema, PageQuerySchema):
    """A page of them."""


class SeasonSchema(Schema):
    start = fields.Date(data_key="from", allow_none=True)
    end = fields.Date(data_key="to", allow_none=True)
    virtual = fields.String()


class RatingSchema(Schema):
    rank = fields.Integer()
    player_id = fields.Integer(allow_none=True)
    level = fields.String(allow_none=True)
    name = fields.String()
    rating = fields.Float()
    uncertainty = fields.Float()
    conservative = fields.Float()
    provisional = fields.Boolean()
    games = fields.Integer()
    wins = fields.Integer()
    average_hand_score = fields.Float(allow_none=True)


class RatingsSchema(Schema):
    season = fields.Nested(SeasonSchema)
    items = fields.List(fields.Nested(RatingSchema))
    next_cursor = fields.String(allow_none=True)


class OpponentsSchema(Schema):
    games = fields.Integer()
    player_wins = fields.Integer()
    other_wins = fields.Integer()
    hands = fields.Integer()
    player_average_hand_score = fields.Float(allow_none=True)
    other_average_hand_score = fields.Float(allow_none=True)


class PartnersSchema(Schema):
    games = fields.Integer()
    wins = fields.Integer()
    hands = fields.Integer()
    average_hand_score = fields.Float(allow_none=True)


class HeadToHeadSchema(Schema):
    player = fields.Nested(PlayerSchema)
    other = fields.Nested(PlayerSchema)
    season = fields.Nested(SeasonSchema)
    opponents = fields.Nested(OpponentsSchema)
    partners = fields.Nested(PartnersSchema)
