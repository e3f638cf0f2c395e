"""Hypothesis strategies for hand reports that a legal hand could produce (RULES.md §2–§9)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from engine.cards import DISTANCE_CARDS_IN_DECK, SAFETIES
from engine.rules import FailedExtension, Rules, Shutout, TwoHundredsLimit
from engine.validation import MAX_KM_WITHOUT_200S

SCORING_VARIANTS = st.fixed_dictionaries(
    {},
    optional={
        "shutout": st.sampled_from([v.value for v in Shutout]),
        "failed_extension": st.sampled_from([v.value for v in FailedExtension]),
        "two_hundreds_limit": st.sampled_from([v.value for v in TwoHundredsLimit]),
    },
)


def _cards_for(km: int, two_hundreds: int, stock: dict[int, int]) -> dict[str, int] | None:
    """Distance cards making ``km`` with exactly ``two_hundreds`` 200s, taken from ``stock``."""
    remainder = km - 200 * two_hundreds
    counts = {200: two_hundreds}
    for value in (100, 75, 50, 25):
        use = min(remainder // value, stock[value])
        counts[value] = use
        remainder -= use * value
    if remainder:
        return None
    for value, used in counts.items():
        stock[value] -= used
    return {str(value): counts[value] for value in sorted(counts)}


@st.composite
def legal_hands(
    draw: st.DrawFn, players: int | None = None, defaults: bool = False
) -> dict[str, Any]:
    """A v1 hand report consistent with every rule: accepted, whatever it scores."""
    if players is None:
        players = draw(st.sampled_from([2, 3, 4, 6]))
    variants = {} if defaults else draw(SCORING_VARIANTS)
    rules = Rules.for_players(players, variants)
    sides = rules.sides
    extended = rules.extension_allowed and draw(st.booleans())
    target = rules.target(extended)
    caller = draw(st.integers(0, sides - 1)) if extended else None
    completer = draw(st.none() | st.integers(0, sides - 1))

    two_hundreds_left = DISTANCE_CARDS_IN_DECK[200]
    km_left = MAX_KM_WITHOUT_200S
    stock = dict(DISTANCE_CARDS_IN_DECK)
    reports: list[dict[str, Any]] = []
    for index in range(sides):
        lowest = rules.base_target if index == caller else 0
        if index == completer:
            distance = target
        else:
            distance = 25 * draw(st.integers(lowest // 25, (target - 25) // 25))
        most = min(rules.two_hundreds_per_side, two_hundreds_left, distance // 200)
        fewest = max(0, -(-(distance - km_left) // 200))
        assume(fewest <= most)
        two_hundreds = draw(st.integers(fewest, most))
        two_hundreds_left -= two_hundreds
        km_left -= distance - 200 * two_hundreds
        report: dict[str, Any] = {"name": f"Side {index}", "distance": distance}
        cards = _cards_for(distance, two_hundreds, stock) if draw(st.booleans()) else None
        if cards is not None:
            report["distance"] = cards
        elif index == completer or draw(st.booleans()):
            report["two_hundreds"] = two_hundreds
        report["completed_trip"] = index == completer
        report["delayed_action"] = index == completer and draw(st.booleans())
        report["safeties"] = []
        report["coup_fourres"] = []
        reports.append(report)

    for safety in SAFETIES:
        holder = draw(st.none() | st.integers(0, sides - 1))
        if holder is not None:
            reports[holder]["safeties"].append(str(safety))
            if draw(st.booleans()):
                reports[holder]["coup_fourres"].append(str(safety))
    hand: dict[str, Any] = {"players": players, "variants": variants, "sides": reports}
    if caller is not None:
        hand["extension_called_by"] = caller
    if draw(st.booleans()):
        hand["target"] = target
    return hand
