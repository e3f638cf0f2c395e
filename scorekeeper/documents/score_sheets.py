"""Stateless scoring of a hand report or a score sheet, shared by the API and the command line.

Each function takes the JSON document as sent and returns the JSON answer; a refusal raises the
engine's :class:`~engine.errors.InvalidReport` with every problem, whatever layer found it.

A side the document leaves unnamed is named by the caller's ``unnamed`` (the API names it in the
request's language, "Camp A" in French); without it the engine's English names stay ("Side A",
and on a sheet "Player A" or "Team A").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import read_report, read_sheet
from engine.report import read_rules
from scorekeeper.domain.games import SideKind
from scorekeeper.schemas import HandReportSchema, ScoreSheetSchema, load

Unnamed = Callable[[SideKind, int], str]
"""The name of the unnamed side at an index, by its kind."""

_hand_report_schema = HandReportSchema()
_score_sheet_schema = ScoreSheetSchema()


def score_report_document(document: Any, unnamed: Unnamed | None = None) -> dict[str, Any]:
    """The breakdown of a v1 hand report: ``{"target", "sides": [...]}``."""
    report = load(_hand_report_schema, document)
    if unnamed:
        _name_sides(report.get("sides") or [], lambda index: unnamed("side", index))
    _, _, score = read_report(report)
    return score.to_dict()


def score_sheet_document(document: Any, unnamed: Unnamed | None = None) -> dict[str, Any]:
    """Every hand of a score sheet, the running totals after each, and the game's state."""
    sheet = load(_score_sheet_schema, document)
    if unnamed:
        _name_sheet(sheet, unnamed)
    return read_sheet(sheet).to_dict()


def is_sheet(document: Any) -> bool:
    """Whether ``document`` is a score sheet (it lists hands) rather than one hand report."""
    return isinstance(document, dict) and "hands" in document


def _name_sides(sides: list[dict[str, Any]], name: Callable[[int], str]) -> None:
    """Give each side of a loaded report that has no name (or a blank one) its name."""
    for index, side in enumerate(sides):
        if not side.get("name"):
            side["name"] = name(index)


def _name_sheet(sheet: dict[str, Any], unnamed: Unnamed) -> None:
    """Name a loaded sheet's sides when it names none, as the engine would (a player or a team
    a side, by the rules), and its hands' unnamed sides as the sheet names them."""
    if "sides" not in sheet:
        rules, _ = read_rules(sheet)
        if rules is None:
            return  # the engine refuses the player count, with no side named
        kind: SideKind = "player" if rules.players_per_side == 1 else "team"
        sheet["sides"] = [unnamed(kind, index) for index in range(rules.sides)]
    names: list[str] = sheet["sides"]
    for hand in sheet.get("hands") or []:
        _name_sides(
            hand.get("sides") or [],
            lambda index: names[index] if index < len(names) else unnamed("side", index),
        )
