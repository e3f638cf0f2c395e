"""The golden set (``tests/engine/golden.py``): the engine plays every recorded game again move
for move, and scores it the same, hand by hand."""

from __future__ import annotations

from typing import Any

import pytest

from engine.virtual_game import VirtualGame
from tests.engine.golden import CASES, KINDS, SEATS, Case, recorded


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return recorded()


def test_the_golden_set_is_the_set_of_cases(records: dict[str, dict[str, Any]]) -> None:
    assert sorted(records) == sorted(case.name for case in CASES)
    assert {case.players for case in CASES} == set(SEATS)
    assert {case.kind for case in CASES} == set(KINDS)
    assert all(record["status"] != "in_progress" for record in records.values())


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_engine_plays_the_recorded_game_again(
    case: Case, records: dict[str, dict[str, Any]]
) -> None:
    golden = records[case.name]
    played = case.play().to_dict()
    assert len(played["hands"]) == len(golden["hands"]), "the game lasted another number of hands"
    for number, (hand, again) in enumerate(zip(golden["hands"], played["hands"], strict=True)):
        assert again["moves"] == hand["moves"], f"hand {number + 1}: the moves differ"
        assert again == hand, f"hand {number + 1}: the report or the score differs"
    assert played == golden


@pytest.mark.parametrize("case", CASES[:: len(CASES) // 8], ids=lambda case: case.name)
def test_a_recorded_game_replays_from_its_record(
    case: Case, records: dict[str, dict[str, Any]]
) -> None:
    assert VirtualGame.replay(records[case.name]).to_dict() == records[case.name]
