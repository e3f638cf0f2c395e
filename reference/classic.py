"""A faithful reference of BSD ``mille``'s computer player: the decisions of ``calcmove()`` in
``comp.c`` and of what it calls (``canplay``, ``onecard``, the computer's side of ``check_ext``),
with the bookkeeping they read (``Numseen``, ``Numcards``, ``Numneed``, ``Numgos``), written again
in Python for this engine.

Source: BSD ``mille`` by Ken Arnold (1982), Copyright (c) 1982, 1993 The Regents of the University
of California, distributed under the BSD licence (redistribution with or without modification
permitted provided the copyright notice is retained). No code or comment of it is copied here: this
module makes the same decisions from the same quantities, with the same integer arithmetic (``/``
truncates toward zero; ``unsigned`` variables wrap; its ``bool`` is a ``char``, as the BSD curses
headers it was written for and ran with define it, so ``cango`` counts the cards other than
safeties that may be played: a 25 or 50 that would leave the side stranded short of the target
takes only itself out of the play, and the hand is valued again as a discard only when it was the
last card to play) and the same tie-breaks (``>=`` for the best card and ``<=`` for the worst: the
last slot of the hand wins a tie), and draws ``roll(1, 10)`` from the player's own ``Random``
exactly where the original rolls. A recorded set of the original's decisions, built with ``bool``
a ``char`` (``tests/engine/fixtures/classic_decisions.json.gz``), checks that it still agrees.

Internally every card is numbered as comp.c numbers it (``C_25`` = 0 ... ``C_RIGHT_WAY`` = 18,
``C_INIT`` = -1 for no card), because some of its values *are* card numbers. How the engine maps
onto comp.c's world:

- **hand**: the engine's hand order (``view.hand_codes``) is the slot order; a hand of fewer than
  seven cards has its empty slots (``C_INIT``) first, where the original moves them.
- **battle**: the top of the battle pile; an empty pile is ``C_INIT``. A hazard *corrected* by a
  safety in turn (the engine's ``NO_CARD`` marker) is ``C_GO`` when the side rolls (what comp.c
  itself leaves after such a safety), else ``C_INIT``: nothing to cure, a Roll needed, which
  comp.c's own ``is_repair(C_INIT)`` already treats so. **speed**: the top of the speed pile.
  **can_go**: ``Tableau.rolling``. **mileage**, **nummiles[C_200]**: the side's distance and 200s
  (the seat's own 200s under ``two_hundreds_limit: player``).
- **safety[]**: for the own side, ``S_PLAYED`` if on its tableau, ``S_IN_HAND`` if in this seat's
  hand, else ``S_UNKNOWN``; for the opponent, ``S_PLAYED`` or ``S_UNKNOWN`` (comp.c never marks
  the human's hand).
- **Numseen**: comp.c counts every card the computer ever held and every card its opponent played
  or discarded: with the engine, every card face up plus the seat's hand (``view.seen_count``).
  **Numcards**: the deck of the rules in force (comp.c's own at 2 and 3 players);
  ``DECK_SZ`` is that deck's size. **Topcard - Deck**: ``view.draw_pile``. **End**: the target.
- **Numgos**: reset at each hand; each card the seat draws adds to it as comp.c's ``account()``
  does (a hazard 1; Extra Tank, Puncture Proof or Driving Ace the count of its hazard not yet
  seen), the dealt six too but only when this seat starts the hand (comp.c deals before the
  turn passes). The player finds its draws by comparing its hand with the one it left, and a new
  hand by the draw pile growing, the cards face up shrinking, or the sheet's totals changing.
- **Numneed**: comp.c never resets it (a global of the whole run), so the player keeps it for its
  life, raised twice by each turn decided while stopped by a hazard, as ``calcmove`` does.
- **More than two sides** (BSD had two players): ``op`` is the opponent side furthest along (the
  first such side on a tie); hazards go to it, or to another opponent if the engine refuses it.
- **Coup-fourré**: comp.c lays, before drawing, the first safety in hand that answers its battle
  top or (Right of Way) a Speed Limit: the player always takes the chance with that safety.
- **Extension**: the computer's branch of ``check_ext``, asked with the hand as it was when the
  700 was played (the card just played still in it, as ``playcard`` asks).

When comp.c's choice is not a legal move in the engine (seen only where comp.c's picture and the
engine's rules part: a first safety in hand that answers a hazard other than the one of the
coup-fourré chance; a "play" of a card comp.c valued at nothing it may not play), the player takes
the closest legal move: the coup-fourré the chance offers, or the discard of that card. And
when, the pile empty, every card left is valued above 101 (a last Roll made precious by the
never-reset ``Numneed``), comp.c's worst slot is never set and it reads outside the hand: the
player then discards its lowest-valued card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import ClassVar, Final

from engine.codes import COUNT, KIND, NO_CARD, SAFETY
from engine.moves import (
    CALL,
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    HAZARD_PLAY,
    OWN_PLAY,
    PASS,
    CoupFourre,
    Discard,
    Move,
    Play,
)
from engine.rules import TwoHundredsLimit
from engine.state import Phase
from engine.tableau import Tableau
from engine.view import SeatView

# -- comp.c's numbering ----------------------------------------------------------------------------

C_INIT: Final = -1
C_25: Final = 0
C_50: Final = 1
C_75: Final = 2
C_100: Final = 3
C_200: Final = 4
C_EMPTY: Final = 5
C_FLAT: Final = 6
C_CRASH: Final = 7
C_STOP: Final = 8
C_LIMIT: Final = 9
C_GAS: Final = 10
C_SPARE: Final = 11
C_REPAIRS: Final = 12
C_GO: Final = 13
C_END_LIMIT: Final = 14
C_GAS_SAFE: Final = 15
C_SPARE_SAFE: Final = 16
C_DRIVE_SAFE: Final = 17
C_RIGHT_WAY: Final = 18
NUM_CARDS: Final = 20
HAND_SZ: Final = 7
S_UNKNOWN: Final = 0
S_IN_HAND: Final = 1
S_PLAYED: Final = 2
S_RIGHT_WAY: Final = 3
S_CONV: Final = 15
M_DISCARD: Final = 0
M_DRAW: Final = 1
M_PLAY: Final = 2
V_VALUABLE: Final = 40
"""The value of the first card that would complete the trip."""

VALUE: Final = (25, 50, 75, 100, 200)
OPPOSITE: Final = (
    C_25, C_50, C_75, C_100, C_200, C_GAS, C_SPARE, C_REPAIRS, C_GO, C_END_LIMIT,
    C_EMPTY, C_FLAT, C_CRASH, C_STOP, C_LIMIT, C_EMPTY, C_FLAT, C_CRASH, C_STOP,
)  # fmt: skip
"""comp.c's ``Opposite``: a hazard's remedy, a remedy's hazard, a safety's (first) hazard."""
NUMNEED_AT_START: Final = (0, 0, 0, 0, 0, 2, 2, 2, 4, 3, 2, 2, 2, 10, 3, 1, 1, 1, 1, 0)
"""comp.c's starting ``Numneed``."""

