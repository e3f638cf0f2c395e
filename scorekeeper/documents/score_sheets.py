"""Stateless scoring of a hand report or a score sheet, shared by the API and the command line.

Each function takes the JSON document as sent and returns the JSON answer; a refusal raises the
engine's :class:`~engine.errors.InvalidReport` with every problem, whatever layer found it.
"""

from __future__ import annotations

from typing import Any

from engine import read_report, read_sheet
from scorekeeper.schemas import HandReportSchema, ScoreSheetSchema, load

_hand_report_schema = HandReportSchema()
_score_sheet_schema = ScoreSheetSchema()


def score_report_document(document: Any) -> dict[str, Any]:
    """The breakdown of a v1 hand report: ``{"target", "sides": [...]}``."""
    _, _, score = read_report(load(_hand_report_schema, document))
    return score.to_dict()


def score_sheet_document(document: Any) -> dict[str, Any]:
    """Every hand of a score sheet, the running totals after each, and the game's state."""
    return read_sheet(load(_score_sheet_schema, document)).to_dict()


def is_sheet(document: Any) -> bool:
    """Whether ``document`` is a score sheet (it lists hands) rather than one hand report."""
    return isinstance(document, dict) and "hands" in document
