"""The rules variants in words a table understands, for the new-game page.

The keys and values are the API's (RULES.md §12); a person choosing them reads a name and what
each value means instead. Every variant of the rules has its words here (a test holds them to
``engine.rules.VARIANT_ENUMS``); the texts are marked for the catalogs and translated where shown.
"""

from __future__ import annotations

from engine.sentences import N_

VARIANT_WORDS: dict[str, tuple[str, dict[str, str]]] = {
    "shutout": (
        N_("Shutout bonus (500)"),
        {
            "parker": N_("to the side that completed the trip, for each opponent at 0 km"),
            "capot": N_("to every opponent of each side at 0 km, trip or not (French rule)"),
            "single": N_("once, only when every opponent is at 0 km"),
        },
    ),
    "failed_extension": (
        N_("Extension called, 1,000 not reached first"),
        {
            "opponents": N_("each opponent of the caller scores 200"),
            "nobody": N_("nobody scores the 200"),
        },
    ),
    "two_hundreds_limit": (
        N_("200 km cards"),
        {
            "side": N_("two per side (partners share them)"),
            "player": N_("two per player"),
        },
    ),
    "game_tie": (
        N_("A tie at the end of the game"),
        {"draw": N_("is a tied game"), "play_on": N_("play on until one side leads")},
    ),
    "deck": (
        N_("Deck"),
        {
            "reduced": N_("101 cards with 2 or 3 players, else 106"),
            "full": N_("106 cards always"),
        },
    ),
    "hazards": (
        N_("Hazards"),
        {
            "on_any_battle_card": N_("on any battle pile, piling up"),
            "on_rolling": N_("only on a rolling side"),
        },
    ),
    "speed_limit_on_limit": (
        N_("A second Speed Limit on a limited side"),
        {"forbidden": N_("forbidden"), "allowed": N_("allowed")},
    ),
    "safety_on_hazard": (
        N_("A safety laid in turn against the hazard showing"),
        {"needs_roll": N_("a Roll is still needed"), "rolls_at_once": N_("rolls at once")},
    ),
    "roll_after_remedy": (
        N_("After a remedy"),
        {"required": N_("a Roll is needed"), "not_required": N_("the side is rolling")},
    ),
    "discard_safeties": (
        N_("Discarding a safety"),
        {"allowed": N_("allowed"), "forbidden": N_("forbidden")},
    ),
    "coup_fourre_window": (
        N_("A coup-fourré may be called"),
        {
            "until_next_draw": N_("until anyone draws"),
            "victims_next_turn": N_("until the attacked side's next turn"),
        },
    ),
    "safety_after_exhaustion": (
        N_("A safety once the draw pile is empty"),
        {"extra_turn": N_("still gives another go"), "no_extra_turn": N_("gives no extra go")},
    ),
    "exhaustion_end": (
        N_("Once the draw pile is empty"),
        {
            "play_out": N_("play every card out"),
            "no_playable": N_("stop when nobody can play"),
        },
    ),
    "four_player_extension": (
        N_("Extension in a team game"),
        {"none": N_("none"), "to_1200": N_("to 1,200 km")},
    ),
}
"""Variant key -> its name, and each value -> what it means (RULES.md §12)."""