BSD_CODE: Final = (0, 1, 2, 3, 4, 7, 5, 6, 8, 9, 12, 10, 11, 13, 14, 17, 15, 16, 18)
"""comp.c's number of each engine card code."""
ENGINE_CODE: Final = tuple(BSD_CODE.index(card) for card in range(COUNT))
"""The engine's code of each of comp.c's card numbers."""

_SAFETY_OF: Final = (0, 0, 0, 0, 0, 15, 16, 17, 18, 18, 15, 16, 17, 18, 18, 15, 16, 17, 18)
"""comp.c's ``safety()``: the safety of each card's family (0 for distance)."""


def is_safety(card: int) -> bool:
    return card >= C_GAS_SAFE


def is_repair(card: int) -> bool:
    """comp.c counts the empty battle pile among the remedies: a Go may follow it."""
    return card == C_GAS or card == C_SPARE or card == C_REPAIRS or card == C_INIT


def value_of(card: int) -> int:
    """A distance card's km; an empty slot adds nothing (comp.c reads outside its table there)."""
    return VALUE[card] if 0 <= card <= C_200 else 0


def c_div(value: int, divisor: int) -> int:
    """C's ``int / int``: truncated toward zero."""
    quotient = abs(value) // abs(divisor)
    return quotient if (value >= 0) == (divisor > 0) else -quotient


