"""Loading through a schema, with marshmallow's errors turned into the engine's problems."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from engine.problems import Problem, ProblemCode, pointer
from engine.sentences import N_, Fact, Sentence
from scorekeeper.domain.refusals import InvalidRequest


def load(schema: Schema, data: Any) -> dict[str, Any]:
    """``schema.load(data)``, raising :class:`InvalidRequest` whose problems are ``invalid_field``.

    One error shape for every refusal: a wrong type is reported exactly like an impossible claim,
    with a JSON pointer to the field.
    """
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as error:
        raise InvalidRequest(problems_from_messages(error.messages)) from None
    return loaded


def problems_from_messages(messages: Any, parts: tuple[str | int, ...] = ()) -> list[Problem]:
    """Flatten marshmallow's nested error messages into problems with JSON pointers.

    >>> [p.path for p in problems_from_messages({"sides": {1: {"distance": ["Bad."]}}})]
    ['/sides/1/distance']
    >>> [p.path for p in problems_from_messages({"variants": {"x": {"value": ["Bad."]}}})]
    ['/variants/x']
    """
    if isinstance(messages, Mapping):
        problems: list[Problem] = []
        for key, nested in messages.items():
            if key in ("key", "value") and parts:  # a dict field's key or value
                problems += problems_from_messages(nested, parts)
            elif key == "_schema":
                problems += problems_from_messages(nested, parts)
            else:
                problems += problems_from_messages(nested, (*parts, key))
        return problems
    if isinstance(messages, list):
        return [problem for item in messages for problem in problems_from_messages(item, parts)]
    return [_problem(parts, messages if isinstance(messages, str) else str(messages))]


def _problem(parts: tuple[str | int, ...], message: str) -> Problem:
    if isinstance(message, Said):
        sentence = message.sentence
    else:
        sentence = Sentence(_OWN_WORDS.get(message, message))
    return Problem(code=ProblemCode.INVALID_FIELD, path=pointer(*parts), sentence=sentence)


class Said(str):
    """A refusal of one of this app's fields: its English text, and the :class:`Sentence` that
    says it in the reader's language. A ``str`` because marshmallow passes strings through as
    they are, so the sentence reaches :func:`_problem` untouched."""

    sentence: Sentence

    def __new__(cls, template: str, **facts: Fact) -> Said:
        sentence = Sentence(template, facts)
        said = super().__new__(cls, sentence.english())
        said.sentence = sentence
        return said


_OWN_WORDS = {
    "Unknown field.": N_("Unknown field: there is no such field here."),
    "Invalid input type.": N_("Expected a JSON object."),
}
"""marshmallow's words this app says another way."""

MARSHMALLOW_WORDS = (
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Not a valid string."),
    N_("Not a valid boolean."),
    N_("Not a valid list."),
    N_("Not a valid mapping type."),
    N_("Not a valid integer."),
    N_("Not a valid datetime."),
    N_("Not a valid date."),
)
"""marshmallow's own refusals that name no value, marked so the catalogs translate them."""
