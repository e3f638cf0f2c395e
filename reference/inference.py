"""What the other seats' moves reveal of their hands, and deals of the unseen cards weighted by it.

A seat's hand is hidden, but what it does with it is not. A seat stopped by a hazard that, on its
turn, discards or plays something else than the remedy most likely did not hold the remedy then;
a seat that lets a hazard stand rather than declare a coup-fourré did not hold the safety; a
rolling seat that discards most likely held no distance it could play. Each such moment is a
:class:`Clue`: a set of cards the seat most likely did not hold, and how many cards it had drawn
by then, since a card drawn later may be in its hand now. :func:`weighted_deal` deals the unseen
cards as :meth:`SeatView.sample` does, and keeps a deal with a chance that is the likelihood of
every clue under it (a rejection sampler): deals that contradict what the table saw come rarely.

A clue is never certain, because no player plays by one rule: a player may attack before it
cures, hold a 25 near home, or let a coup-fourré go (BSD's computer sometimes does). So a clue
carries a ratio, how much less likely its seat's move is if it held one of the cards than if it
did not, fitted on 40 games of the strong player against each of itself and the two references
(seeds 5000 and up), where every clue could be checked against the hand really held (see the
constants; 0 makes a clue a rule: a deal that breaks it is never kept while another is at hand).

The clues are read from the moves of the hand (:attr:`SeatView.moves`), which the whole table
sees; the draws are not moves, but who drew is known from the turns: every turn while the pile
lasts begins with one, and a coup-fourré draws one more. A let-go coup-fourré chance tells
nothing here: with private chances every seat is asked anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from engine.codes import (
    COUNT,
    DISTANCE,
    DISTANCE_25,
    DISTANCE_50,
    DISTANCE_200,
    DISTANCES,
    END_OF_LIMIT,
    HAZARD,
    KIND,
    KM,
    NO_CARD,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    SPEED_LIMIT,
)
from engine.moves import CallExtension, CoupFourre, Discard, Move, PassCoupFourre, Play
from engine.rules import CoupFourreWindow, RollAfterRemedy
from engine.state import HAND_SIZE, HandState, Phase
from engine.view import SeatView

LET_HAZARD_STAND = 0.0
"""A hazard let stand by a seat holding its safety, rather than a coup-fourré: none of the
three players does it (0 of about 1,400 hazards let stand)."""
STOPPED_DISCARD = 0.0
"""A stopped seat discards though it holds the card that gets it going again: 9 of about 3,400
such discards, all by KevinAI and BSD's computer, none by the strong player; taken as never."""
STOPPED_ATTACK = 0.2
"""A stopped seat attacks though it holds that card: attacking first is good play (0.08 for
BSD's computer, 0.25 for the strong player, 0.28 for KevinAI)."""
STOPPED_OTHER = 0.25
"""A stopped seat plays something else (an End of Limit, a remedy to come) though it holds it
(0.17 to 0.28)."""
ROLLING_DISCARD = 0.0
"""A rolling seat discards though it holds distance it may play, a 25 or a 50 near home aside
(:func:`_playable_distance`): none of about 700 discards."""
TRIES = 24
"""Deals drawn at most for one that the clues accept; then the likeliest of them."""

_UNKNOWN = -1


@dataclass(frozen=True, slots=True)
class Clue:
    """``seat`` most likely held none of the cards of ``cards`` (a mask) when it had drawn
    ``drawn`` cards (since the deal); ``ratio`` is how much less likely its move was if it held
    one of them."""

    seat: int
    cards: int
    drawn: int
    ratio: float


