"""A game on paper: hands added up toward 5,000, and who won (RULES.md §10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from engine.errors import InvalidReport
from engine.problems import Problem, ProblemCode, pointer
from engine.report import HandReport, read_hand_report, read_rules
from engine.rules import GAME_TARGET, GameTie, Rules
from engine.scoring import HandScore, added
from engine.sentences import N_, Sentence
from engine.validation import validate_report


class Outcome(StrEnum):
    """Where a game stands after its last hand."""

    IN_PROGRESS = "in_progress"
    WON = "won"
    TIED = "tied"


class ScoreSheet:
    """The hands of one game and the running totals they add up to.

    >>> from engine.report import SideReport
    >>> sheet = ScoreSheet(Rules.for_players(2), ("Ann", "Bob"))
    >>> hand = HandReport(sides=(SideReport(distance=700, completed_trip=True, two_hundreds=0),
    ...                          SideReport(distance=0)))
    >>> for _ in range(3):
    ...     _ = sheet.record(hand)
    >>> sheet.totals, sheet.status, sheet.winner
    ((5700, 0), <Outcome.WON: 'won'>, 0)
    """

    __slots__ = ("rules", "names", "hands", "_totals_after", "_numbers")

    def __init__(self, rules: Rules, names: Sequence[str]) -> None:
        self.rules = rules
        self.names = tuple(names)
        self.hands: list[HandScore] = []
        self._totals_after: list[tuple[int, ...]] = []
        self._numbers: list[int] = []

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's running total after the last hand."""
        if self._totals_after:
            return self._totals_after[-1]
        return (0,) * len(self.names)

    @property
    def totals_after(self) -> tuple[tuple[int, ...], ...]:
        """The running totals after each hand, in order."""
        return tuple(self._totals_after)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The sides that share the highest running total."""
        return leaders_of(self.totals)

    @property
    def status(self) -> Outcome:
        """In progress until a hand ends with a side at 5,000 or more (see :func:`status_of`)."""
        return status_of(self.totals, self.rules)

    @property
    def winner(self) -> int | None:
        """The winning side's index once the game is won."""
        return winner_of(self.totals, self.rules)

    def record(self, report: HandReport, prefix: str = "", number: int | None = None) -> HandScore:
        """Check, score and add one hand; raise :class:`InvalidReport` if it cannot be added.

        ``number`` is how the hand is known on its sheet (by default, the next one).
        """
        return self._add_checked(report, [], prefix, number)

    def record_hand(
        self, data: Mapping[str, Any], prefix: str = "", number: int | None = None
    ) -> HandScore:
        """Read a hand in its v1 wire form, check it once as the sheet's next hand, score it and
        add it: one call for what a stored game, a preview and an import all do. Raises
        :class:`InvalidReport` with every problem, of reading and of the rules, at once."""
        report, problems = self.read_hand(data, prefix)
        return self._add_checked(report, problems, prefix, number)

    def correct(self, number: int, data: Mapping[str, Any], prefix: str = "") -> HandScore:
        """Replace hand ``number`` with the hand ``data`` reports, checked where it stands (after
        the hands before it), and keep the hands after it as they were scored.

        Refused, the sheet unchanged, if the new hand is refused or if with it the game would
        end (RULES.md §10) before a hand that follows it. A ``number`` the sheet has no hand of
        is the caller's mistake: :class:`ValueError`.
        """
        index = self._numbers.index(number)  # ValueError: the sheet has no such hand
        before = (self.hands[:], self._totals_after[:], self._numbers[:])
        later = list(zip(self.hands[index + 1 :], self._numbers[index + 1 :], strict=True))
        del self.hands[index:], self._totals_after[index:], self._numbers[index:]
        try:
            score = self.record_hand(data, prefix, number)
            for hand, later_number in later:
                if self.status is not Outcome.IN_PROGRESS:
                    raise InvalidReport([self._ends_before(later_number, prefix)])
                self.append(hand, later_number)
        except InvalidReport:
            self.hands[:], self._totals_after[:], self._numbers[:] = before
            raise
        return score

    def _add_checked(
        self, report: HandReport, problems: list[Problem], prefix: str, number: int | None
    ) -> HandScore:
        """Check ``report`` as the sheet's next hand (``problems``: found while reading it),
        score it once and add it (:func:`engine.validation.validate_report`)."""
        if self.status is not Outcome.IN_PROGRESS:
            ended = Problem(
                code=ProblemCode.HAND_AFTER_GAME_OVER, path=prefix, sentence=self._ended()
            )
            raise InvalidReport([*problems, ended])
        score = validate_report(report, self.rules, prefix, problems)
        self.append(score, number)
        return score

    def _ends_before(self, later: int, prefix: str) -> Problem:
        return Problem.of(
            ProblemCode.HAND_AFTER_GAME_OVER,
            prefix,
            N_(
                "With this correction the game would end after hand %(end)s, but hand %(later)s "
                "follows it. Undo the later hands first."
            ),
            end=self._numbers[-1],
            later=later,
        )

    def append(self, score: HandScore, number: int | None = None) -> None:
        """Add a hand scored and checked before (a stored hand), without checking it again."""
        self._numbers.append(number or len(self.hands) + 1)
        self.hands.append(score)
        self._totals_after.append(added(self.totals, score.totals))

    def read_hand(
        self, data: Mapping[str, Any], prefix: str = ""
    ) -> tuple[HandReport, list[Problem]]:
        """Read a hand of this sheet (its v1 wire form), its sides named as the sheet names them:
        before reading, so a problem found while reading (an unknown safety) names them too."""
        sides = data.get("sides")
        if (
            isinstance(sides, Sequence)
            and len(sides) == len(self.names)
            and all(isinstance(side, Mapping) for side in sides)
        ):
            named = [{**side, "name": name} for side, name in zip(sides, self.names, strict=True)]
            data = {**data, "sides": named}
        return read_hand_report(data, prefix)

    def _ended(self) -> Sentence:
        hand = self._numbers[-1]
        if self.status is Outcome.WON and self.winner is not None:
            return Sentence(
                N_(
                    "The game ended after hand %(hand)s, won by %(side)s with %(total)s points, "
                    "so no hand can follow it."
                ),
                {"hand": hand, "side": self.names[self.winner], "total": self.totals[self.winner]},
            )
        return Sentence(
            N_(
                "The game ended after hand %(hand)s in a tie between %(sides)s, so no hand can "
                "follow it."
            ),
            {"hand": hand, "sides": tuple(self.names[side] for side in self.leaders)},
        )

    def to_dict(self) -> dict[str, Any]:
        """The wire form: each hand with the running totals after it, and the game's state."""
        status = self.status
        return {
            "players": self.rules.players,
            "variants": self.rules.variants,
            "sides": list(self.names),
            "hands": [
                {**hand.to_dict(), "totals": list(totals)}
                for hand, totals in zip(self.hands, self._totals_after, strict=True)
            ],
            "totals": list(self.totals),
            "status": str(status),
            "winner": None if self.winner is None else self.names[self.winner],
            "winner_index": self.winner,
            "tied": [self.names[side] for side in self.leaders] if status is Outcome.TIED else [],
        }


