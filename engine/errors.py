"""The engine's errors: one root, one subclass per way a caller can be wrong."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.problems import Problem
    from engine.sentences import Sentence


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class InvalidReport(EngineError, ValueError):
    """A hand report or score sheet that the rules refuse; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(problem.detail for problem in self.problems))


class IllegalMove(EngineError, ValueError):
    """A move the rules do not allow now; ``sentence`` names the rule and the seat, to be said
    in the reader's language (the message is its English)."""

    def __init__(self, sentence: Sentence) -> None:
        self.sentence = sentence
        super().__init__(sentence.english())


class InvalidRecord(EngineError, ValueError):
    """A saved game that cannot be read back or does not replay."""