def c_div_unsigned(value: int, divisor: int) -> int:
    """C's ``int /= unsigned``: the int is taken modulo 2**32, and the result read back signed."""
    quotient = (value & 0xFFFFFFFF) // divisor
    return quotient - (1 << 32) if quotient >= 1 << 31 else quotient


# -- comp.c's picture of a position ----------------------------------------------------------------


@dataclass(slots=True)
class Side:
    """One side as comp.c's ``PLAY`` holds it (what the decisions read of it)."""

    battle: int
    speed: int
    can_go: bool
    mileage: int
    two_hundreds: int
    safety: list[int]
    """S_UNKNOWN, S_IN_HAND or S_PLAYED for each safety, by ``card - S_CONV``."""


@dataclass(slots=True)
class Position:
    """Everything comp.c's decisions read, in its numbering: the computer's hand (seven slots),
    both sides, the counts, the cards left to draw and the target (``End``)."""

    hand: list[int]
    me: Side
    op: Side
    numseen: list[int]
    numcards: list[int]
    numneed: list[int]
    """The player's own list: :func:`calcmove` raises it as comp.c does."""
    numgos: int
    cards_left: int
    end: int
    deck_size: int


# -- what comp.c's decisions call ------------------------------------------------------------------


def canplay(pos: Position, me: Side, op: Side, card: int) -> bool:
    """Whether comp.c's rules let ``me`` play ``card`` (hazards on ``op``)."""
    if C_25 <= card <= C_200:
        if card == C_200 and me.two_hundreds == 2:
            return False
        if card in (C_75, C_100, C_200) and me.speed == C_LIMIT:
            return False
        if card != C_25 and me.mileage + VALUE[card] > pos.end:
            return False
        return me.can_go
    if card in (C_EMPTY, C_FLAT, C_CRASH, C_STOP):
        return op.can_go and op.safety[_SAFETY_OF[card] - S_CONV] != S_PLAYED
    if card == C_LIMIT:
        return (
            op.speed != C_LIMIT and op.safety[S_RIGHT_WAY] != S_PLAYED and op.mileage + 50 < pos.end
        )
    if card in (C_GAS, C_SPARE, C_REPAIRS):
        return me.battle == OPPOSITE[card]
    if card == C_GO:
        return not me.can_go and (is_repair(me.battle) or me.battle == C_STOP)
    if card == C_END_LIMIT:
        return me.speed == C_LIMIT
    return False


def onecard(pos: Position, side: Side) -> bool:
    """Whether ``side`` might finish with its next card, as comp.c guesses it. Its Right of Way
    test reads ``Numseen`` at the safety's *index* (3, the 100s seen): kept as the original."""
    numseen = pos.numseen
    battle, speed = side.battle, side.speed
    could_go = (
        side.can_go
        or (
            (is_repair(battle) or battle == C_STOP or speed == C_LIMIT)
            and numseen[S_RIGHT_WAY] != 0
        )
        or (battle >= 0 and numseen[_SAFETY_OF[battle]] != 0)
    )
    if not could_go:
        return False
    left = pos.end - side.mileage
    card = C_INIT
    if left == 200:
        if side.two_hundreds == 2:
            return False
        card = C_200
    if left in (200, 100, 75):
        if card == C_INIT:
            card = C_75 if left == 75 else C_100
        if speed == C_LIMIT:
            return numseen[S_RIGHT_WAY] == 0
    if left in (200, 100, 75, 50, 25):
        if card == C_INIT:
            card = C_25 if left == 25 else C_50
        return numseen[card] != pos.numcards[card]
    return False


def check_ext(pos: Position) -> bool:
    """The computer's answer at exactly 700: extend with two safeties known or more, the opponent
    neither at 0 km, nor one card from home, nor rolling past 500; and then either no safety the
    computer does not know of is the opponent's, or the distance in hand plus three times the
    cards left to draw passes 1,000."""
    if pos.end != 700:
        return False
    me, op = pos.me, pos.op
    known = sum(1 for state in me.safety if state != S_UNKNOWN)
    if known < 2:
        return False
    if op.mileage == 0 or onecard(pos, op) or (op.can_go and op.mileage >= 500):
        return False
    elsewhere = sum(
        1 for index in range(4) if op.safety[index] != S_PLAYED and me.safety[index] == S_UNKNOWN
    )
    if elsewhere + known == 4:
        return True
    miles = sum(value_of(card) for card in pos.hand)
    return miles + pos.cards_left * 3 > 1000


