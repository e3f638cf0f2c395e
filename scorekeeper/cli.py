"""The ``scorekeeper`` command: ``score`` a report or sheet, ``simulate`` games, Flask's ``run``
and Flask-Migrate's ``db`` (with ``db verify``, :mod:`scorekeeper.commands.db`)."""

from __future__ import annotations

import json
import os
import re
import sys
from functools import partial
from random import Random
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

import click
from flask.cli import FlaskGroup, NoAppException, ScriptInfo

from engine.categories import Category
from engine.errors import InvalidRecord, InvalidReport
from engine.players import make_player
from engine.rules import Rules, UnknownVariant
from engine.virtual_game import VirtualGame
from scorekeeper import __version__, create_app, engine_build
from scorekeeper.commands.simulate import simulate, tally

if TYPE_CHECKING:
    from flask import Flask

EXIT_REFUSED = 1


def create_command_app() -> Flask:
    """The app of a command that needs it (``db``, ``export``, ``import``, ``run``, ...), first
    saying on standard error which database it uses, password hidden: without ``DATABASE_URL``
    a command reads the SQLite file in ``instance/``, which may not be the club's database."""
    from scorekeeper.config import shown_database

    app = create_app()
    shown = shown_database(app.config["SQLALCHEMY_DATABASE_URI"])
    click.echo(f" * Database: {shown}", err=True)
    return app


class CommandGroup(FlaskGroup):
    """Flask's command group, saying in a sentence, without a traceback, what stops a command
    run as the wrong user or against the wrong database: a secret key it may not read, a
    database that cannot be reached (PostgreSQL stopped, a mistyped ``DATABASE_URL``), or one
    no migration ever ran on."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            # Imported only once something failed: simulate and score never load SQLAlchemy.
            from sqlalchemy.exc import OperationalError, ProgrammingError

            from scorekeeper.config import ConfigurationError

            if isinstance(error, ConfigurationError):
                raise click.ClickException(str(error)) from None
            if not isinstance(error, OperationalError | ProgrammingError):
                raise
            missing = missing_table(error.orig)
            if missing is not None:
                raise click.ClickException(unmigrated(ctx, missing)) from None
            if not isinstance(error, OperationalError):
                raise
            cause = str(error.orig).strip().splitlines()[0]
            raise click.ClickException(f"The database cannot be reached: {cause}") from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The commands, for ``--help``: Flask loads the app to list its own, and prints a
        traceback when it cannot; a secret key out of reach is said in its sentence instead."""
        info = ctx.ensure_object(ScriptInfo)
        try:
            info.load_app()
        except Exception as error:
            from scorekeeper.config import ConfigurationError

            if isinstance(error, ConfigurationError):
                info.create_app = partial(_refuse_app, str(error))  # Flask prints its message
        return super().list_commands(ctx)


def _refuse_app(message: str) -> Flask:
    raise NoAppException(message)


def missing_table(cause: BaseException | None) -> str | None:
    """The table a database error says is missing (SQLite's ``no such table: tables``,
    PostgreSQL's ``relation "tables" does not exist``, SQLSTATE 42P01), or None.

    >>> missing_table(Exception("no such table: tables"))
    'tables'
    """
    text = str(cause).strip()
    found = re.match(r"no such table: (\S+)", text) or re.match(
        r'relation "([^"]+)" does not exist', text
    )
    return found[1] if found else None


def unmigrated(ctx: click.Context, table: str) -> str:
    """What to say of a database that lacks the app's tables: which database it is, that
    ``scorekeeper db upgrade`` makes them, and, without ``DATABASE_URL``, that the command read
    the SQLite file of the instance folder instead of the club's database."""
    from sqlalchemy.engine import make_url

    from scorekeeper.config import shown_database

    url = ctx.ensure_object(ScriptInfo).load_app().config["SQLALCHEMY_DATABASE_URI"]
    said = (
        f'{shown_database(url)} lacks the scorekeeper\'s tables (there is no table "{table}"): '
        "was it migrated? Run `scorekeeper db upgrade`, as the service's user with its "
        "environment, to make them."
    )
    if not os.environ.get("DATABASE_URL") and make_url(url).get_backend_name() == "sqlite":
        said += (
            f" DATABASE_URL is not set, so this command used the SQLite file "
            f"{make_url(url).database}: to reach the club's database, set DATABASE_URL as the "
            "service's environment file does."
        )
    return said


@click.group(cls=CommandGroup, create_app=create_command_app, add_version_option=False)
@click.version_option(__version__, prog_name="scorekeeper", message="%(prog)s %(version)s")
@click.pass_context
def cli(context: click.Context) -> None:
    """Mille Bornes scorekeeper: score hands from the command line, or serve the app."""
    if context.invoked_subcommand == "run":
        click.echo(f" * Engine: {engine_build.describe()}", err=True)


@cli.command("score", with_appcontext=False)
@click.argument("file", type=click.File("rb"), default="-")
@click.option("--table", "as_table", is_flag=True, help="Print a readable table, not JSON.")
def score_command(file: BinaryIO, as_table: bool) -> None:
    """Score a hand report or a whole score sheet (FILE, or standard input with - or nothing).

    Prints the breakdown as JSON and exits 0; exits 1 with problem details when the report is
    refused, and 2 on a usage error.
    """
    # Imported here: the API's schemas cost the other commands (simulate) a second to load.
    from scorekeeper.documents.score_sheets import (
        is_sheet,
        score_report_document,
        score_sheet_document,
    )
    from scorekeeper.domain.refusals import InvalidRequest
    from scorekeeper.jsonio import parse_json
    from scorekeeper.web.problems import problem_document, refusal_document

    try:
        document = parse_json(file.read().decode("utf-8"))
    except UnicodeDecodeError:
        _refuse(problem_document(400, "The input is not UTF-8 text."))
    except ValueError as error:
        _refuse(problem_document(400, f"The input is not valid JSON: {error}."))
    try:
        if is_sheet(document):
            result = score_sheet_document(document)
        else:
            result = score_report_document(document)
    except InvalidRequest as refusal:
        _refuse(refusal_document(refusal.problems, shape=True))
    except InvalidReport as refusal:
        _refuse(refusal_document(refusal.problems))
    if as_table:
        click.echo(render_sheet(result) if is_sheet(document) else render_hand(result))
    else:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))


