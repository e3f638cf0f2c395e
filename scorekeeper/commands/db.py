"""``scorekeeper db verify``: what every game keeps of its hands, checked against its hands.

Joins Flask-Migrate's ``db`` group, so it runs wherever ``db upgrade`` does.
"""

from __future__ import annotations

import sys

import click
from flask import Flask
from flask.cli import with_appcontext
from flask_migrate import cli as migrate_cli
from sqlalchemy import inspect

from scorekeeper.commands import tables, tokens, transfer
from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db

EXIT_MISMATCH = 1


@click.command("verify")
@click.option("--repair", is_flag=True, help="Set every mismatched game right (exit 0).")
@with_appcontext
def verify_command(repair: bool) -> None:
    """Check what every game keeps (hand count, totals, leaders, outcome, winner, status)
    against its hands, added up again by the engine.

    Prints each difference; exits 1 if there is any, unless --repair set them right. A
    database no migration ever ran on (``DATABASE_URL`` unset or pointing elsewhere) is refused,
    exit 1: "0 games checked" would read as a clean bill of health.
    """
    if not inspect(db.engine).has_table("alembic_version"):
        shown = transfer.database_named()
        click.echo(
            f"{shown} has no migrations applied: it is not a scorekeeper database yet. Is "
            "DATABASE_URL set to the club's database? (`scorekeeper db upgrade` creates the "
            "tables in a new one.)",
            err=True,
        )
        sys.exit(EXIT_MISMATCH)
    try:
        # In batches, locking only the games it repairs: a live server goes on meanwhile.
        verified = running_totals.verify(repair=repair)
    finally:
        db.session.remove()
    for mismatch in verified.mismatches:
        click.echo(
            f"game {mismatch.game_id}: {mismatch.column} is {mismatch.kept!r}, "
            f"its hands make {mismatch.rebuilt!r}"
        )
    games = {mismatch.game_id for mismatch in verified.mismatches}
    if not games:
        click.echo(f"{verified.games} games checked: each keeps what its hands add up to.")
    elif repair:
        click.echo(f"{verified.games} games checked, {len(games)} repaired.")
    else:
        click.echo(
            f"{verified.games} games checked, {len(games)} keep other figures than their hands "
            "add up to (run again with --repair to set them right)."
        )
        sys.exit(EXIT_MISMATCH)


def init_app(app: Flask) -> None:
    """Add ``verify`` to the ``db`` group Flask-Migrate gave the app, and the commands that move
    and copy tables (:mod:`scorekeeper.commands.transfer`), replace a lost table token
    (:mod:`scorekeeper.commands.tokens`) and list the tables
    (:mod:`scorekeeper.commands.tables`)."""
    group: click.Group = migrate_cli.db
    group.add_command(verify_command)
    transfer.init_app(app)
    tokens.init_app(app)
    tables.init_app(app)
