"""What a seat can do, as data: the same moves serve human players, computer players and replays.

Moves are frozen dataclasses with a compact wire form (``to_dict``/``move_from_dict``), so a game
is its seed plus its list of moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.codes import CARDS, CODE, HAZARD, KIND
from engine.errors import InvalidRecord


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``: on the own tableau, or, for a hazard, on side ``target``."""

    card: Card
    target: int | None = None
    code: int = field(init=False, repr=False, compare=False)
    """The card's code (:mod:`engine.codes`), what the hot path reads."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", CODE[self.card])

    def to_dict(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"move": "play", "card": str(self.card)}
        if self.target is not None:
            wire["target"] = self.target
        return wire


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` face up on the discard pile (always allowed; RULES.md §4)."""

    card: Card
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", CODE[self.card])

    def to_dict(self) -> dict[str, Any]:
        return {"move": "discard", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class CoupFourre:
    """Lay ``card``, the safety matching the hazard just played on the own side (RULES.md §6)."""

    card: Card
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", CODE[self.card])

    def to_dict(self) -> dict[str, Any]:
        return {"move": "coup_fourre", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class PassCoupFourre:
    """Let the chance of a coup-fourré go (the safety stays in hand)."""

    def to_dict(self) -> dict[str, Any]:
        return {"move": "pass"}


@dataclass(frozen=True, slots=True)
class CallExtension:
    """At exactly 700, extend the hand to 1,000 (RULES.md §7)."""

    def to_dict(self) -> dict[str, Any]:
        return {"move": "call_extension"}


@dataclass(frozen=True, slots=True)
class DeclineExtension:
    """At exactly 700, end the hand with the trip completed."""

    def to_dict(self) -> dict[str, Any]:
        return {"move": "decline_extension"}


Move = Play | Discard | CoupFourre | PassCoupFourre | CallExtension | DeclineExtension

PASS = PassCoupFourre()
CALL = CallExtension()
DECLINE = DeclineExtension()

PLAYS: dict[tuple[Card, int | None], Play] = {
    (card, target): Play(card, target) for card in Card for target in (None, 0, 1, 2)
}
"""Every play, built once: legal-move lists share these instead of allocating (targets are sides,
at most three)."""
DISCARDS: dict[Card, Discard] = {card: Discard(card) for card in Card}
COUP_FOURRES: dict[Card, CoupFourre] = {card: CoupFourre(card) for card in Card}

OWN_PLAY: tuple[Play, ...] = tuple(PLAYS[card, None] for card in CARDS)
"""The same shared moves indexed by card code, for the hot path: a play on the own tableau,"""
HAZARD_PLAY: tuple[tuple[Play, ...], ...] = tuple(
    tuple(PLAYS[card, side] for side in (0, 1, 2)) for card in CARDS
)
"""a card played on side ``[code][side]``,"""
PLAY_AGAINST: tuple[tuple[Play, ...], ...] = tuple(
    tuple(
        HAZARD_PLAY[code][side] if KIND[code] == HAZARD else OWN_PLAY[code]
        for code in range(len(CARDS))
    )
    for side in (0, 1, 2)
)
"""the play of code ``[side][code]`` with ``side`` the one opponent side (a hazard goes there,
any other card on the own tableau),"""
DISCARD: tuple[Discard, ...] = tuple(DISCARDS[card] for card in CARDS)
"""a discard,"""
COUP_FOURRE: tuple[CoupFourre, ...] = tuple(COUP_FOURRES[card] for card in CARDS)
"""and a coup-fourré."""


def move_from_dict(data: dict[str, Any]) -> Move:
    """A move back from its wire form; :class:`InvalidRecord` if it is not one."""
    try:
        kind = data["move"]
        if kind == "play":
            target = data.get("target")
            move = Play(Card(data["card"]), None if target is None else int(target))
            return PLAYS.get((move.card, move.target), move)
        if kind == "discard":
            return DISCARDS[Card(data["card"])]
        if kind == "coup_fourre":
            return COUP_FOURRES[Card(data["card"])]
        if kind == "pass":
            return PASS
        if kind == "call_extension":
            return CALL
        if kind == "decline_extension":
            return DECLINE
    except (KeyError, ValueError, TypeError) as error:
        raise InvalidRecord(f"not a move: {data!r} ({error})") from None
    raise InvalidRecord(f"not a move: {data!r}")
