"""The golden set: seeded whole games recorded with the engine as it played them, move for move.

A faster engine must play these games again exactly: the same deals, the same legal moves offered
to the same computer players (so the same choices), the same reports and the same scores. The
set covers 2, 3, 4 and 6 seats, the random, greedy and strong players, and the default variants
as well as every variant set to its other value (with private coup-fourré chances, as virtual
games are played).

Recorded once, before the engine's hot path was redesigned, by::

    .venv/bin/python -m tests.engine.golden --record

Recording again overwrites the evidence: do it only for a deliberate change of the rules or of a
computer player's judgement, and check that every other game comes out the same. The strong
player's games were recorded again when it was redesigned to beat the classic programs, and again
when it was retuned against their faithful references; the random
and greedy games came out move for move as first recorded.
"""

from __future__ import annotations

import gzip
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from engine.players import make_player
from engine.rules import VARIANT_ENUMS, Rules
from engine.virtual_game import VirtualGame

GOLDEN = Path(__file__).with_name("golden.json.gz")
SEATS = (2, 3, 4, 6)
KINDS = ("random", "greedy", "strong")
OTHER_VARIANTS = {key: list(enum)[1].value for key, enum in VARIANT_ENUMS.items()}
"""Every variant at a value other than its default (RULES.md §12 lists the default first)."""


@dataclass(frozen=True, slots=True)
class Case:
    """One golden game: who plays, under which rules, from which seed."""

    players: int
    kind: str
    variants: dict[str, str]
    private_chances: bool
    seed: int

    @property
    def name(self) -> str:
        rules = "other-variants" if self.variants else "defaults"
        return f"{self.players}-seats-{self.kind}-{rules}-seed-{self.seed}"

    def play(self) -> VirtualGame:
        """The game played from scratch to its end, each seat's player seeded from the game's."""
        rules = Rules.for_players(self.players, self.variants)
        game = VirtualGame(rules, self.seed, private_chances=self.private_chances)
        computers = [
            make_player(self.kind, Random(f"{self.seed}/{seat}")) for seat in range(self.players)
        ]
        game.play(computers)
        return game


GAMES_EACH = 3

CASES = tuple(
    Case(players, kind, variants, bool(variants), seed=1_000 * players + 10 * number + game)
    for players in SEATS
    for number, kind in enumerate(KINDS)
    for variants in ({}, OTHER_VARIANTS)
    for game in range(GAMES_EACH)
)


def recorded() -> dict[str, dict[str, Any]]:
    """Each case's record (``VirtualGame.to_dict``) as the engine first played it, by case name."""
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as file:
        records: dict[str, dict[str, Any]] = json.load(file)
    return records


def record() -> None:
    records = {case.name: case.play().to_dict() for case in CASES}
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as file:
        json.dump(records, file, separators=(",", ":"), sort_keys=True)
    moves = sum(len(hand["moves"]) for r in records.values() for hand in r["hands"])
    print(f"{len(records)} games, {moves:,} moves recorded in {GOLDEN.name}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    record()
