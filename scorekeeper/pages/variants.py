"""The rules variants in words a table understands, for the new-game page.

The keys and values are the API's (RULES.md §12); a person choosing them reads a name and what
each value means instead. Each value has two texts: a short label, the option a phone's drop-down
shows (it must fit a 360 px screen in every language, which a page test measures), and the whole
rule, written beside the choice. Every variant of the rules has its words here (a test holds them
to ``engine.rules.VARIANT_ENUMS``); the texts are marked for the catalogs and translated where
shown.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.sentences import N_


class Choice(NamedTuple):
    """One value of a variant in words."""

    label: str
    """A few words, the option shown in the drop-down."""
    meaning: str
    """The rule the value sets, a whole sentence shown beside the drop-down."""


# TRANSLATORS: answers a variant named by a verb ("Discarding a safety"): it agrees with nothing.
ALLOWED = N_("Allowed")
# TRANSLATORS: answers a variant named by a verb ("Discarding a safety"): it agrees with nothing.
NOT_ALLOWED = N_("Not allowed")
ROLLING_AT_ONCE = N_("Rolling at once")

VARIANT_WORDS: dict[str, tuple[str, dict[str, Choice]]] = {
    "shutout": (
        N_("Shutout bonus (500)"),
        {
            "parker": Choice(
                N_("To the trip's winner"),
                N_("The side that completed the trip scores 500 for each opponent side at 0 km."),
            ),
            "capot": Choice(
                N_("French rule"),
                N_(
                    "For each side at 0 km, each of its opponents scores 500, trip completed "
                    "or not."
                ),
            ),
            "single": Choice(
                N_("Just once"),
                N_(
                    "One 500 to the side that completed the trip, only when every opponent is "
                    "at 0 km."
                ),
            ),
        },
    ),
    "failed_extension": (
        N_("A failed extension"),
        {
            "opponents": Choice(
                N_("200 to the opponents"),
                N_(
                    "When the side that called it does not reach 1,000 km first, each of its "
                    "opponents scores 200."
                ),
            ),
            "nobody": Choice(
                N_("No 200 for a failure"),
                N_("The 200 goes only to the side that reaches 1,000 km, caller or not."),
            ),
        },
    ),
    "two_hundreds_limit": (
        N_("200 km cards"),
        {
            "side": Choice(
                N_("Two per side"), N_("Two in a hand for each side: partners share them.")
            ),
            "player": Choice(
                N_("Two per player"),
                N_("Two in a hand for each player, so a team may show four."),
            ),
        },
    ),
    "game_tie": (
        N_("A tie at the end of the game"),
        {
            "draw": Choice(
                N_("Tied game"),
                N_("Sides sharing the highest total at the end tie the game."),
            ),
            "play_on": Choice(
                N_("Play on"),
                N_(
                    "The game goes on, hand after hand, until one side alone has the highest total."
                ),
            ),
        },
    ),
    "deck": (
        N_("Deck"),
        {
            "reduced": Choice(
                N_("101 or 106 cards"),
                N_("101 cards with 2 or 3 players (one of each hazard out), 106 otherwise."),
            ),
            "full": Choice(N_("Always 106 cards"), N_("106 cards whatever the number of players.")),
        },
    ),
    "hazards": (
        N_("Hazards"),
        {
            "on_any_battle_card": Choice(
                N_("On any battle pile"),
                N_(
                    "A hazard goes on any battle pile that is not empty; hazards pile up and "
                    "only the top one needs curing."
                ),
            ),
            "on_rolling": Choice(
                N_("On a rolling side"),
                N_("A hazard goes only on a rolling side, never on a hazard or a remedy."),
            ),
        },
    ),
    "speed_limit_on_limit": (
        N_("Limiting a side already limited"),
        {
            "forbidden": Choice(
                NOT_ALLOWED, N_("A side already limited cannot take a second Speed Limit.")
            ),
            "allowed": Choice(
                ALLOWED,
                N_(
                    "A second Speed Limit may go on a limited side, which then has a Right of "
                    "Way coup-fourré chance."
                ),
            ),
        },
    ),
    "safety_on_hazard": (
        N_("A safety against the hazard showing"),
        {
            "needs_roll": Choice(
                N_("A Roll is still needed"),
                N_(
                    "Laid on your turn, it corrects the hazard, and you still need a Roll "
                    "(unless Right of Way)."
                ),
            ),
            "rolls_at_once": Choice(
                ROLLING_AT_ONCE,
                N_("Laid on your turn, it corrects the hazard and you are rolling at once."),
            ),
        },
    ),
    "roll_after_remedy": (
        N_("After a remedy"),
        {
            "required": Choice(
                N_("A Roll is needed"),
                N_("No distance card before a Roll (unless Right of Way)."),
            ),
            "not_required": Choice(
                ROLLING_AT_ONCE, N_("A remedy on top of the battle pile counts as rolling.")
            ),
        },
    ),
    "discard_safeties": (
        N_("Discarding a safety"),
        {
            "allowed": Choice(ALLOWED, N_("A safety may be discarded like any other card.")),
            "forbidden": Choice(NOT_ALLOWED, N_("A safety stays in hand until it is laid.")),
        },
    ),
    "coup_fourre_window": (
        N_("A coup-fourré may be called"),
        {
            "until_next_draw": Choice(
                N_("Until anyone draws"), N_("The chance lasts until anyone draws.")
            ),
            "victims_next_turn": Choice(
                N_("Until the victim's turn"),
                N_(
                    "The chance stays open until the next turn of a player of the attacked "
                    "side, who alone may then lay the safety, before drawing."
                ),
            ),
        },
    ),
    "safety_after_exhaustion": (
        N_("A safety once the draw pile is empty"),
        {
            "extra_turn": Choice(
                N_("Another go"),
                N_("A safety always gives another go, without a draw once the pile is empty."),
            ),
            "no_extra_turn": Choice(
                N_("No extra go"),
                N_(
                    "Once the draw pile is empty a safety gives no extra go; a coup-fourré is "
                    "still allowed, and nobody loses a turn."
                ),
            ),
        },
    ),
    "exhaustion_end": (
        N_("Once the draw pile is empty"),
        {
            "play_out": Choice(
                N_("Play every card"),
                N_("The hand goes on until every card has been played or discarded."),
            ),
            "no_playable": Choice(
                N_("Stop when stuck"),
                N_("The hand ends as soon as nobody can play a card other than by discarding."),
            ),
        },
    ),
    "four_player_extension": (
        N_("Extension in a team game"),
        {
            "none": Choice(N_("None"), N_("The team game is played to 1,000 km.")),
            "to_1200": Choice(
                N_("To 1,200 km"),
                N_("The first team at exactly 1,000 km may extend the hand to 1,200 km."),
            ),
        },
    ),
}
"""Variant key -> its name, and each value -> its label and its rule (RULES.md §12)."""
