"""The contest player against KevinAI's own decisions: seeded games whose every contest decision
the original ``mille-ai`` program (``mille/kevin.py``) made too, asked of the same positions
mapped to its state as :mod:`reference.contest` describes, choosing among the moves its own
game's ``findValidPlays`` lists there that the engine allows too (recorded in
``fixtures/contest_decisions.json.gz``). Replayed with the Python reference, each game unfolds the
same way only if every decision agrees; the first that does not is named. The other seats (this
project's strong and classic players when the games were recorded) replay their recorded moves,
so a change to those players leaves this test alone.

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

from engine.cards import Card
from engine.codes import DISTANCE_100
from engine.moves import CALL, DECLINE, CoupFourre, Discard, Move, Play
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from reference import make_player
from tests.engine.positions import position, set_battle

FIXTURE = Path(__file__).parent / "fixtures" / "contest_decisions.json.gz"
GAMES: list[dict[str, Any]] = json.loads(gzip.decompress(FIXTURE.read_bytes()))["games"]
C = Card


class Disagreement(AssertionError):
    pass


def wire(move: Move) -> str:
    """A move as the fixture writes it: its wire form's values, space-separated."""
    return " ".join(str(value) for value in move.to_dict().values())


def is_decision(view: SeatView) -> bool:
    """Whether the original is asked: a coup-fourré chance with no safety to declare (possible
    only with private chances) leaves nothing to decide."""
    return view.phase is not Phase.COUP_FOURRE or any(
        isinstance(move, CoupFourre) for move in view.legal_moves
    )


class Checked:
    """A contest player whose every decision must be the next one KevinAI made in the game."""

    def __init__(self, seat: int, game: dict[str, Any], at: list[int], hands: list[int]) -> None:
        self.player = make_player("contest", Random(f"{game['seed']}/{seat}"))
        self.name = self.player.name
        self.seat, self.game, self.at, self.hands = seat, game, at, hands

    def choose(self, view: SeatView) -> Move:
        move = self.player.choose(view)
        if not is_decision(view):
            return move
        expected = self.game["decisions"]
        number = self.at[0]
        where = (
            f"game seed {self.game['seed']} ({len(self.game['kinds'])} seats: "
            f"{', '.join(self.game['kinds'])}; variants {self.game['variants'] or 'none'})"
        )
        if number >= len(expected):
            raise Disagreement(f"{where}: a contest decision beyond the {len(expected)} recorded")
        self.at[0] += 1
        if wire(move) != expected[number]:
            raise Disagreement(
                f"{where}, contest decision {number} (seat {self.seat}, hand {self.hands[0]}, "
                f"{view.phase}): KevinAI chose {expected[number]!r}, the port {wire(move)!r}"
            )
        return move


class Scripted:
    """Another seat: it makes the next recorded move of the game's other seats."""

    name = "scripted"

    def __init__(self, seat: int, game: dict[str, Any], at: list[int]) -> None:
        self.seat, self.game, self.at = seat, game, at

    def choose(self, view: SeatView) -> Move:
        number = self.at[0]
        recorded = self.game["others"]
        legal = {wire(move): move for move in view.legal_moves}
        if number >= len(recorded) or recorded[number] not in legal:
            raise Disagreement(
                f"game seed {self.game['seed']}: the other seats' move {number} "
                f"({recorded[number] if number < len(recorded) else 'none recorded'}, seat "
                f"{self.seat}) is not legal here: the game left its recorded course"
            )
        self.at[0] += 1
        return legal[recorded[number]]


@pytest.mark.parametrize(
    "game", GAMES, ids=lambda game: f"{len(game['kinds'])}seats-seed{game['seed']}"
)
def test_each_decision_is_the_one_kevin_ai_made(game: dict[str, Any]) -> None:
    seed, kinds = game["seed"], game["kinds"]
    at, others, hands = [0], [0], [1]
    players: list[Checked | Scripted] = [
        Checked(seat, game, at, hands) if kind == "contest" else Scripted(seat, game, others)
        for seat, kind in enumerate(kinds)
    ]
    rules = Rules.for_players(len(kinds), game["variants"])
    played = VirtualGame(rules, seed, names=[kinds[side] for side in range(rules.sides)])
    while not played.over:  # a hand at a time, so a disagreement can name its hand
        played.play(players, hands=1)
        hands[0] += 1
    missing = len(game["decisions"]) - at[0]
    assert missing == 0, f"game seed {seed}: {missing} recorded decisions never came"
    assert others[0] == len(game["others"]), f"game seed {seed}: other seats' moves left over"


def test_the_fixture_covers_every_kind_of_decision_and_table() -> None:
    kinds = Counter(decision.split()[0] for game in GAMES for decision in game["decisions"])
    assert set(kinds) == {
        "play",
        "discard",
        "coup_fourre",
        "call_extension",
        "decline_extension",
    }
    assert {len(game["kinds"]) for game in GAMES} == {2, 3, 4, 6}
    assert any(game["variants"] for game in GAMES)


# -- positions -----------------------------------------------------------------------------------