def roll_die(rng: Random) -> int:
    """comp.c's ``roll(1, 10)``."""
    return rng.randint(1, 10)


# -- calcmove --------------------------------------------------------------------------------------


class _Scan:
    """What calcmove's first pass over the hand finds: each slot's playability, the counts of
    each card, how many cards other than safeties may be played (``cango``: comp.c's ``bool``
    is a ``char`` and counts them), and whether a hazard may be played or the trip completed."""

    __slots__ = ("playit", "count", "cango", "safe", "canstop", "foundend")

    def __init__(self) -> None:
        self.playit = [0] * HAND_SZ
        self.count = [0] * NUM_CARDS
        self.cango = 0
        self.safe = 0
        self.canstop = False
        self.foundend = False


def _first_pass(pos: Position, scan: _Scan) -> int:
    """Scan the hand; return the slot of a safety that answers the own battle top or Speed
    Limit (laid at once: a coup-fourré before the draw), else -1."""
    me, op = pos.me, pos.op
    numseen, numcards = pos.numseen, pos.numcards
    for slot in range(HAND_SZ):
        card = pos.hand[slot]
        if is_safety(card):
            if me.battle == OPPOSITE[card] or (me.speed == C_LIMIT and card == C_RIGHT_WAY):
                return slot
            scan.safe += 1
            scan.playit[slot] = 1
        else:
            playable = canplay(pos, me, op, card)
            scan.playit[slot] = int(playable)
            if playable:
                scan.cango += 1
                if card in (C_STOP, C_CRASH, C_FLAT, C_EMPTY):
                    scan.canstop = True
                elif card == C_LIMIT:
                    if numseen[C_25] == numcards[C_25] and numseen[C_50] == numcards[C_50]:
                        scan.canstop = True
                elif card <= C_200 and card >= C_25 and me.mileage + VALUE[card] == pos.end:
                    scan.foundend = True
        if card >= 0:
            scan.count[card] += 1
    return -1


def _safety_to_lay(pos: Position, scan: _Scan, roll: Callable[[], int]) -> int:
    """The slot of a safety laid now rather than held, else -1: when the opponent may finish,
    when finishing without extending with nothing to stop it, when its hazards are all out, or
    (nothing to play) ever more likely as the draw pile runs down (one roll per safety asked)."""
    me, op = pos.me, pos.op
    numseen, numcards = pos.numseen, pos.numcards
    slot = 0
    while scan.safe and slot < HAND_SZ:
        card = pos.hand[slot]
        if is_safety(card):
            if onecard(pos, op) or (scan.foundend and scan.cango and not scan.canstop):
                return slot
            oppos = OPPOSITE[card]
            if numseen[oppos] == numcards[oppos] and not (
                card == C_RIGHT_WAY and numseen[C_LIMIT] != numcards[C_LIMIT]
            ):
                return slot
            if not scan.cango and (op.can_go or not me.can_go or pos.cards_left < 0):
                left = pos.cards_left - roll()
                if (not me.mileage) != (not op.mileage):
                    left -= 7
                if left < pos.deck_size // 4:
                    return slot
            scan.safe -= 1
            scan.playit[slot] = scan.cango
        slot += 1
    return -1


def _count_need(pos: Position) -> None:
    """comp.c's note that a stopped computer needs the remedy of its battle top."""
    me = pos.me
    if not me.can_go and not is_repair(me.battle):
        pos.numneed[OPPOSITE[me.battle]] += 1


