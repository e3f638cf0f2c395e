"""Claim validation: every consistency rule of RULES.md §11, checked together.

:func:`check_report` never stops at the first problem: a table fixing its report wants the whole
list at once. Each problem names the side and the facts in a sentence a player understands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.cards import DISTANCE_CARDS_IN_DECK, DISTANCE_VALUES, Card
from engine.errors import InvalidReport
from engine.names import card_name
from engine.problems import Problem, ProblemCode, pointer
from engine.report import HandReport, SideReport, read_hand_report, read_rules
from engine.rules import Rules, Shutout
from engine.scoring import Category, HandScore, score_hand

MAX_KM_WITHOUT_200S = sum(km * count for km, count in DISTANCE_CARDS_IN_DECK.items() if km != 200)
"""2,700 km: every 25, 50, 75 and 100 of the deck laid end to end."""


def km(distance: int) -> str:
    """A distance as a table says it.

    >>> km(1000)
    '1,000 km'
    """
    return f"{distance:,} km"


def _plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 side', '2 sides', '3 safeties'."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def check_report(report: HandReport, rules: Rules | None, prefix: str = "") -> list[Problem]:
    """Every problem with ``report`` under ``rules``; empty when the report is consistent.

    ``rules`` is None when the seated players are unsupported: the checks that need a target
    are skipped, the others still run. ``prefix`` is the JSON pointer of the report inside a
    larger document (a score sheet's ``/hands/3``).
    """
    checks = _Checks(report, rules, prefix)
    return list(checks.run())


def validate_report(report: HandReport, rules: Rules, prefix: str = "") -> HandScore:
    """Score ``report`` if it is consistent; raise :class:`InvalidReport` with every problem."""
    problems = check_report(report, rules, prefix)
    if problems:
        raise InvalidReport(problems)
    return score_hand(report, rules)


def read_report(data: Mapping[str, Any]) -> tuple[Rules, HandReport, HandScore]:
    """Read, check and score a standalone v1 hand report (with ``players`` and ``variants``).

    The JSON types are expected to be right (the boundary schema sees to that); everything the
    rules say about the content is checked here, and all problems are raised together.
    """
    rules, problems = read_rules(data)
    report, reading_problems = read_hand_report(data)
    problems += reading_problems
    problems += check_report(report, rules)
    if problems or rules is None:
        raise InvalidReport(problems)
    return rules, report, score_hand(report, rules)


class _Checks:
    """One pass of every check over one report; ``run`` yields the problems in report order."""

    def __init__(self, report: HandReport, rules: Rules | None, prefix: str) -> None:
        self.report = report
        self.rules = rules
        self.prefix = prefix
        self.caller_known = True
        self.target: int | None = None
        if rules is not None:
            self.target = report.target_in_force(rules)

    def path(self, *parts: str | int) -> str:
        return self.prefix + pointer(*parts)

    def problem(self, code: ProblemCode, path: str, detail: str) -> Problem:
        return Problem(code=code, path=path, detail=detail)

    def run(self) -> Iterator[Problem]:
        yield from self.check_sides_and_target()
        yield from self.check_extension()
        for index, side in enumerate(self.report.sides):
            yield from self.check_distance(index, side)
            yield from self.check_safeties(index, side)
            yield from self.check_trip(index, side)
        yield from self.check_one_trip()
        yield from self.check_safeties_across_sides()
        yield from self.check_deck()
        yield from self.check_claims()

    # -- the hand as a whole -------------------------------------------------------------------

    def check_sides_and_target(self) -> Iterator[Problem]:
        rules = self.rules
        if rules is None:
            return
        sides = len(self.report.sides)
        if sides != rules.sides:
            yield self.problem(
                ProblemCode.SIDES_COUNT_MISMATCH,
                self.path("sides"),
                f"With {rules.players} seated players there are {rules.sides} sides "
                f"({_side_word(rules)}), but the report has {_plural(sides, 'side')}.",
            )
        given = self.report.target
        extended = self.report.extension_called_by is not None and rules.extension_allowed
        expected = rules.target(extended)
        if given is not None and given != expected:
            why = "after an extension" if extended else f"with {rules.players} seated players"
            yield self.problem(
                ProblemCode.TARGET_INVALID,
                self.path("target"),
                f"The target is {km(given)}, but {why} it is {km(expected)}.",
            )
            self.target = expected

    def check_extension(self) -> Iterator[Problem]:
        report, rules = self.report, self.rules
        caller = report.extension_called_by
        if caller is None:
            return
        path = self.path("extension_called_by")
        if rules is not None and not rules.extension_allowed:
            yield self.problem(
                ProblemCode.EXTENSION_NOT_ALLOWED,
                path,
                f"An extension is reported, but the {rules.players}-player game has none: "
                f"its hands are played to {km(rules.base_target)}.",
            )
            self.caller_known = False
            return
        if len(report.extension_callers) > 1:
            named = ", ".join(str(caller) for caller in report.extension_callers)
            yield self.problem(
                ProblemCode.EXTENSION_CALLER_INVALID,
                path,
                f"The report names {len(report.extension_callers)} callers of the extension "
                f"({named}), but a hand has one extension at most, called by one side.",
            )
        if isinstance(caller, bool) or not 0 <= caller < len(report.sides):
            self.caller_known = False
            yield self.problem(
                ProblemCode.EXTENSION_CALLER_INVALID,
                path,
                f"The extension caller is {caller!r}, but the sides are numbered 0 to "
                f"{len(report.sides) - 1}.",
            )
            return
        side = report.sides[caller]
        if rules is not None and side.distance < rules.base_target:
            yield self.problem(
                ProblemCode.EXTENSION_CALLER_BELOW_700,
                path,
                f"{side.name} is said to have called the extension, but it travelled only "
                f"{km(side.distance)}: only the first side to reach {km(rules.base_target)} "
                "may call it.",
            )

    def check_one_trip(self) -> Iterator[Problem]:
        completers = [i for i, side in enumerate(self.report.sides) if side.completed_trip]
        if len(completers) > 1:
            names = _every(self.report.sides[i].name for i in completers)
            for index in completers[1:]:
                yield self.problem(
                    ProblemCode.MULTIPLE_TRIPS_COMPLETED,
                    self.path("sides", index, "completed_trip"),
                    f"{names} report the trip completed, but the hand ends as soon as "
                    "one side completes it.",
                )

    def check_safeties_across_sides(self) -> Iterator[Problem]:
        holders: dict[Card, list[tuple[int, int]]] = {}
        for index, side in enumerate(self.report.sides):
            for position, card in enumerate(side.safeties):
                if card not in side.safeties[:position]:
                    holders.setdefault(card, []).append((index, position))
        for card, places in holders.items():
            if len(places) > 1:
                names = _every(self.report.sides[i].name for i, _ in places)
                index, position = places[-1]
                yield self.problem(
                    ProblemCode.SAFETIES_EXCEED_DECK,
                    self.path("sides", index, "safeties", position),
                    f"{names} list {card_name(card)}, but the deck holds one.",
                )

    def check_deck(self) -> Iterator[Problem]:
        """Distance cards against the deck (RULES.md §11, ``deck_exceeded``)."""
        sides = self.report.sides
        counted = [side.cards for side in sides if side.cards is not None]
        exceeded: set[int] = set()
        for value in DISTANCE_VALUES:
            shown = sum(max(cards.get(value, 0), 0) for cards in counted)
            if shown > DISTANCE_CARDS_IN_DECK[value]:
                exceeded.add(value)
                yield self.problem(
                    ProblemCode.DECK_EXCEEDED,
                    self.path("sides"),
                    f"The sides show {shown} cards of {value} km, but the deck holds "
                    f"{DISTANCE_CARDS_IN_DECK[value]}.",
                )
        two_hundreds = sum(max(side.two_hundreds or 0, 0) for side in sides)
        if 200 not in exceeded and two_hundreds > DISTANCE_CARDS_IN_DECK[200]:
            yield self.problem(
                ProblemCode.DECK_EXCEEDED,
                self.path("sides"),
                f"The sides report {two_hundreds} cards of 200 km in all, but the deck holds "
                f"{DISTANCE_CARDS_IN_DECK[200]}.",
            )
        without_200s = sum(max(side.distance - 200 * _assumed_200s(side), 0) for side in sides)
        if exceeded <= {200} and without_200s > MAX_KM_WITHOUT_200S:
            yield self.problem(
                ProblemCode.DECK_EXCEEDED,
                self.path("sides"),
                f"Apart from 200 km cards the sides travelled {km(without_200s)} in all, but "
                f"the deck's 25, 50, 75 and 100 km cards add up to {km(MAX_KM_WITHOUT_200S)}.",
            )

    # -- one side ------------------------------------------------------------------------------

    def check_distance(self, index: int, side: SideReport) -> Iterator[Problem]:
        name = side.name
        if side.cards is not None:
            for value in DISTANCE_VALUES:
                if side.cards.get(value, 0) < 0:
                    yield self.problem(
                        ProblemCode.DISTANCE_NEGATIVE,
                        self.path("sides", index, "distance", str(value)),
                        f"{name} shows {side.cards[value]} cards of {value} km; a count "
                        "cannot be below 0.",
                    )
        else:
            if side.distance < 0:
                yield self.problem(
                    ProblemCode.DISTANCE_NEGATIVE,
                    self.path("sides", index, "distance"),
                    f"{name} travelled {km(side.distance)}; a distance cannot be below 0.",
                )
            elif side.distance % 25:
                yield self.problem(
                    ProblemCode.DISTANCE_NOT_MULTIPLE_OF_25,
                    self.path("sides", index, "distance"),
                    f"{name} travelled {km(side.distance)}, but distance cards are 25, 50, 75, "
                    "100 and 200 km, so every distance is a multiple of 25.",
                )
            yield from self.check_two_hundreds_given(index, side)
        if self.target is not None and side.distance > self.target:
            yield self.problem(
                ProblemCode.DISTANCE_OVER_TARGET,
                self.path("sides", index, "distance"),
                f"{name} travelled {km(side.distance)}, past the target of {km(self.target)}; "
                "no card may take a side past the target.",
            )
        limit = self.rules.two_hundreds_per_side if self.rules else 2
        if side.two_hundreds is not None and side.two_hundreds > limit:
            where = ("distance", "200") if side.cards is not None else ("two_hundreds",)
            yield self.problem(
                ProblemCode.TOO_MANY_200S_SIDE,
                self.path("sides", index, *where),
                f"{name} played {side.two_hundreds} cards of 200 km, but a side may play at "
                f"most {limit} in a hand.",
            )

    def check_two_hundreds_given(self, index: int, side: SideReport) -> Iterator[Problem]:
        """The 200s a side reports next to a km total (RULES.md §11 notes)."""
        path = self.path("sides", index, "two_hundreds")
        if side.two_hundreds is None:
            if side.completed_trip:
                yield self.problem(
                    ProblemCode.INVALID_FIELD,
                    path,
                    f"{side.name} completed the trip with a distance given in km, so the report "
                    "must say how many 200 km cards it played (two_hundreds): it decides the "
                    "safe trip.",
                )
            return
        if side.two_hundreds < 0:
            yield self.problem(
                ProblemCode.DISTANCE_NEGATIVE,
                path,
                f"{side.name} played {side.two_hundreds} cards of 200 km; a count cannot be "
                "below 0.",
            )
        elif side.distance >= 0 and 200 * side.two_hundreds > side.distance:
            yield self.problem(
                ProblemCode.TWO_HUNDREDS_EXCEED_DISTANCE,
                path,
                f"{side.name} played {side.two_hundreds} cards of 200 km "
                f"({km(200 * side.two_hundreds)}), more than its {km(side.distance)}.",
            )

    def check_safeties(self, index: int, side: SideReport) -> Iterator[Problem]:
        seen: set[Card] = set()
        for position, card in enumerate(side.safeties):
            if card in seen:
                yield self.problem(
                    ProblemCode.SAFETIES_EXCEED_DECK,
                    self.path("sides", index, "safeties", position),
                    f"{side.name} lists {card_name(card)} twice, but the deck holds one.",
                )
            seen.add(card)
        for position, card in enumerate(side.coup_fourres):
            if card not in side.safeties:
                yield self.problem(
                    ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                    self.path("sides", index, "coup_fourres", position),
                    f"{side.name} reports a coup-fourré with {card_name(card)}, but it is not "
                    "among its safeties: a coup-fourré is a safety laid down out of turn.",
                )
        if len(side.coup_fourres) > len(side.safeties):
            yield self.problem(
                ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                self.path("sides", index, "coup_fourres"),
                f"{side.name} reports {_plural(len(side.coup_fourres), 'coup-fourré')} but "
                f"played only {_plural(len(side.safeties), 'safety', 'safeties')}.",
            )
        else:
            for position, card in enumerate(side.coup_fourres):
                if card not in side.coup_fourres[:position]:
                    continue
                yield self.problem(
                    ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                    self.path("sides", index, "coup_fourres", position),
                    f"{side.name} reports {card_name(card)} as a coup-fourré twice, but there "
                    "is one in the deck.",
                )

    def check_trip(self, index: int, side: SideReport) -> Iterator[Problem]:
        target = self.target
        if side.delayed_action and not side.completed_trip:
            yield self.problem(
                ProblemCode.DELAYED_ACTION_WITHOUT_TRIP,
                self.path("sides", index, "delayed_action"),
                f"{side.name} reports a delayed action, but it did not complete the trip: a "
                "delayed action is the completion of the trip after the draw pile ran out.",
            )
        if target is None:
            return
        if side.completed_trip and side.distance != target:
            yield self.problem(
                ProblemCode.TRIP_NOT_AT_TARGET,
                self.path("sides", index, "completed_trip"),
                f"{side.name} reports the trip completed, but it travelled "
                f"{km(side.distance)} and the target is {km(target)}.",
            )
        if side.distance == target and not side.completed_trip:
            yield self.problem(
                ProblemCode.TARGET_REACHED_NOT_COMPLETED,
                self.path("sides", index, "completed_trip"),
                f"{side.name} travelled {km(side.distance)}, the target, but does not report "
                "the trip completed.",
            )

    # -- claims --------------------------------------------------------------------------------

    def check_claims(self) -> Iterator[Problem]:
        """A claim stands exactly when its category is worth more than 0 (RULES.md §11)."""
        if self.rules is None or not any(side.claims for side in self.report.sides):
            return
        score = score_hand(self.report, self.rules)
        for index, side in enumerate(self.report.sides):
            for position, claim in enumerate(side.claims):
                earned = score.sides[index].points(claim) > 0
                if claim is Category.EXTENSION and not self.rules.extension_allowed:
                    earned = False
                if not earned:
                    yield self.problem(
                        ProblemCode.CLAIM_NOT_EARNED,
                        self.path("sides", index, "claims", position),
                        f"{side.name} claims {_CLAIM_WORDS[claim]}, but "
                        f"{self.why_not(index, claim)}.",
                    )

    def why_not(self, index: int, claim: Category) -> str:
        """The facts that make ``claim`` worth nothing to side ``index``."""
        report, rules = self.report, self.rules
        assert rules is not None
        side = report.sides[index]
        completer = report.completer
        others = [(i, other) for i, other in enumerate(report.sides) if i != index]
        not_completed = f"{side.name} did not complete the trip"
        if completer is not None and completer != index:
            not_completed = f"{report.sides[completer].name} completed the trip"
        match claim:
            case Category.ALL_SAFETIES:
                played = _plural(len(side.safeties), "safety", "safeties")
                return f"{side.name} played {played}, not all four"
            case Category.TRIP:
                return not_completed
            case Category.DELAYED_ACTION:
                if completer != index:
                    return not_completed
                return "the trip was not completed after the draw pile ran out"
            case Category.SAFE_TRIP:
                if completer != index:
                    return not_completed
                return f"{side.name} played {_plural(side.two_hundreds or 0, 'card')} of 200 km"
            case Category.SHUTOUT:
                if rules.shutout is not Shutout.CAPOT and completer != index:
                    return not_completed
                return _and(
                    f"{other.name} travelled {km(other.distance)}"
                    for _, other in others
                    if other.distance != 0
                )
            case _:
                return self.why_no_extension(index)

    def why_no_extension(self, index: int) -> str:
        report = self.report
        caller = report.extension_called_by
        side = report.sides[index]
        rules = self.rules
        if rules is not None and not rules.extension_allowed:
            return f"the {rules.players}-player game has no extension"
        if caller is None or not self.caller_known:
            return "no extension was called in this hand"
        completer = report.completer
        if caller == index:
            return f"{side.name} called the extension and did not complete the trip"
        if completer is None:
            return "no side completed the trip after the extension"
        if completer == caller:
            return f"{report.sides[caller].name} called the extension and completed the trip"
        return (
            f"{report.sides[completer].name} completed the trip, and under the "
            "failed_extension: nobody variant only the side that completes it scores the 200"
        )


_CLAIM_WORDS: dict[Category, str] = {
    Category.ALL_SAFETIES: "the bonus for all four safeties",
    Category.TRIP: "the trip",
    Category.DELAYED_ACTION: "a delayed action",
    Category.SAFE_TRIP: "a safe trip",
    Category.EXTENSION: "the extension bonus",
    Category.SHUTOUT: "a shutout",
}


def _assumed_200s(side: SideReport) -> int:
    """200s counted for the 2,700 km check: as reported, or the most the distance allows."""
    if side.two_hundreds is not None:
        return side.two_hundreds
    return min(2, max(side.distance, 0) // 200)


def _side_word(rules: Rules) -> str:
    return "one per player" if rules.players_per_side == 1 else "teams of two"


def _every(items: Iterable[str]) -> str:
    """'A and B both', 'A, B and C all'."""
    words = list(items)
    return _and(words) + (" both" if len(words) == 2 else " all")


def _and(items: Iterable[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
