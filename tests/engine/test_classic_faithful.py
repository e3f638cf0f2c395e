"""The classic player against BSD ``mille``'s own decisions: seeded games whose every classic
decision the original ``comp.c`` made (recorded in ``fixtures/classic_decisions.json.gz``: every
move of every hand in order, and at a classic seat comp.c's answer and the engine move it maps
to; the games followed comp.c's answers). Replayed with the Python reference, each game unfolds
the same way only if every decision agrees; the first that does not is named. The other seats
(this project's strong, contest, greedy players when the games were recorded) replay their
recorded moves, so a change to those players leaves this test alone.

A few positions pin behaviours of the original that a reader might take for slips of the port.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine.moves import Move
from engine.rules import Rules
from engine.view import SeatView
from engine.virtual_game import VirtualGame
from reference.classic import (
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
    ClassicPlayer,
    Position,
    Side,
    calcmove,
    onecard,
)

FIXTURE = Path(__file__).parent / "fixtures" / "classic_decisions.json.gz"
GAMES: list[dict[str, Any]] = json.loads(gzip.decompress(FIXTURE.read_bytes()))["games"]
DECK = [10, 10, 10, 12, 4, 2, 2, 2, 4, 3, 6, 6, 6, 14, 6, 1, 1, 1, 1, 0]
"""comp.c's ``Numcards`` (the 101-card deck), in its numbering."""


class Disagreement(AssertionError):
    pass


def wire(move: Move) -> str:
    """A move as the fixture writes it: its wire form's values, space-separated."""
    return " ".join(str(value) for value in move.to_dict().values())


def decisions(game: dict[str, Any]) -> list[list[Any]]:
    """The game's classic decisions: [seat, move, phase, comp.c's answer] each."""
    return [move for hand in game["hands"] for move in hand if len(move) == 4]


class Replay:
    """The recorded course of one game: the next move, hand by hand, and where it stands."""

    def __init__(self, game: dict[str, Any]) -> None:
        self.game = game
        self.hand, self.number = 0, 0
        self.where = (
            f"game seed {game['seed']} ({', '.join(game['kinds'])}; "
            f"variants {game['variants'] or 'none'})"
        )

    def next(self, seat: int) -> list[Any]:
        """The next recorded move, which must be ``seat``'s."""
        moves = self.game["hands"][self.hand] if self.hand < len(self.game["hands"]) else []
        if self.number >= len(moves) or moves[self.number][0] != seat:
            recorded = moves[self.number] if self.number < len(moves) else "the hand's end"
            raise Disagreement(
                f"{self.where}, hand {self.hand + 1}, move {self.number}: seat {seat} is to act "
                f"where {recorded} was recorded: the game left its recorded course"
            )
        self.number += 1
        return moves[self.number - 1]


class Checked:
    """A classic seat: the port decides, and must decide as comp.c did."""

    def __init__(self, seat: int, seed: int, replay: Replay) -> None:
        self.player = ClassicPlayer(Random(f"{seed}/{seat}"))  # as reference.make_player builds it
        self.name = self.player.name
        self.seat, self.replay = seat, replay

    def choose(self, view: SeatView) -> Move:
        move = self.player.choose(view)  # every decision of its own, in order: it keeps books
        replay = self.replay
        _, recorded, phase, answer = replay.next(self.seat)
        if wire(move) != recorded or str(view.phase) != phase:
            said = "read outside the hand" if answer is None else f"answered {answer}"
            raise Disagreement(
                f"{replay.where}, hand {replay.hand + 1}, move {replay.number - 1}, classic "
                f"seat {self.seat} ({phase}): comp.c {said} (Movetype, card in its numbering; "
                f"1/0 for the extension), i.e. {recorded!r}; the port made {wire(move)!r} "
                f"in phase {view.phase}"
            )
        return move


class Scripted:
    """Another seat: it makes its recorded move, not recomputed."""

    name = "scripted"

    def __init__(self, seat: int, replay: Replay) -> None:
        self.seat, self.replay = seat, replay

    def choose(self, view: SeatView) -> Move:
        recorded = self.replay.next(self.seat)[1]
        for move in view.legal_moves:
            if wire(move) == recorded:
                return move
        replay = self.replay
        raise Disagreement(
            f"{replay.where}, hand {replay.hand + 1}, move {replay.number - 1}: seat "
            f"{self.seat}'s recorded {recorded!r} is not legal here: the game left its course"
        )


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"seed{game['seed']}")
def test_each_decision_is_the_one_comp_c_made(game: dict[str, Any]) -> None:
    seed, kinds = game["seed"], game["kinds"]
    replay = Replay(game)
    players: list[Checked | Scripted] = [
        Checked(seat, seed, replay) if kind == "classic" else Scripted(seat, replay)
        for seat, kind in enumerate(kinds)
    ]
    played = VirtualGame(Rules.for_players(len(kinds), game["variants"]), seed)
    while not played.over:  # a hand at a time, so each hand ends where it was recorded to
        played.play(players, hands=1)
        left = len(game["hands"][replay.hand]) - replay.number
        assert left == 0, f"{replay.where}, hand {replay.hand + 1}: {left} moves never came"
        replay.hand, replay.number = replay.hand + 1, 0
    assert replay.hand == len(game["hands"]), f"{replay.where}: recorded hands never came"


def test_the_fixture_covers_every_kind_of_decision() -> None:
    kinds = Counter(
        f"{phase} {answer[0]}" if answer else f"{phase} outside the hand"
        for game in GAMES
        for _, _, phase, answer in decisions(game)
    )
    assert set(kinds) >= {
        "play 0",  # discards
        "play 2",  # plays
        "coup_fourre 2",
        "extension 0",
        "extension 1",
    }
    assert {kind for game in GAMES for kind in game["kinds"]} >= {"classic", "strong", "greedy"}
    assert any(game["variants"] for game in GAMES)


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
