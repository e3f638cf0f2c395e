"""The season filter: which finished games a figure is drawn from.

A game belongs to the day it finished (or was abandoned), in UTC, as ``finished_at`` is stored: a
season from ``2026-01-01`` to ``2026-12-31`` takes every game finished from 2026-01-01 00:00:00
up to, not including, 2027-01-01 00:00:00, so a game finished at midnight on New Year's night
counts in the new year only. Virtual games (played in the app against or beside the computers)
may be taken with the others, left out, or taken alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement

from scorekeeper.results.queries import games_where
from scorekeeper.storage.models import Game


class VirtualGames(StrEnum):
    """What a figure does with the virtual games."""

    INCLUDE = "include"
    EXCLUDE = "exclude"
    ONLY = "only"


@dataclass(frozen=True, slots=True, kw_only=True)
class Season:
    """A range of days (either end open) and what to do with virtual games."""

    start: date | None = None
    end: date | None = None
    virtual: VirtualGames = VirtualGames.INCLUDE

    @classmethod
    def year(cls, year: int, virtual: VirtualGames = VirtualGames.INCLUDE) -> Season:
        """The calendar year ``year``: what the pages' "this year" button asks for.

        >>> Season.year(2026).to_dict()
        {'from': '2026-01-01', 'to': '2026-12-31', 'virtual': 'include'}
        """
        return cls(start=date(year, 1, 1), end=date(year, 12, 31), virtual=virtual)

    @property
    def bounded(self) -> bool:
        """Whether the season has a first or a last day."""
        return self.start is not None or self.end is not None

    def where(self) -> list[ColumnElement[bool]]:
        """The filters on :class:`Game` that keep the season's games (none for all time)."""
        filters: list[ColumnElement[bool]] = []
        if self.start is not None:
            filters.append(Game.finished_at >= datetime.combine(self.start, time()))
        if self.end is not None and self.end < date.max:  # no day after the last one
            after = datetime.combine(self.end + timedelta(days=1), time())
            filters.append(Game.finished_at < after)
        if self.virtual is VirtualGames.EXCLUDE:
            filters.append(Game.seed.is_(None))
        elif self.virtual is VirtualGames.ONLY:
            filters.append(Game.seed.is_not(None))
        return filters

    def to_dict(self) -> dict[str, Any]:
        """The wire form, the query parameters' own names and values."""
        return {
            "from": None if self.start is None else self.start.isoformat(),
            "to": None if self.end is None else self.end.isoformat(),
            "virtual": str(self.virtual),
        }

    def query(self) -> dict[str, str]:
        """The query parameters that ask for this season (the unset ones left out), for links."""
        return {key: value for key, value in self.to_dict().items() if value and value != "include"}


def season_games_of_player(player_id: int, season: Season) -> list[Game]:
    """The games ``player_id`` sat in that ``season`` counts, with their sides, seats and hands."""
    return games_where([Game.played_by(player_id), *season.where()])


def season_games_of_table(table_id: int, season: Season) -> list[Game]:
    """The table's games that ``season`` counts, with their sides, seats and hands."""
    return games_where([Game.table_id == table_id, *season.where()])
