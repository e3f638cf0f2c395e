"""The Mille Bornes rules engine: cards, rules, hand scoring, claim validation and games.

Pure Python with no I/O, so the web app, the command line and virtual games share one scorer.
"""

from engine.cards import SAFETIES, Card, CardKind
from engine.categories import Category, HandEnd
from engine.errors import EngineError, InvalidReport
from engine.problems import Problem, ProblemCode
from engine.report import HandReport, SideReport
from engine.rules import Rules
from engine.scoring import HandScore, SideScore, score_hand
from engine.sheet import Outcome, ScoreSheet, read_sheet
from engine.validation import check_report, read_report, validate_report

__all__ = [
    "SAFETIES",
    "Card",
    "CardKind",
    "Category",
    "EngineError",
    "Outcome",
    "HandEnd",
    "HandReport",
    "HandScore",
    "InvalidReport",
    "Problem",
    "ProblemCode",
    "Rules",
    "ScoreSheet",
    "SideReport",
    "SideScore",
    "check_report",
    "read_report",
    "read_sheet",
    "score_hand",
    "validate_report",
]
