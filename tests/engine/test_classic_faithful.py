"""The classic player against BSD ``mille``'s own decisions: seeded games whose every classic
decision the original ``comp.c`` made too (recorded in ``fixtures/classic_decisions.json.gz``:
per decision, comp.c's answer and the engine move it maps to). Replayed with the Python reference,
each game unfolds the same way only if every decision agrees; the first that does not is named.

A few positions pin behaviours of the original that a reader might take for slips of the port.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine.game import Game
from engine.moves import Move
from engine.players import make_player
from engine.players.classic import (
    C_25,
    C_50,
    C_100,
    C_END_LIMIT,
    C_GO,
    C_INIT,
    C_LIMIT,
    M_DISCARD,
    M_PLAY,
    NUMNEED_AT_START,
    S_PLAYED,
    S_UNKNOWN,
    Position,
    Side,
    calcmove,
    onecard,
)
from engine.rules import Rules
from engine.view import SeatView

FIXTURE = Path(__file__).parent / "fixtures" / "classic_decisions.json.gz"
GAMES: list[dict[str, Any]] = json.loads(gzip.decompress(FIXTURE.read_bytes()))["games"]
DECK = [10, 10, 10, 12, 4, 2, 2, 2, 4, 3, 6, 6, 6, 14, 6, 1, 1, 1, 1, 0]
"""comp.c's ``Numcards`` (the 101-card deck), in its numbering."""


class Disagreement(AssertionError):
    pass


class Checked:
    """A classic player whose every move must be the next one comp.c made in the game."""

    def __init__(self, seat: int, seed: int, expected: list[list[Any]], at: list[int]) -> None:
        self.player = make_player("classic", Random(f"{seed}/{seat}"))
        self.name = self.player.name
        self.seat, self.seed, self.expected, self.at = seat, seed, expected, at

    def choose(self, view: SeatView) -> Move:
        move = self.player.choose(view)
        number = self.at[0]
        if number >= len(self.expected):
            raise Disagreement(f"game {self.seed}: a classic decision beyond the recorded ones")
        seat, phase, answer, recorded = self.expected[number]
        self.at[0] += 1
        if seat != self.seat or phase != str(view.phase) or move.to_dict() != recorded:
            raise Disagreement(
                f"game {self.seed}, classic decision {number} (seat {seat}, {phase}): comp.c "
                f"answered {answer} (Movetype, card in its numbering), i.e. {recorded}; the "
                f"port made {move.to_dict()} at seat {self.seat} in phase {view.phase}"
            )
        return move


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"seed{game['seed']}")
def test_each_decision_is_the_one_comp_c_made(game: dict[str, Any]) -> None:
    seed, kinds, expected = game["seed"], game["kinds"], game["decisions"]
    at = [0]
    players = [
        Checked(seat, seed, expected, at)
        if kind == "classic"
        else make_player(kind, Random(f"{seed}/{seat}"))
        for seat, kind in enumerate(kinds)
    ]
    Game(Rules.for_players(len(kinds), game["variants"]), seed).play(players)
    assert at[0] == len(expected), f"game {seed}: {len(expected) - at[0]} decisions never came"


def test_the_fixture_covers_every_kind_of_decision() -> None:
    phases = {decision[1] for game in GAMES for decision in game["decisions"]}
    answers = {
        decision[2][0]
        for game in GAMES
        for decision in game["decisions"]
        if decision[1] == "play" and decision[2]
    }
    assert phases == {"play", "coup_fourre", "extension"}
    assert answers == {0, 2}  # discards and plays


def _side(battle: int, speed: int, rolling: bool, km: int, safeties: list[int]) -> Side:
    return Side(battle, speed, rolling, km, 0, safeties)


def _stranding_hand(speed: int) -> tuple[Position, list[int]]:
    """At 600 of 700 (a game's position): a 25 and a 50 that would each leave the side short of
    the target, and two 100s that complete the trip."""
    hand = [C_25, C_GO, C_GO, C_50, C_GO, C_100, C_100]
    me = _side(C_GO, speed, True, 600, [S_PLAYED, S_UNKNOWN, S_UNKNOWN, S_UNKNOWN])
    op = _side(C_GO, C_INIT, True, 350, [S_UNKNOWN] * 4)
    seen = [3, 5, 4, 5, 1, 0, 1, 0, 0, 1, 1, 1, 0, 6, 3, 1, 0, 0, 0, 0]
    need = list(NUMNEED_AT_START)
    return Position(hand, me, op, seen, DECK, need, 3, 63, 700, 101), need


def test_a_low_card_that_would_strand_the_side_takes_only_itself_out_of_the_play() -> None:
    """comp.c's ``bool`` is a ``char`` (BSD curses), so ``cango`` counts the cards that may be
    played: the 25 and the 50 are each valued at nothing and taken off the count, two cards
    are left to play, and the first 100, which completes the trip, is played, as comp.c does."""
    pos, need = _stranding_hand(C_END_LIMIT)
    assert calcmove(pos, lambda: 5) == (M_PLAY, 5)
    assert need == list(NUMNEED_AT_START)  # rolling: nothing is needed


def test_the_last_card_to_play_stranding_the_side_turns_the_turn_into_a_discard() -> None:
    """Under a Speed Limit only the 25 and the 50 may be played: the 25 takes one card off
    ``cango``, the 50 the last, and the hand is valued again as a discard, as comp.c does (the
    second 100 goes: valued at its card number once the first is the valuable one)."""
    pos, need = _stranding_hand(C_LIMIT)
    assert calcmove(pos, lambda: 5) == (M_DISCARD, 6)
    assert need == list(NUMNEED_AT_START)


def test_one_card_from_home_reads_the_hundreds_seen_for_right_of_way() -> None:
    """``onecard`` asks whether Right of Way was seen by reading ``Numseen`` at the safety's
    index (3), which counts the 100s: a limited side 100 short counts as one card from home
    exactly when no 100 has been seen, whoever holds Right of Way."""
    limited = _side(C_GO, C_LIMIT, True, 600, [S_UNKNOWN] * 4)
    seen = [0] * 20
    pos = Position([C_INIT] * 7, limited, limited, seen, DECK, [], 0, 50, 700, 101)
    assert onecard(pos, limited)
    seen[C_100] = 1
    assert not onecard(pos, limited)
