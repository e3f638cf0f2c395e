"""One test per bonus, the worked examples and published maxima of RULES.md §9, and the variants."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Category, HandEnd, read_report
from tests.reports import ALL_SAFETIES, hand, side


def breakdown(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each side's breakdown by name."""
    _, _, score = read_report(report)
    return {str(entry["name"]): entry for entry in (s.to_dict() for s in score.sides)}


def test_distance_scores_one_point_per_km() -> None:
    scores = breakdown(hand(2, side("Ann", 325), side("Bob", 50)))
    assert scores["Ann"]["distance"] == 325
    assert scores["Bob"]["distance"] == 50


def test_distance_counted_by_cards_adds_face_values() -> None:
    cards = {"25": 1, "50": 2, "75": 1, "100": 2, "200": 1}
    scores = breakdown(hand(2, side("Ann", cards), side("Bob", 0)))
    assert scores["Ann"]["distance"] == 25 + 100 + 75 + 200 + 200


def test_each_safety_scores_100() -> None:
    scores = breakdown(hand(2, side("Ann", 0, safeties=["extra_tank", "driving_ace"]), side("B")))
    assert scores["Ann"]["safeties"] == 200
    assert scores["Ann"]["all_safeties"] == 0


def test_all_four_safeties_score_700() -> None:
    scores = breakdown(hand(2, side("Ann", 0, safeties=ALL_SAFETIES), side("Bob")))
    assert scores["Ann"]["safeties"] + scores["Ann"]["all_safeties"] == 700
    assert scores["Ann"]["all_safeties"] == 300


def test_coup_fourre_scores_300_on_top_of_its_safety() -> None:
    report = hand(
        2, side("Ann", 0, safeties=["extra_tank"], coup_fourres=["extra_tank"]), side("B")
    )
    scores = breakdown(report)
    assert (scores["Ann"]["safeties"], scores["Ann"]["coup_fourres"]) == (100, 300)
    assert scores["Ann"]["distance"] == 0, "a coup-fourré is not distance"


def test_two_plain_and_two_coup_fourre_safeties_score_1300() -> None:
    ann = side("Ann", 0, safeties=ALL_SAFETIES, coup_fourres=["extra_tank", "right_of_way"])
    scores = breakdown(hand(2, ann, side("Bob")))["Ann"]
    assert scores["safeties"] + scores["all_safeties"] + scores["coup_fourres"] == 1300


def test_trip_completed_scores_400() -> None:
    scores = breakdown(
        hand(2, side("Ann", 700, completed_trip=True, two_hundreds=1), side("B", 50))
    )
    assert scores["Ann"]["trip"] == 400
    assert scores["B"]["trip"] == 0


def test_delayed_action_scores_300_for_the_completing_side() -> None:
    ann = side("Ann", 700, completed_trip=True, delayed_action=True, two_hundreds=1)
    assert breakdown(hand(2, ann, side("Bob", 25)))["Ann"]["delayed_action"] == 300


def test_safe_trip_scores_300_without_a_200() -> None:
    with_200 = side("Ann", 700, completed_trip=True, two_hundreds=1)
    without = side("Ann", 700, completed_trip=True, two_hundreds=0)
    assert breakdown(hand(2, with_200, side("Bob", 25)))["Ann"]["safe_trip"] == 0
    assert breakdown(hand(2, without, side("Bob", 25)))["Ann"]["safe_trip"] == 300


def test_safe_trip_from_card_counts() -> None:
    cards = {"100": 7}
    assert (
        breakdown(hand(2, side("A", cards, completed_trip=True), side("B", 25)))["A"]["safe_trip"]
        == 300
    )


def test_shutout_scores_500_per_opponent_at_zero() -> None:
    report = hand(3, side("A", 700, completed_trip=True), side("B", 0), side("C", 0))
    assert breakdown(report)["A"]["shutout"] == 1000
    report = hand(3, side("A", 700, completed_trip=True), side("B", 0), side("C", 50))
    assert breakdown(report)["A"]["shutout"] == 500


def test_shutout_ignores_safeties_of_the_shut_out_side() -> None:
    report = hand(2, side("A", 700, completed_trip=True), side("B", 0, safeties=["extra_tank"]))
    assert breakdown(report)["A"]["shutout"] == 500


def test_no_shutout_without_completion() -> None:
    report = hand(2, side("A", 600), side("B", 0))
    assert breakdown(report)["A"]["shutout"] == 0


def test_extension_bonus_to_the_caller_who_completes_1000() -> None:
    report = hand(
        2,
        side("A", 1000, completed_trip=True, two_hundreds=2),
        side("B", 300),
        extension_called_by=0,
    )
    scores = breakdown(report)
    assert (scores["A"]["extension"], scores["A"]["trip"], scores["B"]["extension"]) == (
        200,
        400,
        0,
    )


def test_failed_extension_pays_each_opponent_of_the_caller() -> None:
    # RULES.md §9's fourth worked example.
    report = hand(
        3,
        side("A", 925),
        side("B", 1000, completed_trip=True, two_hundreds=1),
        side("C", 300),
        extension_called_by=0,
    )
    scores = breakdown(report)
    assert [scores[n]["total"] for n in "ABC"] == [925, 1600, 500]
    assert [scores[n]["extension"] for n in "ABC"] == [0, 200, 200]


def test_failed_extension_pays_opponents_when_the_hand_is_exhausted() -> None:
    report = hand(2, side("A", 800), side("B", 650), extension_called_by=0)
    scores = breakdown(report)
    assert (scores["A"]["extension"], scores["B"]["extension"]) == (0, 200)


