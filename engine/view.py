"""What one seat may see: its own hand, every tableau, the piles' sizes, never another's hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.moves import Move
from engine.state import HandState, Phase


@dataclass(frozen=True, slots=True)
class TableauView:
    """A side's tableau as everyone at the table sees it."""

    battle_top: Card | None
    corrected: bool
    speed_top: Card | None
    distance: int
    cards: dict[int, int]
    safeties: tuple[Card, ...]
    coup_fourres: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "battle_top": None if self.battle_top is None else str(self.battle_top),
            "corrected": self.corrected,
            "speed_top": None if self.speed_top is None else str(self.speed_top),
            "distance": self.distance,
            "cards": {str(km): count for km, count in self.cards.items()},
            "safeties": [str(card) for card in self.safeties],
            "coup_fourres": [str(card) for card in self.coup_fourres],
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """The state of a hand from ``seat``'s chair."""

    seat: int
    side: int
    hand: tuple[Card, ...]
    tableaux: tuple[TableauView, ...]
    draw_pile: int
    discard_top: Card | None
    discards: int
    hand_sizes: tuple[int, ...]
    to_act: int
    phase: Phase
    target: int
    extension_caller: int | None
    pending_hazard: Card | None
    """The hazard this seat may answer with a coup-fourré (only shown to that seat)."""
    legal_moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "side": self.side,
            "hand": [str(card) for card in self.hand],
            "tableaux": [tableau.to_dict() for tableau in self.tableaux],
            "draw_pile": self.draw_pile,
            "discard_top": None if self.discard_top is None else str(self.discard_top),
            "discards": self.discards,
            "hand_sizes": list(self.hand_sizes),
            "to_act": self.to_act,
            "phase": str(self.phase),
            "target": self.target,
            "extension_caller": self.extension_caller,
            "pending_hazard": None if self.pending_hazard is None else str(self.pending_hazard),
            "legal_moves": [move.to_dict() for move in self.legal_moves],
        }


def seat_view(state: HandState, seat: int) -> SeatView:
    """``state`` as ``seat`` may see it."""
    pending = None
    if state.phase is Phase.COUP_FOURRE and state.to_act == seat and state.pending:
        pending = state.pending[0]
    return SeatView(
        seat=seat,
        side=state.side_of(seat),
        hand=tuple(state.hands[seat]),
        tableaux=tuple(
            TableauView(
                battle_top=tableau.battle_top,
                corrected=tableau.corrected,
                speed_top=tableau.speed[-1] if tableau.speed else None,
                distance=tableau.distance,
                cards=dict(tableau.cards),
                safeties=tuple(tableau.safeties),
                coup_fourres=tuple(tableau.coup_fourres),
            )
            for tableau in state.tableaux
        ),
        draw_pile=len(state.draw_pile),
        discard_top=state.discards[-1] if state.discards else None,
        discards=len(state.discards),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        to_act=state.to_act,
        phase=state.phase,
        target=state.target,
        extension_caller=state.extension_caller,
        pending_hazard=pending,
        legal_moves=tuple(state.legal_moves(seat)),
    )
