"""What a table reports at the end of a hand (RULES.md §8, §11), as values and as the v1 wire form.

A report carries facts only; points come from ``engine.scoring``. Reading the wire form turns
names into enums and notes every name the rules do not know, so one answer can list every problem
together with the consistency checks of ``engine.validation``. The JSON types themselves (an
integer where an integer belongs, no unknown field) are guarded at the boundary before reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.cards import DISTANCE_VALUES, SAFETIES, Card
from engine.categories import Category
from engine.problems import Problem, ProblemCode, pointer
from engine.rules import (
    VARIANT_ENUMS,
    Rules,
    UnknownVariant,
    UnsupportedPlayerCount,
    parse_variant,
)
from engine.sentences import N_, Fact, Sentence, quoted

_Named = TypeVar("_Named", Card, Category)

CLAIMABLE: tuple[Category, ...] = (
    Category.TRIP,
    Category.DELAYED_ACTION,
    Category.SAFE_TRIP,
    Category.SHUTOUT,
    Category.EXTENSION,
    Category.ALL_SAFETIES,
)
"""The bonuses a table may claim (RULES.md §11); each claim is checked against the facts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SideReport:
    """The facts one side reports.

    ``distance`` is in km. ``cards`` holds the count of distance cards by face value when the
    table counted its stacks (None when it only summed them). ``two_hundreds`` is the number of
    200 km cards played, when known; it is always known when ``cards`` is given.
    """

    name: str = ""
    distance: int = 0
    cards: Mapping[int, int] | None = None
    two_hundreds: int | None = None
    safeties: tuple[Card, ...] = ()
    coup_fourres: tuple[Card, ...] = ()
    completed_trip: bool = False
    delayed_action: bool = False
    claims: tuple[Category, ...] = ()

    @classmethod
    def from_cards(cls, cards: Mapping[int, int], **facts: Any) -> SideReport:
        """A report whose distance is given as counts of cards by face value."""
        counts = {km: cards.get(km, 0) for km in DISTANCE_VALUES}
        return cls(
            distance=sum(km * count for km, count in counts.items()),
            cards=counts,
            two_hundreds=counts[200],
            **facts,
        )

    def to_dict(self) -> dict[str, Any]:
        """The v1 wire form of this side."""
        wire: dict[str, Any] = {"name": self.name}
        if self.cards is not None:
            wire["distance"] = {str(km): self.cards.get(km, 0) for km in DISTANCE_VALUES}
        else:
            wire["distance"] = self.distance
            if self.two_hundreds is not None:
                wire["two_hundreds"] = self.two_hundreds
        wire["safeties"] = [str(card) for card in self.safeties]
        wire["coup_fourres"] = [str(card) for card in self.coup_fourres]
        wire["completed_trip"] = self.completed_trip
        wire["delayed_action"] = self.delayed_action
        if self.claims:
            wire["claims"] = [str(claim) for claim in self.claims]
        return wire


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReport:
    """The facts of one hand: each side's report, who called an extension, the target if given."""

    sides: tuple[SideReport, ...]
    extension_called_by: int | None = None
    target: int | None = None
    extension_callers: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """Every caller named, when a report names more than one (a refusal; see validation)."""

    @property
    def completer(self) -> int | None:
        """The index of the first side that reports the trip completed, if any."""
        for index, side in enumerate(self.sides):
            if side.completed_trip:
                return index
        return None

    def target_in_force(self, rules: Rules) -> int:
        """The target the hand ended under: as given, or the one the rules and extension set."""
        if self.target is not None:
            return self.target
        return rules.target(extended=self.extension_called_by is not None)

    def to_dict(self, rules: Rules | None = None) -> dict[str, Any]:
        """The v1 wire form; with ``rules``, a standalone report (players and variants included)."""
        wire: dict[str, Any] = {}
        if rules is not None:
            wire["players"] = rules.players
            wire["variants"] = rules.variants
        if self.target is not None:
            wire["target"] = self.target
        wire["extension_called_by"] = self.extension_called_by
        wire["sides"] = [side.to_dict() for side in self.sides]
        return wire


@dataclass(slots=True)
class _Reader:
    """Collects the problems found while reading names, each with its JSON pointer."""

    problems: list[Problem] = field(default_factory=list)

    def problem(self, code: ProblemCode, path: str, template: str, **facts: Fact) -> None:
        self.problems.append(Problem.of(code, path, template, **facts))


def read_rules(data: Mapping[str, Any], prefix: str = "") -> tuple[Rules | None, list[Problem]]:
    """Read ``players`` and ``variants``; None when the player count is unsupported.

    Every unknown variant is reported; a game goes on reading with the default in its place.
    """
    reader = _Reader()
    variants: dict[str, Any] = {}
    for key, value in (data.get("variants") or {}).items():
        try:
            parse_variant(key, value)
        except UnknownVariant as unknown:
            reader.problems.append(variant_problem(unknown, prefix))
            continue
        variants[key] = value
    players = data.get("players")
    try:
        rules = Rules.for_players(players, variants) if isinstance(players, int) else None
    except UnsupportedPlayerCount:
        rules = None
    if rules is None:
        reader.problem(
            ProblemCode.UNSUPPORTED_PLAYER_COUNT,
            prefix + pointer("players"),
            N_(
                "Mille Bornes is not played by %(players)s: play with 2, 3, 4 (two teams of two) "
                "or 6 (three teams of two)."
            ),
            players=quoted(players),
        )
    return rules, reader.problems


