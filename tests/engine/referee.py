"""An independent model of one hand of Mille Bornes, written from RULES.md alone (§2-§8, §5a, §6,
§7, §12 play variants), used as a referee for the engine: same deck in, the same moves applied, and
every observable fact compared after every move (see ``test_referee``).

It shares nothing with the engine but the card ids, the ``Rules`` value object and the move classes.
Piles hold ``Entry`` objects (a card, or ``None`` for the *corrected* marker of §3, plus a serial
number) so that the referee can tell *which* hazard was played since a side's last turn
(``coup_fourre_window: victims_next_turn``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from itertools import count

from engine.cards import SAFETIES, Card
from engine.moves import (
    CALL,
    DECLINE,
    PASS,
    CallExtension,
    CoupFourre,
    DeclineExtension,
    Discard,
    Move,
    PassCoupFourre,
    Play,
)
from engine.rules import (
    CoupFourreWindow,
    DiscardSafeties,
    ExhaustionEnd,
    Hazards,
    RollAfterRemedy,
    Rules,
    SafetyAfterExhaustion,
    SafetyOnHazard,
    SpeedLimitOnLimit,
    TwoHundredsLimit,
)

C = Card
HAND = 6
DISTANCE_KM = {
    C.DISTANCE_25: 25,
    C.DISTANCE_50: 50,
    C.DISTANCE_75: 75,
    C.DISTANCE_100: 100,
    C.DISTANCE_200: 200,
}
BATTLE_HAZARDS = (C.ACCIDENT, C.OUT_OF_GAS, C.FLAT_TIRE, C.STOP)
HAZARDS = (*BATTLE_HAZARDS, C.SPEED_LIMIT)
REMEDY_OF = {C.ACCIDENT: C.REPAIRS, C.OUT_OF_GAS: C.GASOLINE, C.FLAT_TIRE: C.SPARE_TIRE}
BATTLE_REMEDIES = (C.REPAIRS, C.GASOLINE, C.SPARE_TIRE, C.ROLL)
SAFETY_OF = {
    C.ACCIDENT: C.DRIVING_ACE,
    C.OUT_OF_GAS: C.EXTRA_TANK,
    C.FLAT_TIRE: C.PUNCTURE_PROOF,
    C.STOP: C.RIGHT_OF_WAY,
    C.SPEED_LIMIT: C.RIGHT_OF_WAY,
}


class RPhase(Enum):
    PLAY = "play"
    COUP_FOURRE = "coup_fourre"
    EXTENSION = "extension"
    OVER = "over"


_serial = count()


@dataclass(frozen=True)
class Entry:
    """One card on a battle or speed pile; ``card is None`` is the *corrected* marker (§3)."""

    card: Card | None
    serial: int = field(default_factory=lambda: next(_serial))


@dataclass
class Side:
    battle: list[Entry] = field(default_factory=list)
    speed: list[Entry] = field(default_factory=list)
    distance: list[Card] = field(default_factory=list)
    safeties: list[Card] = field(default_factory=list)
    coup_fourres: list[Card] = field(default_factory=list)
    two_hundreds_by_seat: Counter[int] = field(default_factory=Counter)

    @property
    def km(self) -> int:
        return sum(DISTANCE_KM[card] for card in self.distance)

    @property
    def battle_top(self) -> Entry | None:
        return self.battle[-1] if self.battle else None

    @property
    def speed_top(self) -> Card | None:
        return self.speed[-1].card if self.speed else None

    def protected(self, hazard: Card) -> bool:
        return SAFETY_OF[hazard] in self.safeties


@dataclass
class Chance:
    """An open coup-fourré chance (§6).

    until_next_draw: ``attacker`` played ``hazard`` (an Entry) on ``side``; ``queue`` are the seats
    still to be asked.  victims_next_turn: ``fresh`` are the serials of the hazards played on the
    side since its last turn; the one seat in ``queue`` is asked.
    """

    side: int
    queue: list[int]
    attacker: int | None = None
    hazard: Entry | None = None
    fresh: frozenset[int] = frozenset()


class Referee:
    """One hand, dealt from ``deck`` (top card last) by ``dealer``."""

    def __init__(
        self, rules: Rules, deck: list[Card], dealer: int = 0, *, private_chances: bool = False
    ) -> None:
        self.rules = rules
        self.players = rules.players
        self.n_sides = rules.sides
        self.private = private_chances
        self.pile = list(deck)
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        for _ in range(HAND):
            for k in range(1, self.players + 1):
                self.hands[(dealer + k) % self.players].append(self.pile.pop())
        self.discards: list[Card] = []
        self.sides = [Side() for _ in range(self.n_sides)]
        self.extended = False
        self.caller: int | None = None
        self.completer: int | None = None
        self.delayed = False
        self.exhausted = False
        self.phase = RPhase.PLAY
        self.to_act = (dealer + 1) % self.players
        self.chance: Chance | None = None
        # victims_next_turn: serials of hazards played on each side since its last turn began
        self.fresh: list[set[int]] = [set() for _ in range(self.n_sides)]
        self.stats: Counter[str] = Counter()  # what the hand exercised (for the sweep's summary)
        self._begin_turn(self.to_act)

    # ----- derived states (§3) -----

    def side_of(self, seat: int) -> int:
        return seat % self.n_sides

    @property
    def target(self) -> int:
        return self.rules.target(self.extended)

    def rolling(self, side: int) -> bool:
        tab = self.sides[side]
        top = tab.battle_top
        card = top.card if top else None
        if card is C.ROLL:
            return True
        if top is not None and card is None:  # corrected marker
            if self.rules.safety_on_hazard is SafetyOnHazard.ROLLS_AT_ONCE:
                return True
        if card in (C.REPAIRS, C.GASOLINE, C.SPARE_TIRE):
            if self.rules.roll_after_remedy is RollAfterRemedy.NOT_REQUIRED:
                return True
        if C.RIGHT_OF_WAY in tab.safeties and card not in HAZARDS:
            return True
        return False

    def limited(self, side: int) -> bool:
        return self.sides[side].speed_top is C.SPEED_LIMIT

    # ----- legal moves -----

    def legal_moves(self) -> set[Move]:
        if self.phase is RPhase.OVER:
            return set()
        if self.phase is RPhase.EXTENSION:
            return {CALL, DECLINE}
        if self.phase is RPhase.COUP_FOURRE:
            return self._chance_moves(self.to_act)
        return self.play_moves(self.to_act) | self._discards(self.to_act)

    def _discards(self, seat: int) -> set[Move]:
        forbid = self.rules.discard_safeties is DiscardSafeties.FORBIDDEN
        return {Discard(c) for c in self.hands[seat] if not (forbid and c in SAFETIES)}

    def play_moves(self, seat: int) -> set[Move]:
        moves: set[Move] = set()
        for card in set(self.hands[seat]):
            moves |= self._plays_of(seat, card)
        return moves

    def _plays_of(self, seat: int, card: Card) -> set[Move]:
        side = self.side_of(seat)
        tab = self.sides[side]
        top = tab.battle_top
        top_card = top.card if top else None
        if card in SAFETIES:
            return {Play(card)}
        if card is C.ROLL:
            ok = (
                top is None
                or top_card is None
                or top_card in (C.STOP, C.REPAIRS, C.GASOLINE, C.SPARE_TIRE)
            )
            return {Play(card)} if ok else set()
        if card in (C.REPAIRS, C.GASOLINE, C.SPARE_TIRE):
            ok = top_card is not None and REMEDY_OF.get(top_card) is card
            return {Play(card)} if ok else set()
        if card is C.END_OF_LIMIT:
            return {Play(card)} if self.limited(side) else set()
        if card in DISTANCE_KM:
            km = DISTANCE_KM[card]
            if not self.rolling(side):
                return set()
            if self.limited(side) and km > 50:
                return set()
            if tab.km + km > self.target:
                return set()
            if card is C.DISTANCE_200:
                if self.rules.two_hundreds_limit is TwoHundredsLimit.PLAYER:
                    if tab.two_hundreds_by_seat[seat] >= 2:
                        return set()
                elif sum(tab.two_hundreds_by_seat.values()) >= 2:
                    return set()
            return {Play(card)}
        moves: set[Move] = set()
        for other in range(self.n_sides):
            if other != side and self._hazard_ok(card, other):
                moves.add(Play(card, other))
        return moves

    def _hazard_ok(self, hazard: Card, side: int) -> bool:
        tab = self.sides[side]
        if tab.protected(hazard):
            return False
        if hazard is C.SPEED_LIMIT:
            top = tab.speed_top
            if top is None or top is C.END_OF_LIMIT:
                return True
            return (
                top is C.SPEED_LIMIT
                and self.rules.speed_limit_on_limit is SpeedLimitOnLimit.ALLOWED
            )
        if self.rules.hazards is Hazards.ON_ROLLING:
            return self.rolling(side)
        return bool(tab.battle) or self.rolling(side)

    # ----- coup-fourré chances (§6, §12 coup_fourre_window) -----

    def _chance_targets(self, chance: Chance) -> list[Entry]:
        """The hazards the open chance may be answered against."""
        tab = self.sides[chance.side]
        if chance.hazard is not None:
            return [chance.hazard]
        tops = []
        if tab.battle and tab.battle[-1].serial in chance.fresh and tab.battle[-1].card:
            tops.append(tab.battle[-1])
        if tab.speed and tab.speed[-1].serial in chance.fresh:
            tops.append(tab.speed[-1])
        return tops

    def _answering(self, seat: int, chance: Chance) -> set[Card]:
        hand = self.hands[seat]
        return {
            SAFETY_OF[e.card] for e in self._chance_targets(chance) if SAFETY_OF[e.card] in hand
        }

    def _chance_moves(self, seat: int) -> set[Move]:
        assert self.chance is not None
        return {CoupFourre(s) for s in self._answering(seat, self.chance)} | {PASS}

    def _open_chance_after_attack(self, attacker: int, side: int, hazard: Entry) -> bool:
        order = [(attacker + k) % self.players for k in range(2, self.players + 2)]
        order = [s for s in order if s != attacker and self.side_of(s) == side]
        chance = Chance(side=side, queue=[], attacker=attacker, hazard=hazard)
        safety = SAFETY_OF[hazard.card]
        if self.private:
            chance.queue = [s for s in order if self.hands[s]]
        else:
            chance.queue = [s for s in order if safety in self.hands[s]]
        if not chance.queue:
            return False
        self.stats["chance asks several seats"] += len(chance.queue) > 1
        self.chance = chance
        self.phase = RPhase.COUP_FOURRE
        self.to_act = chance.queue[0]
        return True

    def _offer_victims_chance(self, seat: int, fresh: frozenset[int]) -> bool:
        chance = Chance(side=self.side_of(seat), queue=[seat], fresh=fresh)
        if not self._chance_targets(chance):
            return False
        if not self.private and not self._answering(seat, chance):
            return False
        self.chance = chance
        self.phase = RPhase.COUP_FOURRE
        self.to_act = seat
        return True

    # ----- turns (§4) -----

    def _end(self) -> None:
        self.phase = RPhase.OVER
        self.chance = None

    def _begin_turn(self, seat: int) -> None:
        """A turn is to begin at ``seat`` (or the next seat holding cards once the pile is out)."""
        if not self.pile:
            for k in range(self.players):
                if self.hands[(seat + k) % self.players]:
                    self.stats["seat skipped (empty hand)"] += k > 0
                    seat = (seat + k) % self.players
                    break
            else:
                self.exhausted = True
                self.stats["end: every hand empty"] += 1
                self._end()
                return
        if self._blocked():
            return
        if self.rules.coup_fourre_window is CoupFourreWindow.VICTIMS_NEXT_TURN:
            side = self.side_of(seat)
            fresh = frozenset(self.fresh[side])
            self.fresh[side] = set()
            if self._offer_victims_chance(seat, fresh):
                return
        self._draw_and_act(seat)

    def _blocked(self) -> bool:
        """exhaustion_end: no_playable: the pile is empty and no seat can play a card (§12).

        Tested when a turn is to begin and right after the draw that empties the pile ("as soon
        as": the seat that drew the last card does not discard first), after the chance of an
        until_next_draw coup-fourré and before the chance of a
        victims_next_turn one (with nobody able to play nobody holds a safety, so the order only
        shows with private chances, where seats without one are asked)."""
        if self.pile or self.rules.exhaustion_end is not ExhaustionEnd.NO_PLAYABLE:
            return False
        if any(self.play_moves(s) for s in range(self.players)):
            return False
        self.exhausted = True
        self.stats["end: no_playable"] += 1
        self._end()
        return True

    def _draw_and_act(self, seat: int) -> None:
        if self.pile:
            self.hands[seat].append(self.pile.pop())
            if self._blocked():
                return
        self.chance = None
        self.phase = RPhase.PLAY
        self.to_act = seat

    # ----- applying a move -----

    def apply(self, move: Move) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"referee: {move} is not legal for seat {self.to_act}")
        seat = self.to_act
        if isinstance(move, CallExtension):
            self.extended = True
            self.stats["extension called"] += 1
            self.caller = self.side_of(seat)
            self._begin_turn((seat + 1) % self.players)
        elif isinstance(move, DeclineExtension):
            self.completer = self.side_of(seat)
            self.stats["extension declined"] += 1
            self._end()
        elif isinstance(move, PassCoupFourre):
            self._pass(seat)
        elif isinstance(move, CoupFourre):
            self._coup_fourre(seat, move.card)
        elif isinstance(move, Discard):
            self.hands[seat].remove(move.card)
            self.discards.append(move.card)
            self._begin_turn((seat + 1) % self.players)
        else:
            assert isinstance(move, Play)
            self.hands[seat].remove(move.card)
            self._play(seat, move.card, move.target)

    def _pass(self, seat: int) -> None:
        chance = self.chance
        assert chance is not None
        chance.queue.pop(0)
        if chance.hazard is None:  # victims_next_turn: the seat's own turn goes on
            self._draw_and_act(seat)
            return
        chance.queue = [s for s in chance.queue if self.hands[s]]
        if chance.queue:
            self.to_act = chance.queue[0]
            return
        assert chance.attacker is not None
        self.chance = None
        self._begin_turn((chance.attacker + 1) % self.players)

    def _play(self, seat: int, card: Card, target: int | None) -> None:
        side = self.side_of(seat)
        tab = self.sides[side]
        if card in SAFETIES:
            pile_was_empty = not self.pile
            self.stats[f"safety in turn, pile empty={pile_was_empty}"] += 1
            self._lay_safety(side, card, in_turn=True)
            if pile_was_empty and (
                self.rules.safety_after_exhaustion is SafetyAfterExhaustion.NO_EXTRA_TURN
            ):
                self._begin_turn((seat + 1) % self.players)
            else:
                self._begin_turn(seat)  # the extra turn, from step 1
            return
        if card in DISTANCE_KM:
            tab.distance.append(card)
            if card is C.DISTANCE_200:
                tab.two_hundreds_by_seat[seat] += 1
                self.stats["third 200 of a team"] += sum(tab.two_hundreds_by_seat.values()) == 3
            if (
                tab.km == self.rules.base_target
                and self.rules.extension_allowed
                and not self.extended
            ):
                self.delayed = not self.pile
                self.phase = RPhase.EXTENSION
                self.to_act = seat
                return
            if tab.km == self.target:
                self.completer = side
                self.delayed = not self.pile
                self.stats[f"completed {tab.km}, delayed={self.delayed}"] += 1
                self._end()
                return
            self._begin_turn((seat + 1) % self.players)
            return
        if card is C.END_OF_LIMIT:
            tab.speed.append(Entry(card))
        elif card in BATTLE_REMEDIES:
            tab.battle.append(Entry(card))
        else:
            assert target is not None
            entry = Entry(card)
            victim = self.sides[target]
            self.stats["hazard on empty battle pile"] += card is not C.SPEED_LIMIT and (
                not victim.battle
            )
            self.stats["hazard on a hazard"] += bool(victim.battle) and (
                victim.battle[-1].card in HAZARDS
            )
            self.stats["speed limit on a limit"] += card is C.SPEED_LIMIT and (
                victim.speed_top is C.SPEED_LIMIT
            )
            (victim.speed if card is C.SPEED_LIMIT else victim.battle).append(entry)
            if self.rules.coup_fourre_window is CoupFourreWindow.VICTIMS_NEXT_TURN:
                self.fresh[target].add(entry.serial)
            elif self._open_chance_after_attack(seat, target, entry):
                return
        self._begin_turn((seat + 1) % self.players)

    def _coup_fourre(self, seat: int, safety: Card) -> None:
        chance = self.chance
        assert chance is not None
        side = chance.side
        tab = self.sides[side]
        self.hands[seat].remove(safety)
        pile_was_empty = not self.pile
        # the hazard answered; when Right of Way answers a fresh Stop and a fresh Speed Limit
        # at once (victims_next_turn), the Stop is taken as the one answered and §5a clears the
        # limit (a reading: only the order of the discard pile shows it)
        answered = [e for e in self._chance_targets(chance) if SAFETY_OF[e.card] is safety][:1]
        tab.coup_fourres.append(safety)
        self.stats[
            f"coup-fourré ({self.rules.coup_fourre_window}), pile empty={pile_was_empty}"
        ] += 1
        self._lay_safety(side, safety, in_turn=False, just_played=answered)
        if self.pile:
            self.hands[seat].append(self.pile.pop())  # replaces the safety
        if chance.hazard is None:  # victims_next_turn: the seat's own turn, its draw to come
            if self._blocked():  # the replacement took the last card
                return
            remaining = self.chance = Chance(side=side, queue=[seat], fresh=chance.fresh)
            if self._chance_targets(remaining) and (
                self.private or self._answering(seat, remaining)
            ):
                self.stats["victims_next_turn: second chance"] += 1
                self.phase = RPhase.COUP_FOURRE
                self.to_act = seat
                return
            self._draw_and_act(seat)
            return
        self.chance = None
        if pile_was_empty and (
            self.rules.safety_after_exhaustion is SafetyAfterExhaustion.NO_EXTRA_TURN
        ):
            assert chance.attacker is not None
            self._begin_turn((chance.attacker + 1) % self.players)
        else:
            self._draw_and_act_full_turn(seat)

    def _draw_and_act_full_turn(self, seat: int) -> None:
        """The declarer's full turn after a coup-fourré (§6): a turn beginning at ``seat``."""
        self._begin_turn(seat)

    def _lay_safety(
        self, side: int, safety: Card, *, in_turn: bool, just_played: list[Entry] | None = None
    ) -> None:
        """§5a: lay ``safety`` and clear every hazard the side is now protected against."""
        tab = self.sides[side]
        tab.safeties.append(safety)
        took_battle = False
        for entry in just_played or []:
            pile = tab.speed if entry.card is C.SPEED_LIMIT else tab.battle
            assert pile[-1] is entry
            pile.pop()
            self.discards.append(entry.card)
        while tab.battle:
            card = tab.battle[-1].card
            if card is None or card not in BATTLE_HAZARDS or not tab.protected(card):
                break
            tab.battle.pop()
            self.discards.append(card)
            self.stats[f"§5a: stacked hazard cleared (in_turn={in_turn})"] += (
                took_battle or not in_turn
            )
            took_battle = True
        if safety is C.RIGHT_OF_WAY:  # "every Speed Limit", even one under an End of Limit
            self.stats[f"§5a: Right of Way clears both piles (in_turn={in_turn})"] += (
                took_battle
                and (
                    any(e.card is C.SPEED_LIMIT for e in tab.speed)
                    or any(e.card is C.SPEED_LIMIT for e in just_played or [])
                )
            )
            for entry in reversed(tab.speed):
                if entry.card is C.SPEED_LIMIT:
                    self.discards.append(C.SPEED_LIMIT)
            tab.speed = [e for e in tab.speed if e.card is not C.SPEED_LIMIT]
        if in_turn and took_battle:
            top = tab.battle_top
            self.stats[f"§5a in turn: then shows {top.card if top else None}"] += 1
            if top is None or top.card is None or top.card not in BATTLE_HAZARDS:
                tab.battle.append(Entry(None))

    # ----- observation -----

    @property
    def over(self) -> bool:
        return self.phase is RPhase.OVER

    def battle_cards(self, side: int) -> list[Card | None]:
        return [e.card for e in self.sides[side].battle]

    def speed_cards(self, side: int) -> list[Card | None]:
        return [e.card for e in self.sides[side].speed]
