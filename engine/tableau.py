"""One side's tableau: battle pile, speed pile, distance cards and safeties (RULES.md §3).

Kept as a few small lists and ints with ``__slots__`` so a hand state copies in microseconds.
Only the top card of each pile matters; the states of §3 (protected, corrected, rolling, limited)
are derived here and nowhere else.
"""

from __future__ import annotations

from engine.cards import BATTLE_HAZARDS, Card, CardKind
from engine.rules import Rules, SafetyOnHazard

_RIGHT_OF_WAY = Card.RIGHT_OF_WAY
_ROLL = Card.ROLL
_SPEED_LIMIT = Card.SPEED_LIMIT
_REMEDIES_ON_BATTLE = frozenset({Card.REPAIRS, Card.GASOLINE, Card.SPARE_TIRE})


class Tableau:
    """The cards a side has laid down in the current hand."""

    __slots__ = (
        "battle",
        "speed",
        "distance",
        "cards",
        "two_hundreds_by_seat",
        "safeties",
        "coup_fourres",
    )

    def __init__(self) -> None:
        self.battle: list[Card | None] = []
        """The battle pile, bottom first; None marks a hazard *corrected* by a safety played
        in turn (RULES.md §3): it counts as a remedy showing, until a card covers it."""
        self.speed: list[Card] = []
        self.distance = 0
        self.cards: dict[int, int] = {25: 0, 50: 0, 75: 0, 100: 0, 200: 0}
        self.two_hundreds_by_seat: dict[int, int] = {}
        self.safeties: list[Card] = []
        self.coup_fourres: list[Card] = []

    def copy(self) -> Tableau:
        """An independent copy (lists and dicts copied one level deep: their items are enums)."""
        twin = Tableau.__new__(Tableau)
        twin.battle = self.battle[:]
        twin.speed = self.speed[:]
        twin.distance = self.distance
        twin.cards = dict(self.cards)
        twin.two_hundreds_by_seat = dict(self.two_hundreds_by_seat)
        twin.safeties = self.safeties[:]
        twin.coup_fourres = self.coup_fourres[:]
        return twin

    # -- derived states (RULES.md §3) --------------------------------------------------------

    @property
    def battle_top(self) -> Card | None:
        """The card showing on the battle pile (None when empty or corrected)."""
        return self.battle[-1] if self.battle else None

    @property
    def corrected(self) -> bool:
        """Whether a corrected hazard shows (it counts as a remedy)."""
        return bool(self.battle) and self.battle[-1] is None

    def protected(self, hazard: Card) -> bool:
        """Whether a safety of this side answers ``hazard``."""
        return any(hazard in safety.answers for safety in self.safeties)

    @property
    def hazard_showing(self) -> Card | None:
        """The uncured hazard on top of the battle pile, if any."""
        top = self.battle_top
        return top if top is not None and top in BATTLE_HAZARDS else None

    def rolling(self, rules: Rules) -> bool:
        """Whether the side may play distance (speed limit aside)."""
        if _RIGHT_OF_WAY in self.safeties:
            return self.hazard_showing is None
        if self.corrected:
            return rules.safety_on_hazard is SafetyOnHazard.ROLLS_AT_ONCE
        top = self.battle_top
        if top is _ROLL:
            return True
        return top in _REMEDIES_ON_BATTLE and rules.roll_after_remedy.value == "not_required"

    @property
    def limited(self) -> bool:
        """Whether a Speed Limit shows on the speed pile."""
        return bool(self.speed) and self.speed[-1] is _SPEED_LIMIT

    @property
    def battle_empty(self) -> bool:
        """Nothing on the battle pile, not even a corrected hazard."""
        return not self.battle

    @property
    def two_hundreds(self) -> int:
        """200 km cards this side played."""
        return self.cards[200]

    # -- changes ---------------------------------------------------------------------------

    def put_on_battle(self, card: Card) -> None:
        self.battle.append(card)

    def add_distance(self, card: Card, seat: int) -> None:
        km = card.value_km
        self.distance += km
        self.cards[km] += 1
        if km == 200:
            self.two_hundreds_by_seat[seat] = self.two_hundreds_by_seat.get(seat, 0) + 1

    def lay_safety(
        self, safety: Card, *, coup_fourre: bool, answered: Card | None = None
    ) -> list[Card]:
        """Lay ``safety`` and clear what it protects against; return the cards it sends to the
        discard pile, in the order they come off (RULES.md §5a).

        A side never has to cure a hazard it is protected against: every hazard on top of the
        battle pile that any of the side's safeties answers comes off, one at a time, down to
        the first card that is not one; Right of Way also takes every Speed Limit off the speed
        pile. For a coup-fourré ``answered`` (the hazard just played) is the first card off and
        whatever is left on top shows; a safety in turn that took a battle hazard off leaves the
        pile *corrected* (§3), unless an unprotected hazard shows again.
        """
        assert safety.kind is CardKind.SAFETY
        self.safeties.append(safety)
        if coup_fourre:
            self.coup_fourres.append(safety)
        removed: list[Card] = []
        speed = self.speed
        if answered is _SPEED_LIMIT:
            removed.append(speed.pop())
        battle = self.battle
        height = len(battle)
        while battle:
            top = battle[-1]
            if top is None or top not in BATTLE_HAZARDS or not self.protected(top):
                break
            battle.pop()
            removed.append(top)
        if safety is _RIGHT_OF_WAY and _SPEED_LIMIT in speed:
            removed.extend(card for card in reversed(speed) if card is _SPEED_LIMIT)
            speed[:] = [card for card in speed if card is not _SPEED_LIMIT]
        if not coup_fourre and len(battle) < height and self.hazard_showing is None:
            battle.append(None)
        return removed
