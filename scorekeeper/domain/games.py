"""Where a stored game stands, and what its sides are: words the storage, the documents, the
schemas and the pages all use, so they live below every one of them."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class GameStatus(StrEnum):
    """Where a stored game stands."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"


SideKind = Literal["side", "player", "team"]
"""What an unnamed side is called after: a report's side, a sheet's player or a sheet's team."""


def game_etag(game_id: int, version: int) -> str:
    """The entity tag of version ``version`` of game ``game_id``: a poll holding it is answered
    from the version alone, without reading the game."""
    return f"game-{game_id}-v{version}"
