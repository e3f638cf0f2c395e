"""A table's ratings for a season, replayed from its finished games and kept in memory.

Nothing about ratings is stored: they are a pure function of the finished games in the order
they finished (:mod:`scorekeeper.results.ratings`), so a correction, an undo or an abandoned game
changes them by changing the history, and no migration is needed. Replaying 2,000 games takes
about a second on a small machine, so each process keeps the last ledgers it computed, each with the
``(game id, version)`` of the games it rated. A request reads only those pairs (one narrow query);
where they are unchanged the kept ledger answers; where only later games changed (a new game
finished, the last one corrected) the games after the common prefix are loaded and rated again
onto the kept prefix. A replay from scratch gives the same floats as this, which the tests check.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import groupby
from typing import Any

from sqlalchemy import func, select

from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.levels import level_key, level_named
from scorekeeper.results.ratings import Entrant, Ledger, Result, replay
from scorekeeper.results.season import Season
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Seat, Side

KEPT_LEDGERS = 64
"""How many (table, season) ledgers a process keeps: a few seasons of a few busy tables."""

GameKey = tuple[int, int, datetime]
"""A game's id, version and last change: a game whose version moved on must be rated again (the
time tells apart two databases that reuse ids and versions, as a test's emptied one does)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A season's finished games in the order they finished, and the ratings after them."""

    keys: tuple[GameKey, ...]
    results: tuple[Result, ...]
    ledger: Ledger
    fingerprint: tuple[Any, ...] = ()


_kept: OrderedDict[tuple[str, int, Season], Standing] = OrderedDict()
_lock = threading.Lock()


def standing(table_id: int, season: Season) -> Standing:
    """The ratings of table ``table_id`` over ``season``, from the kept ledger where it holds.

    One aggregate row tells whether anything changed (:func:`fingerprint`); only then are the
    games' keys read, to find how much of the kept ledger still holds.
    """
    place = (str(db.engine.url), table_id, season)
    seen = fingerprint(table_id, season)
    with _lock:
        kept = _kept.get(place)
    if kept is not None and kept.fingerprint == seen:
        return kept
    keys = game_keys(table_id, season)
    fresh = _grown(table_id, season, kept, keys)
    if fresh.keys:
        fresh = replace(fresh, fingerprint=seen)
    with _lock:
        _kept[place] = fresh
        _kept.move_to_end(place)
        while len(_kept) > KEPT_LEDGERS:
            _kept.popitem(last=False)
    return fresh


def replayed(table_id: int, season: Season) -> Standing:
    """The same figures replayed from scratch, with nothing kept: what the tests compare."""
    results = tuple(load_results(table_id, season))
    keys = game_keys(table_id, season)
    return Standing(keys, results, replay(results))


def forget() -> None:
    """Drop every kept ledger (a restored or imported database starts afresh)."""
    with _lock:
        _kept.clear()


def _grown(
    table_id: int, season: Season, kept: Standing | None, keys: tuple[GameKey, ...]
) -> Standing:
    """Rate the games after the longest prefix ``kept`` shares with ``keys``."""
    shared = 0 if kept is None else _common_prefix(kept.keys, keys)
    if shared == 0 or kept is None:
        results = tuple(load_results(table_id, season))
        return Standing(_keys_of(results, keys), results, replay(results))
    later = tuple(load_results(table_id, season, [key[0] for key in keys[shared:]]))
    ledger = kept.ledger.truncated(shared).extended(later)
    results = kept.results[:shared] + later
    return Standing(_keys_of(results, keys), results, ledger)


def _keys_of(results: Sequence[Result], keys: tuple[GameKey, ...]) -> tuple[GameKey, ...]:
    """``keys`` if the results loaded are those games; otherwise (a game changed between the two
    queries) keys that will not match the next request's, so it rates them again."""
    if tuple(result.game_id for result in results) == tuple(key[0] for key in keys):
        return keys
    return ()


def _common_prefix(old: Sequence[GameKey], new: Sequence[GameKey]) -> int:
    shared = 0
    for before, now in zip(old, new, strict=False):
        if before != now:
            break
        shared += 1
    return shared


