"""Where a stored game stands, and what its sides are: words the storage, the documents, the
schemas and the pages all use, so they live below every one of them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Literal


class GameStatus(StrEnum):
    """Where a stored game stands."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"


SideKind = Literal["side", "player", "team"]
"""What an unnamed side is called after: a report's side, a sheet's player or a sheet's team."""


def hand_etag(number: int, own: str, totals_after: Sequence[int]) -> str:
    """The entity tag of hand ``number``: what the hand itself is (``own``: its row, its version
    and when it was entered, so a hand undone and entered again never gets an old tag back) and
    the running totals after it, the only thing its answer shows of the hands before it. A hand
    added or corrected after it leaves its tag as it was; one corrected before it changes it
    only if the totals moved."""
    totals = hashlib.sha1(",".join(map(str, totals_after)).encode()).hexdigest()[:6]
    return f"hand-{number}-{own}-{totals}"


def hand_itself(number: int, own: str) -> str:
    """The part of hand ``number``'s tags that names the hand itself: a tag read that has it
    but is not current was read before a hand before it changed."""
    return f"hand-{number}-{own}-"


def hand_identity(row_id: int, version: int, entered: datetime) -> str:
    """What a hand's tag says of the hand itself, in 10 characters."""
    return hashlib.sha1(f"{row_id}/{version}/{entered.isoformat()}".encode()).hexdigest()[:10]


def table_etag(table_id: int, events: int) -> str:
    """The entity tag of table ``table_id`` after ``events`` events of its feed: every change
    to its players, games, hands, moves and tokens is an event, so a phone that confirms
    deleting the table with this tag has seen the table as it is."""
    return f"table-{table_id}-e{events}"


def game_etag(game_id: int, version: int) -> str:
    """The entity tag of version ``version`` of game ``game_id``: a poll holding it is answered
    from the version alone, without reading the game."""
    return f"game-{game_id}-v{version}"
