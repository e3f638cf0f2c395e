"""Pages of a list, one convention for every list of the API: ``limit`` (at most 100) and the
``cursor`` the previous page's ``next_cursor`` gave; ``next_cursor`` is null on the last page.

A cursor is opaque to the client: the list's letter and the sort key of the last item given,
URL-safe. A page follows the item the cursor names by its key, not by its position, so an item
added or removed meanwhile neither repeats nor skips another.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from engine.problems import ProblemCode
from engine.sentences import N_
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.services.operations import invalid_request
from scorekeeper.web.http import query

Item = TypeVar("Item")
Key = tuple[int, ...]

BIGGEST = 2**63
"""No part of a key is as large: a larger one is not a cursor this server gave out."""


def encode_cursor(letter: str, key: Key) -> str:
    """The cursor after the item whose sort key is ``key`` in list ``letter``."""
    text = letter + ".".join(map(str, key))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(letter: str, cursor: str, parts: int = 1, *, below: int = BIGGEST) -> Key:
    """The key (of ``parts`` numbers, each below ``below``) a cursor of list ``letter`` names;
    422 at ``/cursor`` for any other string."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except ValueError:  # not base64 (binascii.Error), not ASCII, not UTF-8 once decoded
        raise _not_a_cursor() from None
    numbers = text.removeprefix(letter).split(".")
    if not text.startswith(letter) or len(numbers) != parts:
        raise _not_a_cursor()
    if not all(number.isascii() and number.isdigit() and int(number) < below for number in numbers):
        raise _not_a_cursor()
    return tuple(int(number) for number in numbers)


def page_of(
    items: Sequence[Item],
    *,
    letter: str,
    key: Callable[[Item], Key],
    limit: int,
    cursor: str | None,
    parts: int = 1,
) -> tuple[list[Item], str | None]:
    """The page of ``items`` (sorted by ``key``, of ``parts`` numbers) after ``cursor``, and the
    next page's cursor."""
    after = None if cursor is None else decode_cursor(letter, cursor, parts)
    rest = [item for item in items if after is None or key(item) > after]
    page = rest[:limit]
    return page, encode_cursor(letter, key(page[-1])) if len(rest) > limit else None


class HasId(Protocol):
    id: int


Identified = TypeVar("Identified", bound=HasId)


def id_page(items: Sequence[Identified], letter: str) -> tuple[list[Identified], str | None]:
    """The page the request asks for (:func:`~scorekeeper.web.http.query`'s ``limit`` and
    ``cursor``) of ``items`` sorted by id: all of them without ``limit``."""
    asked = query()
    limit = asked.get("limit") or len(items)
    return page_of(
        items, letter=letter, key=lambda item: (item.id,), limit=limit, cursor=asked.get("cursor")
    )


def _not_a_cursor() -> InvalidRequest:
    return invalid_request(
        "/cursor", ProblemCode.INVALID_FIELD, N_("The cursor is not one this server gave out.")
    )