def contest_move(state: HandState) -> Move:
    return make_player("contest", Random(0)).choose(seat_view(state, 0))


FILLER = [C.DISTANCE_25, C.DISTANCE_50, C.GASOLINE, C.REPAIRS, C.SPARE_TIRE]
"""Cards that neither complete the trip nor attack."""


def test_of_hazards_of_equal_weight_the_last_listed_is_played() -> None:
    """KevinAI files each hazard under its weight, a later one of the same weight taking the
    place of an earlier one: the last in hand order wins a tie, and of one hazard playable on
    two sides, the play on the later side."""
    first_out_of_gas = position([C.OUT_OF_GAS, C.ACCIDENT, *FILLER], own=[C.ROLL], other=[C.ROLL])
    assert contest_move(first_out_of_gas) == Play(C.ACCIDENT, 1)
    first_accident = position([C.ACCIDENT, C.OUT_OF_GAS, *FILLER], own=[C.ROLL], other=[C.ROLL])
    assert contest_move(first_accident) == Play(C.OUT_OF_GAS, 1)
    three = position([C.ACCIDENT, *FILLER], own=[C.ROLL], other=[C.ROLL], players=3)
    set_battle(three, 2, [C.ROLL])
    assert contest_move(three) == Play(C.ACCIDENT, 2)


def test_a_battle_hazard_goes_only_on_a_rolling_side() -> None:
    """``mille-ai``'s game lists a battle hazard only against a side rolling: the engine lets
    one be laid on a side already stopped, but KevinAI was never offered that and the port never
    plays it. A Speed Limit ``mille-ai`` lets go on a side stopped or not, unless limited."""
    stopped = [C.ROLL, C.OUT_OF_GAS]
    alone = position([C.ACCIDENT, *FILLER], own=[C.ROLL], other=stopped)
    assert Play(C.ACCIDENT, 1) in alone.legal_moves()
    assert contest_move(alone) == Play(C.DISTANCE_50)
    with_limit = position([C.ACCIDENT, C.SPEED_LIMIT, *FILLER], own=[C.ROLL], other=stopped)
    assert contest_move(with_limit) == Play(C.SPEED_LIMIT, 1)
    three = position([C.ACCIDENT, *FILLER], own=[C.ROLL], other=[C.ROLL], players=3)
    set_battle(three, 2, stopped)
    assert Play(C.ACCIDENT, 2) in three.legal_moves()
    assert contest_move(three) == Play(C.ACCIDENT, 1)


def test_a_safety_in_hand_makes_its_hazards_safe_to_play() -> None:
    """A battle hazard weighs 0.6 and a Stop 0.01; a hazard whose safety is unaccounted for
    loses 0.5, one whose safety is face up or in the own hand gains 0.5. Holding Right of Way,
    the Stop (0.51) outweighs the Accident (0.6 - 0.5); without it, the Accident is played."""
    hand = [C.STOP, C.ACCIDENT, C.DISTANCE_25, C.GASOLINE, C.REPAIRS, C.SPARE_TIRE]
    holding = position([*hand, C.RIGHT_OF_WAY], own=[C.ROLL], other=[C.ROLL])
    assert contest_move(holding) == Play(C.STOP, 1)
    without = position([*hand, C.DISTANCE_50], own=[C.ROLL], other=[C.ROLL])
    assert contest_move(without) == Play(C.ACCIDENT, 1)


def test_it_lays_a_safety_only_when_nothing_is_dead_or_spare() -> None:
    """Stopped with nothing to play, it throws a second Spare Tire, or a hazard the one rival
    is safe from, before it lays a safety; with neither, it lays its first safety in hand
    rather than throw a useful card."""
    held = [C.SPARE_TIRE, C.REPAIRS, C.RIGHT_OF_WAY, C.DISTANCE_100, C.DISTANCE_75]
    out_of_gas = [C.ROLL, C.OUT_OF_GAS]
    spare = position([*held, C.SPARE_TIRE, C.DISTANCE_50], own=out_of_gas)
    assert contest_move(spare) == Discard(C.SPARE_TIRE)
    rival_safe = position(
        [*held, C.FLAT_TIRE, C.DISTANCE_50], own=out_of_gas, other_safeties=[C.PUNCTURE_PROOF]
    )
    assert contest_move(rival_safe) == Discard(C.FLAT_TIRE)
    neither = position([*held, C.DISTANCE_50, C.DISTANCE_25], own=out_of_gas)
    assert contest_move(neither) == Play(C.RIGHT_OF_WAY)


def test_it_extends_as_a_last_resort_when_a_rival_would_pass_5000_ahead() -> None:
    """At 700, with a rival rolling at 400 km, it declines; the same hand with that rival 4,700
    points up before it calls the extension, its own estimate (trip and safe trip counted)
    falling short of the rival's."""
    state = position(FILLER, own=[C.ROLL], other=[C.ROLL], own_distance={100: 7})
    for _ in range(4):
        state.tableaux[1].add_distance(DISTANCE_100, 1)
    state.phase = Phase.EXTENSION
    assert contest_move(state) == DECLINE
    state.scores = (0, 4700)
    assert contest_move(state) == CALL
