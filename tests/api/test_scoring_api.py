"""POST /api/v1/score and /score/sheet: answers, refusals, and bad input from flaky phones."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from engine import read_report
from tests.reports import ALL_SAFETIES, hand, side
from tests.strategies import legal_hands

PROBLEM = "application/problem+json"


@pytest.fixture
def app(database_free_app: Flask) -> Flask:
    """Scoring is stateless: these tests run once, on an app that has no database to use."""
    return database_free_app


def test_score_returns_every_category_for_every_side(client: FlaskClient) -> None:
    report = hand(
        2,
        side(
            "Ann",
            {"25": 0, "50": 2, "75": 0, "100": 7, "200": 1},
            safeties=ALL_SAFETIES,
            coup_fourres=["extra_tank"],
            completed_trip=True,
            delayed_action=False,
            claims=["shutout"],
        ),
        side("Bob", 0, safeties=[], coup_fourres=[], completed_trip=False),
        target=1000,
        extension_called_by=0,
        variants={"shutout": "parker"},
    )
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 200
    assert response.get_json() == {
        "target": 1000,
        "sides": [
            {
                "name": "Ann",
                "distance": 1000,
                "safeties": 400,
                "all_safeties": 300,
                "coup_fourres": 300,
                "trip": 400,
                "delayed_action": 0,
                "safe_trip": 0,
                "extension": 200,
                "shutout": 500,
                "total": 3100,
            },
            {
                "name": "Bob",
                "distance": 0,
                "safeties": 0,
                "all_safeties": 0,
                "coup_fourres": 0,
                "trip": 0,
                "delayed_action": 0,
                "safe_trip": 0,
                "extension": 0,
                "shutout": 0,
                "total": 0,
            },
        ],
    }


def test_refused_claim_is_422_problem_json_with_every_error(client: FlaskClient) -> None:
    report = hand(
        2,
        side("Team A", 75),
        side("Team B", 700, completed_trip=True, claims=["shutout"], delayed_action=False),
    )
    report["sides"][0]["distance"] = 80
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 422
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["status"] == 422 and body["title"] == "Report refused"
    assert [(e["path"], e["code"]) for e in body["errors"]] == [
        ("/sides/0/distance", "distance_not_multiple_of_25"),
        ("/sides/1/claims/0", "claim_not_earned"),
    ]
    assert (
        body["errors"][1]["detail"]
        == "A shutout is claimed for Team B, but Team A travelled 80 km."
    )


def test_malformed_json_is_400(client: FlaskClient) -> None:
    response = client.post("/api/v1/score", data='{"players": 2,', content_type="application/json")
    assert response.status_code == 400
    assert response.mimetype == PROBLEM


def test_wrong_types_are_422_naming_the_field(client: FlaskClient) -> None:
    report = hand(2, side("A", "700"), side("B", 0, completed_trip="yes"))
    report["players"] = "2"
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 422
    errors = {e["path"]: e["code"] for e in response.get_json()["errors"]}
    assert errors == {
        "/players": "invalid_field",
        "/sides/0/distance": "invalid_field",
        "/sides/1/completed_trip": "invalid_field",
    }


def test_boolean_is_not_a_count(client: FlaskClient) -> None:
    report = hand(2, side("A", {"100": True}), side("B", 0))
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/sides/0/distance/100"


def test_unknown_and_missing_fields_are_refused(client: FlaskClient) -> None:
    response = client.post("/api/v1/score", json={"players": 2, "sides": [{"km": 5}], "x": 1})
    errors = {(e["path"], e["code"]) for e in response.get_json()["errors"]}
    assert errors == {
        ("/x", "invalid_field"),
        ("/sides/0/km", "invalid_field"),
        ("/sides/0/distance", "invalid_field"),
    }


def test_json_that_is_not_an_object(client: FlaskClient) -> None:
    for body in ("[]", '"text"', "3", "null"):
        response = client.post("/api/v1/score", data=body, content_type="application/json")
        # Well-formed JSON of the wrong shape: 422 naming the body; 400 is for JSON that is not.
        assert response.status_code == 422, body
        assert response.mimetype == PROBLEM
        assert [(e["path"], e["code"]) for e in response.get_json()["errors"]] == [
            ("", "invalid_field")
        ]


def test_body_must_be_json(client: FlaskClient) -> None:
    response = client.post("/api/v1/score", data="players=2", content_type="text/plain")
    assert response.status_code == 415
    assert response.mimetype == PROBLEM


def test_oversized_body_is_413(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/score", data="[" + "0," * 200_000 + "0]", content_type="application/json"
    )
    assert response.status_code == 413
    assert response.mimetype == PROBLEM


def test_unknown_path_and_method_are_problem_json(client: FlaskClient) -> None:
    missing = client.get("/api/v1/nothing")
    assert (missing.status_code, missing.mimetype) == (404, PROBLEM)
    wrong = client.get("/api/v1/score")
    assert (wrong.status_code, wrong.mimetype) == (405, PROBLEM)
    assert "POST" in wrong.headers["Allow"]


def test_huge_numbers_are_refused_not_crashed(client: FlaskClient) -> None:
    digits = "9" * 5000
    response = client.post(
        "/api/v1/score",
        data='{"players": 2, "sides": [{"distance": ' + digits + '}, {"distance": 0}]}',
        content_type="application/json",
    )
    assert response.status_code == 400


def test_sheet_reports_each_hand_running_totals_and_winner(client: FlaskClient) -> None:
    win = side("", 1000, completed_trip=True, two_hundreds=0)
    hands = [{"sides": [win, side("", 0)]}] * 2 + [{"sides": [win, side("", 0)]}]
    response = client.post(
        "/api/v1/score/sheet", json={"players": 4, "sides": ["Us", "Them"], "hands": hands}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert [h["totals"] for h in body["hands"]] == [[2200, 0], [4400, 0], [6600, 0]]
    assert (body["status"], body["winner"], body["winner_index"]) == ("won", "Us", 0)


def test_sheet_refusal_names_the_hand(client: FlaskClient) -> None:
    hands = [{"sides": [side("", 300), side("", 0)]}] * 3 + [
        {"sides": [side("", 300), side("", -25)]}
    ]
    response = client.post("/api/v1/score/sheet", json={"players": 2, "hands": hands})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/hands/3/sides/1/distance"


def test_sheet_hands_must_not_restate_the_players(client: FlaskClient) -> None:
    sheet = {"players": 2, "hands": [{"players": 2, "sides": [side("", 0), side("", 0)]}]}
    response = client.post("/api/v1/score/sheet", json=sheet)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/hands/0/players"


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(legal_hands())
def test_endpoint_scores_as_the_engine_does(client: FlaskClient, report: dict[str, Any]) -> None:
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 200, response.get_json()
    _, _, score = read_report(report)
    assert response.get_json() == score.to_dict()


def test_deeply_nested_json_is_400(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/score", data="[" * 100_000 + "]" * 100_000, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested too deeply" in response.get_json()["detail"]


def test_a_sheets_sides_cannot_read_alike(client: FlaskClient) -> None:
    sheet = {"players": 2, "sides": ["Ann", "ANN "], "hands": []}
    response = client.post("/api/v1/score/sheet", json=sheet)
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error["path"] == "/sides/1"
    assert "same name as side 0" in error["detail"]


def test_a_reports_side_names_cannot_read_alike_or_hide_characters(client: FlaskClient) -> None:
    report = {"players": 2, "sides": [side("Ann", 0), side("ann", 0)]}
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/sides/1/name"
    report = {"players": 2, "sides": [side("Ann\u202e", 0), side("Bob", 0)]}
    response = client.post("/api/v1/score", json=report)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/sides/0/name"