def leaders_of(totals: Sequence[int]) -> tuple[int, ...]:
    """The sides that share the highest of ``totals``.

    >>> leaders_of((4200, 5100, 5100))
    (1, 2)
    """
    best = max(totals)
    return tuple(side for side, total in enumerate(totals) if total == best)


def status_of(totals: Sequence[int], rules: Rules) -> Outcome:
    """Where a game stands with these running totals after its last hand (RULES.md §10).

    In progress until a hand ends with a side at 5,000 or more. Then the highest total wins,
    whoever passed 5,000; a shared highest total is a tie, or under ``game_tie: play_on`` the
    game goes on until one side alone leads. Only the totals matter, so a game that keeps its
    totals knows where it stands without its hands.

    >>> status_of((5100, 4900), Rules.for_players(2))
    <Outcome.WON: 'won'>
    """
    if max(totals, default=0) < GAME_TARGET:
        return Outcome.IN_PROGRESS
    if len(leaders_of(totals)) == 1:
        return Outcome.WON
    if rules.game_tie is GameTie.DRAW:
        return Outcome.TIED
    return Outcome.IN_PROGRESS


def winner_of(totals: Sequence[int], rules: Rules) -> int | None:
    """The winning side's index once a game with these totals is won."""
    return leaders_of(totals)[0] if status_of(totals, rules) is Outcome.WON else None


def read_sheet(data: Mapping[str, Any]) -> ScoreSheet:
    """Read, check and add up a v1 score sheet; raise :class:`InvalidReport` with every problem.

    Each refused hand's problems carry its index (``/hands/3/sides/0/...``).
    """
    rules, problems = read_rules(data)
    if rules is None:
        raise InvalidReport(problems)
    names = _side_names(data.get("sides"), rules)
    if len(names) != rules.sides:
        problems.append(
            Problem.of(
                ProblemCode.SIDES_COUNT_MISMATCH,
                pointer("sides"),
                N_(
                    "With %(players)s seated players there are %(sides)s sides, but the sheet "
                    "names %(given)s."
                ),
                players=rules.players,
                sides=rules.sides,
                given=len(names),
            )
        )
        raise InvalidReport(problems)
    sheet = ScoreSheet(rules, names)
    for index, hand in enumerate(data.get("hands") or ()):
        prefix = pointer("hands", index)
        try:
            sheet.record_hand(hand, prefix, number=index + 1)
        except InvalidReport as refused:
            problems += refused.problems
    if problems:
        raise InvalidReport(problems)
    return sheet


def _side_names(names: Sequence[str] | None, rules: Rules) -> tuple[str, ...]:
    if names is None:
        word = "Player" if rules.players_per_side == 1 else "Team"
        return tuple(f"{word} {chr(ord('A') + side)}" for side in range(rules.sides))
    return tuple(names)
