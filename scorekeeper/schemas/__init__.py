"""marshmallow schemas: the JSON shapes the API and the command line accept and return."""

from scorekeeper.schemas.loading import load
from scorekeeper.schemas.reports import HandReportSchema, ScoreSheetSchema

__all__ = ["HandReportSchema", "ScoreSheetSchema", "load"]