@dataclass(frozen=True, slots=True)
class Reading:
    """The clues of a hand so far, and how many cards each seat has drawn by now."""

    clues: tuple[Clue, ...]
    drawn: tuple[int, ...]

    def likelihood(self, hands: list[list[int]]) -> float:
        """How likely the moves seen are with ``hands`` held now, against the likeliest case
        (1: nothing contradicts them)."""
        weight = 1.0
        drawn = self.drawn
        for clue in self.clues:
            hand = hands[clue.seat]
            cards = clue.cards
            held = 0
            for card in hand:
                if cards >> card & 1:
                    held += 1
            if held:
                weight *= _agreement(held, drawn[clue.seat] - clue.drawn, len(hand), clue.ratio)
        return weight


def _agreement(held: int, since: int, size: int, ratio: float) -> float:
    """The likelihood of a clue whose seat holds ``held`` of its cards now, with ``size`` in
    hand, having drawn ``since`` cards after the clue: either every copy came in since (each of
    the hand's cards is a new one with a chance of about ``since / size``), or one was held."""
    if held > since:
        return ratio
    new = min(since, size)
    arrived = 1.0
    for copy in range(held):
        arrived *= (new - copy) / (size - copy)
    return arrived + (1.0 - arrived) * ratio


class _Side:
    """What the table knows of one side's piles, as far as the moves tell it."""

    __slots__ = ("needs", "rolling", "limited", "distance", "two_hundreds", "right_of_way")

    def __init__(self) -> None:
        self.needs = ROLL
        """The card that would get the side going (NO_CARD: none, or not known)."""
        self.rolling = 0
        """1 rolling, 0 not, -1 not known."""
        self.limited = 0
        self.distance = 0
        self.two_hundreds = 0
        self.right_of_way = False

    def lose_track(self) -> None:
        """A safety or a coup-fourré rearranged the piles (RULES.md §5a): no more inference
        from them until a card sets them again."""
        self.needs = NO_CARD
        self.rolling = _UNKNOWN
        self.limited = _UNKNOWN


def read(view: SeatView) -> Reading:
    """The clues the other seats' moves of this hand give ``view``'s seat.

    None for a position that did not come from a deal (a hand built for a test), where the draws
    cannot be told from the moves."""
    rules = view.rules
    players, sides = rules.players, view.sides
    moves = view.moves
    sizes = view.hand_sizes
    pile = sum(view.deck_count(card) for card in range(COUNT)) - HAND_SIZE * players
    removed = [0] * players
    for seat, move in moves:
        if isinstance(move, (Play, Discard, CoupFourre)):
            removed[seat] += 1
    drawn_now = tuple(sizes[seat] + removed[seat] - HAND_SIZE for seat in range(players))
    if sum(drawn_now) != pile - view.draw_pile or min(drawn_now) < 0:
        return Reading((), drawn_now)
    until_next_draw = rules.coup_fourre_window is CoupFourreWindow.UNTIL_NEXT_DRAW
    roll_after_remedy = rules.roll_after_remedy is RollAfterRemedy.REQUIRED
    target = rules.base_target
    table = [_Side() for _ in range(sides)]
    drawn = [0] * players
    clues: list[Clue] = []
    me = view.seat
    for number, (seat, move) in enumerate(moves):
        if isinstance(move, CoupFourre):
            if pile:
                pile -= 1
                drawn[seat] += 1
            table[seat % sides].lose_track()
            continue
        if isinstance(move, CallExtension):
            target = rules.target(extended=True)
            continue
        if not isinstance(move, (Play, Discard)):
            continue
        if pile:  # the turn began with a draw
            pile -= 1
            drawn[seat] += 1
        side = table[seat % sides]
        if seat != me:
            clues.extend(_turn_clues(seat, move, side, target, drawn[seat]))
        if isinstance(move, Discard):
            continue
        card = move.code
        kind = KIND[card]
        if kind == HAZARD:
            assert move.target is not None
            attacked = move.target
            following = moves[number + 1][1] if number + 1 < len(moves) else None
            if isinstance(following, (CoupFourre, PassCoupFourre)) or (
                following is None and view.phase is Phase.COUP_FOURRE
            ):
                continue  # the coup-fourré says it all; a chance let go or still open, nothing
            _attacked(table[attacked], card)
            if until_next_draw:
                clues.extend(
                    Clue(other, 1 << SAFETY_FOR[card], drawn[other], LET_HAZARD_STAND)
                    for other in range(players)
                    if other % sides == attacked and other != me
                )
        elif kind == DISTANCE:
            side.distance += KM[card]
            side.two_hundreds += card == DISTANCE_200
        elif kind == SAFETY:
            side.right_of_way = side.right_of_way or card == RIGHT_OF_WAY
            side.lose_track()
        else:
            _remedied(side, card, roll_after_remedy)
    return Reading(tuple(clues), drawn_now)


