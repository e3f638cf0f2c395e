"""What the seat to act is asked: the phases of a hand's state machine (RULES.md §4–§8)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the seat to act is asked."""

    PLAY = "play"
    """Play a card or discard one (after the engine drew for it)."""
    COUP_FOURRE = "coup_fourre"
    """Lay the matching safety out of turn, or let the chance go."""
    EXTENSION = "extension"
    """Extend the hand to 1,000, or stop at 700."""
    OVER = "over"
    """The hand has ended."""
