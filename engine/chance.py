"""The chance of a coup-fourré: which hazards may be answered, and which seats are asked.

RULES.md §6 and §12 (``coup_fourre_window``). A chance is a state of the rules, never a clock:
the hand waits in :attr:`~engine.state.Phase.COUP_FOURRE` for each seat asked, in turn.

Who is asked depends on what the table may learn. By default only a seat holding a matching
safety is asked, which is all computer players need. With *private chances* every seat of the
attacked side that holds a card is asked, whether it holds the safety or not, so the pause, the
seat asked and the moves logged are the same either way and nobody but the holder learns where
the safety is (a virtual game with people at it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.codes import NO_CARD, SPEED_LIMIT
from engine.tableau import Tableau

NOTHING_FRESH = (0, 0)


@dataclass(frozen=True, slots=True)
class Chance:
    """A coup-fourré chance open on one side."""

    side: int
    """The attacked side."""
    seats: tuple[int, ...]
    """The seats still to be asked, the one asked now first."""
    resume: int
    """The seat whose turn begins if every seat asked lets the chance go."""


def answerable(tableau: Tableau, fresh: tuple[int, int]) -> tuple[int, ...]:
    """The hazards (codes) showing on ``tableau`` that a coup-fourré may still answer.

    ``fresh`` counts the cards on top of the battle and speed piles played since the chance
    opened: under ``until_next_draw`` the hazard just played, under ``victims_next_turn`` every
    hazard played since the side's last turn, so one covered by a later one keeps its chance
    once a coup-fourré uncovers it (§12). Only a pile's top card can be answered.
    """
    fresh_battle, fresh_speed = fresh
    hazards: tuple[int, ...] = ()
    if fresh_battle:
        showing = tableau.hazard_showing
        if showing != NO_CARD:
            hazards = (showing,)
    if fresh_speed and tableau.limited:
        hazards += (SPEED_LIMIT,)
    return hazards


def chance_hazards(
    chance: Chance | None, tableaux: Sequence[Tableau], fresh: Sequence[tuple[int, int]]
) -> tuple[int, ...]:
    """The hazards (codes) the open ``chance`` may answer, none outside one: those
    :func:`answerable` on the attacked side's tableau, with what is fresh on its piles."""
    if chance is None:
        return ()
    return answerable(tableaux[chance.side], fresh[chance.side])


def after_clearing(fresh: tuple[int, int], battle_off: int, speed_off: int) -> tuple[int, int]:
    """What is still fresh once a coup-fourré took cards off the top of the piles."""
    return max(0, fresh[0] - battle_off), max(0, fresh[1] - speed_off)


def seats_to_ask(
    attacker: int, side: int, players: int, sides: int, next_turn: int
) -> tuple[int, ...]:
    """The seats of ``side`` in the order they are asked after ``attacker``'s hazard.

    Clockwise from the attacker, except that ``next_turn``, the seat whose turn begins if every
    seat lets the chance go, is asked last (RULES.md §6): its letting the chance go is its draw,
    one tap, and it starts its turn at once. Once the pile is empty that seat need not sit on
    the attacker's left, since a seat with no cards is skipped (:meth:`HandState.next_turn`).
    """
    following = [(attacker + offset) % players for offset in range(1, players)]
    if next_turn in following:
        following.remove(next_turn)
        following.append(next_turn)
    return tuple(seat for seat in following if seat % sides == side)


__all__ = [
    "NOTHING_FRESH",
    "Chance",
    "after_clearing",
    "answerable",
    "chance_hazards",
    "seats_to_ask",
]
