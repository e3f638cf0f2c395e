"""``scorekeeper tables``: the tables of the database with their ids, so that the server's
operator can name one to ``export`` or ``new-token`` without guessing.

A table's id is in its share link (``/join/<id>#…``), but an organiser asked for a lost token
has no link, only the table's name: this list is where the name meets the id.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import func, select

from scorekeeper.domain.games import GameStatus
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Player, Table

COLUMNS = ("id", "players", "games", "in progress", "created", "last played", "name")
"""The listing's columns. The name comes last: it is the only one of any length, so the
columns before it stay aligned however long a club names its table."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    """One table as listed: what tells an organiser which table is theirs."""

    id: int
    name: str
    players: int
    games: int
    games_in_progress: int
    created_at: str
    last_played_at: str | None
    """When a game of the table last changed (a hand added, corrected, undone), or None."""


def table_rows() -> list[TableRow]:
    """Every table, oldest first, counted in one query (no table's players or games loaded)."""
    players = select(func.count(Player.id)).where(Player.table_id == Table.id).scalar_subquery()
    games = select(func.count(Game.id)).where(Game.table_id == Table.id).scalar_subquery()
    playing = (
        select(func.count(Game.id))
        .where(Game.table_id == Table.id, Game.status == GameStatus.IN_PROGRESS)
        .scalar_subquery()
    )
    last = select(func.max(Game.updated_at)).where(Game.table_id == Table.id).scalar_subquery()
    query = select(Table.id, Table.name, Table.created_at, players, games, playing, last)
    rows = db.session.execute(query.order_by(Table.id)).all()
    return [
        TableRow(
            id=row[0],
            name=row[1],
            created_at=_moment(row[2]),
            players=row[3],
            games=row[4],
            games_in_progress=row[5],
            last_played_at=_moment(row[6]) if row[6] is not None else None,
        )
        for row in rows
    ]


def _moment(value: datetime | str) -> str:
    """A stored time (UTC, without a zone) as ISO 8601 with its zone, to the second. SQLite
    gives a ``max()`` back as text, PostgreSQL as a datetime."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return moment.replace(microsecond=0).isoformat() + "Z"


def render(rows: list[TableRow]) -> str:
    """The rows as a text table, times cut to the day (UTC)."""
    lines = [
        [
            str(row.id),
            str(row.players),
            str(row.games),
            str(row.games_in_progress),
            row.created_at[:10],
            (row.last_played_at or "-")[:10],
            row.name,
        ]
        for row in rows
    ]
    widths = [max(len(cells[column]) for cells in [list(COLUMNS), *lines]) for column in range(6)]
    return "\n".join(
        "  ".join(
            [
                *(cell.rjust(width) for cell, width in zip(cells[:4], widths[:4], strict=True)),
                *(cell.ljust(width) for cell, width in zip(cells[4:6], widths[4:], strict=True)),
                cells[6],
            ]
        )
        for cells in [list(COLUMNS), *lines]
    )


@click.command("tables")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per table.")
@with_appcontext
def tables_command(as_json: bool) -> None:
    """List the tables with their ids: their players, games (how many in progress), when each
    was made and last played (UTC), and their names. Give the id to ``export`` or
    ``new-token``."""
    from scorekeeper.commands.transfer import database_named

    try:
        rows = table_rows()
    finally:
        db.session.remove()
    if as_json:
        click.echo(json.dumps([asdict(row) for row in rows], indent=2, ensure_ascii=False))
    elif not rows:
        click.echo(f"No table in {database_named()} yet.")
    else:
        click.echo(render(rows))


def init_app(app: Flask) -> None:
    """Add ``tables`` to the app's commands."""
    app.cli.add_command(tables_command)