class _Valuation:
    """calcmove's second pass: one value per slot, the best (last on ties) to play when a card
    may be played, the worst (last on ties) to discard otherwise. A 25 or 50 that would leave
    the side stuck a few km short is valued at nothing and takes one card off ``cango``; when
    it takes the last, the pass is made again as a discard, with the counts as the abandoned
    pass left them."""

    __slots__ = (
        "pos",
        "scan",
        "cango",
        "foundlow",
        "foundend",
        "count200",
        "badcount",
        "nummax",
        "nummin",
        "values",
        "redo",
    )

    def __init__(self, pos: Position, scan: _Scan) -> None:
        self.pos = pos
        self.scan = scan
        self.cango = scan.cango
        self.foundlow = False
        self.foundend = False
        self.count200 = 0
        self.badcount = 0
        self.nummax = -1
        self.nummin = -1
        self.values = [0] * HAND_SZ
        self.redo = False

    def run(self) -> None:
        """Value the hand, again as a discard as long as a pass asks for it."""
        while True:
            self.redo = False
            self._pass()
            if not self.redo:
                return

    def _pass(self) -> None:
        pos, scan = self.pos, self.scan
        me = pos.me
        count = scan.count
        self.foundlow = bool(
            self.cango
            or count[C_END_LIMIT] != 0
            or pos.numseen[C_LIMIT] == pos.numcards[C_LIMIT]
            or me.safety[S_RIGHT_WAY] != S_UNKNOWN
        )
        self.foundend = False
        self.count200 = me.two_hundreds
        self.badcount = 0
        curmax, curmin = -1, 101
        self.nummax = self.nummin = -1
        for slot in range(HAND_SZ):
            card = pos.hand[slot]
            if is_safety(card) or scan.playit[slot] == (1 if self.cango else 0):
                value = self._value(card)
                if self.redo:
                    return
            else:
                value = 0 if self.cango else 101
            self.values[slot] = value
            if card != C_INIT:
                if value >= curmax:
                    self.nummax, curmax = slot, value
                if value <= curmin:
                    self.nummin, curmin = slot, value

    def _value(self, card: int) -> int:
        if card == C_25 or card == C_50:
            return self._low_distance(card)
        if card == C_200:
            self.count200 += 1
            if self.count200 > 2:
                return 0
            return self._high_distance(card)
        if card == C_75 or card == C_100:
            return self._high_distance(card)
        if card == C_END_LIMIT:
            return self._end_of_limit()
        if card in (C_REPAIRS, C_SPARE, C_GAS):
            return self._remedy(card)
        if card == C_GO:
            return self._go()
        if card == C_LIMIT:
            return self._speed_limit()
        if card in (C_CRASH, C_EMPTY, C_FLAT):
            return self._hazard(card)
        if card == C_STOP:
            return self._stop()
        if is_safety(card):
            return 0 if self.cango else 101
        return 0

    def _low_distance(self, card: int) -> int:
        """25 and 50: not played when they could leave the side stuck short of the target (the
        play goes to another card, or none is left to play), and the first low card is kept
        (valued high) while a Speed Limit may still come."""
        pos = self.pos
        me, count = pos.me, self.scan.count
        diff = pos.end - me.mileage
        if (
            pos.cards_left > 0
            and self.cango
            and diff <= 100
            and diff // VALUE[card] > count[card]
            and (card == C_25 or diff % 50 == 0)
            and not (card == C_50 and diff - 50 == 25 and count[C_25] > 0)
        ):
            self.cango -= 1  # a count: the pass goes on while another card may be played
            if self.cango <= 0:
                self.redo = True
            return 0
        value = (VALUE[card] >> 3) + (1 if me.speed == C_LIMIT else -1)
        if not self.foundlow and (card == C_50 or count[C_50] == 0):
            value = 10 if me.mileage else 20
            self.foundlow = True
        return self._against_target(card, value)

    def _high_distance(self, card: int) -> int:
        value = (VALUE[card] >> 3) + (-1 if self.pos.me.speed == C_LIMIT else 1)
        return self._against_target(card, value)

    def _against_target(self, card: int, value: int) -> int:
        """Past the target a card is worth its number (at 700) or nothing; the first card to
        reach it exactly is valuable, any other its number."""
        pos = self.pos
        reach = pos.me.mileage + VALUE[card]
        if reach > pos.end:
            return card if pos.end == 700 else 0
        if reach == pos.end:
            value = card if self.foundend else V_VALUABLE
            self.foundend = True
        return value

    def _end_of_limit(self) -> int:
        pos = self.pos
        me = pos.me
        if me.safety[S_RIGHT_WAY] != S_UNKNOWN:
            return -1 if me.safety[S_RIGHT_WAY] == S_PLAYED else 1
        if me.speed == C_LIMIT and pos.end - me.mileage <= 50:
            return 1
        if me.speed == C_LIMIT or pos.numseen[C_LIMIT] != pos.numcards[C_LIMIT]:
            return self._repair(C_END_LIMIT, C_LIMIT)
        self.scan.count[C_END_LIMIT] -= 1
        return 0

    def _remedy(self, card: int) -> int:
        pos = self.pos
        me, count = pos.me, self.scan.count
        state = me.safety[_SAFETY_OF[card] - S_CONV]
        oppos = OPPOSITE[card]
        if state != S_UNKNOWN:
            return -1 if state == S_PLAYED else 1
        seen, total = pos.numseen[oppos], pos.numcards[oppos]
        if me.battle != oppos and (seen == total or seen + count[card] > total):
            count[card] -= 1
            return 0
        return self._repair(card, oppos)

    def _repair(self, card: int, oppos: int) -> int:
        """A remedy's worth: its hazards in the deck, and more of it seen than of them."""
        pos, count = self.pos, self.scan.count
        value = pos.numcards[oppos] * 6 + pos.numseen[card] - pos.numseen[oppos]
        if not self.cango:
            value = c_div(value, count[card] * count[card])
        count[card] -= 1
        return value

    def _go(self) -> int:
        pos, count = self.pos, self.scan.count
        me = pos.me
        if me.safety[S_RIGHT_WAY] != S_UNKNOWN:
            return -1 if me.safety[S_RIGHT_WAY] == S_PLAYED else 2
        if me.can_go and pos.numgos + count[C_GO] == pos.numneed[C_GO]:
            count[C_GO] -= 1
            return 0
        value = pos.numneed[C_GO] * 3 + (pos.numseen[C_GO] - pos.numgos)
        value = c_div(value, count[C_GO] * count[C_GO])
        count[C_GO] -= 1
        return value

    def _speed_limit(self) -> int:
        pos = self.pos
        if pos.op.mileage + 50 >= pos.end:
            return int(pos.end == 700 and not self.cango)
        if self.scan.canstop or (self.cango and not pos.op.can_go):
            return 1
        value = 2 if pos.me.safety[S_RIGHT_WAY] != S_UNKNOWN else 3
        return self._attack(value, S_RIGHT_WAY, C_END_LIMIT)

    def _hazard(self, card: int) -> int:
        safe = _SAFETY_OF[card] - S_CONV
        value = 3 if self.pos.me.safety[safe] != S_UNKNOWN else 4
        return self._attack(value, safe, OPPOSITE[card])

    def _attack(self, value: int, safe: int, oppos: int) -> int:
        """A hazard's worth: the more its remedy is needed and seen, the more; more against an
        opponent at 0 km or one card from home, less against one already limited."""
        pos = self.pos
        me, op = pos.me, pos.op
        if op.safety[safe] == S_PLAYED:
            return -1
        value *= pos.numneed[oppos] + pos.numseen[oppos] + 2
        if not me.mileage or self.foundend or onecard(pos, op):
            value += 5
        if op.mileage == 0 or onecard(pos, op):
            value += 5
        if op.speed == C_LIMIT:
            value -= 3
        if self.cango and me.safety[safe] != S_UNKNOWN:
            value += 3
        if not self.cango:
            self.badcount += 1
            value = c_div_unsigned(value, self.badcount)
        return value

    def _stop(self) -> int:
        pos = self.pos
        me, op = pos.me, pos.op
        if op.safety[S_RIGHT_WAY] == S_PLAYED:
            return -1
        value = 3 if me.safety[S_RIGHT_WAY] != S_UNKNOWN else 4
        value *= pos.numcards[C_STOP] + pos.numseen[C_GO]
        if not me.mileage or self.foundend or onecard(pos, op):
            value += 5
        if not self.cango:
            self.badcount += 1
            value = c_div_unsigned(value, self.badcount)
        if op.mileage == 0:
            value += 5
        if not op.can_go:
            value -= 5
        if self.cango and me.safety[S_RIGHT_WAY] != S_UNKNOWN:
            value += 5
        return value


