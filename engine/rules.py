"""How a game is configured: seats, sides, targets, the deck, and the variants of RULES.md §12.

Every disputed rule is an enum whose first member is RULES.md's default and whose values are the
strings a report or a game uses in ``variants``. The functions that own a rule branch on its enum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from engine.cards import FULL_DECK, REDUCED_DECK, Card
from engine.errors import EngineError

SUPPORTED_PLAYERS: tuple[int, ...] = (2, 3, 4, 6)
"""Seated players the rules cover (RULES.md §2)."""

BASE_TARGET_TEAMS_OF_TWO = 1000
BASE_TARGET = 700
EXTENDED_TARGET = 1000
EXTENDED_TARGET_FOUR_PLAYERS = 1200
GAME_TARGET = 5000
"""A game ends after the hand in which a side reaches this running total (RULES.md §10)."""


class Shutout(StrEnum):
    """Who scores for an opponent side left at 0 km (RULES.md §9, §12)."""

    PARKER = "parker"
    CAPOT = "capot"
    SINGLE = "single"


class FailedExtension(StrEnum):
    """Who scores the 200 when the caller of an extension does not reach 1,000 first (§7)."""

    OPPONENTS = "opponents"
    NOBODY = "nobody"


class TwoHundredsLimit(StrEnum):
    """Whether the two-200 limit counts per side or per player (§5)."""

    SIDE = "side"
    PLAYER = "player"


class GameTie(StrEnum):
    """What a tie for the highest total at the end of a game means (§10)."""

    DRAW = "draw"
    PLAY_ON = "play_on"


class Deck(StrEnum):
    """Whether 2 or 3 seated players set one of each hazard aside (§1)."""

    REDUCED = "reduced"
    FULL = "full"


class Hazards(StrEnum):
    """Where a battle hazard may be played (§5)."""

    ON_ANY_BATTLE_CARD = "on_any_battle_card"
    ON_ROLLING = "on_rolling"


class SpeedLimitOnLimit(StrEnum):
    """Whether a second Speed Limit may be played on a limited side (§5)."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class SafetyOnHazard(StrEnum):
    """What a safety played in turn against the showing hazard does (§5)."""

    NEEDS_ROLL = "needs_roll"
    ROLLS_AT_ONCE = "rolls_at_once"


class RollAfterRemedy(StrEnum):
    """Whether a side needs a Roll after a remedy (§5)."""

    REQUIRED = "required"
    NOT_REQUIRED = "not_required"


