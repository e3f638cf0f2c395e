"""Why a move is not legal, in words that name the rule: the slow path of a refused move.

Legality itself is a bit test on masks kept by :class:`~engine.tableau.Tableau`; a person (or a
client) whose move is refused deserves the reason, so this module works it out again from the
piles, only when a move is refused, and formats the message then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import CardKind
from engine.codes import (
    CARDS,
    CODE,
    CURES,
    DISTANCE_200,
    END_OF_LIMIT,
    KM,
    LIMITED_DISTANCE,
    NO_CARD,
    REMEDIES_BEFORE_ROLL,
    ROLL,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import Discard, Move, Play
from engine.rules import DiscardSafeties, Hazards, SpeedLimitOnLimit

if TYPE_CHECKING:
    from engine.state import HandState


def refusal(state: HandState, move: Move, seat: int) -> str:
    """The reason ``move`` of ``seat`` is refused, for a move :meth:`HandState.legal` refused."""
    from engine.state import Phase

    if state.phase is Phase.OVER:
        return "The hand is over (RULES.md §8)."
    if seat != state.to_act:
        return f"Seat {seat} may not act now: it is seat {state.to_act}'s move."
    if state.phase is Phase.COUP_FOURRE:
        return f"Seat {seat} may only declare the coup-fourré or pass now (RULES.md §6)."
    if state.phase is Phase.EXTENSION:
        return f"Seat {seat} must say whether to extend the hand (RULES.md §7)."
    if not isinstance(move, Play | Discard):
        return f"Seat {seat} must play or discard a card (RULES.md §4)."
    card = move.card
    if CODE[card] not in state.hands[seat]:
        return f"Seat {seat} does not hold {card}."
    return f"Seat {seat}: {_card_refusal(state, move, seat)}"


def _card_refusal(state: HandState, move: Play | Discard, seat: int) -> str:
    card = move.card
    if isinstance(move, Discard):
        assert state.rules.discard_safeties is DiscardSafeties.FORBIDDEN
        return "safeties may not be discarded under discard_safeties: forbidden (§12)."
    own = state.side_of(seat)
    if card.kind is CardKind.HAZARD:
        if move.target is None or not 0 <= move.target < state.sides:
            return f"{card} must be played on an opponent side (RULES.md §2)."
        if move.target == own:
            return f"{card} cannot be played on the own side (RULES.md §2)."
        return _hazard_refusal(state, CODE[card], move.target)
    if move.target is not None and move.target != own:
        return f"{card} goes on the own tableau (RULES.md §5)."
    return _play_refusal(state, CODE[card], seat)


def _play_refusal(state: HandState, code: int, seat: int) -> str:
    """Why ``code`` cannot go on the own tableau of ``seat`` now."""
    card = CARDS[code]
    tableau = state.tableaux[state.side_of(seat)]
    if card.kind is CardKind.DISTANCE:
        if not tableau.rolling:
            return f"distance needs the side rolling (a Roll showing) (§5); {card} refused."
        if tableau.limited and not LIMITED_DISTANCE >> code & 1:
            return f"under a Speed Limit only 25 and 50 may be played (§5); {card} refused."
        if code == DISTANCE_200:
            return "at most two 200 km cards per side in a hand (§5)."
        return (
            f"{card} would take the side to {tableau.distance + KM[code]} km, past "
            f"the target of {state.target} (§5)."
        )
    if code == ROLL:
        top = tableau.battle_top
        assert top != NO_CARD and top != STOP and not REMEDIES_BEFORE_ROLL >> top & 1
        return f"Roll goes on an empty pile, a Stop or a remedy, not on {CARDS[top]} (§5)."
    if code == END_OF_LIMIT:
        return "End of Limit needs a Speed Limit showing (§5)."
    return f"{card} cures {CARDS[CURES[code]]}, which is not showing on the battle pile (§5)."


def _hazard_refusal(state: HandState, hazard: int, side: int) -> str:
    """Why ``hazard`` cannot be played on ``side`` now."""
    card = CARDS[hazard]
    tableau = state.tableaux[side]
    if tableau.protected(hazard):
        return f"side {side} is protected against {card} by a safety (§5)."
    if hazard == SPEED_LIMIT:
        assert state.rules.speed_limit_on_limit is SpeedLimitOnLimit.FORBIDDEN
        return f"side {side} is already limited (§5)."
    if state.rules.hazards is Hazards.ON_ROLLING:
        return f"side {side} is not rolling (hazards: on_rolling, §12)."
    return f"side {side}'s battle pile is empty: only a Speed Limit may start a hand (§5)."
