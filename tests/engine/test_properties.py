"""Properties of scoring and validation over every hand a legal game could report."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import Category, InvalidReport, ProblemCode, read_report
from engine.report import CLAIMABLE
from engine.rules import Rules
from tests.strategies import legal_hands

PUBLISHED_MAXIMA = {2: 4600, 3: 5100, 4: 4400, 6: 5100}
MAX_WITHOUT_COMPLETION = 3075


@given(legal_hands())
def test_any_legal_report_is_accepted(hand: dict[str, Any]) -> None:
    read_report(hand)


@given(legal_hands())
def test_total_is_the_sum_of_its_parts(hand: dict[str, Any]) -> None:
    _, _, score = read_report(hand)
    for side in score.to_dict()["sides"]:
        assert side["total"] == sum(side[category.value] for category in Category)
        assert all(side[category.value] >= 0 for category in Category)


@given(legal_hands(defaults=True))
def test_no_legal_report_scores_above_the_published_maxima(hand: dict[str, Any]) -> None:
    rules, report, score = read_report(hand)
    for index, side in enumerate(score.sides):
        assert side.total <= PUBLISHED_MAXIMA[rules.players]
        if report.completer != index:
            assert side.total <= MAX_WITHOUT_COMPLETION


@given(legal_hands(), st.randoms(use_true_random=False))
def test_reordering_sides_reorders_scores_and_changes_nothing_else(
    hand: dict[str, Any], random: Any
) -> None:
    _, _, score = read_report(hand)
    order = list(range(len(hand["sides"])))
    random.shuffle(order)
    shuffled = copy.deepcopy(hand)
    shuffled["sides"] = [hand["sides"][i] for i in order]
    if "extension_called_by" in hand:
        shuffled["extension_called_by"] = order.index(hand["extension_called_by"])
    _, _, reordered = read_report(shuffled)
    assert reordered.target == score.target
    assert list(reordered.sides) == [score.sides[i] for i in order]


@given(legal_hands())
def test_exactly_the_earned_claims_are_accepted(hand: dict[str, Any]) -> None:
    _, _, score = read_report(hand)
    claimed = copy.deepcopy(hand)
    for side in claimed["sides"]:
        side["claims"] = [c.value for c in CLAIMABLE]
    try:
        read_report(claimed)
        refused: tuple[Any, ...] = ()
    except InvalidReport as refusal:
        refused = refusal.problems
    unearned = {
        f"/sides/{index}/claims/{position}"
        for index, scored in enumerate(score.sides)
        for position, category in enumerate(CLAIMABLE)
        if scored.points(category) == 0
    }
    assert {p.path for p in refused} == unearned
    assert {p.code for p in refused} <= {ProblemCode.CLAIM_NOT_EARNED}


@given(legal_hands())
def test_claims_never_change_the_score(hand: dict[str, Any]) -> None:
    _, _, score = read_report(hand)
    claimed = copy.deepcopy(hand)
    for side, scored in zip(claimed["sides"], score.sides, strict=True):
        side["claims"] = [c.value for c in CLAIMABLE if scored.points(c) > 0]
    _, _, with_claims = read_report(claimed)
    assert with_claims == score


@given(legal_hands(), st.data())
def test_breaking_one_fact_is_refused(hand: dict[str, Any], data: st.DataObject) -> None:
    rules = Rules.for_players(hand["players"], hand["variants"])
    broken = copy.deepcopy(hand)
    index = data.draw(st.integers(0, len(broken["sides"]) - 1))
    side = broken["sides"][index]
    breakage = data.draw(st.sampled_from(["past_target", "odd_km", "coup_fourre", "delayed"]))
    if breakage == "past_target":
        side["distance"] = rules.target(extended="extension_called_by" in hand) + 25
    elif breakage == "odd_km":
        side["distance"] = 10
        side.pop("two_hundreds", None)
    elif breakage == "coup_fourre":
        side["coup_fourres"] = side["coup_fourres"] + ["no_such_safety"]
    else:
        side["completed_trip"], side["delayed_action"] = False, True
    try:
        read_report(broken)
    except InvalidReport as refusal:
        assert any(p.path.startswith(f"/sides/{index}") for p in refusal.problems)
    else:
        raise AssertionError(f"{breakage} on side {index} was accepted")