class DiscardSafeties(StrEnum):
    """Whether a safety may be discarded (§4)."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class CoupFourreWindow(StrEnum):
    """How long the attacked side may answer with a coup-fourré (§6)."""

    UNTIL_NEXT_DRAW = "until_next_draw"
    VICTIMS_NEXT_TURN = "victims_next_turn"


class SafetyAfterExhaustion(StrEnum):
    """Whether a safety still gives an extra turn once the draw pile is empty (§4)."""

    EXTRA_TURN = "extra_turn"
    NO_EXTRA_TURN = "no_extra_turn"


class ExhaustionEnd(StrEnum):
    """When a hand whose draw pile is empty ends (§8)."""

    PLAY_OUT = "play_out"
    NO_PLAYABLE = "no_playable"


class FourPlayerExtension(StrEnum):
    """Whether the team game knows an extension (§7)."""

    NONE = "none"
    TO_1200 = "to_1200"


class UnknownVariant(EngineError, ValueError):
    """A variant key or value that RULES.md §12 does not name."""

    def __init__(self, key: str, value: object) -> None:
        self.key = key
        self.value = value
        self.key_known = key in VARIANT_ENUMS
        super().__init__(str(self))

    def __str__(self) -> str:
        if not self.key_known:
            variants = ", ".join(VARIANT_ENUMS)
            return f"There is no variant called {self.key!r}; the variants are {variants}."
        known = ", ".join(VARIANT_ENUMS[self.key])
        return f"Variant {self.key} has no value {self.value!r}; it is one of {known}."


class UnsupportedPlayerCount(EngineError, ValueError):
    """A number of seated players the rules do not cover (§2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """The rules a game or a reported hand is played under.

    ``Rules.for_players`` is the way to build one; the variant fields take RULES.md's defaults.

    >>> rules = Rules.for_players(3)
    >>> rules.sides, rules.base_target, rules.extended_target, rules.deck.total()
    (3, 700, 1000, 101)
    >>> Rules.for_players(4).extension_allowed
    False
    """

    players: int
    shutout: Shutout = Shutout.PARKER
    failed_extension: FailedExtension = FailedExtension.OPPONENTS
    two_hundreds_limit: TwoHundredsLimit = TwoHundredsLimit.SIDE
    game_tie: GameTie = GameTie.DRAW
    deck_variant: Deck = Deck.REDUCED
    hazards: Hazards = Hazards.ON_ANY_BATTLE_CARD
    speed_limit_on_limit: SpeedLimitOnLimit = SpeedLimitOnLimit.FORBIDDEN
    safety_on_hazard: SafetyOnHazard = SafetyOnHazard.NEEDS_ROLL
    roll_after_remedy: RollAfterRemedy = RollAfterRemedy.REQUIRED
    discard_safeties: DiscardSafeties = DiscardSafeties.ALLOWED
    coup_fourre_window: CoupFourreWindow = CoupFourreWindow.UNTIL_NEXT_DRAW
    safety_after_exhaustion: SafetyAfterExhaustion = SafetyAfterExhaustion.EXTRA_TURN
    exhaustion_end: ExhaustionEnd = ExhaustionEnd.PLAY_OUT
    four_player_extension: FourPlayerExtension = FourPlayerExtension.NONE

    def __post_init__(self) -> None:
        if self.players not in SUPPORTED_PLAYERS:
            raise UnsupportedPlayerCount(
                f"{self.players} seated players is not supported: play with 2, 3, 4 or 6"
            )

    @classmethod
    def for_players(cls, players: int, variants: Mapping[str, Any] | None = None) -> Rules:
        """The rules for ``players`` seated, with ``variants`` given by their RULES.md keys.

        Raises :class:`UnsupportedPlayerCount` or the first :class:`UnknownVariant`;
        :func:`engine.report.read_rules` reads a report's rules into problems instead.
        """
        chosen: dict[str, Any] = dict(
            parse_variant(key, value) for key, value in (variants or {}).items()
        )
        return cls(players=players, **chosen)

    @property
    def variants(self) -> dict[str, str]:
        """Every variant by its RULES.md key, defaults included (the wire form)."""
        return {key: str(getattr(self, attribute)) for key, attribute in VARIANT_KEYS.items()}

    @property
    def sides(self) -> int:
        """How many sides score: one per player with 2 or 3 seated, teams of two otherwise."""
        return self.players if self.players <= 3 else self.players // 2

    @property
    def players_per_side(self) -> int:
        """Seats that share a side's tableau."""
        return self.players // self.sides

    def side_of(self, seat: int) -> int:
        """The side of ``seat``: partners sit opposite (seats 0+2 / 1+3, or 0+3 / 1+4 / 2+5)."""
        return seat % self.sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that play for ``side``, in seating order."""
        return tuple(range(side, self.players, self.sides))

    @property
    def base_target(self) -> int:
        """The target of a hand with no extension: 1,000 for two teams, 700 otherwise (§2)."""
        return BASE_TARGET_TEAMS_OF_TWO if self.players == 4 else BASE_TARGET

    @property
    def extended_target(self) -> int | None:
        """The target once an extension is called, or None where no extension exists (§7)."""
        if self.players != 4:
            return EXTENDED_TARGET
        if self.four_player_extension is FourPlayerExtension.TO_1200:
            return EXTENDED_TARGET_FOUR_PLAYERS
        return None

    @property
    def extension_allowed(self) -> bool:
        """Whether a side reaching the base target exactly may extend the hand."""
        return self.extended_target is not None

    def target(self, extended: bool) -> int:
        """The target in force, with or without an extension called."""
        if extended and self.extended_target is not None:
            return self.extended_target
        return self.base_target

    @property
    def two_hundreds_per_side(self) -> int:
        """The most 200 km cards one side may play in a hand (§5)."""
        if self.two_hundreds_limit is TwoHundredsLimit.PLAYER:
            return 2 * self.players_per_side
        return 2

    def most_played(self, card: Card) -> int:
        """The most copies of ``card`` one side can have played in a hand: those in the deck,
        and of the 200 km card no more than a side may play (§5).

        >>> rules = Rules.for_players(4)
        >>> rules.most_played(Card.DISTANCE_100), rules.most_played(Card.DISTANCE_200)
        (12, 2)
        """
        in_deck = self.deck[card]
        return min(in_deck, self.two_hundreds_per_side) if card is Card.DISTANCE_200 else in_deck

    @property
    def reduced_deck(self) -> bool:
        """Whether one of each hazard is set aside: with 2 or 3 seated, by default (§1)."""
        return self.players <= 3 and self.deck_variant is Deck.REDUCED

    @property
    def deck(self) -> Counter[Card]:
        """The cards shuffled for a hand: 101 with 2 or 3 seated, 106 otherwise (§1)."""
        return Counter(REDUCED_DECK if self.reduced_deck else FULL_DECK)


VARIANT_KEYS: dict[str, str] = {
    field.name if field.name != "deck_variant" else "deck": field.name
    for field in fields(Rules)
    if field.name != "players"
}
"""RULES.md §12 variant key -> Rules attribute (the deck variant's key is ``deck``)."""

VARIANT_ENUMS: dict[str, type[StrEnum]] = {
    "shutout": Shutout,
    "failed_extension": FailedExtension,
    "two_hundreds_limit": TwoHundredsLimit,
    "game_tie": GameTie,
    "deck": Deck,
    "hazards": Hazards,
    "speed_limit_on_limit": SpeedLimitOnLimit,
    "safety_on_hazard": SafetyOnHazard,
    "roll_after_remedy": RollAfterRemedy,
    "discard_safeties": DiscardSafeties,
    "coup_fourre_window": CoupFourreWindow,
    "safety_after_exhaustion": SafetyAfterExhaustion,
    "exhaustion_end": ExhaustionEnd,
    "four_player_extension": FourPlayerExtension,
}
"""RULES.md §12 variant key -> the enum of its allowed values (default first)."""

assert VARIANT_KEYS.keys() == VARIANT_ENUMS.keys()


def parse_variant(key: str, value: object) -> tuple[str, StrEnum]:
    """The ``Rules`` attribute and enum member for variant ``key`` set to ``value``.

    >>> parse_variant("shutout", "capot")
    ('shutout', <Shutout.CAPOT: 'capot'>)
    >>> parse_variant("deck", "full")
    ('deck_variant', <Deck.FULL: 'full'>)
    """
    attribute = VARIANT_KEYS.get(key)
    if attribute is None or not isinstance(value, str):
        raise UnknownVariant(key, value)
    try:
        return attribute, VARIANT_ENUMS[key](value)
    except ValueError:
        raise UnknownVariant(key, value) from None
