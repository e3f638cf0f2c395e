"""A reference opponent of the classic kind: the way BSD ``mille``'s computer player (Ken Arnold,
1982) decides, written afresh for this engine from reading how that player reasons.

It is here so anyone can measure the project's players against the best-known program of the
game (``scorekeeper simulate --players strong,classic``). What it takes from its model:

- every card it has seen is counted, and each card in hand gets one number that serves twice:
  the best playable card is played, and when nothing is playable the lowest is discarded;
- a remedy or a Roll is worth more while its hazards are still to come, and nothing once they
  are all out or a safety covers them; copies of one card are worth less the more it holds;
- a hazard is worth more the scarcer its cure, and more still when the opponent is one card
  from home or has not moved yet;
- safeties are held for a coup-fourré, and laid when they cure the hazard showing, when the
  opponent may finish on its next card, when their hazards are all out, or, with nothing to
  play, ever more likely as the draw pile runs down;
- it keeps one low distance card against a Speed Limit, and avoids getting stuck a few km short;
- it extends when it holds two safeties or more and the opponent is stuck or far behind.

It reads nothing of the score or the variants: the original never did.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar

from engine.codes import (
    ANSWERS,
    CURES,
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
    REMEDY,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import CALL, DECLINE, Discard, Move, Play
from engine.state import Phase
from engine.tableau import Tableau
from engine.view import SeatView

VALUABLE = 40
"""The value of the card that completes the trip (the first one, if several would)."""
NEVER = -1000
"""The value of a card that must not be played now."""


class ClassicPlayer:
    """Card counting and one value per card in hand, after BSD ``mille``'s computer."""

    name: ClassVar[str] = "classic"

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if view.phase is Phase.COUP_FOURRE:
            return moves[0]  # the coup-fourré whenever it holds the safety
        if view.phase is Phase.EXTENSION:
            return CALL if _should_extend(view) else DECLINE
        return _Turn(view, self.rng).choose()


def _should_extend(view: SeatView) -> bool:
    """Two safeties known or more, and the opponent neither at 0 km, nor one card from home,
    nor rolling past 500; then extend if every safety is either ours or not laid by it, or if
    the distance in hand and the cards to come make the 300 km likely."""
    mine = view.tableau(view.side)
    held = {card for card in view.hand_codes if KIND[card] == SAFETY}
    known = held | set(mine.safeties)
    if len(known) < 2:
        return False
    for other in _opponents(view):
        rival = view.tableau(other)
        if rival.distance == 0 or _one_card_from_home(view, rival):
            return False
        if rival.rolling and rival.distance >= 500:
            return False
    laid_by_rivals = {card for other in _opponents(view) for card in view.tableau(other).safeties}
    if all(safety in known or safety not in laid_by_rivals for safety in _SAFETIES):
        return True
    in_hand = sum(KM[card] for card in view.hand_codes)
    return in_hand + 3 * view.draw_pile > 1000


_SAFETIES = tuple(code for code, kind in enumerate(KIND) if kind == SAFETY)


def _opponents(view: SeatView) -> list[int]:
    return [side for side in range(view.sides) if side != view.side]


def _one_card_from_home(view: SeatView, tableau: Tableau) -> bool:
    """Whether a side could complete the trip with its next card, as far as this seat knows."""
    could_roll = tableau.rolling or (
        view.unseen_count(RIGHT_OF_WAY) > 0 and tableau.hazard_showing in (NO_CARD, STOP)
    )
    if not could_roll:
        return False
    remaining = view.target - tableau.distance
    for card in DISTANCES:
        if KM[card] == remaining:
            if card == DISTANCE_200 and tableau.two_hundreds >= 2:
                return False
            if tableau.limited and KM[card] > 50 and view.unseen_count(RIGHT_OF_WAY) == 0:
                return False
            return view.unseen_count(card) > 0
    return False


