"""A reference opponent: the decisions of KevinAI, the winner of the ``mille-ai`` AI contest.

``mille-ai`` (https://github.com/elliotkendall/mille-ai) is the framework Elliot Kendall wrote
for a Mille Bornes AI contest in 2014; ``KevinAI`` (``mille/kevin.py``, by Kevin Hoeschele) won
it. The repository states no licence, so nothing of it is copied here: this module is this
project's own code, written to make the same decision as ``KevinAI.makeMove``,
``playCoupFourre`` and ``goForExtension`` in every position, and checked decision by decision
against the original (``tests/engine/test_contest_faithful.py`` replays games whose every
decision the original program made).

How it decides, in order: complete the trip if one card does; otherwise play the heaviest
hazard (weights for a rival near home, far ahead, or ahead on the game score; battle hazards
over Stop over Speed Limit; its safety seen or not, and none unseen near the end of the pile);
otherwise the first remedy in the original's card order (a distance card instead of an End of
Limit near home); otherwise the longest distance (or the first of two that finish); otherwise a
safety that cures what stops or limits the side; otherwise a discard: remedies made useless,
hazards the rival is safe from, distance that no longer fits, spare remedies, then a safety is
laid, then spare hazards, then the shortest distance, then the first card in hand.

How this engine's world maps onto ``mille-ai``'s, since the original reads that one:

- **Moves.** KevinAI was written for, and won its contest in, ``mille-ai``'s own game, whose
  ``GameState.findValidPlays`` decides what it may choose from; so its moves are the ones that
  game would list in the mapped position (below), kept only where this engine allows them too.
  ``mille-ai`` lists every card's discard; the remedy the side needs (``needRemedy``), End of
  Limit under a limit, distance while rolling (25 and 50 only under a limit, no third 200 for
  the side, none past the target), any safety; a Speed Limit on an opponent side neither
  limited nor holding Right of Way, a battle hazard only on one rolling and without its safety.
  The engine, under its default rules, allows more (a hazard on a side already stopped, a Roll
  on an empty pile with Right of Way laid, and so on): a move ``mille-ai`` would not list is
  never chosen, whatever the engine allows. The other way round, the engine refuses only one
  kind of move ``mille-ai`` lists: the discard of a safety under ``discard_safeties:
  forbidden``, dropped from the list (its play is always left). The rest of ``mille-ai``'s
  list is engine-legal under every variant: the engine's rolling side takes the distance
  ``mille-ai`` allows (a 200 limit per player counts each seat's 200s, never more than the
  side's), the remedy needed is the one for the hazard showing and Go is needed only on an
  empty pile, a remedy or a corrected hazard, where the engine takes each, and the engine's
  hazards reach every side ``mille-ai``'s do. The list is in ``mille-ai``'s order: card by card
  in hand order (:attr:`SeatView.hand_codes`, which is ``mille-ai``'s hand order too: dealt and
  drawn cards are appended, a played card leaves at its first copy), a card held twice listed
  twice; for each card its discard first, then its play, a hazard once per opponent side it
  may hit, in side order.
- **Card numbers.** ``mille-ai`` numbers the cards 25, 50, 75, 100, 200, Spare Tire, Gasoline,
  Repairs, Go, End of Limit, Flat Tire, Out of Gas, Accident, Stop, Speed Limit, Puncture Proof,
  Extra Tank, Driving Ace, Right of Way; its sorts by card number follow :data:`MILLE_NUMBER`
  (stable, as Python's are).
- **Teams.** A ``mille-ai`` team is an engine side, numbered alike; the opponents are the other
  sides in side order. ``totalScore`` is the side's game total before the hand
  (:attr:`SeatView.scores`); ``coupFourres`` and ``twoHundredsPlayed`` are counted from the
  tableau; ``cardsLeft`` is the draw pile after the turn's draw.
- **State of a side.** ``moving`` is :attr:`Tableau.rolling`; ``speedLimit`` is
  :attr:`Tableau.limited`; ``needRemedy`` is nothing while rolling, the remedy of the hazard
  showing, else Go (an empty pile, a remedy showing, or a hazard *corrected* by a safety laid in
  turn, which ``mille-ai`` also leaves needing a Go).
- **Cards played.** The original counts every card on the tableaux and the discard pile; here
  that is every card face up (the hazards a safety clears go to the engine's discard pile, where
  they are still counted; ``mille-ai``'s own game would have dropped a coup-fourré's hazard).
- **Coup-fourré.** Always declared (the first coup-fourré offered is the one for the hazard
  just played), also against a hazard ``mille-ai``'s game would not have let another player
  lay (the original says yes to every one); only the pass is left when the seat holds no
  safety to declare.
- **Extension.** Whenever the engine offers it (at 700 with 2, 3 or 6 seats; at 1,000 with 4
  under ``four_player_extension: to_1200``, which ``mille-ai`` never offers), the original's
  ``goForExtension``, its 5,000 read as the game's end.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar, Final

from engine.codes import (
    ACCIDENT,
    COUNT,
    CURES,
    DISTANCE,
    DISTANCE_50,
    DISTANCE_75,
    DISTANCE_100,
    DISTANCE_200,
    DISTANCES,
    DRIVING_ACE,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    HAZARD,
    KIND,
    KM,
    LIMITED_DISTANCE,
    NO_CARD,
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    REMEDY,
    REMEDY_FOR,
    REPAIRS,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SAFETY_FOR,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
)
from engine.moves import CALL, DECLINE, DISCARD, HAZARD_PLAY, OWN_PLAY, Discard, Move, Play
from engine.rules import GAME_TARGET
from engine.state import Phase
from engine.tableau import Tableau
from engine.view import SeatView

_MILLE_NUMBERS: Final = {
    SPARE_TIRE: 5,
    GASOLINE: 6,
    REPAIRS: 7,
    ROLL: 8,
    END_OF_LIMIT: 9,
    FLAT_TIRE: 10,
    OUT_OF_GAS: 11,
    ACCIDENT: 12,
    STOP: 13,
    SPEED_LIMIT: 14,
    PUNCTURE_PROOF: 15,
    EXTRA_TANK: 16,
    DRIVING_ACE: 17,
    RIGHT_OF_WAY: 18,
}
MILLE_NUMBER: Final[tuple[int, ...]] = tuple(
    _MILLE_NUMBERS.get(code, code) for code in range(COUNT)
)
"""``mille-ai``'s number of each engine card code (distance is numbered alike)."""

