"""The game to 5,000 (RULES.md §10): running totals, the end, the winner and ties."""

from __future__ import annotations

from typing import Any

import pytest

from engine import InvalidReport, Outcome, ProblemCode, read_sheet
from tests.reports import ALL_SAFETIES, side


def sheet(players: int, names: list[str], hands: list[list[dict[str, Any]]], **extra: Any):
    return read_sheet(
        {"players": players, "sides": names, "hands": [{"sides": h} for h in hands], **extra}
    )


def win(distance: int = 700, **facts: Any) -> dict[str, Any]:
    return side("", distance, completed_trip=True, **facts)


# A 2-player hand worth 1,900 to the completer (700 + 400 + 300 safe trip + 500 shutout).
BIG = [win(), side("", 0)]
BIG_FOR_B = [side("", 0), win()]


def test_running_totals_after_each_hand() -> None:
    game = sheet(2, ["Ann", "Bob"], [BIG, [side("", 300), side("", 450)]])
    assert game.totals_after == ((1900, 0), (2200, 450))
    assert game.status is Outcome.IN_PROGRESS
    assert game.winner is None


def test_game_ends_after_the_hand_that_reaches_5000() -> None:
    game = sheet(2, ["Ann", "Bob"], [BIG, BIG, BIG])
    assert game.totals == (5700, 0)
    assert (game.status, game.winner) == (Outcome.WON, 0)


def test_exactly_5000_ends_the_game() -> None:
    hands = [BIG, BIG, [side("", 700, completed_trip=True, two_hundreds=1), side("", 25)]]
    # 1,900 + 1,900 + (700 + 400) = 4,900: not yet; one more 100 km hand reaches 5,000 exactly.
    game = sheet(2, ["Ann", "Bob"], [*hands, [side("", 100), side("", 0)]])
    assert game.totals[0] == 5000
    assert game.status is Outcome.WON


def test_highest_total_wins_when_both_pass_5000() -> None:
    last = [win(), side("", 650, safeties=ALL_SAFETIES)]  # Ann 1,400; Bob 650 + 700 = 1,350
    game = sheet(2, ["Ann", "Bob"], [BIG, BIG_FOR_B, BIG, BIG_FOR_B, last])
    assert game.totals == (5200, 5150)
    assert (game.status, game.winner) == (Outcome.WON, 0)


def test_side_behind_before_the_last_hand_can_win_it() -> None:
    hands = [BIG, BIG, [side("", 650), side("", 0)], BIG_FOR_B, BIG_FOR_B]
    before = sheet(2, ["Ann", "Bob"], hands)
    assert before.totals == (4450, 3800)
    game = sheet(2, ["Ann", "Bob"], [*hands, BIG_FOR_B])
    assert game.totals == (4450, 5700)
    assert (game.status, game.winner) == (Outcome.WON, 1)


def test_exact_tie_above_5000_is_a_tied_game() -> None:
    hands = [
        BIG,
        BIG_FOR_B,
        BIG,
        BIG_FOR_B,
        [side("", 650), side("", 650)],
        [side("", 600), side("", 600)],
    ]
    game = sheet(2, ["Ann", "Bob"], hands)
    assert game.totals == (5050, 5050)
    assert game.status is Outcome.TIED
    assert game.to_dict()["tied"] == ["Ann", "Bob"]
    assert game.winner is None


def test_play_on_variant_continues_a_tie_until_one_side_leads() -> None:
    hands = [
        BIG,
        BIG_FOR_B,
        BIG,
        BIG_FOR_B,
        [side("", 650), side("", 650)],
        [side("", 600), side("", 600)],
    ]
    game = sheet(2, ["Ann", "Bob"], hands, variants={"game_tie": "play_on"})
    assert game.status is Outcome.IN_PROGRESS
    game = sheet(
        2, ["Ann", "Bob"], [*hands, [side("", 25), side("", 0)]], variants={"game_tie": "play_on"}
    )
    assert (game.status, game.winner) == (Outcome.WON, 0)


def test_a_hand_after_the_game_ended_is_refused() -> None:
    with pytest.raises(InvalidReport) as refused:
        sheet(2, ["Ann", "Bob"], [BIG, BIG, BIG, [side("", 25), side("", 0)]])
    (problem,) = refused.value.problems
    assert (problem.code, problem.path) == (ProblemCode.HAND_AFTER_GAME_OVER, "/hands/3")
    assert "won by Ann with 5,700 points" in problem.detail


