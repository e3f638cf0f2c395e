"""What a game's hands add up to, kept on the game's row: written with every change to a hand,
rebuilt from the hands to verify it.

A request that adds a hand adds that hand's points to the kept totals and asks the engine where
a game with those totals stands (:func:`engine.sheet.status_of`): the same work whether the game
has one hand or forty, where rebuilding the score sheet read back every stored breakdown. The
kept figures are written in the transaction that changes the hands, under the game's row lock
and version check, and only ever from the engine's scores, never from what a client sends.
``scorekeeper db verify`` (:func:`verify`) rebuilds them from the hands and compares, in
batches, beside a live server.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import selectinload

from engine.scoring import HandScore, added
from engine.sheet import Outcome, leaders_of, status_of, winner_of
from scorekeeper.domain.games import GameStatus
from scorekeeper.storage.extensions import db
from scorekeeper.storage.locks import locking
from scorekeeper.storage.models import Game, Hand, utcnow
from scorekeeper.storage.transactions import one_snapshot, one_write

TOTALS_COLUMNS = ("hand_count", "totals", "leaders", "outcome", "winner", "status")
"""The columns of a game this module keeps, in the order a mismatch is reported."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameTotals:
    """Where a game stands after its hands, as its row keeps it."""

    hand_count: int
    totals: list[int]
    leaders: list[int]
    outcome: str | None
    winner: int | None
    status: str


def game_totals(game: Game, totals: Sequence[int], hand_count: int) -> GameTotals:
    """Where ``game`` stands with ``totals`` after ``hand_count`` hands (RULES.md §10).

    An abandoned game stays abandoned; otherwise a game whose totals end it is finished.
    """
    rules = game.rules
    status = status_of(totals, rules) if hand_count else Outcome.IN_PROGRESS
    outcome = None if status is Outcome.IN_PROGRESS else str(status)
    if game.status == GameStatus.ABANDONED:
        stored = GameStatus.ABANDONED
    else:
        stored = GameStatus.IN_PROGRESS if outcome is None else GameStatus.FINISHED
    return GameTotals(
        hand_count=hand_count,
        totals=list(totals),
        leaders=list(leaders_of(totals)) if hand_count else [],
        outcome=outcome,
        winner=winner_of(totals, rules) if hand_count else None,
        status=str(stored),
    )


def write_totals(game: Game, totals: GameTotals) -> None:
    """Write ``totals`` on the game's row (flushed with the hand's change, in its transaction);
    the game's version, its ETag, moves on with it."""
    if totals.status != game.status:
        game.finished_at = utcnow() if totals.status == GameStatus.FINISHED else None
    for column in TOTALS_COLUMNS:
        setattr(game, column, getattr(totals, column))
    game.updated_at = utcnow()


def start(game: Game, sides: int) -> None:
    """A new game: every side at 0, no hand yet."""
    game.hand_count, game.totals, game.leaders = 0, [0] * sides, []
    game.outcome, game.winner = None, None


def add(game: Game, score: HandScore) -> int:
    """Add a new hand's points to the kept totals; the new hand's number."""
    totals = list(added(game.totals, score.totals))
    write_totals(game, game_totals(game, totals, game.hand_count + 1))
    return game.hand_count


def remove(game: Game, score: HandScore) -> None:
    """Take the last hand's points (the hand undone) off the kept totals."""
    totals = list(added(game.totals, score.totals, -1))
    write_totals(game, game_totals(game, totals, game.hand_count - 1))


def rebuilt(game: Game, hands: Iterable[Hand] | None = None) -> GameTotals:
    """What the game's row should keep, from its stored hands by the engine (``hands``: those
    the game has, in order, if not loaded with it)."""
    sheet = game.sheet(hands)
    return game_totals(game, sheet.totals, len(sheet.hands))


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A game whose row keeps other figures than its hands add up to."""

    game_id: int
    column: str
    kept: object
    rebuilt: object


def mismatches(game: Game) -> list[Mismatch]:
    """Every kept column of ``game`` that differs from what its hands add up to."""
    expected = rebuilt(game)
    return [
        Mismatch(game.id, column, getattr(game, column), getattr(expected, column))
        for column in TOTALS_COLUMNS
        if getattr(game, column) != getattr(expected, column)
    ]


@dataclass(frozen=True, slots=True)
class Verified:
    """What :func:`verify` found."""

    games: int
    mismatches: list[Mismatch]


VERIFY_BATCH = 100
"""Games read together by :func:`verify`: one short transaction per batch, never one for the
whole database."""


def verify(repair: bool = False, batch: int = VERIFY_BATCH) -> Verified:
    """Rebuild every game's kept figures from its hands; every difference, and with ``repair``
    each differing game set right (its version moves on, so phones read it again).

    Beside a live server: the games are read ``batch`` at a time, each batch in a transaction of
    its own that reads one consistent state of them (a snapshot: REPEATABLE READ on PostgreSQL,
    a read transaction in SQLite's WAL) and locks nothing, so phones go on recording hands.
    A game found different is then locked, checked again and set right in a short transaction
    of its own, under the lock every write of a hand takes first (:mod:`scorekeeper.storage.locks`).
    """
    found: list[Mismatch] = []
    games, after = 0, 0
    while True:
        checked, differences = _check_batch(after, batch)
        if not checked:
            return Verified(games, found)
        games += len(checked)
        after = checked[-1]
        found += differences
        if repair and differences:
            _repair(sorted({mismatch.game_id for mismatch in differences}))


def _games() -> Select[Any]:
    return select(Game).options(selectinload(Game.sides), selectinload(Game.hands))


def _check_batch(after: int, batch: int) -> tuple[list[int], list[Mismatch]]:
    """The ids of the (at most ``batch``) games after game ``after``, and their differences,
    read from one snapshot."""
    with one_snapshot():
        if db.session.get_bind().dialect.name == "postgresql":
            db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        statement = _games().where(Game.id > after).order_by(Game.id).limit(batch)
        checked, found = [], []
        for game in db.session.execute(statement).scalars():
            checked.append(game.id)
            found += mismatches(game)
        return checked, found


def _repair(game_ids: list[int]) -> None:
    """Set right the games ``game_ids`` that still differ, their rows locked (in id order, so
    two repairs never wait on each other in a circle)."""
    with one_write():
        statement = locking(_games().where(Game.id.in_(game_ids)).order_by(Game.id))
        for game in db.session.execute(statement).scalars():
            if mismatches(game):
                write_totals(game, rebuilt(game))
