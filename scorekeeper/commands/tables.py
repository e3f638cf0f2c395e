"""``scorekeeper tables``: the tables of the database with their ids, so that the server's
operator can name one to ``export`` or ``new-token`` without guessing; and ``scorekeeper tables
prune``, which deletes the tables nobody has used for long.

A table's id is in its share link (``/join/<id>#…``), but an organiser asked for a lost token
has no link, only the table's name: this list is where the name meets the id.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import func, select

from scorekeeper.domain.games import GameStatus
from scorekeeper.names import name_key
from scorekeeper.services import forgetting
from scorekeeper.storage import removal
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Player, Table, utcnow
from scorekeeper.storage.transactions import one_write

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


@click.group("tables", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per table.")
@with_appcontext
def tables_command(as_json: bool) -> None:
    """List the tables with their ids: their players, games (how many in progress), when each
    was made and last played (UTC), and their names. Give the id to ``export`` or
    ``new-token``."""
    if click.get_current_context().invoked_subcommand is not None:
        return
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


_LENGTH = re.compile(r"(\d+)([dw]?)")


def length_of_time(given: object) -> timedelta:
    """A length given as days or weeks: ``365d``, ``52w``, or a plain number of days (``365``,
    as the setting's environment variable may give it). ValueError for anything else.

    >>> length_of_time("52w"), length_of_time(30)
    (datetime.timedelta(days=364), datetime.timedelta(days=30))
    """
    found = _LENGTH.fullmatch(str(given).strip().lower())
    if found is None or int(found[1]) < 1:
        raise ValueError(f"{given!r} is not a length such as 365d, 52w or 365 (days)")
    number = int(found[1])
    return timedelta(weeks=number) if found[2] == "w" else timedelta(days=number)


@tables_command.command("prune")
@click.option(
    "--unused-for",
    "unused_for",
    metavar="LENGTH",
    help="How long a table must have been unused: 365d, 52w, or days (365). By default the "
    "PRUNE_UNUSED_FOR setting (SCOREKEEPER_PRUNE_UNUSED_FOR).",
)
@click.option("--dry-run", is_flag=True, help="Say what would be deleted, and delete nothing.")
@with_appcontext
def prune_command(unused_for: str | None, dry_run: bool) -> None:
    """Delete the tables nobody has used for LENGTH, with everything in them, and say which.

    A table is used when it is made, when one of its games changes (started, a hand recorded,
    corrected or undone, a move played, abandoned) and at every event of its feed (a player
    added or renamed, a token issued or revoked). Reading a table is not using it."""
    from flask import current_app

    given = unused_for if unused_for is not None else current_app.config["PRUNE_UNUSED_FOR"]
    if given in (None, ""):
        raise click.UsageError("Say how long with --unused-for, or set PRUNE_UNUSED_FOR.")
    try:
        length = length_of_time(given)
    except ValueError as wrong:
        raise click.BadParameter(str(wrong), param_hint="--unused-for") from None
    with one_write():
        unused = forgetting.unused_tables(utcnow() - length)
        if not dry_run:
            forgetting.prune(unused)
    days = f"{length.days} days"
    if not unused:
        click.echo(f"No table unused for {days}.")
        return
    said = "Would delete" if dry_run else "Deleted"
    click.echo(f"{said} {len(unused)} table(s) unused for {days}:")
    for table in unused:
        click.echo(
            f"  {table.id}  {table.name} ({table.players} players, {table.games} games; "
            f"last used {table.last_used.replace(microsecond=0).isoformat()}Z)"
        )
    if dry_run:
        click.echo("Nothing was deleted (--dry-run).")


@tables_command.command("delete")
@click.argument("table_id", type=int)
@click.option("--yes", is_flag=True, help="Delete without asking (for scripts).")
@with_appcontext
def delete_command(table_id: int, yes: bool) -> None:
    """Delete table TABLE_ID with everything in it, for good: an erasure request the server's
    operator carries out without the table's token (``scorekeeper tables`` gives the id)."""
    try:
        table = db.session.get(Table, table_id)
        if table is None:
            raise click.UsageError(f"There is no table {table_id}: see `scorekeeper tables`.")
        name = table.name
    finally:
        db.session.remove()  # nothing held while the operator reads the question
    if not yes:
        click.confirm(f"Delete table {table_id} ({name}) and everything in it?", abort=True)
    with one_write():
        removal.delete_tables([table_id])
    click.echo(f"Deleted table {table_id} ({name}).")


@tables_command.command("erase-player")
@click.argument("table_id", type=int)
@click.argument("name")
@with_appcontext
def erase_player_command(table_id: int, name: str) -> None:
    """Erase the name of player NAME of table TABLE_ID everywhere the table keeps it, their games
    and scores kept: an erasure request the server's operator carries out without the table's
    token."""
    with one_write():
        found = db.session.execute(
            select(Player).where(Player.table_id == table_id, Player.name_key == name_key(name))
        ).scalar_one_or_none()
        if found is None:
            raise click.UsageError(f"Table {table_id} has no player named {name!r}.")
        erased = forgetting.erase_player(found)
        label = erased.name
    click.echo(f"Erased: the player is now {label!r} at table {table_id}.")


def init_app(app: Flask) -> None:
    """Add ``tables`` (and ``tables prune``, ``delete``, ``erase-player``) to the app's
    commands."""
    app.cli.add_command(tables_command)
