"""The stored facts: tables, their players, games, sides, seats and hands.

Only what a table reports is stored, with the engine's breakdown beside it. A game keeps what its
hands add up to (the running totals, the leaders, the outcome and winner, its status and how many
hands it has), written by :mod:`scorekeeper.storage.running_totals` in the same transaction as
every change to a hand, so a request reads where a game stands without replaying its hands;
``scorekeeper db verify`` rebuilds them from the hands with the engine and reports (or repairs)
any difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ColumnElement,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    bindparam,
    false,
    select,
)
from sqlalchemy.orm import (
    Mapped,
    joinedload,
    mapped_column,
    relationship,
    selectinload,
    validates,
)
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.strategy_options import _AbstractLoad

from engine import Rules, ScoreSheet
from engine.scoring import HandScore, added
from scorekeeper.domain.games import GameStatus, game_etag, hand_etag, hand_identity, table_etag
from scorekeeper.domain.levels import computer_name
from scorekeeper.domain.limits import COMPUTER_NAME_LIMIT
from scorekeeper.names import NAME_LIMIT, name_key
from scorekeeper.storage.extensions import db


def utcnow() -> datetime:
    """Now in UTC, stored without a zone so SQLite and PostgreSQL give back the same value."""
    return datetime.now(UTC).replace(tzinfo=None)


class Table(db.Model):  # type: ignore[name-defined,misc]
    """A group that plays together: a club, a family. Owns its players and games."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LIMIT))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    event_count: Mapped[int] = mapped_column(default=0, server_default="0")
    """How many events the table's feed holds: the id of its last (:mod:`~scorekeeper.storage.
    feed`)."""

    players: Mapped[list[Player]] = relationship(back_populates="table", order_by="Player.id")

    @property
    def etag(self) -> str:
        """The table's entity tag: changes with each event of its feed (:func:`~scorekeeper.
        domain.games.table_etag`)."""
        return table_etag(self.id, self.event_count)


class AccessToken(db.Model):  # type: ignore[name-defined,misc]
    """A token a table's owner issued, with its scope (read or record) and a name that says who
    holds it: a wall screen, a club's bot. Stored as its digest, as the table's own; revoking
    it deletes it."""

    __tablename__ = "access_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LIMIT))
    scope: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[Table] = relationship()


