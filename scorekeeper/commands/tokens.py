"""``scorekeeper new-token``: the server's operator replaces a table's lost token.

A table's token is shown once and stored only as a hash, so a lost one cannot be read back from
the database; it can only be replaced, as the API's ``POST …/token`` does for whoever still
holds it. The operator holds no token, so this command is theirs: it shares the API's code
(:func:`scorekeeper.services.operations.rotate_token`), and the old token stops working at once.
"""

from __future__ import annotations

import sys

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper.services import operations
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Table
from scorekeeper.storage.transactions import one_write

EXIT_REFUSED = 1


def share_link(base_url: str, table_id: int, token: str) -> str:
    """The link a phone joins a table by: the token after ``#``, which a browser never sends,
    so it reaches no server or proxy log (``/join/<id>#<token>``).

    >>> share_link("https://scores.example.org/", 3, "mb_abc")
    'https://scores.example.org/join/3#mb_abc'
    """
    return f"{base_url.rstrip('/')}/join/{table_id}#{token}"


@click.command("new-token")
@click.argument("table_id", type=click.IntRange(1))
@click.option(
    "--url",
    "base_url",
    default="",
    metavar="URL",
    help="The server's address as the phones open it (https://scores.example.org), to print "
    "the whole share link.",
)
@with_appcontext
def new_token_command(table_id: int, base_url: str) -> None:
    """Give table TABLE_ID a new token, shown this once, and revoke the old one: for a lost
    token. Every phone then joins again with the new share link; seats of virtual games keep
    their own tokens."""
    from scorekeeper.commands.transfer import database_named

    with one_write():
        table = db.session.get(Table, table_id)
        if table is None:
            click.echo(f"There is no table {table_id} in {database_named()}.", err=True)
            sys.exit(EXIT_REFUSED)
        name = table.name
        token = operations.rotate_token(table)
    click.echo(f"Table {table_id} ({name}) has a new token; the old one no longer opens it.")
    click.echo(f"Token (shown this once): {token}")
    click.echo(f"Share link: {share_link(base_url, table_id, token)}")


def init_app(app: Flask) -> None:
    """Add ``new-token`` to the app's commands."""
    app.cli.add_command(new_token_command)
