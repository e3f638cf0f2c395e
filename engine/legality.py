"""What a seat may do now, and why not: the legal moves of a hand and the reasons for refusals.

Legality is a bit test on the masks each :class:`~engine.tableau.Tableau` keeps of what it
allows (:attr:`~engine.tableau.Tableau.own_plays`, :attr:`~engine.tableau.Tableau.open_to`): the
hot path of every computer player, so the moves are shared instances and nothing is formatted.
A person (or a client) whose move is refused deserves the rule, so :func:`refusal` works the
reason out again from the piles, only for a refused move, and formats it then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import CardKind
from engine.chance import chance_hazards
from engine.codes import (
    CARDS,
    CODE,
    CURES,
    DISTANCE_200,
    END_OF_LIMIT,
    EVERY_CARD,
    HAZARDS,
    KM,
    LIMITED_DISTANCE,
    NO_CARD,
    REMEDIES_BEFORE_ROLL,
    ROLL,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import (
    COUP_FOURRE,
    DISCARD,
    HAZARD_PLAY,
    OWN_PLAY,
    PASS,
    PLAY_AGAINST,
    CallExtension,
    CoupFourre,
    DeclineExtension,
    Discard,
    Move,
    PassCoupFourre,
    Play,
)
from engine.phase import Phase
from engine.rules import DiscardSafeties, Hazards, SpeedLimitOnLimit
from engine.sentences import N_, Fact, Reason, Sentence

if TYPE_CHECKING:
    from engine.state import HandState


def answers(state: HandState, seat: int) -> tuple[Move, ...]:
    """The coups-fourrés ``seat`` may declare, and letting the chance go."""
    hand = state.hands[seat]
    moves: list[Move] = []
    for hazard in chance_hazards(state.chance, state.tableaux, state.fresh):
        safety = SAFETY_FOR[hazard]
        if safety in hand and COUP_FOURRE[safety] not in moves:
            moves.append(COUP_FOURRE[safety])
    moves.append(PASS)
    return tuple(moves)


def plays(state: HandState, seat: int) -> tuple[Move, ...]:
    """The plays and discards of ``seat``, in the order of its hand (each card once)."""
    own = seat % state.sides
    tableaux = state.tableaux
    opponents = state.opponents[own]
    plays = own_plays(state, seat) if state.per_player_200 else tableaux[own].own_plays
    discardable = state.discardable
    moves: list[Move] = []
    append = moves.append
    seen = 0
    if len(opponents) == 1 and discardable == EVERY_CARD:
        # The common game, two sides and any card discarded: one mask for both tableaux, and
        # every card's discard (the loop below gives the same moves, a few tests slower).
        opponent = opponents[0]
        legal = plays | tableaux[opponent].open_to
        play, discard = PLAY_AGAINST[opponent], DISCARD
        for code in state.hands[seat]:
            bit = 1 << code
            if seen & bit:
                continue
            seen |= bit
            if legal & bit:
                append(play[code])
            append(discard[code])
        return tuple(moves)
    for code in state.hands[seat]:
        bit = 1 << code
        if seen & bit:
            continue
        seen |= bit
        if HAZARDS & bit:
            for side in opponents:
                if tableaux[side].open_to & bit:
                    append(HAZARD_PLAY[code][side])
        elif plays & bit:
            append(OWN_PLAY[code])
        if discardable & bit:
            append(DISCARD[code])
    return tuple(moves)


def own_plays(state: HandState, seat: int) -> int:
    """The cards ``seat`` may lay on its own tableau, as a mask."""
    tableau = state.tableaux[seat % state.sides]
    plays = tableau.own_plays
    if (
        state.per_player_200
        and plays >> DISTANCE_200 & 1
        and tableau.two_hundreds_by_seat.get(seat, 0) >= 2
    ):
        plays &= ~(1 << DISTANCE_200)
    return plays


def is_legal(state: HandState, move: Move, seat: int) -> bool:
    """Whether ``seat`` may make ``move`` now."""
    phase = state.phase
    if phase is Phase.OVER or seat != state.to_act:
        return False
    if phase is Phase.COUP_FOURRE:
        return isinstance(move, PassCoupFourre) or (
            isinstance(move, CoupFourre) and move in answers(state, seat)
        )
    if phase is Phase.EXTENSION:
        return isinstance(move, CallExtension | DeclineExtension)
    if not isinstance(move, Play | Discard):
        return False
    code = move.code
    if code not in state.hands[seat]:
        return False
    bit = 1 << code
    if isinstance(move, Discard):
        return bool(state.discardable & bit)
    own = seat % state.sides
    target = move.target
    if HAZARDS & bit:
        return (
            target is not None
            and 0 <= target < state.sides
            and target != own
            and bool(state.tableaux[target].open_to & bit)
        )
    return (target is None or target == own) and bool(own_plays(state, seat) & bit)


def may_play(state: HandState, seat: int) -> bool:
    """Whether ``seat`` holds a card it may play (not only discard), turn or not."""
    allowed = own_plays(state, seat)
    tableaux = state.tableaux
    for side in state.opponents[seat % state.sides]:
        allowed |= tableaux[side].open_to
    return any(allowed >> card & 1 for card in state.hands[seat])


# -- why not ---------------------------------------------------------------------------------


def refusal(state: HandState, move: Move, seat: int) -> Sentence:
    """The reason ``move`` of ``seat`` is refused, for a move :func:`is_legal` refused."""
    if state.phase is Phase.OVER:
        return Sentence(N_("The hand is over (rules §8)."))
    if seat != state.to_act:
        return Sentence(
            N_("Seat %(seat)s may not act now: it is seat %(turn)s's move."),
            {"seat": seat, "turn": state.to_act},
        )
    if state.phase is Phase.COUP_FOURRE:
        return Sentence(
            N_("Seat %(seat)s may only declare the coup-fourré or let it go now (rules §6)."),
            {"seat": seat},
        )
    if state.phase is Phase.EXTENSION:
        return Sentence(
            N_("Seat %(seat)s must say whether to extend the hand (rules §7)."), {"seat": seat}
        )
    if not isinstance(move, Play | Discard):
        return Sentence(N_("Seat %(seat)s must play or discard a card (rules §4)."), {"seat": seat})
    card = move.card
    if CODE[card] not in state.hands[seat]:
        return Sentence(N_("Seat %(seat)s does not hold %(card)s."), {"seat": seat, "card": card})
    template, facts = _card_refusal(state, move, seat)
    return Sentence(template, {"seat": seat, "card": card, **facts})


def _card_refusal(state: HandState, move: Play | Discard, seat: int) -> Reason:
    """Why a card is refused: a sentence naming ``%(seat)s`` and ``%(card)s``, and its facts."""
    card = move.card
    if isinstance(move, Discard):
        assert state.rules.discard_safeties is DiscardSafeties.FORBIDDEN
        return N_("Seat %(seat)s may not discard %(card)s: safeties are kept (rules §12)."), {}
    own = state.side_of(seat)
    if card.kind is CardKind.HAZARD:
        if move.target is None or not 0 <= move.target < state.sides:
            return N_("Seat %(seat)s must play %(card)s on an opponent side (rules §2)."), {}
        if move.target == own:
            return N_("Seat %(seat)s cannot play %(card)s on its own side (rules §2)."), {}
        return _hazard_refusal(state, CODE[card], move.target)
    if move.target is not None and move.target != own:
        return N_("Seat %(seat)s must play %(card)s on its own side (rules §5)."), {}
    return _play_refusal(state, CODE[card], seat)


def _play_refusal(state: HandState, code: int, seat: int) -> Reason:
    """Why ``code`` cannot go on the own tableau of ``seat`` now."""
    tableau = state.tableaux[state.side_of(seat)]
    if CARDS[code].kind is CardKind.DISTANCE:
        if not tableau.rolling:
            return N_(
                "Seat %(seat)s cannot play %(card)s: distance needs the side rolling, a Roll "
                "showing (rules §5)."
            ), {}
        if tableau.limited and not LIMITED_DISTANCE >> code & 1:
            return N_(
                "Seat %(seat)s cannot play %(card)s: under a Speed Limit only 25 and 50 km may "
                "be played (rules §5)."
            ), {}
        if code == DISTANCE_200:
            by_seat = tableau.two_hundreds_by_seat.get(seat, 0)
            if (by_seat if state.per_player_200 else tableau.two_hundreds) >= 2:
                return N_(
                    "Seat %(seat)s cannot play %(card)s: at most two 200 km cards per side in a "
                    "hand (rules §5)."
                ), {}
        return N_(
            "Seat %(seat)s cannot play %(card)s: it would take the side to %(distance)s km, past "
            "the target of %(target)s km (rules §5)."
        ), {"distance": tableau.distance + KM[code], "target": state.target}
    if code == ROLL:
        top = tableau.battle_top
        assert top != NO_CARD and top != STOP and not REMEDIES_BEFORE_ROLL >> top & 1
        return N_(
            "Seat %(seat)s cannot play %(card)s: a Roll goes on an empty pile, a Stop or a "
            "remedy, not on %(top)s (rules §5)."
        ), {"top": CARDS[top]}
    if code == END_OF_LIMIT:
        return N_(
            "Seat %(seat)s cannot play %(card)s: it needs a Speed Limit showing (rules §5)."
        ), {}
    return N_(
        "Seat %(seat)s cannot play %(card)s: it cures %(hazard)s, which is not showing on the "
        "battle pile (rules §5)."
    ), {"hazard": CARDS[CURES[code]]}


def _hazard_refusal(state: HandState, hazard: int, side: int) -> Reason:
    """Why ``hazard`` cannot be played on ``side`` now."""
    tableau = state.tableaux[side]
    facts: dict[str, Fact] = {"side": side}
    if tableau.protected(hazard):
        return N_(
            "Seat %(seat)s cannot play %(card)s: side %(side)s is protected against it by a "
            "safety (rules §5)."
        ), facts
    if hazard == SPEED_LIMIT:
        assert state.rules.speed_limit_on_limit is SpeedLimitOnLimit.FORBIDDEN
        return N_(
            "Seat %(seat)s cannot play %(card)s: side %(side)s is already limited (rules §5)."
        ), facts
    if state.rules.hazards is Hazards.ON_ROLLING:
        return N_(
            "Seat %(seat)s cannot play %(card)s: side %(side)s is not rolling, and this game "
            "plays hazards on rolling sides only (rules §12)."
        ), facts
    return N_(
        "Seat %(seat)s cannot play %(card)s: the battle pile of side %(side)s is empty, and no "
        "hazard goes on an empty battle pile; until a card is laid there, the only attack is a "
        "Speed Limit, on the speed pile (rules §5)."
    ), facts
