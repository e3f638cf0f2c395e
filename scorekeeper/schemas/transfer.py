"""The shape of a table's document (:mod:`scorekeeper.documents.export`), checked before anything in
it is believed: every field typed, no field unknown, times read as UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from marshmallow import ValidationError, fields, validate

from engine.rules import SUPPORTED_PLAYERS
from engine.sentences import N_
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.limits import COMPUTER_NAME_LIMIT, MAX_ID
from scorekeeper.schemas.fields import Name, StrictBoolean, StrictInteger, Text
from scorekeeper.schemas.loading import Said
from scorekeeper.schemas.resources import Strict


class Id(StrictInteger):
    """A row's id, as the database's integer columns hold it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=validate.Range(min=1, max=MAX_ID), **kwargs)


class Hash(fields.String):
    """A token's SHA-256, in hex (:func:`scorekeeper.domain.credentials.token_hash`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=validate.Regexp("^[0-9a-f]{64}$"), **kwargs)


class Computer(Text):
    """A computer player's technical name, or null."""

    def __init__(self) -> None:
        super().__init__(max_length=COMPUTER_NAME_LIMIT, allow_none=True, required=True)


class StoredTime(fields.Field[datetime]):
    """A time as the export writes it (ISO 8601, UTC), read back as the naive UTC the database
    keeps."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        try:
            moment = datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise ValidationError(
                Said(
                    N_("Not a time: expected ISO 8601, such as %(example)s."),
                    example="2026-11-26T09:30:00.000000Z",
                )
            ) from None
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        return moment


class TableEntry(Strict):
    id = Id(required=True)
    name = Name(required=True)
    token_hash = Hash(required=True)
    created_at = StoredTime(required=True)


class PlayerEntry(Strict):
    id = Id(required=True)
    name = Name(required=True)
    created_at = StoredTime(required=True)


class SeatEntry(Strict):
    seat = StrictInteger(required=True, validate=validate.Range(min=0, max=5))
    player = Id(required=True, allow_none=True)
    computer = Computer()
    stand_in = Computer()
    token_hash = Hash(required=True, allow_none=True)


class SideEntry(Strict):
    index = StrictInteger(required=True, validate=validate.Range(min=0, max=2))
    name = Name(required=True)
    seats = fields.List(fields.Nested(SeatEntry), required=True, validate=validate.Length(1, 2))


class KeptEntry(Strict):
    hand_count = StrictInteger(required=True, validate=validate.Range(min=0))
    totals = fields.List(StrictInteger(), required=True)
    leaders = fields.List(StrictInteger(), required=True)
    outcome = fields.String(required=True, allow_none=True)
    winner = StrictInteger(required=True, allow_none=True)


class VirtualEntry(Strict):
    seed = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=2**63 - 1))
    private_chances = StrictBoolean(required=True)


class GameEntry(Strict):
    id = Id(required=True)
    players = StrictInteger(required=True, validate=validate.OneOf(SUPPORTED_PLAYERS))
    variants = fields.Dict(keys=Text(), values=fields.Raw(), required=True)
    status = fields.String(required=True, validate=validate.OneOf([str(s) for s in GameStatus]))
    version = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_ID))
    created_at = StoredTime(required=True)
    updated_at = StoredTime(required=True)
    finished_at = StoredTime(required=True, allow_none=True)
    sides = fields.List(fields.Nested(SideEntry), required=True, validate=validate.Length(2, 3))
    kept = fields.Nested(KeptEntry, required=True)
    virtual = fields.Nested(VirtualEntry, required=True, allow_none=True)


class HandEntry(Strict):
    game = Id(required=True)
    number = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_ID))
    version = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_ID))
    created_at = StoredTime(required=True)
    updated_at = StoredTime(required=True)
    report = fields.Dict(required=True)
    breakdown = fields.Dict(required=True)


class MoveEntry(Strict):
    game = Id(required=True)
    number = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_ID))
    seat = StrictInteger(required=True, validate=validate.Range(min=0, max=5))
    move = fields.Dict(required=True)
    stand_in = Computer()
    created_at = StoredTime(required=True)


class TableDocumentSchema(Strict):
    format = fields.String(required=True)
    version = StrictInteger(required=True)
    table = fields.Nested(TableEntry, required=True)
    players = fields.List(fields.Nested(PlayerEntry), required=True)
    games = fields.List(fields.Nested(GameEntry), required=True)
    hands = fields.List(fields.Nested(HandEntry), required=True)
    moves = fields.List(fields.Nested(MoveEntry), required=True)