def calcmove(pos: Position, roll: Callable[[], int]) -> tuple[int, int]:
    """comp.c's decision for ``pos``: (``M_PLAY``, ``M_DISCARD`` or ``M_DRAW``, hand slot).
    Raises ``pos.numneed`` as the original does; ``roll`` is its ``roll(1, 10)``."""
    scan = _Scan()
    slot = _first_pass(pos, scan)
    if slot >= 0:
        return M_PLAY, slot
    if pos.hand[0] == C_INIT and pos.cards_left > 0:
        return M_DRAW, 0
    if scan.foundend:
        scan.foundend = not check_ext(pos)
    slot = _safety_to_lay(pos, scan, roll)
    if slot >= 0:
        return M_PLAY, slot
    _count_need(pos)
    valuation = _Valuation(pos, scan)
    valuation.run()
    _count_need(pos)
    if valuation.cango:
        return M_PLAY, valuation.nummax
    worst = valuation.nummin
    if worst < 0:  # every card above 101: comp.c reads outside the hand; take the lowest
        worst = _lowest(pos.hand, valuation.values)
    if is_safety(pos.hand[worst]):  # a safety is laid, never discarded
        return M_PLAY, worst
    return M_DISCARD, worst


def _lowest(hand: list[int], values: list[int]) -> int:
    """The slot of the lowest value (the last on a tie), empty slots aside."""
    worst = -1
    for slot in range(HAND_SZ):
        if hand[slot] != C_INIT and (worst < 0 or values[slot] <= values[worst]):
            worst = slot
    return worst


