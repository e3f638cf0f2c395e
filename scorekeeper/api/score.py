"""Stateless scoring: a hand report or a score sheet in, the breakdown out."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from scorekeeper.documents.score_sheets import score_report_document, score_sheet_document
from scorekeeper.web.transactions import reads_only
from scorekeeper.web.words import unnamed_side

bp = Blueprint("scoring", __name__)


@bp.post("/score")
@reads_only
def score() -> dict[str, Any]:
    """Score one hand report; an unnamed side is named in the request's language."""
    return score_report_document(request.get_json(), unnamed_side)


@bp.post("/score/sheet")
@reads_only
def score_sheet() -> dict[str, Any]:
    """Score a whole score sheet and say where the game stands, unnamed sides named in the
    request's language."""
    return score_sheet_document(request.get_json(), unnamed_side)
