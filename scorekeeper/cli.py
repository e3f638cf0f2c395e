"""The ``scorekeeper`` command: ``score`` a report or sheet, plus Flask's ``run`` and ``db``."""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

import click
from flask.cli import FlaskGroup

from engine.errors import InvalidReport
from engine.scoring import Category
from scorekeeper import create_app
from scorekeeper.jsonio import parse_json
from scorekeeper.problems import InvalidRequest, problem_document, refusal_document
from scorekeeper.scoring import is_sheet, score_report_document, score_sheet_document

EXIT_REFUSED = 1


@click.group(cls=FlaskGroup, create_app=create_app)
def cli() -> None:
    """Mille Bornes scorekeeper: score hands from the command line, or serve the app."""


@cli.command("score", with_appcontext=False)
@click.argument("file", type=click.File("rb"), default="-")
@click.option("--table", "as_table", is_flag=True, help="Print a readable table, not JSON.")
def score_command(file: BinaryIO, as_table: bool) -> None:
    """Score a hand report or a whole score sheet (FILE, or standard input with - or nothing).

    Prints the breakdown as JSON and exits 0; exits 1 with problem details when the report is
    refused, and 2 on a usage error.
    """
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