class _Turn:
    """One decision: every card in hand valued, then the best played or the worst discarded."""

    def __init__(self, view: SeatView, rng: Random) -> None:
        self.view = view
        self.rng = rng
        self.mine = view.tableau(view.side)
        self.hand = view.hand_codes
        self.count = [self.hand.count(card) for card in range(len(KIND))]
        self.plays: dict[int, Play] = {}
        for move in view.legal_moves:
            if isinstance(move, Play) and KIND[move.code] != SAFETY:
                best = self.plays.get(move.code)
                if best is None or self._rival(move) > self._rival(best):
                    self.plays[move.code] = move
        self.safeties = [
            move
            for move in view.legal_moves
            if isinstance(move, Play) and KIND[move.code] == SAFETY
        ]
        self.rival = self._leader()

    def _rival(self, move: Play) -> int:
        return -1 if move.target is None else self.view.tableau(move.target).distance

    def _leader(self) -> Tableau:
        """The opponent its hazards are aimed at: the one furthest along."""
        view = self.view
        return max((view.tableau(side) for side in _opponents(view)), key=lambda t: t.distance)

    def seen(self, card: int) -> int:
        return self.view.seen_count(card)

    def all_seen(self, card: int) -> bool:
        return self.view.unseen_count(card) == 0

    def choose(self) -> Move:
        view, mine = self.view, self.mine
        for move in self.safeties:  # a safety that cures what shows: at once
            card = move.code
            if (mine.hazard_showing != NO_CARD and ANSWERS[card] >> mine.hazard_showing & 1) or (
                card == RIGHT_OF_WAY and mine.limited
            ):
                return move
        playable = self._playable()
        can_stop = any(KIND[card] == HAZARD and card != SPEED_LIMIT for card in playable) or (
            SPEED_LIMIT in playable and self.all_seen(DISTANCE_25) and self.all_seen(DISTANCE_50)
        )
        finishing = any(
            mine.distance + KM[card] == view.target for card in playable if KIND[card] == DISTANCE
        )
        for move in self.safeties:
            if self._lay_safety(move.code, bool(playable), can_stop, finishing):
                return move
        values = {card: self._value(card, bool(playable)) for card in set(self.hand)}
        if playable:
            best = max(playable, key=lambda card: (values[card], KM[card]))
            return self.plays[best]
        worst = min(self.hand, key=lambda card: values[card])
        if KIND[worst] == SAFETY and self.safeties:  # never discard a safety: lay it
            return next(move for move in self.safeties if move.code == worst)
        return next(
            move for move in view.legal_moves if isinstance(move, Discard) and move.code == worst
        )

    def _playable(self) -> list[int]:
        """The cards worth playing now; a short distance card that would leave the side stuck a
        few km short of home, with the pile still open, is kept back."""
        view, mine = self.view, self.mine
        remaining = view.target - mine.distance
        playable = []
        for card in self.plays:
            km = KM[card]
            if (
                km in (25, 50)
                and view.draw_pile > 0
                and remaining <= 100
                and remaining // km > self.count[card]
                and (km == 25 or remaining % 50 == 0)
                and not (km == 50 and remaining == 75 and self.count[DISTANCE_25] > 0)
            ):
                continue
            playable.append(card)
        return playable

    def _lay_safety(self, card: int, can_play: bool, can_stop: bool, finishing: bool) -> bool:
        view = self.view
        if _one_card_from_home(view, self.rival) or (finishing and can_play and not can_stop):
            return True
        hazards = [hazard for hazard in range(len(KIND)) if ANSWERS[card] >> hazard & 1]
        if all(self.all_seen(hazard) for hazard in hazards):
            return True
        if card == RIGHT_OF_WAY and all(self.all_seen(hazard) for hazard in hazards[:1]):
            return False
        if not can_play and (self.rival.rolling or not self.mine.rolling or view.draw_pile == 0):
            left = view.draw_pile - self.rng.randint(1, 10)
            if (self.mine.distance == 0) != (self.rival.distance == 0):
                left -= 7
            return left < 25
        return False

    def _value(self, card: int, playing: bool) -> float:
        """What ``card`` is worth: the higher, the sooner played and the later discarded."""
        kind = KIND[card]
        if kind == SAFETY:
            return 0 if playing else 101
        if kind == DISTANCE:
            return self._distance_value(card)
        if kind == REMEDY:
            return self._remedy_value(card, playing)
        return self._hazard_value(card, playing)

    def _distance_value(self, card: int) -> float:
        view, mine = self.view, self.mine
        km = KM[card]
        value = km / 8
        slow = km <= 50
        value += (1 if slow else -1) if mine.limited else (-1 if slow else 1)
        if slow and not self._low_kept():
            value = 10.0 if mine.distance else 20.0
        if card == DISTANCE_200 and mine.two_hundreds >= 2:
            return 0
        reached = mine.distance + km
        if reached > view.target:
            return 1 if view.target == 700 else 0
        if reached == view.target:
            return VALUABLE
        return value

    def _low_kept(self) -> bool:
        """Whether the side can do without one low card against a Speed Limit: something to
        play, an End of Limit in hand, every limit out, or Right of Way known."""
        return (
            bool(self.plays)
            or self.count[END_OF_LIMIT] > 0
            or self.all_seen(SPEED_LIMIT)
            or self.mine.protected(SPEED_LIMIT)
            or self.count[RIGHT_OF_WAY] > 0
        )

    def _remedy_value(self, card: int, playing: bool) -> float:
        mine = self.mine
        copies = max(self.count[card], 1)
        if card == ROLL:
            if mine.protected(STOP):
                return -1
            if self.count[RIGHT_OF_WAY]:
                return 2
            needed = self.view.unseen_count(STOP) + (0 if mine.rolling else 1)
            return (3 * needed + self.seen(ROLL) / 4) / (copies * copies)
        hazard = SPEED_LIMIT if card == END_OF_LIMIT else CURES[card]
        if mine.protected(hazard):
            return -1
        if self.count[SAFETY_FOR[hazard]]:
            return 1
        facing = mine.limited if card == END_OF_LIMIT else mine.hazard_showing == hazard
        if not facing and self.view.unseen_count(hazard) == 0:
            return 0
        value = self.view.deck_count(hazard) * 6 + self.seen(card) - self.seen(hazard)
        return value / (copies * copies) if not playing else value

    def _hazard_value(self, card: int, playing: bool) -> float:
        view, rival = self.view, self.rival
        safety = SAFETY_FOR[card]
        if rival.protected(card):
            return -1
        if card == SPEED_LIMIT and view.target - rival.distance <= 50:
            return 1 if view.target == 700 and not playing else 0
        known = self.count[safety] > 0 or self.mine.protected(card)
        base = 3 if known else 4
        cure = REMEDY_FOR[card]
        value = base * (self.view.deck_count(STOP) if card == STOP else 0) + base * (
            self.seen(cure) + 2
        )
        if self.mine.distance == 0 or _one_card_from_home(view, rival):
            value += 5
        if rival.distance == 0:
            value += 5
        if rival.limited:
            value -= 3
        if playing and known:
            value += 3
        return value if playing else value / self.count[card]