def _attacked(side: _Side, hazard: int) -> None:
    if hazard == SPEED_LIMIT:
        side.limited = 1
    else:
        side.needs = REMEDY_FOR[hazard]  # a Roll for a Stop
        side.rolling = 0


def _remedied(side: _Side, remedy: int, roll_after_remedy: bool) -> None:
    if remedy == END_OF_LIMIT:
        side.limited = 0
    elif remedy == ROLL or side.right_of_way or not roll_after_remedy:
        side.needs = NO_CARD
        side.rolling = 1
    else:
        side.needs = ROLL


def _turn_clues(seat: int, move: Move, side: _Side, target: int, drawn: int) -> list[Clue]:
    """What a seat's turn (a play or a discard, after its draw) says it did not hold."""
    clues: list[Clue] = []
    played = move.code if isinstance(move, Play) else NO_CARD
    if played != NO_CARD and KIND[played] == SAFETY:
        return clues  # a safety first says nothing of the rest of the hand
    moved = 1 << move.code if isinstance(move, (Play, Discard)) else 0
    needs = side.needs
    if needs != NO_CARD and not moved >> needs & 1:
        if played == NO_CARD:
            ratio = STOPPED_DISCARD
        elif KIND[played] == HAZARD:
            ratio = STOPPED_ATTACK
        else:
            ratio = STOPPED_OTHER
        clues.append(Clue(seat, 1 << needs, drawn, ratio))
    if played == NO_CARD and side.rolling == 1 and side.limited != _UNKNOWN:
        cards = _playable_distance(side, target)
        if side.limited == 1 and target - side.distance > 50:
            cards |= 1 << END_OF_LIMIT
        if cards and not cards & moved:
            clues.append(Clue(seat, cards, drawn, ROLLING_DISCARD))
    return clues


def _playable_distance(side: _Side, target: int) -> int:
    """The distance cards a rolling side could play, as a mask, but a 25 or a 50 that does not
    finish within 100 km of home (a good player may hold it for an exact finish)."""
    room = target - side.distance
    cards = 0
    for card in DISTANCES:
        km = KM[card]
        if km > room or (side.limited == 1 and km > 50):
            continue
        if card == DISTANCE_200 and side.two_hundreds >= 2:
            continue
        if card in (DISTANCE_25, DISTANCE_50) and room <= 100 and km != room:
            continue
        cards |= 1 << card
    return cards


def weighted_deal(view: SeatView, rng: Random) -> HandState:
    """A deal of the cards ``view``'s seat has not seen, drawn with the chance the other seats'
    moves give it: deals are drawn as :meth:`SeatView.sample` draws them and one is kept with a
    chance equal to its likelihood (:meth:`Reading.likelihood`); after :data:`TRIES` the
    likeliest one drawn."""
    reading = read(view)
    if not reading.clues:
        return view.sample(rng)
    return _accepted(view, reading, rng)


def _accepted(view: SeatView, reading: Reading, rng: Random) -> HandState:
    best = view.sample(rng)
    best_weight = -1.0
    deal = best
    for _ in range(TRIES):
        weight = reading.likelihood(deal.hands)
        if rng.random() < weight:
            return deal
        if weight > best_weight:
            best, best_weight = deal, weight
        deal = view.sample(rng)
    return best
