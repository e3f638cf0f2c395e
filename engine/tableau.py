"""One side's tableau: battle pile, speed pile, distance cards and safeties (RULES.md §3).

Cards are codes (:mod:`engine.codes`). Only the top card of each pile matters, and a tableau
changes far less often than a seat decides, so every change recomputes, once, what the states
of §3 (protected, corrected, rolling, limited) allow: :attr:`Tableau.own_plays`, the cards a
seat of the side may lay on it, and :attr:`Tableau.open_to`, the hazards an opponent may play
on it, both as bit masks. A legal move is then one bit test.
"""

from __future__ import annotations

from engine.codes import (
    ANSWERS,
    BATTLE_HAZARDS,
    DISTANCE_200,
    DISTANCES,
    END_OF_LIMIT,
    KM,
    LIMITED_DISTANCE,
    NO_CARD,
    REMEDIES_BEFORE_ROLL,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETIES,
    SPEED_LIMIT,
    STOP,
)
from engine.rules import (
    Hazards,
    RollAfterRemedy,
    Rules,
    SafetyOnHazard,
    SpeedLimitOnLimit,
    TwoHundredsLimit,
)

_FAST_DISTANCE = sum(1 << code for code in DISTANCES) & ~LIMITED_DISTANCE
_WITHIN = tuple(  # (km, the distance cards of at most km), longest first
    (KM[card], sum(1 << shorter for shorter in DISTANCES if KM[shorter] <= KM[card]))
    for card in reversed(DISTANCES)
)


def _distance_within(room: int) -> int:
    """The distance cards of at most ``room`` km, as a mask."""
    for km, cards in _WITHIN:
        if km <= room:
            return cards
    return 0


