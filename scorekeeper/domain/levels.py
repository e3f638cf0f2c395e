"""The levels a person chooses for a computer seat, named by how well they play.

Each level is one of the engine's computer players (``engine.players``), known to the code and
stored with a seat by its technical name (``random``, ``greedy``, ``strong``, ``search``). People
choose, and the pages show, the level: its name and a line saying how it plays, marked here and
said in the page's language by :mod:`scorekeeper.web.words`. The API takes either word for a seat
and answers both. :data:`LEVELS` is the only list of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.sentences import N_


@dataclass(frozen=True, slots=True)
class Strength:
    """How often a level wins, in percent of two-seat games to 5,000, against each of the two
    reference programs: BSD ``mille``'s computer player (1982) and KevinAI, the winner of the
    ``mille-ai`` contest. Copied from the measured table of docs/contributing/computer-players.md
    (a test keeps them equal), so a person choosing a level is told what was measured, not
    what was hoped."""

    classic: float
    contest: float

    def games_in_100(self) -> tuple[int, int]:
        """The shares in whole games of 100, as a person rounds them (56.5 is 57): the intervals
        are 3 to 6 points wide, so a tenth would claim a precision nobody measured.

        >>> Strength(classic=52.1, contest=56.5).games_in_100()
        (52, 57)
        """
        return math.floor(self.classic + 0.5), math.floor(self.contest + 0.5)


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """A level a computer seat may be given: its key, the computer player that plays it, its
    English name and description (marked for translation), and its measured strength."""

    key: str
    computer: str
    name: str
    description: str
    strength: Strength


LEVELS = (
    Level(
        key="novice",
        computer="random",
        name=N_("Novice"),
        description=N_("Plays any legal card, at random."),
        strength=Strength(classic=0.0, contest=0.0),
    ),
    Level(
        key="beginner",
        computer="greedy",
        name=N_("Beginner"),
        description=N_("Plays the first useful card it sees."),
        strength=Strength(classic=6.3, contest=9.3),
    ),
    Level(
        key="club",
        computer="strong",
        name=N_("Club"),
        description=N_(
            "Counts the cards, attacks the leader and holds its safeties for coups-fourrés."
        ),
        strength=Strength(classic=50.8, contest=54.9),
    ),
    Level(
        key="expert",
        computer="search",
        name=N_("Expert"),
        description=N_(
            "Club's judgement, and in the last part of each hand it looks ahead over the cards "
            "it cannot see."
        ),
        strength=Strength(classic=52.1, contest=56.5),
    ),
)
"""The levels, weakest first."""

DEFAULT_LEVEL = LEVELS[2]
"""The level a new virtual game offers for each computer seat: Club."""

_BY_NAME: Mapping[str, Level] = {
    name: level for level in LEVELS for name in (level.key, level.computer)
}
ACCEPTED = tuple(level.key for level in LEVELS) + tuple(level.computer for level in LEVELS)
"""What a seat's ``computer`` may say: a level's key, or its computer player's technical name."""

COMPUTER_NAME = N_("Computer %(number)s (%(level)s)")
"""How a computer seat is named: by its chair, so two of a level are told apart."""


def level_named(name: str | None) -> Level | None:
    """The level called ``name`` by its key or by its computer player's name; None if none is.

    >>> level_named("expert") == level_named("search") == LEVELS[3]
    True
    >>> level_named("oracle") is None
    True
    """
    return _BY_NAME.get(name) if name else None


def level_key(computer: str | None) -> str | None:
    """The key of the level ``computer`` plays, or None for a person's seat (or an unknown
    player).

    >>> level_key("strong"), level_key(None)
    ('club', None)
    """
    level = level_named(computer)
    return None if level is None else level.key


def computer_name(seat: int, computer: str) -> str:
    """A computer seat's name as stored and answered by the API, in English: "Computer 2 (Club)".

    >>> computer_name(1, "strong")
    'Computer 2 (Club)'
    """
    level = level_named(computer)
    return COMPUTER_NAME % {"number": seat + 1, "level": level.name if level else computer}
