"""One test per refusal code of RULES.md §11: the code, the JSON pointer and the words used."""

from __future__ import annotations

from typing import Any

import pytest

from engine import InvalidReport, ProblemCode, read_report
from engine.problems import Problem
from tests.reports import ALL_SAFETIES, hand, side


def problems(report: dict[str, Any]) -> list[Problem]:
    with pytest.raises(InvalidReport) as refused:
        read_report(report)
    return list(refused.value.problems)


def only(report: dict[str, Any]) -> Problem:
    found = problems(report)
    assert len(found) == 1, [p.detail for p in found]
    return found[0]


ok_side = side("B", 100)
trip = {"completed_trip": True}

CASES: list[tuple[str, dict[str, Any], ProblemCode, str, tuple[str, ...]]] = [
    (
        "five players",
        hand(5, side("A"), side("B")),
        ProblemCode.UNSUPPORTED_PLAYER_COUNT,
        "/players",
        ("not played by 5",),
    ),
    (
        "one player",
        hand(1, side("A")),
        ProblemCode.UNSUPPORTED_PLAYER_COUNT,
        "/players",
        ("not played by 1",),
    ),
    (
        "four sides for four players",
        hand(4, side("A"), side("B"), side("C"), side("D")),
        ProblemCode.SIDES_COUNT_MISMATCH,
        "/sides",
        ("4 seated", "2 sides", "the report has 4"),
    ),
    (
        "two sides for six players",
        hand(6, side("A"), side("B")),
        ProblemCode.SIDES_COUNT_MISMATCH,
        "/sides",
        ("3 sides",),
    ),
    (
        "target 1000 with two players",
        hand(2, side("A"), ok_side, target=1000),
        ProblemCode.TARGET_INVALID,
        "/target",
        ("1,000 km", "700 km"),
    ),
    (
        "target 700 with four players",
        hand(4, side("A"), ok_side, target=700),
        ProblemCode.TARGET_INVALID,
        "/target",
        ("700 km", "1,000 km"),
    ),
    (
        "target 700 after an extension",
        hand(2, side("A", 800), ok_side, target=700, extension_called_by=0),
        ProblemCode.TARGET_INVALID,
        "/target",
        ("after an extension", "1,000 km"),
    ),
    (
        "negative km",
        hand(2, side("A", -25), ok_side),
        ProblemCode.DISTANCE_NEGATIVE,
        "/sides/0/distance",
        ("A", "-25 km"),
    ),
    (
        "negative card count",
        hand(2, side("A", {"100": -1}), ok_side),
        ProblemCode.DISTANCE_NEGATIVE,
        "/sides/0/distance/100",
        ("A", "-1"),
    ),
    (
        "negative 200s",
        hand(2, side("A", 100, two_hundreds=-1), ok_side),
        ProblemCode.DISTANCE_NEGATIVE,
        "/sides/0/two_hundreds",
        ("A", "-1"),
    ),
    (
        "odd km",
        hand(2, side("A", 110), ok_side),
        ProblemCode.DISTANCE_NOT_MULTIPLE_OF_25,
        "/sides/0/distance",
        ("A", "110 km"),
    ),
    (
        "past 700",
        hand(2, side("A", 725), ok_side),
        ProblemCode.DISTANCE_OVER_TARGET,
        "/sides/0/distance",
        ("A", "725 km", "700 km"),
    ),
    (
        "past 1000 in the team game",
        hand(4, side("Team A", 1025), ok_side),
        ProblemCode.DISTANCE_OVER_TARGET,
        "/sides/0/distance",
        ("Team A", "1,025 km"),
    ),
    (
        "three 200s",
        hand(2, side("A", 600, two_hundreds=3), ok_side),
        ProblemCode.TOO_MANY_200S_SIDE,
        "/sides/0/two_hundreds",
        ("A", "3 cards of 200", "2"),
    ),
    (
        "three 200s by cards",
        hand(2, side("A", {"200": 3}), ok_side),
        ProblemCode.TOO_MANY_200S_SIDE,
        "/sides/0/distance/200",
        ("A", "3 cards of 200"),
    ),
    (
        "200s beyond the distance",
        hand(2, side("A", 300, two_hundreds=2), ok_side),
        ProblemCode.TWO_HUNDREDS_EXCEED_DISTANCE,
        "/sides/0/two_hundreds",
        ("A", "400 km", "300 km"),
    ),
    (
        "eleven 25s",
        hand(2, side("A", {"25": 6}), side("B", {"25": 5})),
        ProblemCode.DECK_EXCEEDED,
        "/sides",
        ("11 cards of 25 km", "10"),
    ),
    (
        "five 200s between sides",
        hand(
            3,
            side("A", 400, two_hundreds=2),
            side("B", 400, two_hundreds=2),
            side("C", 200, two_hundreds=1),
        ),
        ProblemCode.DECK_EXCEEDED,
        "/sides",
        ("5 cards of 200 km", "4"),
    ),
    (
        "more than 2,700 km without 200s",
        hand(
            3,
            side("A", 950, two_hundreds=0),
            side("B", 950, two_hundreds=0),
            side("C", 975, two_hundreds=0),
            extension_called_by=0,
        ),
        ProblemCode.DECK_EXCEEDED,
        "/sides",
        ("2,875 km", "2,700 km"),
    ),
    (
        "unknown safety",
        hand(2, side("A", safeties=["turbo"]), ok_side),
        ProblemCode.SAFETY_UNKNOWN,
        "/sides/0/safeties/0",
        ("A", "'turbo'"),
    ),
    (
        "unknown coup-fourre",
        hand(2, side("A", safeties=[], coup_fourres=["roll"]), ok_side),
        ProblemCode.SAFETY_UNKNOWN,
        "/sides/0/coup_fourres/0",
        ("A", "'roll'"),
    ),
    (
        "safety listed twice by one side",
        hand(2, side("A", safeties=["extra_tank", "extra_tank"]), ok_side),
        ProblemCode.SAFETIES_EXCEED_DECK,
        "/sides/0/safeties/1",
        ("A", "Extra Tank", "twice"),
    ),
    (
        "safety held by two sides",
        hand(2, side("A", safeties=["right_of_way"]), side("B", safeties=["right_of_way"])),
        ProblemCode.SAFETIES_EXCEED_DECK,
        "/sides/1/safeties/0",
        ("Right of Way is listed by A and B",),
    ),
    (
        "coup-fourre without its safety",
        hand(2, side("A", safeties=["extra_tank"], coup_fourres=["driving_ace"]), ok_side),
        ProblemCode.COUP_FOURRE_WITHOUT_SAFETY,
        "/sides/0/coup_fourres/0",
        ("A", "Driving Ace"),
    ),
    (
        "trip short of the target",
        hand(2, side("A", 650, **trip, two_hundreds=0), ok_side),
        ProblemCode.TRIP_NOT_AT_TARGET,
        "/sides/0/completed_trip",
        ("A", "650 km", "700 km"),
    ),
    (
        "target reached, trip not reported",
        hand(2, side("A", 700), ok_side),
        ProblemCode.TARGET_REACHED_NOT_COMPLETED,
        "/sides/0/completed_trip",
        ("A", "700 km"),
    ),
    (
        "two trips",
        hand(3, side("A", 700, **trip), side("B", 700, **trip), side("C")),
        ProblemCode.MULTIPLE_TRIPS_COMPLETED,
        "/sides/1/completed_trip",
        ("A and B",),
    ),
    (
        "delayed action without the trip",
        hand(2, side("A", 600, delayed_action=True), ok_side),
        ProblemCode.DELAYED_ACTION_WITHOUT_TRIP,
        "/sides/0/delayed_action",
        ("A",),
    ),
    (
        "extension in the team game",
        hand(4, side("A", 1000, **trip), ok_side, extension_called_by=0),
        ProblemCode.EXTENSION_NOT_ALLOWED,
        "/extension_called_by",
        ("4-player",),
    ),
    (
        "caller out of range",
        hand(2, side("A", 500), ok_side, extension_called_by=2),
        ProblemCode.EXTENSION_CALLER_INVALID,
        "/extension_called_by",
        ("2", "0 to 1"),
    ),
    (
        "two callers",
        hand(3, side("A", 800), side("B", 750), side("C"), extension_called_by=[0, 1]),
        ProblemCode.EXTENSION_CALLER_INVALID,
        "/extension_called_by",
        ("2 callers", "(0, 1)", "one extension at most"),
    ),
    (
        "caller below 700",
        hand(2, side("A", 650), ok_side, extension_called_by=0),
        ProblemCode.EXTENSION_CALLER_BELOW_700,
        "/extension_called_by",
        ("A", "650 km", "700 km"),
    ),
    (
        "shutout while the opponent has km",
        hand(2, side("Team A", 75), side("Team B", 700, **trip, claims=["shutout"])),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/1/claims/0",
        ("A shutout is claimed for Team B, but Team A travelled 75 km",),
    ),
    (
        "safe trip with a 200",
        hand(2, side("A", 700, **trip, two_hundreds=1, claims=["safe_trip"]), ok_side),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("A safe trip is claimed for A", "200 km cards were played (1)"),
    ),
    (
        "safe trip without the trip",
        hand(2, side("A", 0, claims=["safe_trip"]), ok_side),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("A safe trip is claimed for A", "no side completed the trip"),
    ),
    (
        "trip claimed by a side another side beat",
        hand(2, side("A", 600, claims=["trip"]), side("B", 700, **trip)),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("The trip is claimed for A, but B completed",),
    ),
    (
        "delayed action claim without the fact",
        hand(2, side("A", 700, **trip, claims=["delayed_action"]), ok_side),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("A delayed action is claimed for A",),
    ),
    (
        "extension claimed by a caller that fell short",
        hand(2, side("A", 900, claims=["extension"]), side("B", 300), extension_called_by=0),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("claimed for A, who called the extension",),
    ),
    (
        "all safeties with three",
        hand(2, side("A", safeties=ALL_SAFETIES[:3], claims=["all_safeties"]), ok_side),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("A", "only 3 of the four safeties"),
    ),
    (
        "extension claimed with none called",
        hand(2, side("A", 300, claims=["extension"]), ok_side),
        ProblemCode.CLAIM_NOT_EARNED,
        "/sides/0/claims/0",
        ("no extension was called",),
    ),
    (
        "unknown variant key",
        hand(2, side("A"), ok_side, variants={"speed": "fast"}),
        ProblemCode.UNKNOWN_VARIANT,
        "/variants/speed",
        ("'speed'",),
    ),
    (
        "unknown variant value",
        hand(2, side("A"), ok_side, variants={"shutout": "double"}),
        ProblemCode.UNKNOWN_VARIANT,
        "/variants/shutout",
        ("'double'", "parker, capot, single"),
    ),
    (
        "unknown claim",
        hand(2, side("A", claims=["bonus"]), ok_side),
        ProblemCode.INVALID_FIELD,
        "/sides/0/claims/0",
        ("'bonus'",),
    ),
    (
        "completed in km without the number of 200s",
        hand(2, {"name": "A", "distance": 700, "completed_trip": True}, ok_side),
        ProblemCode.INVALID_FIELD,
        "/sides/0/two_hundreds",
        ("A", "how many 200 km cards were played"),
    ),
]


