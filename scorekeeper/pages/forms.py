"""The hand-entry form: to the v1 hand report and back, so the pages and the API share one path.

Field names: ``s{i}-d{25..200}`` card counts, ``s{i}-km`` a plain total with ``s{i}-two_hundreds``,
``s{i}-safety-{name}`` and ``s{i}-cf-{name}`` toggles, ``s{i}-claim-{name}``; ``completed`` and
``extension`` name a side's index (or nothing), ``delayed`` is a checkbox: the one place the
form says the trip was completed after the draw pile ran out (no side claims it separately).
``chosen`` lists the answers a person chose, as opposed to those the script suggested, so that a
form shown again (refused, a stepper tapped, another language) still tells them apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.cards import DISTANCE_VALUES, SAFETIES, Card
from engine.problems import Problem, ProblemCode, pointer
from engine.rules import Rules
from engine.sentences import N_

CLAIMS = ("shutout", "safe_trip", "extension", "all_safeties", "trip")
"""The claims the form offers. A delayed action is said once, by the box beside who completed the
trip: a claim of it too would be a second control for one fact, which could disagree."""


def suggestible_answers(sides: int) -> tuple[str, ...]:
    """The answers the form's script suggests until a person gives them: who completed the trip
    and who called the extension (from the distances), and each side's 200s (0 for the side that
    completed the trip with a km total)."""
    return ("completed", "extension", *(f"s{index}-two_hundreds" for index in range(sides)))


def chosen_answers(values: Mapping[str, str], sides: int) -> list[str]:
    """Which of the suggestible answers in ``values`` a person chose, so the script never
    changes them. A fresh form (no values) has none yet; a form the script sent says which, in
    its ``chosen`` field; any other (a stored hand's, a form sent without the script, where the
    field stays disabled) was filled in by hand throughout: all of them."""
    answers = suggestible_answers(sides)
    if not values:
        return []
    if "chosen" in values:
        return [name for name in values["chosen"].split() if name in answers]
    return list(answers)


def card_limits(rules: Rules) -> dict[int, int]:
    """The most cards of each distance value a side can have played, by value: each stepper's
    limit."""
    return {value: rules.most_played(Card(f"distance_{value}")) for value in DISTANCE_VALUES}


STEP = re.compile(r"s(?P<side>\d{1,2})-d(?P<value>\d{2,3}):(?P<by>-1|1)")
"""A stepper's button as the form posts it: ``s0-d25:1`` (one more 25 km card for the first
side), ``s0-d25:-1`` (one fewer)."""


def stepped(form: Mapping[str, str], step: str, sides: int, rules: Rules) -> dict[str, str]:
    """The form with one stepper tapped, as the script does it in place (the form without the
    script posts it): the count moves within its limits, the side's cards become its distance
    (its km total clears) and a 200 counted is a 200 said. A step the form cannot have sent
    leaves the form as it was."""
    values = dict(form)
    limits = card_limits(rules)
    found = STEP.fullmatch(step)
    if found is None or int(found["side"]) >= sides or int(found["value"]) not in limits:
        return values
    prefix, value = f"s{int(found['side'])}-", int(found["value"])
    count = (whole_number(values.get(f"{prefix}d{value}")) or 0) + int(found["by"])
    values[f"{prefix}d{value}"] = str(max(0, min(count, limits[value])))
    values[f"{prefix}km"] = ""
    if value == 200:
        values[f"{prefix}two_hundreds"] = values[f"{prefix}d{value}"]
    return values


def whole_number(text: str | None) -> int | None:
    """A whole number typed in a form field (ASCII digits, at most nine); None otherwise."""
    text = (text or "").strip()
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) <= 9:
        return -int(digits) if digits != text else int(digits)
    return None


def _number(form: Mapping[str, str], name: str, path: str, problems: list[Problem]) -> int | None:
    text = (form.get(name) or "").strip()
    if not text:
        return None
    value = whole_number(text)
    if value is None:
        problems.append(
            Problem.of(
                ProblemCode.INVALID_FIELD, path, N_("“%(typed)s” is not a number."), typed=text
            )
        )
    return value


def report_from_form(form: Mapping[str, str], sides: int) -> tuple[dict[str, Any], list[Problem]]:
    """The hand report the form describes, and the problems with what could not be read."""
    problems: list[Problem] = []
    completed = form.get("completed", "")
    extension = form.get("extension", "")
    report: dict[str, Any] = {"sides": []}
    for index in range(sides):
        prefix = f"s{index}-"
        path = pointer("sides", index)
        side: dict[str, Any] = {}
        km = _number(form, prefix + "km", path + "/distance", problems)
        if km is not None:
            side["distance"] = km
            two_hundreds = _number(form, prefix + "two_hundreds", path + "/two_hundreds", problems)
            side["two_hundreds"] = two_hundreds
        else:
            side["distance"] = {
                str(value): _number(form, f"{prefix}d{value}", f"{path}/distance/{value}", problems)
                or 0
                for value in DISTANCE_VALUES
            }
        coup_fourres = [str(s) for s in SAFETIES if form.get(f"{prefix}cf-{s}")]
        # A coup-fourré is a way of laying the safety (RULES.md §6): ticking it says the safety
        # was laid, even where the safety's own box was left empty.
        side["safeties"] = [
            str(s) for s in SAFETIES if form.get(f"{prefix}safety-{s}") or str(s) in coup_fourres
        ]
        side["coup_fourres"] = coup_fourres
        side["completed_trip"] = completed == str(index)
        side["delayed_action"] = completed == str(index) and bool(form.get("delayed"))
        claims = [claim for claim in CLAIMS if form.get(f"{prefix}claim-{claim}")]
        if claims:
            side["claims"] = claims
        report["sides"].append(side)
    caller = whole_number(extension)
    if caller is not None:
        report["extension_called_by"] = caller
    problems += _delayed_without_trip(form, sides)
    return report, problems


def _delayed_without_trip(form: Mapping[str, str], sides: int) -> list[Problem]:
    """A delayed action ticked while no side completed the trip: a contradiction, refused with
    its reason rather than dropped in silence (the box belongs to the side that completed it)."""
    completer = whole_number(form.get("completed"))
    if not form.get("delayed") or (completer is not None and 0 <= completer < sides):
        return []
    return [
        Problem.of(
            ProblemCode.DELAYED_ACTION_WITHOUT_TRIP,
            pointer("delayed_action"),
            N_(
                "A delayed action is ticked, but nobody completed the trip: choose the side that "
                "completed it after the draw pile ran out, or untick the delayed action."
            ),
        )
    ]


def nothing_entered(report: Mapping[str, Any]) -> bool:
    """Whether the report says nothing happened: no side travelled, laid a safety (or a
    coup-fourré) or claimed anything, nobody completed the trip or called the extension. The
    form as it opens reads so (nobody completing the trip is its default): one tap on Save."""
    if report.get("extension_called_by") is not None:
        return False
    for side in report.get("sides", []):
        distance = side.get("distance") or 0
        if isinstance(distance, Mapping):
            distance = sum(int(value) * (count or 0) for value, count in distance.items())
        if distance or side.get("two_hundreds") or side.get("completed_trip"):
            return False
        if side.get("safeties") or side.get("coup_fourres") or side.get("claims"):
            return False
    return True


def form_from_report(report: Mapping[str, Any]) -> dict[str, str]:
    """The form's fields filled in from a stored report (to correct it, or after a refusal)."""
    form: dict[str, str] = {}
    for index, side in enumerate(report.get("sides", [])):
        prefix = f"s{index}-"
        distance = side.get("distance", 0)
        if isinstance(distance, Mapping):
            for value, count in distance.items():
                form[f"{prefix}d{value}"] = str(count)
        else:
            form[prefix + "km"] = str(distance)
            if side.get("two_hundreds") is not None:
                form[prefix + "two_hundreds"] = str(side["two_hundreds"])
        for safety in side.get("safeties", []):
            form[f"{prefix}safety-{safety}"] = "on"
        for safety in side.get("coup_fourres", []):
            form[f"{prefix}cf-{safety}"] = "on"
        for claim in side.get("claims", []):
            if claim in CLAIMS:  # a delayed action's claim is the box below, set from the side
                form[f"{prefix}claim-{claim}"] = "on"
        if side.get("completed_trip"):
            form["completed"] = str(index)
            if side.get("delayed_action"):
                form["delayed"] = "on"
    if report.get("extension_called_by") is not None:
        form["extension"] = str(report["extension_called_by"])
    return form


def problems_by_side(
    problems: list[Problem], sides: int
) -> tuple[list[Problem], list[list[Problem]]]:
    """Problems about the hand as a whole, and those about each side (shown in its fieldset)."""
    general: list[Problem] = []
    per_side: list[list[Problem]] = [[] for _ in range(sides)]
    for problem in problems:
        parts = problem.path.split("/")
        if len(parts) > 2 and parts[1] == "sides" and parts[2].isdigit() and int(parts[2]) < sides:
            per_side[int(parts[2])].append(problem)
        else:
            general.append(problem)
    return general, per_side
