"""Hand scoring: the only place in the product where points are added (RULES.md §9).

Everything else (the API, the CLI, the pages, virtual games) renders or stores the
:class:`HandScore` that :func:`score_hand` returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from engine.categories import Category, HandEnd
from engine.rules import FailedExtension, Rules, Shutout

if TYPE_CHECKING:
    from engine.report import HandReport, SideReport

SAFETY_POINTS = 100
ALL_SAFETIES_POINTS = 300
COUP_FOURRE_POINTS = 300
TRIP_POINTS = 400
DELAYED_ACTION_POINTS = 300
SAFE_TRIP_POINTS = 300
SHUTOUT_POINTS = 500
EXTENSION_POINTS = 200


_POINTS_BY_CATEGORY = attrgetter(*(category.value for category in Category))
"""Every category's points of a :class:`SideScore`, read in one call."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SideScore:
    """One side's breakdown for a hand; ``total`` is the sum of the parts by construction."""

    name: str
    distance: int = 0
    safeties: int = 0
    all_safeties: int = 0
    coup_fourres: int = 0
    trip: int = 0
    delayed_action: int = 0
    safe_trip: int = 0
    extension: int = 0
    shutout: int = 0

    def points(self, category: Category) -> int:
        """The points this side scored in ``category``."""
        points: int = getattr(self, category.value)
        return points

    @property
    def total(self) -> int:
        """The side's score for the hand."""
        return sum(_POINTS_BY_CATEGORY(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SideScore:
        """A breakdown back from its wire form (as stored); ``total`` is recomputed."""
        return cls(name=str(data["name"]), **{c.value: int(data[c.value]) for c in Category})

    def to_dict(self) -> dict[str, str | int]:
        """The wire form: the name, every category (0 where not earned), and the total."""
        return {
            "name": self.name,
            **{category.value: self.points(category) for category in Category},
            "total": self.total,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class HandScore:
    """Every side's breakdown for one hand, in the report's side order."""

    target: int
    end: HandEnd
    sides: tuple[SideScore, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's score for the hand."""
        return tuple(side.total for side in self.sides)

    def to_dict(self) -> dict[str, Any]:
        """The wire form of the v1 contract: ``{"target", "sides": [...]}``."""
        return {"target": self.target, "sides": [side.to_dict() for side in self.sides]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandScore:
        """A hand's breakdown back from its wire form (as stored)."""
        sides = tuple(SideScore.from_dict(side) for side in data["sides"])
        completed = any(side.trip for side in sides)
        return cls(
            target=int(data["target"]),
            end=HandEnd.TRIP_COMPLETED if completed else HandEnd.DECK_EXHAUSTED,
            sides=sides,
        )


def added(totals: Sequence[int], points: Sequence[int], sign: int = 1) -> tuple[int, ...]:
    """``totals`` with a hand's ``points`` added to each side's (taken off, with ``sign`` -1):
    the one place a game's totals move, whether a sheet scores its hands, a stored game keeps
    its totals, or a view adds the totals beside each hand.

    >>> added((1900, 300), (400, 0)), added((2300, 300), (400, 0), -1)
    ((2300, 300), (1900, 300))
    """
    return tuple(total + sign * point for total, point in zip(totals, points, strict=True))


def score_hand(report: HandReport, rules: Rules) -> HandScore:
    """Score a hand report under ``rules``.

    The report is taken as valid (see ``engine.validation``); this function only adds points.
    DU's first worked example (RULES.md §9), a 4-player hand ended by exhaustion:

    >>> from engine.cards import Card
    >>> from engine.report import HandReport, SideReport
    >>> report = HandReport(sides=(
    ...     SideReport(name="N", distance=350,
    ...                safeties=(Card.DRIVING_ACE, Card.EXTRA_TANK),
    ...                coup_fourres=(Card.EXTRA_TANK,)),
    ...     SideReport(name="E", distance=825, safeties=(Card.RIGHT_OF_WAY,)),
    ... ))
    >>> score_hand(report, Rules.for_players(4)).totals
    (850, 925)
    """
    completer = report.completer
    return HandScore(
        target=report.target_in_force(rules),
        end=HandEnd.DECK_EXHAUSTED if completer is None else HandEnd.TRIP_COMPLETED,
        sides=tuple(
            _score_side(report, rules, index, side) for index, side in enumerate(report.sides)
        ),
    )


def _score_side(report: HandReport, rules: Rules, index: int, side: SideReport) -> SideScore:
    completed = report.completer == index
    safeties = len(set(side.safeties))
    return SideScore(
        name=side.name,
        distance=side.distance,
        safeties=SAFETY_POINTS * safeties,
        all_safeties=ALL_SAFETIES_POINTS if safeties == 4 else 0,
        coup_fourres=COUP_FOURRE_POINTS * len(set(side.coup_fourres)),
        trip=TRIP_POINTS if completed else 0,
        delayed_action=DELAYED_ACTION_POINTS if completed and side.delayed_action else 0,
        safe_trip=SAFE_TRIP_POINTS if completed and side.two_hundreds == 0 else 0,
        extension=_extension_points(report, rules, index),
        shutout=_shutout_points(report, rules, index),
    )


def _extension_points(report: HandReport, rules: Rules, index: int) -> int:
    """The 200 of an extension (RULES.md §7, variant ``failed_extension``).

    The caller scores it by reaching the extended target first; otherwise each of the caller's
    opponents scores it (default), or only the side that completed the trip (``nobody``).
    """
    caller = report.extension_called_by
    if caller is None:
        return 0
    completer = report.completer
    if completer == caller:
        earned = index == caller
    elif rules.failed_extension is FailedExtension.OPPONENTS:
        earned = index != caller
    else:
        earned = index == completer
    return EXTENSION_POINTS if earned else 0


def _shutout_points(report: HandReport, rules: Rules, index: int) -> int:
    """Points for opponents left at 0 km (RULES.md §9, variant ``shutout``).

    ``parker`` pays the completing side 500 per opponent side at 0 km; ``single`` pays it one
    500 only when every opponent is at 0 km; ``capot`` pays every side 500 per opponent side at
    0 km, whether or not a trip was completed.
    """
    opponents_at_zero = sum(
        1 for other, side in enumerate(report.sides) if other != index and side.distance == 0
    )
    if rules.shutout is Shutout.CAPOT:
        return SHUTOUT_POINTS * opponents_at_zero
    if report.completer != index:
        return 0
    if rules.shutout is Shutout.SINGLE:
        return SHUTOUT_POINTS if opponents_at_zero == len(report.sides) - 1 else 0
    return SHUTOUT_POINTS * opponents_at_zero
