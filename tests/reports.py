"""Small builders for hand reports in the v1 wire form, so each test states only what it checks."""

from __future__ import annotations

from typing import Any

ALL_SAFETIES = ["driving_ace", "extra_tank", "puncture_proof", "right_of_way"]


def side(name: str, distance: Any = 0, **facts: Any) -> dict[str, Any]:
    """One side's report; a completed trip in km defaults to no 200s unless told otherwise."""
    report: dict[str, Any] = {"name": name, "distance": distance, **facts}
    if facts.get("completed_trip") and isinstance(distance, int):
        report.setdefault("two_hundreds", 0)
    return report


def hand(players: int, *sides: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A standalone hand report."""
    return {"players": players, **fields, "sides": list(sides)}
