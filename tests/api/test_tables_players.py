"""Tables, tokens and players: who may see what, and the players' statistics."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tests.api.conftest import TableAccess

PROBLEM = "application/problem+json"


def test_creating_a_table_returns_its_token_once(client: FlaskClient) -> None:
    response = client.post("/api/v1/tables", json={"name": "Famille Martin"})
    assert response.status_code == 201
    body = response.get_json()
    assert body["token"].startswith("mb_") and len(body["token"]) > 40
    assert response.headers["Location"] == f"/api/v1/tables/{body['id']}"
    read = client.get(
        body and f"/api/v1/tables/{body['id']}",
        headers={"Authorization": f"Bearer {body['token']}"},
    )
    assert read.status_code == 200
    assert "token" not in read.get_json()
    assert read.get_json()["name"] == "Famille Martin"


def test_missing_or_wrong_token_is_401(client: FlaskClient, table: TableAccess) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": table.token}):
        response = client.get(table.url, headers=headers)
        assert response.status_code == 401
        assert response.mimetype == PROBLEM
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_another_tables_resources_are_404(
    table: TableAccess, new_table: Callable[[str], TableAccess]
) -> None:
    other = new_table("Other")
    (ann,) = other.add_players("Ann")
    game = other.start_game(2, [[ann], other.add_players("Bob")])
    intruder = TableAccess(table.client, other.id, table.token)
    assert intruder.get("").status_code == 404
    assert intruder.get("/players").status_code == 404
    mine_with_their_ids = table
    assert mine_with_their_ids.get(f"/players/{ann}").status_code == 404
    assert mine_with_their_ids.get(f"/games/{game['id']}").status_code == 404
    assert mine_with_their_ids.post(f"/games/{game['id']}/hands", {"sides": []}).status_code == 404


def test_rotating_the_token_retires_the_old_one(table: TableAccess) -> None:
    response = table.post("/token")
    assert response.status_code == 200
    new_token = response.get_json()["token"]
    assert table.get("").status_code == 401
    table.token = new_token
    assert table.get("").status_code == 200


def test_players_are_created_listed_and_renamed(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    assert [p["name"] for p in table.get("/players").get_json()["items"]] == ["Ann", "Bob"]
    renamed = table.patch(f"/players/{bob}", {"name": "Robert"})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Robert"
    assert table.get(f"/players/{bob}").get_json()["name"] == "Robert"


def test_player_names_are_unique_within_a_table(
    table: TableAccess, new_table: Callable[[str], TableAccess]
) -> None:
    table.add_players("Ann")
    assert table.post("/players", {"name": "Ann"}).status_code == 409
    assert new_table("Other").post("/players", {"name": "Ann"}).status_code == 201


def test_names_are_stored_as_given(table: TableAccess) -> None:
    name = "<script>alert('x')</script> & Zoé"
    (player,) = table.add_players(name)
    assert table.get(f"/players/{player}").get_json()["name"] == name


def test_names_are_length_limited(table: TableAccess) -> None:
    response = table.post("/players", {"name": "x" * 81})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/name"
    assert table.post("/players", {"name": ""}).status_code == 422


def test_player_statistics(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    win = {
        "sides": [
            {
                "distance": 700,
                "two_hundreds": 0,
                "completed_trip": True,
                "safeties": ["extra_tank"],
                "coup_fourres": ["extra_tank"],
            },
            {"distance": 0},
        ]
    }
    for _ in range(2):
        assert table.post(f"/games/{game['id']}/hands", win).status_code == 201
    lose = {"sides": [{"distance": 300}, {"distance": 400}]}
    assert table.post(f"/games/{game['id']}/hands", lose).status_code == 201
    # Ann: 2 × (700 + 100 + 300 + 400 + 300 + 500) = 2 × 2,300 = 4,600, then 300: 4,900.
    stats = table.get(f"/players/{ann}").get_json()["statistics"]
    assert stats == {
        "games_played": 1,
        "games_finished": 0,
        "games_won": 0,
        "win_rate": None,
        "hands_played": 3,
        "average_hand_score": round(4900 / 3, 1),
        "coup_fourres": 2,
        "shutouts": 2,
        "best_hand": 2300,
    }
    assert table.post(f"/games/{game['id']}/hands", win).status_code == 201
    stats = table.get(f"/players/{ann}").get_json()["statistics"]
    assert (stats["games_finished"], stats["games_won"], stats["win_rate"]) == (1, 1, 1.0)
    bob_stats = table.get(f"/players/{bob}").get_json()["statistics"]
    assert (bob_stats["games_won"], bob_stats["win_rate"], bob_stats["best_hand"]) == (0, 0.0, 400)


def test_names_must_be_text_a_person_could_type(table: TableAccess) -> None:
    for name in ("\ud800", "   ", "a\u0000b", "tab\there"):
        response = table.post("/players", {"name": name})
        assert response.status_code == 422, repr(name)
        assert response.get_json()["errors"][0]["path"] == "/name"
    response = table.client.post("/api/v1/tables", json={"name": "\udfff"})
    assert response.status_code == 422


@pytest.mark.parametrize("second", ["Us", "US ", "us"])
def test_two_sides_cannot_have_names_that_read_alike(table: TableAccess, second: str) -> None:
    a, b, c, d = table.add_players("A", "B", "C", "D")
    body = {
        "players": 4,
        "sides": [{"name": "Us", "players": [a, c]}, {"name": second, "players": [b, d]}],
    }
    response = table.post("/games", body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/sides/1/name"


def test_renaming_to_a_taken_name_is_409_and_changes_nothing(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    table.start_game(2, [[ann], [bob]])  # the rename touches the games Bob sat in
    response = table.patch(f"/players/{bob}", {"name": "Ann"})
    assert response.status_code == 409
    assert response.mimetype == PROBLEM
    assert "Ann" in response.get_json()["detail"]
    assert [p["name"] for p in table.get("/players").get_json()["items"]] == ["Ann", "Bob"]


def test_renaming_a_player_to_their_own_name_is_no_conflict(table: TableAccess) -> None:
    (ann,) = table.add_players("Ann")
    assert table.patch(f"/players/{ann}", {"name": "Ann"}).status_code == 200


@pytest.mark.parametrize(
    ("name", "character"),
    [
        ("An\u200bn", "U+200B"),  # zero-width space
        ("\u202eAnn", "U+202E"),  # right-to-left override
        ("Ann\u2028Lee", "U+2028"),  # line separator
        ("\u200b", "U+200B"),
        ("Ann\u00ad", "U+00AD"),  # soft hyphen
        ("\u3164", "U+3164"),  # Hangul filler: a letter drawn as nothing
        ("Ann\u0085", "U+0085"),  # a C1 control
        ("An\u034fn", "U+034F"),  # combining grapheme joiner
        ("Ann\ufe00", "U+FE00"),  # a variation selector
        ("Ann\U000e0100", "U+E0100"),  # a supplementary variation selector
        ("An\u17b4n", "U+17B4"),  # a Khmer inherent vowel, drawn as nothing
        ("\u2800", "U+2800"),  # the blank Braille pattern
        ("Ann\ufe0f", "U+FE0F"),  # an emoji selector with no emoji
        ("Ann\tLee", "U+0009"),  # a tab
    ],
)
def test_names_that_do_not_show_as_themselves_are_refused(
    table: TableAccess, name: str, character: str
) -> None:
    response = table.post("/players", {"name": name})
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error["path"] == "/name"
    assert character in error["detail"]
    assert table.get("/players").get_json()["items"] == []


def test_a_name_is_measured_as_sent(table: TableAccess) -> None:
    """openapi.yaml's maxLength applies to what was sent, before the outer spaces go."""
    response = table.post("/players", {"name": "A" * 80 + "   "})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/name"
    assert table.post("/players", {"name": "A" * 80}).status_code == 201


