"""The categories of a hand's score and the ways a hand ends: the words the report, the scoring
and the names share, kept below all three so none has to import another for them."""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """The nine categories of a side's breakdown; the values are the contract's keys."""

    DISTANCE = "distance"
    SAFETIES = "safeties"
    ALL_SAFETIES = "all_safeties"
    COUP_FOURRES = "coup_fourres"
    TRIP = "trip"
    DELAYED_ACTION = "delayed_action"
    SAFE_TRIP = "safe_trip"
    EXTENSION = "extension"
    SHUTOUT = "shutout"


class HandEnd(StrEnum):
    """Why a hand ended (RULES.md §8)."""

    TRIP_COMPLETED = "trip_completed"
    DECK_EXHAUSTED = "deck_exhausted"
