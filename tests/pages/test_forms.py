"""The hand form's fields read into a v1 hand report (no browser needed)."""

from __future__ import annotations

from scorekeeper.pages.forms import (
    form_from_report,
    nothing_entered,
    report_from_form,
    whole_number,
)


def test_a_coup_fourre_ticked_alone_says_its_safety_was_laid() -> None:
    """A coup-fourré is the safety laid out of turn (RULES.md §6): its 100 counts too."""
    report, problems = report_from_form(
        {"s0-km": "300", "s0-cf-right_of_way": "on", "s0-safety-driving_ace": "on"}, 2
    )
    assert problems == []
    assert report["sides"][0]["safeties"] == ["driving_ace", "right_of_way"]
    assert report["sides"][0]["coup_fourres"] == ["right_of_way"]
    assert report["sides"][1]["safeties"] == []


def test_a_safety_and_its_coup_fourre_both_ticked_count_the_safety_once() -> None:
    report, _ = report_from_form({"s1-safety-extra_tank": "on", "s1-cf-extra_tank": "on"}, 2)
    assert report["sides"][1]["safeties"] == ["extra_tank"]
    assert report["sides"][1]["coup_fourres"] == ["extra_tank"]


def test_a_km_total_carries_its_200s_and_the_trip() -> None:
    form = {"s0-km": "1000", "s0-two_hundreds": "2", "s1-km": "250", "completed": "0"}
    report, problems = report_from_form(form, 2)
    assert problems == []
    assert report["sides"][0] == {
        "distance": 1000,
        "two_hundreds": 2,
        "safeties": [],
        "coup_fourres": [],
        "completed_trip": True,
        "delayed_action": False,
    }
    assert report["sides"][1]["two_hundreds"] is None  # not said: only the trip needs it
    assert form_from_report(report) == form  # the same fields back, to correct it


def test_nothing_entered_is_a_form_left_as_it_opens() -> None:
    """Distances all zero (typed or counted), no safety, coup-fourré or claim, and nobody
    completed the trip or called the extension: the hand says nothing happened."""
    blank = {"completed": "", "extension": ""}
    for form in (blank, {**blank, "s0-km": "0", "s1-d200": "0"}):
        report, problems = report_from_form(form, 3)
        assert problems == [] and nothing_entered(report)
    for something in (
        {"s1-km": "25"},
        {"s2-d25": "1"},
        {"s0-safety-driving_ace": "on"},
        {"s1-cf-right_of_way": "on"},
        {"s2-claim-shutout": "on"},
        {"completed": "0"},
        {"extension": "1"},
    ):
        report, _ = report_from_form({**blank, **something}, 3)
        assert not nothing_entered(report), something


def test_a_number_field_of_minus_signs_is_no_number() -> None:
    """One leading minus at most: a flaky phone's field of thousands of them is refused as not a
    number (it used to recurse once per sign, past Python's limit: a 500)."""
    assert whole_number("-12") == -12 and whole_number(" 7 ") == 7
    assert whole_number("-" * 5000 + "1") is None
    assert whole_number("--1") is None