@pytest.mark.parametrize(
    ("report", "code", "path", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_refusal(
    report: dict[str, Any], code: ProblemCode, path: str, words: tuple[str, ...]
) -> None:
    problem = only(report)
    assert (problem.code, problem.path) == (code, path), problem.detail
    for word in words:
        assert word in problem.detail


def test_every_report_code_has_a_case() -> None:
    covered = {case[2] for case in CASES}
    # hand_after_game_over: see test_sheet; illegal_move refuses a virtual game's move, not a
    # report: see tests/api/test_virtual.py; idempotency_key_reused a request, see
    # tests/api/test_hands.py.
    elsewhere = {
        ProblemCode.HAND_AFTER_GAME_OVER,
        ProblemCode.ILLEGAL_MOVE,
        ProblemCode.IDEMPOTENCY_KEY_REUSED,
    }
    assert set(ProblemCode) - covered == elsewhere


def test_every_problem_is_reported_at_once() -> None:
    report = hand(
        2,
        side("A", 725, safeties=["turbo"], claims=["shutout"]),
        side("B", 10, delayed_action=True),
        target=1000,
    )
    codes = [p.code for p in problems(report)]
    assert codes == [
        ProblemCode.SAFETY_UNKNOWN,
        ProblemCode.TARGET_INVALID,
        ProblemCode.DISTANCE_OVER_TARGET,
        ProblemCode.DISTANCE_NOT_MULTIPLE_OF_25,
        ProblemCode.DELAYED_ACTION_WITHOUT_TRIP,
        ProblemCode.CLAIM_NOT_EARNED,
    ]


def test_earned_claims_are_accepted() -> None:
    report = hand(
        2,
        side(
            "A",
            1000,
            completed_trip=True,
            delayed_action=True,
            two_hundreds=0,
            safeties=ALL_SAFETIES,
            coup_fourres=["extra_tank"],
            claims=["trip", "delayed_action", "safe_trip", "shutout", "extension", "all_safeties"],
        ),
        side("B", 0),
        extension_called_by=0,
    )
    read_report(report)


def test_non_caller_completing_after_a_failed_extension_may_claim_it() -> None:
    report = hand(
        2,
        side("A", 800),
        side("B", 1000, completed_trip=True, two_hundreds=1, claims=["extension"]),
        extension_called_by=0,
    )
    read_report(report)


def test_capot_shutout_claim_without_completion_is_accepted() -> None:
    report = hand(
        2, side("A", 300, claims=["shutout"]), side("B", 0), variants={"shutout": "capot"}
    )
    read_report(report)


def test_coup_fourre_on_stop_with_right_of_way_is_consistent() -> None:
    report = hand(
        2, side("A", 300, safeties=["right_of_way"], coup_fourres=["right_of_way"]), side("B", 0)
    )
    read_report(report)


def test_two_200s_per_player_variant_lets_a_team_show_four() -> None:
    report = hand(
        4, side("A", 800, two_hundreds=4), side("B", 0), variants={"two_hundreds_limit": "player"}
    )
    read_report(report)
    with pytest.raises(InvalidReport):
        read_report(hand(4, side("A", 800, two_hundreds=4), side("B", 0)))


def test_omitted_200s_never_cause_a_deck_refusal_by_themselves() -> None:
    # 3 × 950 km is reachable only with 200s; without the count each side is assumed to hold two.
    report = hand(3, side("A", 950), side("B", 950), side("C", 950), extension_called_by=0)
    read_report(report)


def test_four_player_extension_to_1200_variant() -> None:
    variants = {"four_player_extension": "to_1200"}
    report = hand(
        4,
        side("A", 1200, completed_trip=True, two_hundreds=2),
        side("B", 300),
        extension_called_by=0,
        variants=variants,
    )
    _, _, score = read_report(report)
    assert score.target == 1200
    assert score.sides[0].extension == 200


def test_200s_given_beside_cards_must_agree_with_them() -> None:
    problem = only(hand(2, side("A", {"200": 1}, two_hundreds=2), ok_side))
    assert (problem.code, problem.path) == (ProblemCode.INVALID_FIELD, "/sides/0/two_hundreds")
    assert "declared for A (2)" in problem.detail and "shown (1)" in problem.detail


def test_each_way_the_deck_is_exceeded_is_reported() -> None:
    report = hand(
        3,
        side("A", {"25": 6, "200": 2}),
        side("B", {"25": 5, "200": 2}),
        side("C", 600, two_hundreds=2),
    )
    details = [p.detail for p in problems(report) if p.code is ProblemCode.DECK_EXCEEDED]
    assert details == [
        "The sides show 11 cards of 25 km, but the deck holds 10.",
        "The sides report 6 cards of 200 km in all, but the deck holds 4.",
    ]


def test_claim_under_failed_extension_nobody_names_the_completer() -> None:
    report = hand(
        3,
        side("A", 925),
        side("B", 1000, completed_trip=True, two_hundreds=1),
        side("C", 300, claims=["extension"]),
        extension_called_by=0,
        variants={"failed_extension": "nobody"},
    )
    assert "B completed the trip" in only(report).detail


def test_a_negative_distance_is_one_problem() -> None:
    problem = only(hand(2, side("A", -25, two_hundreds=0), ok_side))
    assert problem.code is ProblemCode.DISTANCE_NEGATIVE


def test_three_sides_listing_one_safety() -> None:
    report = hand(3, *(side(n, safeties=["driving_ace"]) for n in "ABC"))
    details = [p.detail for p in problems(report)]
    assert details == ["Driving Ace is listed by A, B and C, but the deck holds one."]


def test_repeated_coup_fourre_points_at_the_repeat() -> None:
    report = hand(
        2,
        side(
            "A", safeties=["driving_ace", "extra_tank"], coup_fourres=["extra_tank", "extra_tank"]
        ),
        ok_side,
    )
    assert only(report).path == "/sides/0/coup_fourres/1"


def test_only_bonuses_can_be_claimed() -> None:
    problem = only(hand(2, side("A", 300, claims=["distance"]), ok_side))
    assert (problem.code, problem.path) == (ProblemCode.INVALID_FIELD, "/sides/0/claims/0")


def test_extension_claims_in_the_team_game_are_refused_for_both_sides() -> None:
    report = hand(
        4,
        side("A", 900, claims=["extension"]),
        side("B", 300, claims=["extension"]),
        extension_called_by=0,
    )
    found = problems(report)
    assert [p.code for p in found] == [
        ProblemCode.EXTENSION_NOT_ALLOWED,
        ProblemCode.CLAIM_NOT_EARNED,
        ProblemCode.CLAIM_NOT_EARNED,
    ]
    assert all("4-player game has no extension" in p.detail for p in found[1:])


def test_a_shutout_claimed_with_no_opponent_side_says_why_and_does_not_crash() -> None:
    """Found by fuzzing the API: one side sent where two are needed, under the capot rule."""
    report = hand(2, side("A", 0, claims=["shutout"]), variants={"shutout": "capot"})
    found = problems(report)
    assert [p.code for p in found] == [
        ProblemCode.SIDES_COUNT_MISMATCH,
        ProblemCode.CLAIM_NOT_EARNED,
    ]
    assert "no opponent side was left at 0 km" in found[1].detail
