"""Fields that take JSON's types at their word: a phone that sends ``"1"`` or ``true`` for a count
gets told so, instead of having it quietly read as a number."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC
from typing import Any

from marshmallow import ValidationError, fields, validate

from engine.cards import DISTANCE_VALUES
from engine.sentences import N_
from scorekeeper.domain.levels import ACCEPTED, level_named
from scorekeeper.names import NAME_LIMIT, name_problem, normal_name
from scorekeeper.schemas.loading import Said

LIMIT = 10**9
"""No count, distance or index at a card table comes near a billion; beyond it a number is junk."""


def is_number(value: Any) -> bool:
    """A JSON integer within ±LIMIT (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and -LIMIT <= value <= LIMIT


class StrictInteger(fields.Integer):
    """A JSON integer within ±LIMIT, and nothing else (not a boolean, a float, a numeric string)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if not is_number(value):
            raise ValidationError(not_an_integer())
        return super()._deserialize(value, attr, data, **kwargs)


def not_an_integer() -> Said:
    return Said(N_("Not a valid integer (a whole number within ±%(limit)s)."), limit=LIMIT)


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false``, and nothing else."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Distance(fields.Field[int | dict[str, int]]):
    """A side's distance: a total in km, or the count of cards of each face value.

    The contract allows both because tables keep score both ways: some count their stacks by
    value (which lets the deck limits be checked), others only add the piles up.
    """

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> int | dict[str, int]:
        if is_number(value):
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            raise ValidationError(not_an_integer())  # a whole number, beyond any table's
        if not isinstance(value, Mapping):
            raise ValidationError(
                Said(
                    N_(
                        "Not a valid distance: give a whole number of km, or an object counting "
                        'cards by face value, such as {"100": 3, "200": 1}.'
                    )
                )
            )
        errors: dict[str, list[str]] = {}
        for key, count in value.items():
            if key not in {str(km) for km in DISTANCE_VALUES}:
                errors[key] = [Said(N_("Not a distance card value: use 25, 50, 75, 100 or 200."))]
            elif not is_number(count):
                errors[key] = [not_an_integer()]
        if errors:
            raise ValidationError(errors)
        return dict(value)


class ExtensionCaller(fields.Field[int | list[int]]):
    """The index of the side that called the extension; a list if a table names several."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> int | list[int]:
        if is_number(value):
            return int(value)
        if isinstance(value, list) and value and all(is_number(item) for item in value):
            return list(value)
        raise ValidationError(
            Said(N_("Not a valid side index: give the index of the side that called, or null."))
        )


class UtcDateTime(fields.DateTime):
    """A stored UTC time (kept without a zone) answered with its ``+00:00`` offset."""

    def _serialize(
        self, value: Any, attr: str | None, obj: Any, **kwargs: Any
    ) -> str | float | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return super()._serialize(value, attr, obj, **kwargs)


class Text(fields.String):
    """Text a person typed: valid Unicode without control characters, and, unless ``blank``,
    not only spaces. Stored as given (never trimmed or rewritten); escaped wherever shown."""

    def __init__(self, *, max_length: int = NAME_LIMIT, blank: bool = False, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(min=0 if blank else 1), **kwargs)
        self.blank = blank
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > self.max_length:  # as sent: the contract's maxLength, before any trimming
            raise ValidationError(
                Said(N_("Too long: at most %(most)s characters."), most=self.max_length)
            )
        for character in text:
            if ord(character) < 32 or ord(character) == 127:
                raise ValidationError(
                    Said(
                        N_("Not valid text: it has a control character (%(code)s)."),
                        code=f"U+{ord(character):04X}",
                    )
                )
            if 0xD800 <= ord(character) <= 0xDFFF:
                raise ValidationError(
                    Said(
                        N_("Not valid text: it has an unpaired surrogate (%(code)s)."),
                        code=f"U+{ord(character):04X}",
                    )
                )
        if text and not self.blank and not text.strip():
            raise ValidationError(Said(N_("Not valid text: it is only spaces.")))
        return text


class Name(Text):
    """A name of a table, a player or a side (see :mod:`scorekeeper.names`): stored in NFC
    without outer spaces, refused if it has a character that does not show as itself."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if text.strip() or not self.blank:
            problem = name_problem(text)  # before trimming: a trailing U+2028 is refused too
            if problem:
                raise ValidationError(Said(problem.template, **problem.facts))
        return normal_name(text)


class ComputerLevel(fields.String):
    """A computer seat's player, by its level (``club``) or its technical name (``strong``):
    loaded as the technical name, which is what a seat stores
    (:mod:`scorekeeper.domain.levels`)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = super()._deserialize(value, attr, data, **kwargs)
        level = level_named(name)
        if level is None:
            raise ValidationError(
                Said(
                    N_("There is no such computer level: choose one of %(known)s."),
                    known=", ".join(ACCEPTED),
                )
            )
        return level.computer