class TableEvent(db.Model):  # type: ignore[name-defined,misc]
    """One change to a table, as its feed tells it: what happened (``kind``), to which game,
    hand, move or player, and when. Numbered per table (``number``, from 1), in the order the
    changes were committed: a follower that read up to one number has read everything before
    it. It names things and never tells a secret (no token, no card of a seat's hand)."""

    __tablename__ = "table_events"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(24))
    game_id: Mapped[int | None]
    hand: Mapped[int | None]
    move: Mapped[int | None]
    seat: Mapped[int | None]
    player_id: Mapped[int | None]
    token_id: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person who plays at a table.

    Two players of a table never have names that read alike (``name_key``, kept with the name,
    is unique per table; see :mod:`scorekeeper.names`), so the database refuses the second
    of two phones adding "Ann" and "ann" at the same moment.
    """

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("table_id", "name"),
        UniqueConstraint("table_id", "name_key", name="uq_players_table_id_name_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LIMIT))
    name_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[Table] = relationship(back_populates="players")

    @validates("name")
    def _keep_name_key(self, _field: str, name: str) -> str:
        self.name_key = name_key(name)
        return name


class Game(db.Model):  # type: ignore[name-defined,misc]
    """A game to 5,000 under one rules configuration.

    ``version`` counts every change (a hand added, corrected or undone, the game abandoned); it is
    the game's ETag and SQLAlchemy checks it on every UPDATE, so two phones cannot both win.
    """

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_table_created", "table_id", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    players: Mapped[int]
    variants: Mapped[dict[str, str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.IN_PROGRESS, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None]
    version: Mapped[int] = mapped_column(default=1)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    """Set for a virtual game (played in the app, not at a table): its deals come from it. Kept
    secret while the game is played, since it tells every hand."""
    private_chances: Mapped[bool] = mapped_column(default=False, server_default=false())
    """A virtual game that asks every seat of an attacked side for a coup-fourré, so no view
    tells who holds a safety; games stored before it replay with the old chances."""
    hand_count: Mapped[int] = mapped_column(default=0, server_default="0")
    """How many hands the game has: the next hand's number less one."""
    totals: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    """Each side's running total after the last hand (every side at 0 before the first)."""
    leaders: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    """The sides sharing the highest total; none before the first hand."""
    outcome: Mapped[str | None] = mapped_column(String(16))
    """``won`` or ``tied`` once a hand ended the game (RULES.md §10), else None."""
    winner: Mapped[int | None]
    """The winning side's index once the game is won."""

    table: Mapped[Table] = relationship()
    sides: Mapped[list[Side]] = relationship(
        back_populates="game", order_by="Side.index", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    moves: Mapped[list[VirtualMove]] = relationship(
        back_populates="game", order_by="VirtualMove.number", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}

    @property
    def virtual(self) -> bool:
        """Whether the game is played in the app rather than reported from a table."""
        return self.seed is not None

    @property
    def rules(self) -> Rules:
        """The engine's rules the game is played under."""
        return Rules.for_players(self.players, self.variants)

    def totals_after(self, number: int) -> list[int]:
        """The running totals after hand ``number`` (the game's hands loaded), added from the
        totals stored in the hands' breakdowns."""
        totals: Sequence[int] = [0] * len(self.totals)
        for hand in self.hands[:number]:
            totals = added(totals, [side["total"] for side in hand.breakdown["sides"]])
        return list(totals)

    def sheet(self, hands: Iterable[Hand] | None = None) -> ScoreSheet:
        """The game's score sheet from the breakdowns stored with ``hands`` (all its hands by
        default): the engine adds them up, no hand is scored again."""
        sheet = ScoreSheet(self.rules, [side.name for side in self.sides])
        for hand in self.hands if hands is None else hands:
            sheet.append(HandScore.from_dict(hand.breakdown))
        return sheet

    @property
    def etag(self) -> str:
        """The game's entity tag: changes with every hand added, corrected or undone, and with
        every move of a virtual game."""
        return game_etag(self.id, self.version)

    @staticmethod
    def everything() -> list[_AbstractLoad]:
        """Loader options that fetch a game's sides, seats, players and hands in a few queries
        instead of one query per side, seat and player. Not a virtual game's moves: those are
        read by :mod:`scorekeeper.services.virtual`, only the ones it needs."""
        return [
            selectinload(Game.sides).selectinload(Side.seats).joinedload(Seat.player),
            selectinload(Game.hands),
        ]

    @staticmethod
    def viewed() -> list[_AbstractLoad]:
        """Loader options for answering one game: its sides, seats and players joined to the
        game's own query (its hands come from :func:`load_hands`: one query for a game in all,
        where :meth:`everything`, meant for lists of games, takes three)."""
        return [joinedload(Game.sides).joinedload(Side.seats).joinedload(Seat.player)]

    @staticmethod
    def played_by(player_id: int) -> ColumnElement[bool]:
        """A filter for the games in which ``player_id`` had a seat."""
        seated = select(Side.game_id).join(Seat).where(Seat.player_id == player_id)
        return Game.id.in_(seated)


class Side(db.Model):  # type: ignore[name-defined,misc]
    """A side of a game: one player, or a team of two sharing a tableau."""

    __tablename__ = "sides"
    __table_args__ = (UniqueConstraint("game_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    index: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_LIMIT))

    game: Mapped[Game] = relationship(back_populates="sides")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="side", order_by="Seat.seat", cascade="all, delete-orphan"
    )


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """Where a player sat: seats are numbered clockwise, partners opposite (RULES.md §2).

    In a virtual game a seat is either a player of the table, who acts with the seat's own
    token, or a computer player of the given kind (its technical name: see
    :mod:`scorekeeper.domain.levels`).
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("side_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("sides.id", ondelete="CASCADE"))
    seat: Mapped[int]
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    computer: Mapped[str | None] = mapped_column(String(COMPUTER_NAME_LIMIT))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    stand_in: Mapped[str | None] = mapped_column(String(COMPUTER_NAME_LIMIT))
    """The computer player playing this player's seat while the player is away (its technical
    name), or None: the player plays it."""

    side: Mapped[Side] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()

    @property
    def name(self) -> str:
        """The seat's name as the API answers it: its player's, or its computer's in English."""
        if self.player is not None:
            return self.player.name
        return computer_name(self.seat, self.computer or "")


class Hand(db.Model):  # type: ignore[name-defined,misc]
    """One hand of a game: the report as entered and the engine's breakdown of it."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    report: Mapped[dict[str, Any]] = mapped_column(JSON)
    breakdown: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship(back_populates="hands")

    __mapper_args__ = {"version_id_col": version}

    @property
    def identity(self) -> str:
        """What the hand's tags say of the hand itself (:func:`~scorekeeper.domain.games.
        hand_etag`)."""
        return hand_identity(self.id, self.version, self.created_at)

    def etag(self, totals_after: Sequence[int]) -> str:
        """The hand's entity tag, with the running ``totals_after`` it (the game's kept totals
        for its last hand)."""
        return hand_etag(self.number, self.identity, totals_after)


_HANDS = select(Hand).where(Hand.game_id == bindparam("game_id")).order_by(Hand.number)


def load_hands(game: Game) -> list[Hand]:
    """``game``'s hands in one query, set as its loaded ``hands``: the same query a
    ``selectinload`` runs, without its machinery, which costs more than the query itself."""
    hands = list(db.session.execute(_HANDS, {"game_id": game.id}).scalars())
    set_committed_value(game, "hands", hands)
    return hands


class VirtualMove(db.Model):  # type: ignore[name-defined,misc]
    """One move of a virtual game, numbered from 0 across its hands: the game is its seed plus
    these moves. The unique number is what keeps two phones from forking a game."""

    __tablename__ = "virtual_moves"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    seat: Mapped[int]
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    stand_in: Mapped[str | None] = mapped_column(String(COMPUTER_NAME_LIMIT))
    """The computer that chose this move in the place of the seat's player, or None."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="moves")


class IdempotencyRecord(db.Model):  # type: ignore[name-defined,misc]
    """The first answer to a POST carrying an ``Idempotency-Key``, replayed to any retry."""

    __tablename__ = "idempotency_records"
    __table_args__ = (
        UniqueConstraint("table_id", "key"),
        # A table's expired records are swept now and then (storage/idempotency.py,
        # SWEEP_EVERY): a range of this index, where an index on the time alone left the database
        # reading every record.
        Index("ix_idempotency_records_table_created", "table_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    location: Mapped[str | None] = mapped_column(String(255))
    etag: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