def extension_wanted(pos: Position) -> bool:
    """The extension decision (the hand in ``pos`` holding the card that reached 700)."""
    return check_ext(pos)


# -- the player ------------------------------------------------------------------------------------


class ClassicPlayer:
    """BSD ``mille``'s computer player, decision for decision."""

    name: ClassVar[str] = "classic"

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.numneed = list(NUMNEED_AT_START)
        """comp.c's ``Numneed``: never reset (the original keeps it for the whole run)."""
        self.numgos = 0
        self._left: list[int] | None = None
        """The hand (engine codes) as the last decision of this hand left it."""
        self._last_played = NO_CARD
        self._marks: tuple[int, int, tuple[int, ...]] = (-1, 0, ())
        """Draw pile, cards face up and game totals at the last decision: a new hand shows."""

    def choose(self, view: SeatView) -> Move:
        self._account(view)
        phase = view.phase
        if phase is Phase.EXTENSION:
            extra = [] if self._last_played == NO_CARD else [self._last_played]
            wanted = extension_wanted(self._position(view, extra))
            move: Move = CALL if wanted else DECLINE
        else:
            pos = self._position(view, [])
            movetype, slot = calcmove(pos, lambda: roll_die(self.rng))
            if phase is Phase.COUP_FOURRE:
                move = _coup_fourre(view, pos, movetype, slot)
            else:
                move = _turn_move(view, pos, movetype, slot)
        self._left = _after(view.hand_codes, move)
        self._last_played = move.code if isinstance(move, Play) else NO_CARD
        return move

    # -- bookkeeping ---------------------------------------------------------------------------

    def _account(self, view: SeatView) -> None:
        """Count into ``Numgos`` the cards drawn since the last decision (and the deal, at a
        new hand), each as comp.c's ``account()`` counts a card the computer draws."""
        hand = view.hand_codes
        face_up = sum(view.seen_count(code) for code in range(COUNT)) - len(hand)
        marks = (view.draw_pile, face_up, tuple(view.scores))
        last = self._marks
        self._marks = marks
        left = self._left
        if left is None or marks[0] > last[0] or face_up < last[1] or marks[2] != last[2]:
            self.numgos = 0
            started = face_up == 0
            dealt = min(6, len(hand))
            new = [(code, started) for code in hand[:dealt]]
            new += [(code, True) for code in hand[dealt:]]
            self._last_played = NO_CARD
        else:
            new = [(code, True) for code in _drawn(left, hand)]
        cards = [BSD_CODE[code] for code, _ in new]
        for index, (_, counted) in enumerate(new):
            if not counted:
                continue
            card = cards[index]
            if card in (C_GAS_SAFE, C_SPARE_SAFE, C_DRIVE_SAFE):
                oppos = OPPOSITE[card]
                seen = view.seen_count(ENGINE_CODE[oppos]) - cards[index + 1 :].count(oppos)
                self.numgos += view.deck_count(ENGINE_CODE[oppos]) - seen
            elif card in (C_CRASH, C_FLAT, C_EMPTY, C_STOP):
                self.numgos += 1

    def _position(self, view: SeatView, extra: list[int]) -> Position:
        """comp.c's picture of the position from this seat (``extra``: cards to count in the
        hand, the one just played at the extension question)."""
        cards = [BSD_CODE[code] for code in view.hand_codes + extra]
        hand = [C_INIT] * max(0, HAND_SZ - len(cards)) + cards
        held = set(cards)
        own = view.side
        mine = view.tableau(own)
        per_player = view.rules.two_hundreds_limit is TwoHundredsLimit.PLAYER
        two_hundreds = (
            mine.two_hundreds_by_seat.get(view.seat, 0) if per_player else mine.two_hundreds
        )
        me = _side(mine, two_hundreds, held)
        rival = view.tableau(_op_side(view))
        op = _side(rival, rival.two_hundreds, set())
        numseen = [view.seen_count(ENGINE_CODE[card]) for card in range(COUNT)] + [0]
        numcards = [view.deck_count(ENGINE_CODE[card]) for card in range(COUNT)] + [0]
        return Position(
            hand,
            me,
            op,
            numseen,
            numcards,
            self.numneed,
            self.numgos,
            view.draw_pile,
            view.target,
            sum(numcards),
        )


