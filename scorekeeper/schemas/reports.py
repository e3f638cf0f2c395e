"""The v1 hand report and score sheet, as they arrive.

These schemas guard the JSON shape and types only; what the rules say about the content
(a safety name, a variant, a shutout claim) is the engine's to judge, so its refusal codes
(RULES.md §11) stay the same through every interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    validate,
    validates,
    validates_schema,
)

from scorekeeper.names import first_repeat
from scorekeeper.schemas.fields import (
    Distance,
    ExtensionCaller,
    Name,
    StrictBoolean,
    StrictInteger,
    Text,
)

SHORT_LIST = validate.Length(max=16)


class SideReportSchema(Schema):
    """One side's facts at the end of a hand."""

    class Meta:
        unknown = RAISE

    name = Name(blank=True)  # blank: the side takes its default name
    distance = Distance(required=True)
    two_hundreds = StrictInteger(allow_none=True)
    safeties = fields.List(Text(), validate=SHORT_LIST)
    coup_fourres = fields.List(Text(), validate=SHORT_LIST)
    completed_trip = StrictBoolean()
    delayed_action = StrictBoolean()
    claims = fields.List(Text(), validate=SHORT_LIST)


class HandSchema(Schema):
    """A hand as it appears in a score sheet: the sheet gives the players and the variants."""

    class Meta:
        unknown = RAISE

    target = StrictInteger(allow_none=True)
    extension_called_by = ExtensionCaller(allow_none=True)
    sides = fields.List(fields.Nested(SideReportSchema), required=True, validate=SHORT_LIST)

    @validates_schema
    def _distinct_names(self, data: dict[str, Any], **_: Any) -> None:
        same = same_name_problem([side.get("name", "") for side in data.get("sides", [])])
        if same:
            raise ValidationError({"sides": {same[0]: {"name": [same[1]]}}})


class HandReportSchema(HandSchema):
    """A standalone v1 hand report."""

    players = StrictInteger(required=True)
    variants = fields.Dict(keys=Text(), values=fields.Raw())


def same_name_problem(names: Sequence[str]) -> tuple[int, str] | None:
    """The first name in ``names`` that reads as an earlier one (blank names aside), with why."""
    repeat = first_repeat(names)
    if repeat is None:
        return None
    index, first = repeat
    return index, (
        f"Not a valid name: it reads as the same name as side {first} "
        f"({names[first]!r}), so the scores would be ambiguous."
    )


class ScoreSheetSchema(Schema):
    """A whole game on paper: the rules, the side names, and the hands in order."""

    class Meta:
        unknown = RAISE

    players = StrictInteger(required=True)
    variants = fields.Dict(keys=Text(), values=fields.Raw())
    sides = fields.List(Name(), validate=SHORT_LIST)
    hands = fields.List(fields.Nested(HandSchema), validate=validate.Length(max=500))

    @validates("sides")
    def _distinct_names(self, names: list[str], **_: Any) -> None:
        same = same_name_problem(names)
        if same:
            raise ValidationError({same[0]: [same[1]]})


class SideScoreSchema(Schema):
    """One side's breakdown of a hand, as stored and as answered."""

    name = fields.String()
    distance = fields.Integer()
    safeties = fields.Integer()
    all_safeties = fields.Integer()
    coup_fourres = fields.Integer()
    trip = fields.Integer()
    delayed_action = fields.Integer()
    safe_trip = fields.Integer()
    extension = fields.Integer()
    shutout = fields.Integer()
    total = fields.Integer()