CAREFUL_BELOW: Final = 10
"""Cards left to draw under which no hazard whose safety is unaccounted for is played."""
EXTEND_ABOVE: Final = 75
"""Cards left to draw above which a runaway side extends."""

_SPARES: Final = ((SPARE_TIRE, 1), (GASOLINE, 1), (REPAIRS, 1), (ROLL, 2), (END_OF_LIMIT, 1))
"""Remedies it keeps one of (two Gos), in the order it looks for one more to discard."""
_ALL_OUT: Final = ((FLAT_TIRE, 3), (OUT_OF_GAS, 3), (ACCIDENT, 3), (SPEED_LIMIT, 4))
"""How many of each hazard the original's 106-card deck holds: all of them played makes the
remedy dead (the original counts these numbers whatever the deck, so the reduced deck of 2 or 3
players never reaches them)."""
_ALL_END_OF_LIMITS: Final = 6


class ContestPlayer:
    """KevinAI's decisions: attack by weight, cure, drive, discard the dead first."""

    name: ClassVar[str] = "contest"

    def __init__(self, rng: Random) -> None:
        self.rng = rng  # never drawn from: the original decides without chance

    def choose(self, view: SeatView) -> Move:
        phase = view.phase
        if phase is Phase.COUP_FOURRE:
            return view.legal_moves[0]  # always declared when it can be; else the pass alone
        if phase is Phase.EXTENSION:
            return CALL if go_for_extension(view) else DECLINE
        return _Turn(view).choose()


# -- what the original reads ---------------------------------------------------------------------


