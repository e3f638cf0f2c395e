"""Loading through a schema, with marshmallow's errors turned into the engine's problems."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from engine.problems import Problem, ProblemCode, pointer
from scorekeeper.problems import InvalidRequest


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
    if isinstance(messages, list) and all(isinstance(item, str) for item in messages):
        return [_problem(parts, " ".join(messages))]
    if isinstance(messages, list):
        return [problem for item in messages for problem in problems_from_messages(item, parts)]
    return [_problem(parts, str(messages))]


def _problem(parts: tuple[str | int, ...], message: str) -> Problem:
    where = pointer(*parts) or "the request body"
    if message == "Unknown field.":
        message = "Unknown field: there is no such field here."
    elif message == "Invalid input type.":
        message = "Expected a JSON object."
    return Problem(
        code=ProblemCode.INVALID_FIELD, path=pointer(*parts), detail=f"{where}: {message}"
    )
