"""``scorekeeper export``, ``scorekeeper import`` and ``scorekeeper db backup``: a table moved
to another server, and a copy of a running SQLite database."""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import BinaryIO

import click
from flask import Flask
from flask.cli import with_appcontext
from flask_migrate import cli as migrate_cli
from sqlalchemy import select

from scorekeeper.documents import export, importing
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Hand, Table
from scorekeeper.storage.transactions import one_write
from scorekeeper.web.problems import refusal_document

EXIT_REFUSED = 1


@click.command("export")
@click.argument("table_id", type=click.IntRange(1))
@with_appcontext
def export_command(table_id: int) -> None:
    """Write table TABLE_ID as one JSON document on standard output (its players, games, hands,
    virtual games and kept totals): ``scorekeeper import`` reads it on any server."""
    table = db.session.get(Table, table_id)
    if table is None:
        click.echo(f"There is no table {table_id} in {database_named()}.", err=True)
        sys.exit(EXIT_REFUSED)
    click.echo(export.dumps(export.export_table(table)), nl=False)
    db.session.remove()


@click.command("import")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--as-new",
    is_flag=True,
    help="Give the table fresh ids and tokens (the new table token is printed), so it can join "
    "a database that has tables already, or sit beside the table it was exported from.",
)
@with_appcontext
def import_command(file: BinaryIO, as_new: bool) -> None:
    """Rebuild a table from a document made by ``scorekeeper export`` (FILE, or - for standard
    input). Every hand is scored again by the engine; a document with any problem is refused
    with each problem's JSON pointer (exit 1), and nothing is written."""
    raw = file.read(importing.MAX_DOCUMENT_BYTES + 1)
    try:
        with one_write():
            imported = importing.import_table(importing.read(raw), as_new=as_new)
            table_id, name = imported.table.id, imported.table.name
    except InvalidRequest as refused:
        click.echo(export.dumps(refusal_document(refused.problems, shape=True)), nl=False)
        sys.exit(EXIT_REFUSED)
    click.echo(
        f"Table {table_id} ({name}) imported into {database_named()}: "
        + ", ".join(f"{count} {what}" for what, count in importing.counts(imported).items())
        + "."
    )
    if imported.token:
        click.echo(f"Its new token (shown this once): {imported.token}")


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@with_appcontext
def backup_command(file: Path) -> None:
    """Copy the SQLite database to FILE while the server runs, then check the copy.

    SQLite's backup API copies a consistent snapshot (a hand is in the copy whole or not at
    all), and ``PRAGMA integrity_check`` reads every page of the copy. For PostgreSQL use
    ``pg_dump`` (the organiser's guide, docs/club.md).
    """
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database:
        click.echo(
            f"{database_named()} is not a SQLite file: back PostgreSQL up with pg_dump "
            '(docs/club.md, "Backups, every night").',
            err=True,
        )
        sys.exit(EXIT_REFUSED)
    if file.exists():
        click.echo(f"{file} exists already: name a new file.", err=True)
        sys.exit(EXIT_REFUSED)
    # Read through SQLAlchemy first: a database no migration ran on is said in a sentence (the
    # command group's), before an empty copy is made.
    db.session.execute(select(Hand.id).limit(1)).all()
    db.session.remove()
    with closing(sqlite3.connect(url.database)) as source, closing(sqlite3.connect(file)) as copy:
        source.backup(copy)  # in one step: the snapshot of one moment
    with closing(sqlite3.connect(file)) as copy:
        verdict = [row[0] for row in copy.execute("PRAGMA integrity_check")]
        hands = copy.execute("SELECT count(*) FROM hands").fetchone()[0]
    if verdict != ["ok"]:
        click.echo(f"The copy in {file} is damaged: {'; '.join(verdict[:5])}", err=True)
        sys.exit(EXIT_REFUSED)
    click.echo(f"Backed up {database_named()} to {file} ({hands} hands): integrity check ok.")


def database_named() -> str:
    """The database the app uses, its password hidden."""
    return db.engine.url.render_as_string(hide_password=True)


def init_app(app: Flask) -> None:
    """Add ``export`` and ``import`` to the app's commands, and ``backup`` to the ``db`` group
    Flask-Migrate gave the app."""
    group: click.Group = migrate_cli.db
    group.add_command(backup_command)
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
