"""Claim validation: every consistency rule of RULES.md §11, checked together.

:func:`check_report` never stops at the first problem: a table fixing its report wants the whole
list at once. Each problem names the side and the facts in a sentence a player understands.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.cards import DISTANCE_CARDS_IN_DECK, DISTANCE_VALUES, Card
from engine.categories import Category
from engine.errors import InvalidReport
from engine.problems import Problem, ProblemCode, pointer
from engine.report import HandReport, SideReport, read_hand_report, read_rules
from engine.rules import Rules, Shutout
from engine.scoring import HandScore, score_hand
from engine.sentences import N_, Reason

MAX_KM_WITHOUT_200S = sum(km * count for km, count in DISTANCE_CARDS_IN_DECK.items() if km != 200)
"""2,700 km: every 25, 50, 75 and 100 of the deck laid end to end."""


def check_report(report: HandReport, rules: Rules | None, prefix: str = "") -> list[Problem]:
    """Every problem with ``report`` under ``rules``; empty when the report is consistent.

    ``rules`` is None when the seated players are unsupported: the checks that need a target
    are skipped, the others still run. ``prefix`` is the JSON pointer of the report inside a
    larger document (a score sheet's ``/hands/3``).
    """
    return list(_Checks(report, rules, prefix).run())


def validate_report(
    report: HandReport, rules: Rules, prefix: str = "", problems: Sequence[Problem] = ()
) -> HandScore:
    """Check ``report`` and score it: the one way a hand is checked and scored (a stored game's,
    a preview's, an import's, a standalone report's). Raises :class:`InvalidReport` with every
    problem at once, ``problems`` (found while reading it) first. The hand is scored once: the
    claims' check and the answer share one score."""
    checks = _Checks(report, rules, prefix)
    found = [*problems, *checks.run()]
    if found:
        raise InvalidReport(found)
    return checks.score()


def read_report(data: Mapping[str, Any]) -> tuple[Rules, HandReport, HandScore]:
    """Read, check and score a standalone v1 hand report (with ``players`` and ``variants``).

    The JSON types are expected to be right (the boundary schema sees to that); everything the
    rules say about the content is checked here, and all problems are raised together.
    """
    rules: Rules | None  # declared, or mypyc infers the type None and will not compile it
    rules, problems = read_rules(data)
    report, reading_problems = read_hand_report(data)
    problems += reading_problems
    if rules is None:
        raise InvalidReport(problems + check_report(report, rules))
    return rules, report, validate_report(report, rules, problems=problems)


class _Checks:
    """One pass of every check over one report; ``run`` yields the problems in report order."""

    def __init__(self, report: HandReport, rules: Rules | None, prefix: str) -> None:
        self.report = report
        self.rules = rules
        self.prefix = prefix
        self.caller_known = True
        self.target: int | None = None
        self._score: HandScore | None = None
        if rules is not None:
            self.target = report.target_in_force(rules)

    def score(self) -> HandScore:
        """The report's score, computed once (the claims' check asks it, then the caller)."""
        assert self.rules is not None
        if self._score is None:
            self._score = score_hand(self.report, self.rules)
        return self._score

    def path(self, *parts: str | int) -> str:
        return self.prefix + pointer(*parts)

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
            yield Problem.of(
                ProblemCode.SIDES_COUNT_MISMATCH,
                self.path("sides"),
                N_(
                    "With %(players)s seated players there are %(sides)s sides, one per player, "
                    "but the report has %(given)s."
                )
                if rules.players_per_side == 1
                else N_(
                    "With %(players)s seated players there are %(sides)s sides, teams of two, "
                    "but the report has %(given)s."
                ),
                players=rules.players,
                sides=rules.sides,
                given=sides,
            )
        given = self.report.target
        extended = self.report.extension_called_by is not None and rules.extension_allowed
        expected = rules.target(extended)
        if given is not None and given != expected:
            yield Problem.of(
                ProblemCode.TARGET_INVALID,
                self.path("target"),
                N_("The target is %(given)s km, but after an extension it is %(expected)s km.")
                if extended
                else N_(
                    "The target is %(given)s km, but with %(players)s seated players it is "
                    "%(expected)s km."
                ),
                given=given,
                expected=expected,
                players=rules.players,
            )
            self.target = expected

    def check_extension(self) -> Iterator[Problem]:
        report, rules = self.report, self.rules
        caller = report.extension_called_by
        if caller is None:
            return
        path = self.path("extension_called_by")
        if rules is not None and not rules.extension_allowed:
            yield Problem.of(
                ProblemCode.EXTENSION_NOT_ALLOWED,
                path,
                N_(
                    "An extension is reported, but the %(players)s-player game has none: its "
                    "hands are played to %(target)s km."
                ),
                players=rules.players,
                target=rules.base_target,
            )
            self.caller_known = False
            return
        if len(report.extension_callers) > 1:
            yield Problem.of(
                ProblemCode.EXTENSION_CALLER_INVALID,
                path,
                N_(
                    "The report names %(count)s callers of the extension (%(callers)s), but a "
                    "hand has one extension at most, called by one side."
                ),
                count=len(report.extension_callers),
                callers=", ".join(str(caller) for caller in report.extension_callers),
            )
        if isinstance(caller, bool) or not 0 <= caller < len(report.sides):
            self.caller_known = False
            yield Problem.of(
                ProblemCode.EXTENSION_CALLER_INVALID,
                path,
                N_("The extension caller is %(caller)s, but the sides are numbered 0 to %(last)s."),
                caller=repr(caller),
                last=len(report.sides) - 1,
            )
            return
        side = report.sides[caller]
        if rules is not None and side.distance < rules.base_target:
            yield Problem.of(
                ProblemCode.EXTENSION_CALLER_BELOW_700,
                path,
                N_(
                    "The extension is said to be called by %(side)s, who travelled only "
                    "%(distance)s km: only the first side to reach %(target)s km may call it."
                ),
                side=side.name,
                distance=side.distance,
                target=rules.base_target,
            )

    def check_one_trip(self) -> Iterator[Problem]:
        completers = [i for i, side in enumerate(self.report.sides) if side.completed_trip]
        if len(completers) > 1:
            names = tuple(self.report.sides[i].name for i in completers)
            for index in completers[1:]:
                yield Problem.of(
                    ProblemCode.MULTIPLE_TRIPS_COMPLETED,
                    self.path("sides", index, "completed_trip"),
                    N_(
                        "The trip is reported completed by %(sides)s, but the hand ends as soon "
                        "as one side completes it."
                    ),
                    sides=names,
                )

    def check_safeties_across_sides(self) -> Iterator[Problem]:
        holders: dict[Card, list[tuple[int, int]]] = {}
        for index, side in enumerate(self.report.sides):
            for position, card in enumerate(side.safeties):
                if card not in side.safeties[:position]:
                    holders.setdefault(card, []).append((index, position))
        for card, places in holders.items():
            if len(places) > 1:
                index, position = places[-1]
                yield Problem.of(
                    ProblemCode.SAFETIES_EXCEED_DECK,
                    self.path("sides", index, "safeties", position),
                    N_("%(card)s is listed by %(sides)s, but the deck holds one."),
                    card=card,
                    sides=tuple(self.report.sides[i].name for i, _ in places),
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
                yield Problem.of(
                    ProblemCode.DECK_EXCEEDED,
                    self.path("sides"),
                    N_(
                        "The sides show %(shown)s cards of %(value)s km, but the deck holds "
                        "%(deck)s."
                    ),
                    shown=shown,
                    value=value,
                    deck=DISTANCE_CARDS_IN_DECK[value],
                )
        two_hundreds = sum(max(side.two_hundreds or 0, 0) for side in sides)
        if 200 not in exceeded and two_hundreds > DISTANCE_CARDS_IN_DECK[200]:
            yield Problem.of(
                ProblemCode.DECK_EXCEEDED,
                self.path("sides"),
                N_(
                    "The sides report %(shown)s cards of 200 km in all, but the deck holds "
                    "%(deck)s."
                ),
                shown=two_hundreds,
                deck=DISTANCE_CARDS_IN_DECK[200],
            )
        without_200s = sum(max(side.distance - 200 * _assumed_200s(side), 0) for side in sides)
        if exceeded <= {200} and without_200s > MAX_KM_WITHOUT_200S:
            yield Problem.of(
                ProblemCode.DECK_EXCEEDED,
                self.path("sides"),
                N_(
                    "Apart from 200 km cards the sides travelled %(distance)s km in all, but the "
                    "deck's 25, 50, 75 and 100 km cards add up to %(most)s km."
                ),
                distance=without_200s,
                most=MAX_KM_WITHOUT_200S,
            )

    # -- one side ------------------------------------------------------------------------------

    def check_distance(self, index: int, side: SideReport) -> Iterator[Problem]:
        name = side.name
        if side.cards is not None:
            for value in DISTANCE_VALUES:
                if side.cards.get(value, 0) < 0:
                    yield Problem.of(
                        ProblemCode.DISTANCE_NEGATIVE,
                        self.path("sides", index, "distance", str(value)),
                        N_(
                            "%(side)s shows %(count)s cards of %(value)s km; a count cannot be "
                            "below 0."
                        ),
                        side=name,
                        count=side.cards[value],
                        value=value,
                    )
        else:
            if side.distance < 0:
                yield Problem.of(
                    ProblemCode.DISTANCE_NEGATIVE,
                    self.path("sides", index, "distance"),
                    N_("%(side)s travelled %(distance)s km; a distance cannot be below 0."),
                    side=name,
                    distance=side.distance,
                )
            elif side.distance % 25:
                yield Problem.of(
                    ProblemCode.DISTANCE_NOT_MULTIPLE_OF_25,
                    self.path("sides", index, "distance"),
                    N_(
                        "%(side)s travelled %(distance)s km, but distance cards are 25, 50, 75, "
                        "100 and 200 km, so every distance is a multiple of 25."
                    ),
                    side=name,
                    distance=side.distance,
                )
            yield from self.check_two_hundreds_given(index, side)
        if self.target is not None and side.distance > self.target:
            yield Problem.of(
                ProblemCode.DISTANCE_OVER_TARGET,
                self.path("sides", index, "distance"),
                N_(
                    "%(side)s travelled %(distance)s km, past the target of %(target)s km; no "
                    "card may take a side past the target."
                ),
                side=name,
                distance=side.distance,
                target=self.target,
            )
        limit = self.rules.two_hundreds_per_side if self.rules else 2
        if side.two_hundreds is not None and side.two_hundreds > limit:
            where = ("distance", "200") if side.cards is not None else ("two_hundreds",)
            yield Problem.of(
                ProblemCode.TOO_MANY_200S_SIDE,
                self.path("sides", index, *where),
                N_(
                    "%(side)s played %(count)s cards of 200 km, but a side may play at most "
                    "%(limit)s in a hand."
                ),
                side=name,
                count=side.two_hundreds,
                limit=limit,
            )

    def check_two_hundreds_given(self, index: int, side: SideReport) -> Iterator[Problem]:
        """The 200s a side reports next to a km total (RULES.md §11 notes)."""
        path = self.path("sides", index, "two_hundreds")
        if side.two_hundreds is None:
            if side.completed_trip:
                yield Problem.of(
                    ProblemCode.INVALID_FIELD,
                    path,
                    N_(
                        "%(side)s completed the trip with a distance given in km, so the report "
                        "must say how many 200 km cards were played: it decides the safe trip."
                    ),
                    side=side.name,
                )
            return
        if side.two_hundreds < 0:
            yield Problem.of(
                ProblemCode.DISTANCE_NEGATIVE,
                path,
                N_("%(side)s played %(count)s cards of 200 km; a count cannot be below 0."),
                side=side.name,
                count=side.two_hundreds,
            )
        elif side.distance >= 0 and 200 * side.two_hundreds > side.distance:
            yield Problem.of(
                ProblemCode.TWO_HUNDREDS_EXCEED_DISTANCE,
                path,
                N_(
                    "The 200 km cards declared for %(side)s (%(count)s, so %(cards)s km) exceed "
                    "the %(distance)s km travelled."
                ),
                side=side.name,
                count=side.two_hundreds,
                cards=200 * side.two_hundreds,
                distance=side.distance,
            )

    def check_safeties(self, index: int, side: SideReport) -> Iterator[Problem]:
        seen: set[Card] = set()
        for position, card in enumerate(side.safeties):
            if card in seen:
                yield Problem.of(
                    ProblemCode.SAFETIES_EXCEED_DECK,
                    self.path("sides", index, "safeties", position),
                    N_("%(card)s is listed twice for %(side)s, but the deck holds one."),
                    card=card,
                    side=side.name,
                )
            seen.add(card)
        for position, card in enumerate(side.coup_fourres):
            if card not in side.safeties:
                yield Problem.of(
                    ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                    self.path("sides", index, "coup_fourres", position),
                    N_(
                        "A coup-fourré with %(card)s is reported for %(side)s, but that safety "
                        "is not among the ones played: a coup-fourré is a safety laid down out "
                        "of turn."
                    ),
                    card=card,
                    side=side.name,
                )
        if len(side.coup_fourres) > len(side.safeties):
            yield Problem.of(
                ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                self.path("sides", index, "coup_fourres"),
                N_(
                    "More coups-fourrés are reported for %(side)s (%(coups)s) than safeties "
                    "played (%(safeties)s)."
                ),
                side=side.name,
                coups=len(side.coup_fourres),
                safeties=len(side.safeties),
            )
        else:
            for position, card in enumerate(side.coup_fourres):
                if card not in side.coup_fourres[:position]:
                    continue
                yield Problem.of(
                    ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
                    self.path("sides", index, "coup_fourres", position),
                    N_(
                        "%(card)s is reported twice as a coup-fourré for %(side)s, but the deck "
                        "holds one."
                    ),
                    card=card,
                    side=side.name,
                )

    def check_trip(self, index: int, side: SideReport) -> Iterator[Problem]:
        target = self.target
        if side.delayed_action and not side.completed_trip:
            yield Problem.of(
                ProblemCode.DELAYED_ACTION_WITHOUT_TRIP,
                self.path("sides", index, "delayed_action"),
                N_(
                    "A delayed action is reported for %(side)s, who did not complete the trip: "
                    "a delayed action is the completion of the trip after the draw pile ran out."
                ),
                side=side.name,
            )
        if target is None:
            return
        if side.completed_trip and side.distance != target:
            yield Problem.of(
                ProblemCode.TRIP_NOT_AT_TARGET,
                self.path("sides", index, "completed_trip"),
                N_(
                    "The trip is reported completed by %(side)s, who travelled %(distance)s km, "
                    "and the target is %(target)s km."
                ),
                side=side.name,
                distance=side.distance,
                target=target,
            )
        if side.distance == target and not side.completed_trip:
            yield Problem.of(
                ProblemCode.TARGET_REACHED_NOT_COMPLETED,
                self.path("sides", index, "completed_trip"),
                N_(
                    "%(side)s travelled %(distance)s km, the target, but the trip is not "
                    "reported completed."
                ),
                side=side.name,
                distance=side.distance,
            )

    # -- claims --------------------------------------------------------------------------------

    def check_claims(self) -> Iterator[Problem]:
        """A claim stands exactly when its category is worth more than 0 (RULES.md §11)."""
        if self.rules is None or not any(side.claims for side in self.report.sides):
            return
        score = self.score()
        for index, side in enumerate(self.report.sides):
            for position, claim in enumerate(side.claims):
                earned = score.sides[index].points(claim) > 0
                if claim is Category.EXTENSION and not self.rules.extension_allowed:
                    earned = False
                if not earned:
                    template, facts = self.why_not(index, claim)
                    yield Problem.of(
                        ProblemCode.CLAIM_NOT_EARNED,
                        self.path("sides", index, "claims", position),
                        template,
                        side=side.name,
                        **facts,
                    )

    def why_not(self, index: int, claim: Category) -> Reason:
        """The sentence saying why ``claim`` is worth nothing to side ``index`` (``%(side)s``
        names that side), and the facts it needs besides."""
        report, rules = self.report, self.rules
        assert rules is not None
        side = report.sides[index]
        completer = report.completer
        if claim is Category.ALL_SAFETIES:
            return _NOT_EARNED[claim, "safeties"], {"count": len(side.safeties)}
        if claim is Category.EXTENSION:
            return self.why_no_extension(index)
        capot = claim is Category.SHUTOUT and rules.shutout is Shutout.CAPOT  # trip or not
        if completer != index and not capot:
            return self.not_completed(claim, completer)
        if claim is Category.DELAYED_ACTION:
            return _NOT_EARNED[claim, "in time"], {}
        if claim is Category.SAFE_TRIP and side.two_hundreds is None:
            return _NOT_EARNED[claim, "200s unsaid"], {}
        if claim is Category.SAFE_TRIP:
            return _NOT_EARNED[claim, "200s"], {"count": side.two_hundreds or 0}
        travelled = [other for other in report.sides if other is not side and other.distance]
        if not travelled:  # a report with no opponent side at all (its count refused besides)
            return _NOT_EARNED[claim, "no opponent"], {}
        return _NOT_EARNED[claim, "travelled"], {
            "other": travelled[0].name,
            "distance": travelled[0].distance,
        }

    def not_completed(self, claim: Category, completer: int | None) -> Reason:
        if completer is None:
            return _NOT_EARNED[claim, "no trip"], {}
        return _NOT_EARNED[claim, "other trip"], {"other": self.report.sides[completer].name}

    def why_no_extension(self, index: int) -> Reason:
        report = self.report
        caller = report.extension_called_by
        rules = self.rules
        claim = Category.EXTENSION
        if rules is not None and not rules.extension_allowed:
            return _NOT_EARNED[claim, "no extension here"], {"players": rules.players}
        if caller is None or not self.caller_known:
            return _NOT_EARNED[claim, "not called"], {}
        completer = report.completer
        if caller == index:
            return _NOT_EARNED[claim, "failed"], {}
        if completer is None:
            return _NOT_EARNED[claim, "no trip"], {}
        if completer == caller:
            return _NOT_EARNED[claim, "made"], {"other": report.sides[caller].name}
        return _NOT_EARNED[claim, "nobody"], {"other": report.sides[completer].name}


_NOT_EARNED: dict[tuple[Category, str], str] = {
    (Category.ALL_SAFETIES, "safeties"): N_(
        "The bonus for all four safeties is claimed for %(side)s, who played only %(count)s of "
        "the four safeties."
    ),
    (Category.TRIP, "no trip"): N_(
        "The trip is claimed for %(side)s, but no side completed the trip."
    ),
    (Category.TRIP, "other trip"): N_(
        "The trip is claimed for %(side)s, but %(other)s completed the trip."
    ),
    (Category.DELAYED_ACTION, "no trip"): N_(
        "A delayed action is claimed for %(side)s, but no side completed the trip."
    ),
    (Category.DELAYED_ACTION, "other trip"): N_(
        "A delayed action is claimed for %(side)s, but %(other)s completed the trip."
    ),
    (Category.DELAYED_ACTION, "in time"): N_(
        "A delayed action is claimed for %(side)s, but the trip was not completed after the draw "
        "pile ran out."
    ),
    (Category.SAFE_TRIP, "no trip"): N_(
        "A safe trip is claimed for %(side)s, but no side completed the trip."
    ),
    (Category.SAFE_TRIP, "other trip"): N_(
        "A safe trip is claimed for %(side)s, but %(other)s completed the trip."
    ),
    (Category.SAFE_TRIP, "200s"): N_(
        "A safe trip is claimed for %(side)s, but 200 km cards were played (%(count)s): a safe "
        "trip has none."
    ),
    (Category.SAFE_TRIP, "200s unsaid"): N_(
        "A safe trip is claimed for %(side)s, but the number of 200 km cards played is not given."
    ),
    (Category.SHUTOUT, "no trip"): N_(
        "A shutout is claimed for %(side)s, but no side completed the trip."
    ),
    (Category.SHUTOUT, "other trip"): N_(
        "A shutout is claimed for %(side)s, but %(other)s completed the trip."
    ),
    (Category.SHUTOUT, "no opponent"): N_(
        "A shutout is claimed for %(side)s, but no opponent side was left at 0 km."
    ),
    (Category.SHUTOUT, "travelled"): N_(
        "A shutout is claimed for %(side)s, but %(other)s travelled %(distance)s km."
    ),
    (Category.EXTENSION, "no extension here"): N_(
        "The extension bonus is claimed for %(side)s, but the %(players)s-player game has no "
        "extension."
    ),
    (Category.EXTENSION, "not called"): N_(
        "The extension bonus is claimed for %(side)s, but no extension was called in this hand."
    ),
    (Category.EXTENSION, "failed"): N_(
        "The extension bonus is claimed for %(side)s, who called the extension and did not "
        "complete the trip."
    ),
    (Category.EXTENSION, "no trip"): N_(
        "The extension bonus is claimed for %(side)s, but no side completed the trip after the "
        "extension."
    ),
    (Category.EXTENSION, "made"): N_(
        "The extension bonus is claimed for %(side)s, but %(other)s called the extension and "
        "completed the trip."
    ),
    (Category.EXTENSION, "nobody"): N_(
        "The extension bonus is claimed for %(side)s, but %(other)s completed the trip, and when "
        "a failed extension scores for nobody only the side that completes the trip scores the "
        "200."
    ),
}
"""Why a claim is worth nothing, one whole sentence per claim and reason."""


def _assumed_200s(side: SideReport) -> int:
    """200s counted for the 2,700 km check: as reported, or the most the distance allows."""
    if side.two_hundreds is not None:
        return side.two_hundreds
    return min(2, max(side.distance, 0) // 200)