def mille_order(view: SeatView) -> list[Move]:
    """KevinAI's ``validMoves``: what ``mille-ai``'s game would list in the mapped position,
    in its order, less what the engine refuses.

    Per card in hand (a card held twice comes twice): its discard, then its play or, for a
    hazard, its play on each opponent side it may hit, in side order. Which plays are listed is
    ``mille-ai``'s rule (:func:`mille_plays`, :func:`mille_open_to`); a move is kept only if the
    engine allows it too, and an engine-legal move ``mille-ai`` would not list is left out.
    """
    discardable = 0
    own = 0
    against = [0, 0, 0]
    for move in view.legal_moves:
        if isinstance(move, Discard):
            discardable |= 1 << move.code
        elif isinstance(move, Play):
            if move.target is None:
                own |= 1 << move.code
            else:
                against[move.target] |= 1 << move.code
    opponents = _opponents(view)
    own &= mille_plays(view.tableau(view.side), view.target)
    for side in opponents:
        against[side] &= mille_open_to(view.tableau(side))
    moves: list[Move] = []
    for code in view.hand_codes:
        if discardable >> code & 1:
            moves.append(DISCARD[code])
        if KIND[code] == HAZARD:
            for side in opponents:
                if against[side] >> code & 1:
                    moves.append(HAZARD_PLAY[code][side])
        elif own >> code & 1:
            moves.append(OWN_PLAY[code])
    return moves


def mille_plays(us: Tableau, target: int) -> int:
    """The cards ``mille-ai``'s game lets a side lay on its own tableau, as a mask: the remedy
    it needs, End of Limit under a limit, distance while rolling (25 and 50 only under a limit,
    no third 200, none past the target), any safety."""
    plays = SAFETIES
    needed = need_remedy(us)
    if needed != NO_CARD:
        plays |= 1 << needed
    if us.limited:
        plays |= 1 << END_OF_LIMIT
    if us.rolling:
        for code in DISTANCES:
            if (
                (not us.limited or LIMITED_DISTANCE >> code & 1)
                and (us.two_hundreds < 2 or code != DISTANCE_200)
                and us.distance + KM[code] <= target
            ):
                plays |= 1 << code
    return plays


def mille_open_to(rival: Tableau) -> int:
    """The hazards ``mille-ai``'s game lets an opponent play on ``rival``, as a mask: a Speed
    Limit unless already limited or holding Right of Way, a battle hazard only while the side
    rolls and lacks its safety."""
    safeties = rival.safeties
    hazards = 0
    if not rival.limited and RIGHT_OF_WAY not in safeties:
        hazards |= 1 << SPEED_LIMIT
    if rival.rolling:
        for hazard in (ACCIDENT, OUT_OF_GAS, FLAT_TIRE, STOP):
            if SAFETY_FOR[hazard] not in safeties:
                hazards |= 1 << hazard
    return hazards


def _opponents(view: SeatView) -> list[int]:
    return [side for side in range(view.sides) if side != view.side]


def played(view: SeatView, card: int) -> int:
    """How many of ``card`` lie face up: on the tableaux or the discard pile."""
    return view.seen_count(card) - view.hand_codes.count(card)


def need_remedy(tableau: Tableau) -> int:
    """The remedy the side needs to roll (``mille-ai``'s ``needRemedy``), NO_CARD if rolling."""
    if tableau.rolling:
        return NO_CARD
    showing = tableau.hazard_showing
    return ROLL if showing == NO_CARD else REMEDY_FOR[showing]


def running_total(tableau: Tableau, score: int) -> int:
    """The game total before the hand, the distance, and the safeties' and coups-fourrés'
    points: how far ahead a side is, as the original weighs it."""
    return tableau.distance + score + len(tableau.safeties) * 100 + len(tableau.coup_fourres) * 300


def _by_number(move: Move) -> int:
    assert isinstance(move, Play | Discard)
    return MILLE_NUMBER[move.code]


# -- a turn ------------------------------------------------------------------------------------