def variant_problem(unknown: UnknownVariant, prefix: str = "") -> Problem:
    """The problem of a refused variant, at its key under ``prefix``'s ``variants``."""
    return Problem(
        code=ProblemCode.UNKNOWN_VARIANT,
        path=prefix + pointer("variants", unknown.key),
        sentence=variant_refusal(unknown),
    )


def variant_refusal(unknown: UnknownVariant) -> Sentence:
    """Why a variant is refused: no such key, or no such value for it (RULES.md §12)."""
    if not unknown.key_known:
        return Sentence(
            N_("There is no variant called %(key)s; the variants are %(known)s."),
            {"key": quoted(unknown.key), "known": ", ".join(VARIANT_ENUMS)},
        )
    return Sentence(
        N_("Variant %(key)s has no value %(value)s; it is one of %(known)s."),
        {
            "key": unknown.key,
            "value": quoted(unknown.value),
            "known": ", ".join(VARIANT_ENUMS[unknown.key]),
        },
    )


def read_hand_report(data: Mapping[str, Any], prefix: str = "") -> tuple[HandReport, list[Problem]]:
    """Read the hand part of a v1 report (``target``, ``extension_called_by``, ``sides``).

    Unknown safety and claim names are reported and left out, so the consistency checks can
    still run on the rest.
    """
    reader = _Reader()
    sides = tuple(
        _read_side(reader, side, prefix + pointer("sides", index), index)
        for index, side in enumerate(data.get("sides") or ())
    )
    callers = _read_callers(data.get("extension_called_by"))
    report = HandReport(
        sides=sides,
        extension_called_by=callers[0] if callers else None,
        target=data.get("target"),
        extension_callers=callers,
    )
    return report, reader.problems


def _read_callers(value: int | Sequence[int] | None) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, int):
        return (value,)
    return tuple(value)


def _read_side(reader: _Reader, data: Mapping[str, Any], path: str, index: int) -> SideReport:
    name = data.get("name") or f"Side {chr(ord('A') + index) if index < 26 else index + 1}"
    facts: dict[str, Any] = {
        "name": name,
        "safeties": _read_safeties(reader, data.get("safeties") or (), path + "/safeties", name),
        "coup_fourres": _read_safeties(
            reader, data.get("coup_fourres") or (), path + "/coup_fourres", name
        ),
        "completed_trip": bool(data.get("completed_trip", False)),
        "delayed_action": bool(data.get("delayed_action", False)),
        "claims": _read_claims(reader, data.get("claims") or (), path + "/claims", name),
    }
    distance = data.get("distance", 0)
    two_hundreds = data.get("two_hundreds")
    if not isinstance(distance, Mapping):
        return SideReport(distance=distance, two_hundreds=two_hundreds, **facts)
    side = SideReport.from_cards({int(km): count for km, count in distance.items()}, **facts)
    if two_hundreds is not None and two_hundreds != side.two_hundreds:
        reader.problem(
            ProblemCode.INVALID_FIELD,
            path + "/two_hundreds",
            N_(
                "The 200 km cards declared for %(side)s (%(count)s) differ from the distance "
                "cards shown (%(shown)s)."
            ),
            side=name,
            count=two_hundreds,
            shown=side.two_hundreds or 0,
        )
    return side


def _read_safeties(reader: _Reader, names: Sequence[str], path: str, side: str) -> tuple[Card, ...]:
    return _read_names(
        reader,
        names,
        path,
        {str(card): card for card in SAFETIES},
        ProblemCode.SAFETY_UNKNOWN,
        Sentence(
            N_("%(side)s lists %(name)s, which is not a safety; the safeties are %(known)s."),
            {"side": side, "known": ", ".join(SAFETIES)},
        ),
    )


def _read_claims(
    reader: _Reader, names: Sequence[str], path: str, side: str
) -> tuple[Category, ...]:
    return _read_names(
        reader,
        names,
        path,
        {str(claim): claim for claim in CLAIMABLE},
        ProblemCode.INVALID_FIELD,
        Sentence(
            N_(
                "%(side)s claims %(name)s, which is not a bonus a table can claim; claims are "
                "%(known)s."
            ),
            {"side": side, "known": ", ".join(CLAIMABLE)},
        ),
    )


def _read_names(
    reader: _Reader,
    names: Sequence[str],
    path: str,
    known: Mapping[str, _Named],
    code: ProblemCode,
    unknown: Sentence,
) -> tuple[_Named, ...]:
    """The members ``names`` stand for; each unknown name is a problem at its position, said by
    ``unknown`` with the name filled in."""
    members: list[_Named] = []
    for position, name in enumerate(names):
        if name in known:
            members.append(known[name])
        else:
            reader.problem(
                code, f"{path}/{position}", unknown.template, **unknown.facts, name=quoted(name)
            )
    return tuple(members)