def _side(tableau: Tableau, two_hundreds: int, held: set[int]) -> Side:
    """A tableau as comp.c's ``PLAY`` (``held``: the safeties in the computer's own hand)."""
    if not tableau.battle:
        battle = C_INIT
    elif tableau.battle[-1] == NO_CARD:
        battle = C_GO if tableau.rolling else C_INIT
    else:
        battle = BSD_CODE[tableau.battle[-1]]
    speed = C_INIT if tableau.speed_top == NO_CARD else BSD_CODE[tableau.speed_top]
    laid = {BSD_CODE[code] for code in tableau.safeties}
    safety = [
        S_PLAYED if card in laid else S_IN_HAND if card in held else S_UNKNOWN
        for card in range(C_GAS_SAFE, C_RIGHT_WAY + 1)
    ]
    return Side(battle, speed, tableau.rolling, tableau.distance, two_hundreds, safety)


def _op_side(view: SeatView) -> int:
    """The opponent side comp.c plays against: the one furthest along (the first on a tie)."""
    best, far = -1, -1
    for side in range(view.sides):
        if side != view.side and view.tableau(side).distance > far:
            best, far = side, view.tableau(side).distance
    return best


def _drawn(left: list[int], hand: list[int]) -> list[int]:
    """The cards drawn since the hand was ``left``: what follows it in the hand, in order."""
    if hand[: len(left)] == left:
        return hand[len(left) :]
    rest = hand[:]
    for code in left:
        if code in rest:
            rest.remove(code)
    return rest


def _after(hand: list[int], move: Move) -> list[int]:
    """The hand once ``move`` has taken its card (if any) out of it."""
    left = hand[:]
    if isinstance(move, (Play, Discard, CoupFourre)) and move.code in left:
        left.remove(move.code)
    return left


def _coup_fourre(view: SeatView, pos: Position, movetype: int, slot: int) -> Move:
    """The chance taken with the safety comp.c lays first, or let go when it would draw."""
    legal = view.legal_moves
    if movetype == M_PLAY and is_safety(pos.hand[slot]):
        move: Move = COUP_FOURRE[ENGINE_CODE[pos.hand[slot]]]
        if move in legal:
            return move
    if movetype == M_PLAY:
        for move in legal:
            if move is not PASS:
                return move
    return PASS if PASS in legal else legal[0]


def _turn_move(view: SeatView, pos: Position, movetype: int, slot: int) -> Move:
    """comp.c's play or discard as the engine's move (a hazard on comp.c's opponent, or on
    another opponent where the engine refuses that one)."""
    legal = view.legal_moves
    code = ENGINE_CODE[pos.hand[slot]]
    if movetype == M_PLAY:
        if KIND[code] == SAFETY or code not in _HAZARD_CODES:
            if OWN_PLAY[code] in legal:
                return OWN_PLAY[code]
        else:
            sides = [_op_side(view)] + [s for s in range(view.sides) if s != view.side]
            for side in sides:
                if HAZARD_PLAY[code][side] in legal:
                    return HAZARD_PLAY[code][side]
    if DISCARD[code] in legal:
        return DISCARD[code]
    return legal[0]


_HAZARD_CODES: Final = frozenset(ENGINE_CODE[card] for card in range(C_EMPTY, C_LIMIT + 1))
