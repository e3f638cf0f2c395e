"""Names the app gives in the request's language: a side a scored report or sheet leaves unnamed
is "Camp A" to a French reader, in the answer and in the refusals, and "Side A" in English."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.documents.score_sheets import score_report_document
from tests.reports import hand, side

FRENCH = {"Accept-Language": "fr"}
UNNAMED_WIN = {"distance": 700, "two_hundreds": 0, "completed_trip": True}
AT_ZERO = {"distance": 0}


@pytest.fixture
def app(database_free_app: Flask) -> Flask:
    """Scoring is stateless: no database."""
    return database_free_app


def report(*sides: dict[str, Any]) -> dict[str, Any]:
    return {"players": 2, "sides": list(sides)}


@pytest.mark.parametrize(
    ("headers", "names"),
    [({}, ["Side A", "Side B"]), (FRENCH, ["Camp A", "Camp B"])],
)
def test_a_scored_report_names_its_unnamed_sides_in_the_language_asked(
    client: FlaskClient, headers: dict[str, str], names: list[str]
) -> None:
    answer = client.post("/api/v1/score", json=report(UNNAMED_WIN, AT_ZERO), headers=headers)
    assert answer.status_code == 200
    assert [scored["name"] for scored in answer.json["sides"]] == names
    assert "Accept-Language" in answer.headers["Vary"]  # a cache keeps each language apart


def test_a_named_side_keeps_its_name_and_a_blank_one_is_named(client: FlaskClient) -> None:
    sent = report({**UNNAMED_WIN, "name": "Zoé"}, {"name": "", "distance": 0})
    answer = client.post("/api/v1/score", json=sent, headers=FRENCH)
    assert [scored["name"] for scored in answer.json["sides"]] == ["Zoé", "Camp B"]


def test_a_refusal_names_an_unnamed_side_in_french(client: FlaskClient) -> None:
    refused = report({"distance": 710}, {"distance": -25})
    answer = client.post("/api/v1/score", json=refused, headers=FRENCH)
    assert answer.status_code == 422
    details = " ".join(error["detail"] for error in answer.json["errors"])
    assert "Pour Camp A, 710\u202fkm" in details  # the number held to its unit
    assert "Pour Camp B" in details
    assert "Side" not in details


@pytest.mark.parametrize(
    ("players", "names"),
    [(2, ["Joueur A", "Joueur B"]), (4, ["Équipe A", "Équipe B"])],
)
def test_a_score_sheet_names_its_unnamed_sides_as_players_or_teams(
    client: FlaskClient, players: int, names: list[str]
) -> None:
    win = {**UNNAMED_WIN, "distance": 700 if players == 2 else 1000}
    sheet = {"players": players, "hands": [{"sides": [win, AT_ZERO]}]}
    answer = client.post("/api/v1/score/sheet", json=sheet, headers=FRENCH)
    assert answer.status_code == 200, answer.json
    assert answer.json["sides"] == names
    assert [scored["name"] for scored in answer.json["hands"][0]["sides"]] == names
    english = client.post("/api/v1/score/sheet", json=sheet).json
    assert english["sides"] == [
        name.replace("Joueur", "Player").replace("Équipe", "Team") for name in names
    ]


def test_a_sheet_s_hand_refused_names_the_sheet_s_side(client: FlaskClient) -> None:
    sheet = {"players": 2, "hands": [{"sides": [{"distance": 710}, AT_ZERO]}]}
    answer = client.post("/api/v1/score/sheet", json=sheet, headers=FRENCH)
    assert answer.status_code == 422
    assert "Pour Joueur A" in answer.json["errors"][0]["detail"]


def test_without_a_request_the_engine_s_english_names_stay() -> None:
    """The command line scores with no request: the engine's names, in English."""
    scored = score_report_document(hand(2, side("", 700, completed_trip=True), side("", 0)))
    assert [s["name"] for s in scored["sides"]] == ["Side A", "Side B"]
