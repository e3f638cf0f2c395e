"""The reasons a reported hand is refused: stable codes (RULES.md §11) and human sentences."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.sentences import Fact, Sentence


class ProblemCode(StrEnum):
    """Stable machine codes of refusals; clients may branch on them, so they never change."""

    UNSUPPORTED_PLAYER_COUNT = "unsupported_player_count"
    SIDES_COUNT_MISMATCH = "sides_count_mismatch"
    TARGET_INVALID = "target_invalid"
    DISTANCE_NEGATIVE = "distance_negative"
    DISTANCE_NOT_MULTIPLE_OF_25 = "distance_not_multiple_of_25"
    DISTANCE_OVER_TARGET = "distance_over_target"
    TOO_MANY_200S_SIDE = "too_many_200s_side"
    TWO_HUNDREDS_EXCEED_DISTANCE = "two_hundreds_exceed_distance"
    DECK_EXCEEDED = "deck_exceeded"
    SAFETY_UNKNOWN = "safety_unknown"
    SAFETIES_EXCEED_DECK = "safeties_exceed_deck"
    COUP_FOURRE_WITHOUT_SAFETY = "coup_fourre_without_safety"
    TRIP_NOT_AT_TARGET = "trip_not_at_target"
    TARGET_REACHED_NOT_COMPLETED = "target_reached_not_completed"
    MULTIPLE_TRIPS_COMPLETED = "multiple_trips_completed"
    DELAYED_ACTION_WITHOUT_TRIP = "delayed_action_without_trip"
    EXTENSION_NOT_ALLOWED = "extension_not_allowed"
    EXTENSION_CALLER_INVALID = "extension_caller_invalid"
    EXTENSION_CALLER_BELOW_700 = "extension_caller_below_700"
    CLAIM_NOT_EARNED = "claim_not_earned"
    UNKNOWN_VARIANT = "unknown_variant"
    INVALID_FIELD = "invalid_field"
    HAND_AFTER_GAME_OVER = "hand_after_game_over"
    ILLEGAL_MOVE = "illegal_move"
    """A virtual game's move the rules do not allow now (the sentence names the rule)."""
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    """An ``Idempotency-Key`` sent again with another request than the one it was first used
    for (the API's, not a report's: its path is the whole request, ``""``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One reason a report is refused.

    ``path`` is a JSON pointer (RFC 6901) into the report as sent, so a client can put the
    sentence next to the field it concerns; ``sentence`` names the side and the facts, to be
    said in the reader's language (:mod:`engine.sentences`).
    """

    code: ProblemCode
    path: str
    sentence: Sentence

    @classmethod
    def of(cls, code: ProblemCode, path: str, template: str, **facts: Fact) -> Problem:
        """The problem whose sentence is ``template`` filled with ``facts``."""
        return cls(code=code, path=path, sentence=Sentence(template, facts))

    @property
    def detail(self) -> str:
        """The sentence in English."""
        return self.sentence.english()

    def to_dict(self) -> dict[str, str]:
        """The wire form in English: ``{"path", "code", "detail"}``."""
        return {"path": self.path, "code": str(self.code), "detail": self.detail}


def pointer(*parts: str | int) -> str:
    """A JSON pointer to ``parts``, escaped as RFC 6901 says.

    >>> pointer("sides", 1, "claims", 0)
    '/sides/1/claims/0'
    >>> pointer("variants", "a/b~c")
    '/variants/a~1b~0c'
    >>> pointer()
    ''
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