def fingerprint(table_id: int, season: Season) -> tuple[Any, ...]:
    """How many finished games the season has, the sums of their ids and versions, and their
    latest change: any hand added, corrected or undone moves a game's version and its
    ``updated_at`` (to now, past every other), and a game finishing or unfinishing changes the
    count or the sum of ids, so an unchanged fingerprint means unchanged ratings."""
    statement = select(
        func.count(), func.sum(Game.id), func.sum(Game.version), func.max(Game.updated_at)
    ).where(Game.table_id == table_id, Game.status == GameStatus.FINISHED, *season.where())
    return tuple(db.session.connection().execute(statement).one())


def game_keys(table_id: int, season: Season) -> tuple[GameKey, ...]:
    """The key of each finished game of the season, in the order they finished."""
    statement = (
        select(Game.id, Game.version, Game.updated_at)
        .where(Game.table_id == table_id, Game.status == GameStatus.FINISHED, *season.where())
        .order_by(Game.finished_at, Game.id)
    )
    return tuple((id_, version, at) for id_, version, at in db.session.execute(statement))


def load_results(
    table_id: int, season: Season, game_ids: Iterable[int] | None = None
) -> list[Result]:
    """The season's finished games (or those of ``game_ids``) as results, in the order they
    finished: one query joining games, sides and seats, with no ORM objects built."""
    statement = (
        select(
            Game.id,
            Game.finished_at,
            Game.seed,
            Game.totals,
            Game.winner,
            Game.hand_count,
            Side.index,
            Seat.player_id,
            Seat.computer,
        )
        .join(Side, Side.game_id == Game.id)
        .join(Seat, Seat.side_id == Side.id)
        .where(Game.table_id == table_id, Game.status == GameStatus.FINISHED, *season.where())
        .order_by(Game.finished_at, Game.id, Side.index, Seat.seat)
    )
    if game_ids is not None:
        statement = statement.where(Game.id.in_(list(game_ids)))
    rows = db.session.execute(statement).all()
    return [_result(list(seats)) for _, seats in groupby(rows, key=lambda row: row[0])]


def _result(rows: list[Any]) -> Result:
    """One game's rows (one per seat, by side) as a result."""
    game_id, finished_at, seed, totals, winner, hand_count = rows[0][:6]
    sides: list[list[Entrant]] = []
    for row in rows:
        index, player_id, computer = row[6:]
        if index == len(sides):
            sides.append([])
        sides[-1].append(
            Entrant(player_id=player_id)
            if player_id is not None
            else Entrant(level=level_key(computer))
        )
    return Result(
        game_id=game_id,
        finished_at=finished_at,
        virtual=seed is not None,
        sides=tuple(tuple(side) for side in sides),
        totals=tuple(totals),
        winner=winner,
        hand_count=hand_count,
    )


def board(ledger: Ledger, names: dict[int, str]) -> list[dict[str, Any]]:
    """The leaderboard's rows, best first: each entrant's rating with its uncertainty, rounded
    for reading (4 places), with ``names`` of the players and each level's English name."""
    rows = []
    for rank, (entrant, rating) in enumerate(ledger.ranked(), start=1):
        level = level_named(entrant.level)
        rows.append(
            {
                "rank": rank,
                "player_id": entrant.player_id,
                "level": entrant.level,
                "name": names.get(entrant.player_id or 0, "") if level is None else level.name,
                "rating": round(rating.mu, 4),
                "uncertainty": round(rating.sigma, 4),
                "conservative": round(rating.conservative, 4),
                "provisional": rating.provisional,
                "games": rating.games,
                "wins": rating.wins,
                "average_hand_score": rating.average_hand_score,
            }
        )
    return rows


def ratings_after(ledger: Ledger) -> dict[tuple[int, Entrant], float]:
    """Each entrant's rating (μ, to 4 places) after each game they played: the history's and
    its CSV's ``rating`` column."""
    return {
        (step.result.game_id, entrant): round(rating.mu, 4)
        for step in ledger.steps
        for entrant, rating in step.after.items()
    }