class _Turn:
    """One play-or-discard decision, in the original's order of questions."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.side = view.side
        self.us = view.tableau(view.side)
        self.target = view.target
        self.opponents = _opponents(view)
        self.discards: list[Discard] = []
        self.mileage: list[Play] = []
        self.attacks: list[Play] = []
        self.remedies: list[Play] = []
        self.safeties: list[Play] = []
        for move in mille_order(view):
            if isinstance(move, Discard):
                self.discards.append(move)
                continue
            assert isinstance(move, Play)
            kind = KIND[move.code]
            if kind == DISTANCE:
                self.mileage.append(move)
            elif kind == REMEDY:
                self.remedies.append(move)
            elif kind == HAZARD:
                self.attacks.append(move)
            else:
                self.safeties.append(move)

    def choose(self) -> Move:
        for step in (self.finish, self.attack, self.remedy, self.drive, self.cure_by_safety):
            move = step()
            if move is not None:
                return move
        return self.discard()

    def holds_safety_play(self, safety: int) -> bool:
        return any(move.code == safety for move in self.safeties)

    # -- plays -----------------------------------------------------------------------------------

    def finish(self) -> Move | None:
        """The card that completes the trip exactly."""
        needed = self.target - self.us.distance
        for move in self.mileage:
            if KM[move.code] == needed:
                return move
        return None

    def attack(self) -> Move | None:
        """The heaviest hazard, if any weighs more than -1.

        Weights are summed in the original's order (floats: 0.6, 0.01 and 0.5 make sums whose
        rounding decides ties), and a later hazard of the same weight takes the place of an
        earlier one, as the original's table of hazards by weight does.
        """
        view = self.view
        scores = view.scores
        us = self.us
        target = self.target
        mine = running_total(us, scores[self.side])
        by_weight: dict[float, Play] = {}
        highest = -10.0
        for move in self.attacks:
            card = move.code
            rival_side = move.target
            assert rival_side is not None
            rival = view.tableau(rival_side)
            theirs = running_total(rival, scores[rival_side])
            weight = 0.0
            for threshold, points in ((3000, 1), (3500, 1), (4000, 1), (4500, 2)):
                if theirs >= threshold:
                    weight += points
            if theirs >= mine + 1000:
                weight += 1
            if theirs >= mine + 2000:
                weight += 3
            if rival.distance >= us.distance + 400:
                weight += 1
            if rival.distance >= target - 200:
                if rival.distance >= target - 50 and card == SPEED_LIMIT:
                    weight = -10.0
                else:
                    weight += 1
            if card != SPEED_LIMIT and card != STOP:
                weight += 0.6
            if card == STOP:
                weight += 0.01
            safety = SAFETY_FOR[card]
            if played(view, safety) == 1 or self.holds_safety_play(safety):
                weight += 0.5
            elif view.draw_pile < CAREFUL_BELOW:
                weight = -10.0
            else:
                weight -= 0.5
            if weight > highest:
                highest = weight
            by_weight[weight] = move
        if highest > -1:
            return by_weight[highest]
        return None

    def remedy(self) -> Move | None:
        """The first remedy in the original's card order; but near home, with an End of Limit
        first, the longest distance instead."""
        if not self.remedies:
            return None
        first = min(self.remedies, key=_by_number)
        if first.code == END_OF_LIMIT and self.us.distance >= self.target - 50 and self.mileage:
            return max(self.mileage, key=_by_number)
        return first

    def drive(self) -> Move | None:
        """The longest distance; within 200 km of home with three distance plays or more, the
        first (longest first) of two that finish exactly."""
        if not self.mileage:
            return None
        longest_first = sorted(self.mileage, key=_by_number, reverse=True)
        distance = self.us.distance
        if len(longest_first) > 2 and distance > self.target - 200:
            for number, first in enumerate(longest_first):
                for second in longest_first[number + 1 :]:
                    if distance + KM[first.code] + KM[second.code] == self.target:
                        return first
        return longest_first[0]

    def cure_by_safety(self) -> Move | None:
        """The safety that answers the remedy the side needs, or Right of Way under a limit."""
        needed = need_remedy(self.us)
        if needed != NO_CARD:
            safety = SAFETY_FOR[CURES[needed]]
            for move in self.safeties:
                if move.code == safety:
                    return move
        if self.us.limited:
            for move in self.safeties:
                if move.code == RIGHT_OF_WAY:
                    return move
        return None

    # -- discards --------------------------------------------------------------------------------

    def discard(self) -> Move:
        """Dead cards first, spare ones next; a safety laid rather than a useful card thrown."""
        remedies = [move for move in self.discards if KIND[move.code] == REMEDY]
        attacks = [move for move in self.discards if KIND[move.code] == HAZARD]
        mileage = sorted(
            (move for move in self.discards if KIND[move.code] == DISTANCE), key=_by_number
        )
        rival_safeties = [
            safety for side in self.opponents for safety in self.view.tableau(side).safeties
        ]
        dead = (
            self.dead_remedy(remedies)
            or self.hazard_rival_is_safe_from(attacks, rival_safeties)
            or self.distance_out_of_use(mileage, rival_safeties)
            or self.spare_remedy(remedies)
        )
        if dead is not None:
            return dead
        if self.safeties:
            return self.safeties[0]
        spare = self.spare_hazard(attacks)
        if spare is not None:
            return spare
        if mileage:
            if len(mileage) > 1:
                return mileage[0]
            for remedy in sorted(remedies, key=_by_number, reverse=True):
                if remedy.code != ROLL:
                    return remedy
            if attacks:
                return sorted(attacks, key=_by_number, reverse=True)[0]
        return self.discards[0]

    def dead_remedy(self, remedies: list[Discard]) -> Discard | None:
        """A remedy whose safety is in hand or on the own tableau, or whose hazards are all
        played (the first in hand order that is either)."""
        for remedy in remedies:
            safety = SAFETY_FOR[CURES[remedy.code]]
            if self.holds_safety_play(safety) or safety in self.us.safeties:
                return remedy
            hazard = CURES[remedy.code]
            for counted, deck in _ALL_OUT:
                if hazard == counted and played(self.view, hazard) == deck:
                    return remedy
        return None

    def hazard_rival_is_safe_from(
        self, attacks: list[Discard], rival_safeties: list[int]
    ) -> Discard | None:
        """With one opponent side, a hazard it has the safety for."""
        if len(self.opponents) != 1:
            return None
        for attack in attacks:
            if SAFETY_FOR[attack.code] in rival_safeties:
                return attack
        return None

    def distance_out_of_use(
        self, mileage: list[Discard], rival_safeties: list[int]
    ) -> Discard | None:
        """Shortest first: distance over 50 when the side is limited for good (every End of
        Limit played, and an opponent holds Right of Way, as the original reads it); a third
        200 or a 200 within 200 km of home; a card too long for what is left."""
        if not mileage:
            return None
        us = self.us
        if (
            played(self.view, END_OF_LIMIT) == _ALL_END_OF_LIMITS
            and us.limited
            and RIGHT_OF_WAY in rival_safeties
        ):
            for move in mileage:
                if move.code > DISTANCE_50:
                    return move
        distance, target = us.distance, self.target
        for move in mileage:
            code = move.code
            if (us.two_hundreds == 2 or distance > target - 200) and code == DISTANCE_200:
                return move
            if distance > target - 100 and code == DISTANCE_100:
                return move
            if distance > target - 75 and code == DISTANCE_75:
                return move
            if distance > target - 50 and code == DISTANCE_50:
                return move
        return None

    def spare_remedy(self, remedies: list[Discard]) -> Discard | None:
        """The first kind of remedy held more than once (Go: more than twice)."""
        for card, kept in _SPARES:
            copies = [move for move in remedies if move.code == card]
            if len(copies) > kept:
                return copies[0]
        return None

    def spare_hazard(self, attacks: list[Discard]) -> Discard | None:
        """With three hazards or more in hand, the first Stop or Speed Limit."""
        if len(attacks) > 2:
            for attack in attacks:
                if attack.code == SPEED_LIMIT or attack.code == STOP:
                    return attack
        return None


# -- the extension -----------------------------------------------------------------------------


def go_for_extension(view: SeatView) -> bool:
    """Extend as a last resort when a rival would pass 5,000 ahead anyway, or in a runaway:
    rolling, the pile deep, no rival rolling nor at 300 km.

    The original's estimate of its own total counts the trip and a safe trip always, 500 if any
    rival is at 0 km, and the all-four-safeties bonus of its own side for every rival too.
    """
    us = view.tableau(view.side)
    scores = view.scores
    all_four = 300 if len(us.safeties) == 4 else 0
    mine = running_total(us, scores[view.side]) + all_four + 400 + 300
    shutout = False
    highest = 0
    for side in _opponents(view):
        rival = view.tableau(side)
        if rival.distance == 0:
            shutout = True
        total = running_total(rival, scores[side]) + all_four
        if total > highest:
            highest = total
    if shutout:
        mine += 500
    if highest > GAME_TARGET and mine <= highest:
        return True
    rivals = [view.tableau(side) for side in _opponents(view)]
    return (
        us.rolling
        and view.draw_pile > EXTEND_ABOVE
        and not any(rival.rolling for rival in rivals)
        and max(rival.distance for rival in rivals) < 300
    )
