"""Why a table's write is refused, in the domain's words: the services raise these, and only
:mod:`scorekeeper.web.errors` knows which HTTP status each one is answered with.

Each refusal carries a :class:`~engine.sentences.Sentence` (an English msgid and its facts), so the
API and the pages say it in the reader's language. A request without the shape its schema
documents is refused with every problem at once (:class:`InvalidRequest`).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.problems import Problem
from engine.sentences import Fact, Sentence


class Refusal(Exception):
    """A write the table's current state does not allow; ``sentence`` says why."""

    def __init__(self, template: str, **facts: Fact) -> None:
        self.sentence = Sentence(template, facts)
        super().__init__(self.sentence.english())


class Missing(Refusal):
    """The game or the hand named does not exist (at this table)."""


class GameClosed(Refusal):
    """The game takes no such change: it is over, abandoned, or played in the app."""


class NameTaken(Refusal):
    """Another player of the table has a name that reads the same."""


class NotNow(Refusal):
    """The game is not at a point where this can be done: another seat's move, a chance
    closed, a rematch before the end."""


class NotTheLastHand(Refusal):
    """Only the last hand can be undone."""


class NotTheNextHand(Refusal):
    """A hand said to be hand N of a game whose next hand is another number."""


class VersionRequired(Refusal):
    """A change to a hand must say which version of it (or of the game) it was read at."""


class StaleVersion(Refusal):
    """The hand changed since the version the change was read at."""


class InvalidRequest(ValueError):
    """A request body that does not have the shape its schema documents; ``problems`` says where."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.detail for problem in self.problems))