def test_table_and_side_names_follow_the_same_rules(table: TableAccess) -> None:
    response = table.client.post("/api/v1/tables", json={"name": "Club\u202e"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/name"
    ann, bob = table.add_players("Ann", "Bob")
    body = {"players": 2, "sides": [{"players": [ann], "name": "\u200b"}, {"players": [bob]}]}
    response = table.post("/games", body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/sides/0/name"


def test_names_are_stored_in_nfc_without_outer_spaces(table: TableAccess) -> None:
    (zoe,) = table.add_players("  Zoe\u0301  ")
    assert table.get(f"/players/{zoe}").get_json()["name"] == "Zo\u00e9"


def test_emoji_joined_by_a_zero_width_joiner_make_a_name(table: TableAccess) -> None:
    astronaut = "\U0001f469\u200d\U0001f680"
    assert table.post("/players", {"name": f"{astronaut} Ann"}).status_code == 201
    assert table.post("/players", {"name": "A\u200dnn"}).status_code == 422


@pytest.mark.parametrize("alike", ["ann  lee", "ANN LEE", "\uff21nn Lee", "Ann\u00a0Lee"])
def test_names_that_read_alike_are_one_name(table: TableAccess, alike: str) -> None:
    (_, bob) = table.add_players("Ann Lee", "Bob")
    response = table.post("/players", {"name": alike})
    assert response.status_code == 409
    assert response.mimetype == PROBLEM
    assert table.patch(f"/players/{bob}", {"name": alike}).status_code == 409
    names = [p["name"] for p in table.get("/players").get_json()["items"]]
    assert names == ["Ann Lee", "Bob"]


def test_accents_tell_names_apart(table: TableAccess) -> None:
    table.add_players("Zoe")
    assert table.post("/players", {"name": "Zoé"}).status_code == 201


def test_a_player_may_change_the_case_of_their_own_name(table: TableAccess) -> None:
    (ann,) = table.add_players("ann")
    assert table.patch(f"/players/{ann}", {"name": "Ann"}).get_json()["name"] == "Ann"