def _refuse(document: dict[str, Any]) -> None:
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    sys.exit(EXIT_REFUSED)


def render_hand(score: dict[str, Any], totals: list[int] | None = None) -> str:
    """One hand's breakdown as a table: a row per category, a column per side."""
    sides = score["sides"]
    rows: list[list[str]] = [["", *(str(side["name"]) for side in sides)]]
    for category in Category:
        rows.append([category.value, *(f"{side[category.value]:,}" for side in sides)])
    rows.append(["total", *(f"{side['total']:,}" for side in sides)])
    if totals is not None:
        rows.append(["running total", *(f"{total:,}" for total in totals)])
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(width) if column == 0 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - (1 if totals is None else 2), "-" * len(lines[0]))
    return f"Target {score['target']:,} km\n" + "\n".join(lines)


def render_sheet(sheet: dict[str, Any]) -> str:
    """Every hand of a sheet, then where the game stands."""
    parts = [
        f"Hand {number}\n" + render_hand(hand, hand["totals"])
        for number, hand in enumerate(sheet["hands"], start=1)
    ]
    totals = ", ".join(
        f"{name} {total:,}" for name, total in zip(sheet["sides"], sheet["totals"], strict=True)
    )
    if sheet["status"] == "won":
        state = f"Game won by {sheet['winner']}."
    elif sheet["status"] == "tied":
        state = "Game tied between " + " and ".join(sheet["tied"]) + "."
    else:
        state = "Game in progress."
    parts.append(f"Totals: {totals}. {state}")
    return "\n\n".join(parts)


@cli.command("simulate", with_appcontext=False)
@click.option(
    "--players",
    "names",
    default="greedy,random",
    show_default=True,
    help="Computer players, comma-separated: random, greedy, strong, search (the reference "
    "opponents classic and contest play in benchmarks/match.py, from a source checkout).",
)
@click.option("--seats", type=click.Choice(["2", "3", "4", "6"]), default="2", show_default=True)
@click.option("--games", type=click.IntRange(1, 1_000_000), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--variants", default="", help="key=value,key=value (RULES.md §12).")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes playing games side by side (the results do not depend on it).",
)
@click.option("--json", "json_out", type=click.File("w"), help="Write every game's record here.")
@click.option(
    "--replay",
    "replay_file",
    type=click.File("r"),
    help="Replay the games of a --json file, or one game's record as the API gives it, and check "
    "they reproduce.",
)
def simulate_command(
    names: str,
    seats: str,
    games: int,
    seed: int,
    variants: str,
    workers: int,
    json_out: TextIO | None,
    replay_file: TextIO | None,
) -> None:
    """Play games between computer players and summarise them."""
    if replay_file is not None:
        _replay(replay_file)
        return
    try:
        chosen = dict(item.split("=", 1) for item in variants.split(",") if item)
        Rules.for_players(int(seats), chosen)
        for name in names.split(","):
            make_player(name, Random(0))
    except (ValueError, UnknownVariant) as error:
        raise click.BadParameter(str(error)) from None
    results = []
    with click.progressbar(
        simulate(
            names.split(","), int(seats), games, seed, chosen, workers, records=json_out is not None
        ),
        length=games,
        label="Playing",
        file=sys.stderr,
    ) as progress:
        for result in progress:
            results.append(result)
    if json_out is not None:
        json.dump([game.record for game in results], json_out)
    rows = tally(results)
    click.echo(
        f"{'player':<10}{'games':>7}{'wins':>8}{'win rate':>10}{'95% interval':>16}"
        f"{'mean hand':>11}  bonuses"
    )
    for name, record in rows.items():
        summary = record.to_dict()
        low, high = summary["win_rate_95"]
        bonuses = ", ".join(f"{key} {count}" for key, count in sorted(record.bonuses.items()))
        click.echo(
            f"{name:<10}{record.games:>7}{record.wins:>8.1f}{summary['win_rate']:>10.1%}"
            f"{f'{low:.1%}–{high:.1%}':>16}{summary['mean_hand_score'] or 0:>11}  {bonuses}"
        )


def _replay(source: TextIO) -> None:
    """Replay a list of records (``simulate --json``) or one record (the API's ``…/record``)."""
    from scorekeeper.jsonio import parse_json

    try:
        document = parse_json(source.read())
    except ValueError as error:
        click.echo(f"The file is not valid JSON: {error}.", err=True)
        sys.exit(EXIT_REFUSED)
    records = [document] if isinstance(document, dict) else document
    if not isinstance(records, list):
        click.echo("The file holds neither a game's record nor a list of them.", err=True)
        sys.exit(EXIT_REFUSED)
    for number, record in enumerate(records):
        try:
            if not isinstance(record, dict):
                raise InvalidRecord("a game's record is a JSON object")
            VirtualGame.replay(record)
        except InvalidRecord as error:
            click.echo(f"game {number}: {error}", err=True)
            sys.exit(EXIT_REFUSED)
    games = "1 game" if len(records) == 1 else f"{len(records)} games"
    click.echo(f"{games} replayed identically.")
