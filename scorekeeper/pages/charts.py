"""The score chart: running totals after each hand, drawn here as SVG (no chart library).

A line carries its side's index, not a colour: the page draws it in the side's colour from the
style sheet (``.side-N``), the very colour of that side's name, total and bar, in light and dark.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules import GAME_TARGET

WIDTH, HEIGHT, MARGIN = 320, 180, 28


@dataclass(frozen=True, slots=True)
class Line:
    """One side's polyline."""

    name: str
    side: int
    points: str
    last_x: float
    last_y: float


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything the template needs to draw the chart."""

    width: int
    height: int
    lines: tuple[Line, ...]
    target_y: float
    top: int


def score_chart(names: Sequence[str], totals_after: Sequence[Sequence[int]]) -> Chart:
    """Lines from 0 through each side's running total after every hand, with the 5,000 mark."""
    top = max([GAME_TARGET, *(max(totals) for totals in totals_after)])
    hands = max(len(totals_after), 1)

    def x(hand: int) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * hand / hands, 1)

    def y(total: int) -> float:
        return round(HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * total / top, 1)

    lines = []
    for side, name in enumerate(names):
        series = [0, *(totals[side] for totals in totals_after)]
        points = " ".join(f"{x(hand)},{y(total)}" for hand, total in enumerate(series))
        lines.append(Line(name, side, points, x(len(series) - 1), y(series[-1])))
    return Chart(WIDTH, HEIGHT, tuple(lines), y(GAME_TARGET), top)