def test_failed_extension_variant_nobody_pays_only_the_completer() -> None:
    variants = {"failed_extension": "nobody"}
    report = hand(
        3,
        side("A", 925),
        side("B", 1000, completed_trip=True, two_hundreds=1),
        side("C", 300),
        extension_called_by=0,
        variants=variants,
    )
    scores = breakdown(report)
    assert [scores[n]["extension"] for n in "ABC"] == [0, 200, 0]
    exhausted = hand(2, side("A", 800), side("B", 650), extension_called_by=0, variants=variants)
    assert [s["extension"] for s in breakdown(exhausted).values()] == [0, 0]


def test_caller_that_stops_at_700_scores_no_trip() -> None:
    report = hand(
        2,
        side("A", 700),
        side("B", 1000, completed_trip=True, two_hundreds=0),
        extension_called_by=0,
    )
    scores = breakdown(report)
    assert scores["A"]["trip"] == 0
    assert scores["B"]["trip"] == 400


def test_exhaustion_scores_no_completion_bonus() -> None:
    # DU's example (RULES.md §9): 4 players, exhaustion.
    report = hand(
        4,
        side("N", 350, safeties=["driving_ace", "extra_tank"], coup_fourres=["extra_tank"]),
        side("E", 825, safeties=["right_of_way"]),
    )
    _, _, score = read_report(report)
    assert score.end is HandEnd.DECK_EXHAUSTED
    assert score.totals == (850, 925)


def test_four_player_completion_example() -> None:
    report = hand(
        4,
        side(
            "N",
            1000,
            completed_trip=True,
            delayed_action=True,
            two_hundreds=0,
            safeties=["driving_ace", "extra_tank", "puncture_proof"],
        ),
        side("E", 275, safeties=["right_of_way"], coup_fourres=["right_of_way"]),
    )
    _, _, score = read_report(report)
    assert score.end is HandEnd.TRIP_COMPLETED
    assert score.totals == (2300, 675)


def test_completer_may_score_less_than_another_side() -> None:
    report = hand(
        2,
        side("A", 700, completed_trip=True, two_hundreds=2),
        side("B", 650, safeties=ALL_SAFETIES, coup_fourres=ALL_SAFETIES),
    )
    totals = [s["total"] for s in breakdown(report).values()]
    assert totals[0] < totals[1]


def test_every_category_is_present_for_every_side() -> None:
    entries = breakdown(hand(3, side("A"), side("B"), side("C"))).values()
    expected = {"name", "total", *(c.value for c in Category)}
    assert all(set(entry) == expected for entry in entries)


def test_total_is_the_sum_of_the_categories() -> None:
    report = hand(2, side("Ann", 700, completed_trip=True, safeties=["extra_tank"]), side("B", 0))
    entry = breakdown(report)["Ann"]
    assert entry["total"] == sum(entry[c.value] for c in Category) == 700 + 100 + 400 + 300 + 500


def maximum_side(players: int) -> dict[str, Any]:
    extension = {} if players == 4 else {"extension_called_by": 0}
    best = side(
        "Max",
        1000,
        completed_trip=True,
        delayed_action=True,
        two_hundreds=0,
        safeties=ALL_SAFETIES,
        coup_fourres=ALL_SAFETIES,
    )
    others = [side(f"Zero{i}", 0) for i in range({2: 1, 3: 2, 4: 1, 6: 2}[players])]
    return hand(players, best, *others, **extension)


@pytest.mark.parametrize(("players", "maximum"), [(2, 4600), (3, 5100), (4, 4400), (6, 5100)])
def test_published_maxima(players: int, maximum: int) -> None:
    assert breakdown(maximum_side(players))["Max"]["total"] == maximum


def test_maximum_for_a_non_completing_side_after_a_failed_extension() -> None:
    # 975 km + 1,900 for safeties + the 200 of the caller's failure = 3,075 (RULES.md §9).
    report = hand(
        3,
        side("Caller", 700),
        side("Winner", 1000, completed_trip=True, two_hundreds=2),
        side("Best", 975, safeties=ALL_SAFETIES, coup_fourres=ALL_SAFETIES),
        extension_called_by=0,
    )
    assert breakdown(report)["Best"]["total"] == 3075


class TestShutoutVariants:
    """RULES.md §12 ``shutout``."""

    def test_single_pays_once_only_when_every_opponent_is_at_zero(self) -> None:
        variants = {"shutout": "single"}
        both = hand(3, side("A", 700, completed_trip=True), side("B"), side("C"), variants=variants)
        one = hand(
            3, side("A", 700, completed_trip=True), side("B"), side("C", 25), variants=variants
        )
        assert breakdown(both)["A"]["shutout"] == 500
        assert breakdown(one)["A"]["shutout"] == 0

    def test_capot_pays_every_opponent_of_a_side_at_zero_even_without_completion(self) -> None:
        report = hand(
            3, side("A", 300), side("B", 0), side("C", 650), variants={"shutout": "capot"}
        )
        scores = breakdown(report)
        assert [scores[n]["shutout"] for n in "ABC"] == [500, 0, 500]

    def test_capot_with_two_sides_at_zero(self) -> None:
        report = hand(
            3,
            side("A", 700, completed_trip=True),
            side("B"),
            side("C"),
            variants={"shutout": "capot"},
        )
        scores = breakdown(report)
        assert [scores[n]["shutout"] for n in "ABC"] == [1000, 500, 500]
