"""A player's trend, drawn here as SVG (no chart library): one value after each game, and the
band of its uncertainty where it has one (a rating ± σ).

The page puts the same figures in a table beside the chart, for screen readers and for anyone who
wants the numbers: the chart is a picture of that table, never the only place a figure is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, MARGIN = 320, 160, 24


@dataclass(frozen=True, slots=True)
class Trend:
    """Everything the template needs to draw one trend."""

    width: int
    height: int
    line: str
    """The polyline's points."""
    band: str
    """The polygon of value ± spread, or empty."""
    low: float
    high: float
    low_y: float
    high_y: float
    last_x: float
    last_y: float


def trend_chart(values: Sequence[float], spread: Sequence[float] = ()) -> Trend:
    """A line through ``values`` (one per game, in order) and, if given, the band of each value
    ± its ``spread``, scaled to fit with the lowest and highest marks labelled.

    >>> trend = trend_chart([25.0, 27.5], [8.0, 7.5])
    >>> (trend.low, trend.high, trend.line)
    (17.0, 35.0, '24.0,86.2 296.0,70.7')
    """
    lows = [value - (spread[i] if spread else 0) for i, value in enumerate(values)]
    highs = [value + (spread[i] if spread else 0) for i, value in enumerate(values)]
    low, high = min(lows, default=0.0), max(highs, default=1.0)
    if high == low:
        low, high = low - 1, high + 1
    count = max(len(values) - 1, 1)

    def x(index: int) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * index / count, 1)

    def y(value: float) -> float:
        return round(HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (value - low) / (high - low), 1)

    line = " ".join(f"{x(i)},{y(value)}" for i, value in enumerate(values))
    band = ""
    if spread:
        upper = [f"{x(i)},{y(value)}" for i, value in enumerate(highs)]
        lower = [f"{x(i)},{y(value)}" for i, value in reversed(list(enumerate(lows)))]
        band = " ".join(upper + lower)
    last = len(values) - 1
    return Trend(
        width=WIDTH,
        height=HEIGHT,
        line=line,
        band=band,
        low=round(low, 1),
        high=round(high, 1),
        low_y=y(low),
        high_y=y(high),
        last_x=x(max(last, 0)),
        last_y=y(values[last]) if values else y(low),
    )
