"""What a virtual game's moves are called, in the player's words and language.

The seat's page labels its move buttons here, and a hint (the API's) names its move here too,
so a hint never words a move differently from the button it points at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.moves import CoupFourre
from engine.view import SeatView
from scorekeeper.web.i18n import card_label, gettext


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveWords:
    """How one seat's moves read now: the sides' names, and what letting a coup-fourré chance
    go means for that seat (see :func:`move_label`)."""

    names: Sequence[str]
    draws: bool = False
    holds_safety: bool = False

    @classmethod
    def of(cls, view: SeatView, names: Sequence[str]) -> MoveWords:
        """The words of ``view``'s seat, as the hand stands."""
        return cls(
            names=names,
            draws=view.pass_begins_turn and view.draw_pile > 0,
            holds_safety=any(isinstance(move, CoupFourre) for move in view.legal_moves),
        )

    def label(self, wire: dict[str, Any]) -> str:
        """What the move's button says (:func:`move_label`)."""
        return move_label(wire, self.names, draws=self.draws, holds_safety=self.holds_safety)

    def name(self, wire: dict[str, Any]) -> str:
        """The move's button's accessible name (:func:`move_name`)."""
        return move_name(wire, self.names, draws=self.draws, holds_safety=self.holds_safety)


def move_label(
    wire: dict[str, Any], names: Sequence[str], *, draws: bool, holds_safety: bool
) -> str:
    """What the button of a move says: the move it sends, in the player's words. Every move
    button of the seat's page is labelled here, so none can say one thing and send another.

    A seat that holds the safety declines a coup-fourré: "Let it go", even when its own turn
    comes next and letting it go is also its draw. A seat without the safety is asked too,
    under private chances: for it the answer is its draw when its turn comes next (``draws``),
    else it just goes on.
    """
    kind = wire["move"]
    if kind == "play":
        target = wire.get("target")
        return gettext("Play") if target is None else gettext("On %(side)s", side=names[target])
    if kind == "discard":
        return gettext("Discard")
    if kind == "coup_fourre":
        return gettext("Coup-fourré!")
    if kind == "pass":
        if holds_safety:
            return gettext("Let it go")
        return gettext("Draw") if draws else gettext("Go on")
    if kind == "call_extension":
        return gettext("Extend to 1,000")
    return gettext("Stop at 700")


def move_name(
    wire: dict[str, Any], names: Sequence[str], *, draws: bool, holds_safety: bool
) -> str:
    """A move button's accessible name: its words (:func:`move_label`) with the card it plays
    and the side it lands on, so "Play Stop on Bob" and "Discard Roll" tell apart buttons
    that read "On Bob" and "Discard" under each card."""
    words = move_label(wire, names, draws=draws, holds_safety=holds_safety)
    card = wire.get("card")
    if card is None:
        return words
    if wire["move"] == "play" and wire.get("target") is not None:
        return gettext(
            "Play %(card)s on %(side)s", card=card_label(card), side=names[wire["target"]]
        )
    return f"{words} {card_label(card)}"