def test_a_refused_hand_names_its_index_and_the_sheets_side_names() -> None:
    hands = [[side("", 300), side("", 0)]] * 3 + [[side("", 75), win(1000, claims=["shutout"])]]
    with pytest.raises(InvalidReport) as refused:
        sheet(4, ["Us", "Them"], hands)
    (problem,) = refused.value.problems
    assert problem.path == "/hands/3/sides/1/claims/0"
    assert problem.detail == "A shutout is claimed for Them, but Us travelled 75 km."


def test_every_refused_hand_is_listed() -> None:
    with pytest.raises(InvalidReport) as refused:
        sheet(2, ["Ann", "Bob"], [[side("", 30), side("", 0)], BIG, [side("", 0), side("", -25)]])
    assert [p.path for p in refused.value.problems] == [
        "/hands/0/sides/0/distance",
        "/hands/2/sides/1/distance",
    ]


def test_sheet_side_names_must_match_the_seats() -> None:
    with pytest.raises(InvalidReport) as refused:
        sheet(6, ["A", "B"], [])
    assert refused.value.problems[0].code is ProblemCode.SIDES_COUNT_MISMATCH


def test_six_player_sheet_with_three_teams() -> None:
    hands = [[win(), side("", 0), side("", 0)]] * 3
    game = sheet(6, ["Red", "Green", "Blue"], hands)
    assert game.totals == (2400 * 3, 0, 0)
    assert game.to_dict()["winner"] == "Red"


def test_sheet_without_side_names_names_teams() -> None:
    game = read_sheet({"players": 4, "hands": []})
    assert game.names == ("Team A", "Team B")
    assert game.status is Outcome.IN_PROGRESS


def test_game_over_names_the_hand_as_the_sheet_numbers_it() -> None:
    hands = [[side("", -25), side("", 0)], BIG, BIG, BIG, [side("", 25), side("", 0)]]
    with pytest.raises(InvalidReport) as refused:
        sheet(2, ["Ann", "Bob"], hands)
    last = refused.value.problems[-1]
    assert last.path == "/hands/4"
    assert "ended after hand 4" in last.detail


SMALL = [side("", 300), side("", 450)]


def test_a_correction_replaces_its_hand_and_keeps_the_later_ones() -> None:
    game = sheet(2, ["Ann", "Bob"], [BIG, SMALL, BIG_FOR_B])
    score = game.correct(2, {"sides": BIG})
    assert score.totals == (1900, 0)
    assert game.totals_after == ((1900, 0), (3800, 0), (3800, 1900))


def test_a_correction_that_ends_the_game_before_a_later_hand_is_refused() -> None:
    """RULES.md §10: the game ends after the hand that takes a side to 5,000, so a correction
    after which an earlier hand ends it would leave the later hands after the end."""
    game = sheet(2, ["Ann", "Bob"], [BIG, BIG, SMALL, BIG])  # 1,900 3,800 4,100 6,000
    before = game.totals_after
    with pytest.raises(InvalidReport) as refused:
        game.correct(3, {"sides": BIG})  # 5,700 after hand 3: the game would end there
    (problem,) = refused.value.problems
    assert problem.code is ProblemCode.HAND_AFTER_GAME_OVER
    assert "end after hand 3, but hand 4 follows it" in problem.detail
    assert game.totals_after == before


def test_a_refused_correction_leaves_the_sheet_as_it_was() -> None:
    game = sheet(2, ["Ann", "Bob"], [BIG, SMALL])
    before = game.totals_after
    with pytest.raises(InvalidReport):
        game.correct(1, {"sides": [side("", 1100, completed_trip=True), side("", 0)]})
    assert (game.totals_after, len(game.hands)) == (before, 2)


def test_only_a_hand_the_sheet_has_can_be_corrected() -> None:
    game = sheet(2, ["Ann", "Bob"], [BIG, SMALL])
    for number in (0, 3):
        with pytest.raises(ValueError):
            game.correct(number, {"sides": BIG})
    assert len(game.hands) == 2