class Tableau:
    """The cards a side has laid down in the current hand."""

    __slots__ = (
        "battle",
        "speed",
        "distance",
        "distance_cards",
        "two_hundreds",
        "two_hundreds_by_seat",
        "safeties",
        "coup_fourres",
        "protection",
        "rolling",
        "own_plays",
        "open_to",
        "target",
        "rules",
        "_remedy_rolls",
        "_safety_rolls",
        "_hazards_on_rolling",
        "_limit_on_limit",
        "_per_player_200",
    )

    def __init__(self, rules: Rules, target: int) -> None:
        self.battle: list[int] = []
        """The battle pile, bottom first; NO_CARD marks a hazard *corrected* by a safety played
        in turn (RULES.md §3): it counts as a remedy showing, until a card covers it."""
        self.speed: list[int] = []
        self.distance = 0
        self.distance_cards = [0, 0, 0, 0, 0]
        """Distance cards laid, by code (25, 50, 75, 100, 200)."""
        self.two_hundreds = 0
        self.two_hundreds_by_seat: dict[int, int] = {}
        self.safeties: list[int] = []
        self.coup_fourres: list[int] = []
        self.protection = 0
        """The hazards the side's safeties protect it against, as a mask."""
        self.rolling = False
        """Whether the side may play distance (a Speed Limit aside)."""
        self.own_plays = 0
        """The cards a seat of this side may lay on it now, as a mask. A 200 needs the side
        under two 200s; where the limit is per player, :func:`engine.legality.own_plays` checks
        the seat's own count instead."""
        self.open_to = 0
        """The hazards an opponent may play on this side now, as a mask."""
        self.target = target
        self.rules = rules
        self._remedy_rolls = rules.roll_after_remedy is RollAfterRemedy.NOT_REQUIRED
        self._safety_rolls = rules.safety_on_hazard is SafetyOnHazard.ROLLS_AT_ONCE
        self._hazards_on_rolling = rules.hazards is Hazards.ON_ROLLING
        self._limit_on_limit = rules.speed_limit_on_limit is SpeedLimitOnLimit.ALLOWED
        self._per_player_200 = rules.two_hundreds_limit is TwoHundredsLimit.PLAYER
        self.refresh()

    def copy(self) -> Tableau:
        """An independent copy (its lists hold ints, so one level deep is enough)."""
        twin = Tableau(self.rules, self.target)
        twin.battle = self.battle[:]
        twin.speed = self.speed[:]
        twin.distance = self.distance
        twin.distance_cards = self.distance_cards[:]
        twin.two_hundreds = self.two_hundreds
        twin.two_hundreds_by_seat = dict(self.two_hundreds_by_seat)
        twin.safeties = self.safeties[:]
        twin.coup_fourres = self.coup_fourres[:]
        twin.protection = self.protection
        twin.rolling = self.rolling
        twin.own_plays = self.own_plays
        twin.open_to = self.open_to
        return twin

    # -- what shows (RULES.md §3) --------------------------------------------------------------

    @property
    def battle_top(self) -> int:
        """The card showing on the battle pile (NO_CARD when empty or corrected)."""
        battle = self.battle
        return battle[-1] if battle else NO_CARD

    @property
    def corrected(self) -> bool:
        """Whether a corrected hazard shows (it counts as a remedy)."""
        battle = self.battle
        return bool(battle) and battle[-1] == NO_CARD

    @property
    def hazard_showing(self) -> int:
        """The uncured hazard on top of the battle pile, else NO_CARD."""
        top = self.battle_top
        return top if top != NO_CARD and BATTLE_HAZARDS >> top & 1 else NO_CARD

    @property
    def speed_top(self) -> int:
        speed = self.speed
        return speed[-1] if speed else NO_CARD

    @property
    def limited(self) -> bool:
        """Whether a Speed Limit shows on the speed pile."""
        speed = self.speed
        return bool(speed) and speed[-1] == SPEED_LIMIT

    def cards_by_km(self) -> dict[int, int]:
        """The distance cards laid, counted by face value (as a report gives them)."""
        counts = self.distance_cards
        return {KM[code]: counts[code] for code in DISTANCES}

    def protected(self, hazard: int) -> bool:
        """Whether a safety of this side answers ``hazard``."""
        return bool(self.protection >> hazard & 1)

    # -- changes -------------------------------------------------------------------------------

    def put_on_battle(self, card: int) -> None:
        self.battle.append(card)
        self.refresh()

    def put_on_speed(self, card: int) -> None:
        self.speed.append(card)
        self.refresh()

    def add_distance(self, card: int, seat: int) -> None:
        self.distance += KM[card]
        self.distance_cards[card] += 1
        if card == DISTANCE_200:
            self.two_hundreds += 1
            self.two_hundreds_by_seat[seat] = self.two_hundreds_by_seat.get(seat, 0) + 1
        self.refresh()

    def retarget(self, target: int) -> None:
        """The target in force changed (an extension was called)."""
        self.target = target
        self.refresh()

    def lay_safety(self, safety: int, *, coup_fourre: bool, answered: int = NO_CARD) -> list[int]:
        """Lay ``safety`` and clear what it protects against; return the cards it sends to the
        discard pile, in the order they come off (RULES.md §5a).

        A side never has to cure a hazard it is protected against: every hazard on top of the
        battle pile that any of the side's safeties answers comes off, one at a time, down to
        the first card that is not one; Right of Way also takes every Speed Limit off the speed
        pile. For a coup-fourré ``answered`` (the hazard just played) is the first card off and
        whatever is left on top shows; a safety in turn that took a battle hazard off leaves the
        pile *corrected* (§3), unless an unprotected hazard shows again.
        """
        assert SAFETIES >> safety & 1
        self.safeties.append(safety)
        protection = self.protection | ANSWERS[safety]
        if coup_fourre:
            self.coup_fourres.append(safety)
        removed: list[int] = []
        speed = self.speed
        if answered == SPEED_LIMIT:
            removed.append(speed.pop())
        battle = self.battle
        height = len(battle)
        while battle:
            top = battle[-1]
            if top == NO_CARD or not (BATTLE_HAZARDS & protection) >> top & 1:
                break
            battle.pop()
            removed.append(top)
        if safety == RIGHT_OF_WAY and SPEED_LIMIT in speed:
            removed.extend(card for card in reversed(speed) if card == SPEED_LIMIT)
            speed[:] = [card for card in speed if card != SPEED_LIMIT]
        if not coup_fourre and len(battle) < height and self.hazard_showing == NO_CARD:
            battle.append(NO_CARD)
        self.refresh()
        return removed

    def refresh(self) -> None:
        """Work out again what the safeties and piles allow (after any change, or piles set by
        hand)."""
        battle = self.battle
        top = battle[-1] if battle else NO_CARD
        showing = top if top != NO_CARD and BATTLE_HAZARDS >> top & 1 else NO_CARD
        speed = self.speed
        limited = bool(speed) and speed[-1] == SPEED_LIMIT
        protection = 0
        for safety in self.safeties:
            protection |= ANSWERS[safety]
        self.protection = protection
        if protection >> SPEED_LIMIT & 1:  # Right of Way: rolling unless a hazard shows
            rolling = showing == NO_CARD
        elif battle and top == NO_CARD:  # corrected
            rolling = self._safety_rolls
        elif top == ROLL:
            rolling = True
        else:
            remedy_shows = top != NO_CARD and bool(REMEDIES_BEFORE_ROLL >> top & 1)
            rolling = remedy_shows and self._remedy_rolls
        self.rolling = rolling

        plays = SAFETIES
        if rolling:
            plays |= _distance_within(self.target - self.distance)
            if limited:
                plays &= ~_FAST_DISTANCE
            if self.two_hundreds >= 2 and not self._per_player_200:
                plays &= ~(1 << DISTANCE_200)
        if top == NO_CARD or top == STOP or REMEDIES_BEFORE_ROLL >> top & 1:
            plays |= 1 << ROLL
        if limited:
            plays |= 1 << END_OF_LIMIT
        if showing != NO_CARD:
            plays |= 1 << REMEDY_FOR[showing]
        self.own_plays = plays

        open_to = 0
        if not protection >> SPEED_LIMIT & 1 and (self._limit_on_limit or not limited):
            open_to = 1 << SPEED_LIMIT
        if rolling if self._hazards_on_rolling else (rolling or bool(battle)):
            open_to |= BATTLE_HAZARDS & ~protection
        self.open_to = open_to
