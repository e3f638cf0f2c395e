"""Games: starting one, listing with filters and a cursor, reading it, abandoning it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import TableAccess

WIN_700 = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}


def test_two_player_game_seats_and_names(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    assert [side["name"] for side in game["sides"]] == ["Ann", "Bob"]
    assert [s["seats"] for s in game["sides"]] == [
        [{"seat": 0, "player_id": ann, "computer": None, "level": None, "name": "Ann"}],
        [{"seat": 1, "player_id": bob, "computer": None, "level": None, "name": "Bob"}],
    ]
    assert (game["status"], game["totals"], game["hands"], game["winner"]) == (
        "in_progress",
        [0, 0],
        [],
        None,
    )
    assert game["variants"]["shutout"] == "parker"


def test_team_game_seats_partners_opposite(table: TableAccess) -> None:
    a, b, c, d = table.add_players("A", "B", "C", "D")
    game = table.post(
        "/games", {"players": 4, "sides": [{"name": "Us", "players": [a, c]}, {"players": [b, d]}]}
    ).get_json()
    assert [side["name"] for side in game["sides"]] == ["Us", "B & D"]
    assert [[s["seat"] for s in side["seats"]] for side in game["sides"]] == [[0, 2], [1, 3]]


def test_six_player_game_has_three_teams(table: TableAccess) -> None:
    ids = table.add_players(*"ABCDEF")
    game = table.start_game(6, [ids[0:2], ids[2:4], ids[4:6]])
    assert [[s["seat"] for s in side["seats"]] for side in game["sides"]] == [
        [0, 3],
        [1, 4],
        [2, 5],
    ]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"players": 5, "sides": []}, "/players"),
        ({"players": 2, "sides": [{"players": [1]}]}, "/sides"),
        ({"players": 4, "sides": [{"players": [1]}, {"players": [2]}]}, "/sides/0/players"),
        ({"players": 2, "sides": [{"players": [1]}, {"players": [1]}]}, "/sides/1/players/0"),
        ({"players": 2, "sides": [{"players": [1]}, {"players": [99]}]}, "/sides/1/players/0"),
        (
            {
                "players": 2,
                "variants": {"shutout": "x"},
                "sides": [{"players": [1]}, {"players": [2]}],
            },
            "/variants/shutout",
        ),
        ({"players": "2", "sides": []}, "/players"),
    ],
)
def test_impossible_games_are_refused(table: TableAccess, body: dict[str, Any], path: str) -> None:
    table.add_players("Ann", "Bob")
    response = table.post("/games", body)
    assert response.status_code == 422
    assert path in [error["path"] for error in response.get_json()["errors"]]
    assert table.get("/games").get_json()["items"] == []


def test_list_filters_by_player_and_status(table: TableAccess) -> None:
    ann, bob, cat = table.add_players("Ann", "Bob", "Cat")
    first = table.start_game(2, [[ann], [bob]])
    second = table.start_game(2, [[bob], [cat]])
    for _ in range(3):
        table.post(f"/games/{first['id']}/hands", WIN_700)
    ids = lambda query: [g["id"] for g in table.get("/games" + query).get_json()["items"]]  # noqa: E731
    assert ids("") == [second["id"], first["id"]]
    assert ids(f"?player={ann}") == [first["id"]]
    assert ids(f"?player={bob}") == [second["id"], first["id"]]
    assert ids("?status=finished") == [first["id"]]
    assert ids("?status=in_progress") == [second["id"]]
    assert ids("?from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z") == [second["id"], first["id"]]
    assert ids("?to=2000-01-01T00:00:00Z") == []


def test_list_pages_with_a_cursor(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    started = [table.start_game(2, [[ann], [bob]])["id"] for _ in range(5)]
    seen: list[int] = []
    cursor = ""
    while True:
        page = table.get(f"/games?limit=2{cursor}").get_json()
        seen += [g["id"] for g in page["items"]]
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert seen == started[::-1]


def test_bad_list_queries_are_422(table: TableAccess) -> None:
    for query in (
        "?status=won",
        "?limit=0",
        "?limit=1000",
        "?cursor=%%%",
        "?from=yesterday",
        "?colour=red",
    ):
        assert table.get("/games" + query).status_code == 422, query


def test_game_shows_running_totals_leaders_and_winner(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    url = f"/games/{game['id']}"
    table.post(url + "/hands", {"sides": [{"distance": 300}, {"distance": 450}]})
    body = table.get(url).get_json()
    assert (body["totals"], body["leaders"], body["winner"]) == ([300, 450], [1], None)
    for _ in range(3):
        table.post(url + "/hands", WIN_700)
    body = table.get(url).get_json()
    assert [hand["totals"] for hand in body["hands"]] == [
        [300, 450],
        [2200, 450],
        [4100, 450],
        [6000, 450],
    ]
    assert (body["status"], body["outcome"], body["winner"]) == ("finished", "won", 0)
    assert body["finished_at"] is not None


def test_conditional_get_answers_304_until_the_game_changes(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}"
    etag = table.get(url).headers["ETag"]
    assert table.get(url, headers={"If-None-Match": etag}).status_code == 304
    table.post(url + "/hands", WIN_700)
    changed = table.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_abandoned_game_takes_no_more_hands(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}"
    table.post(url + "/hands", WIN_700)
    response = table.post(url + "/abandon")
    assert response.status_code == 200 and response.get_json()["status"] == "abandoned"
    assert table.post(url + "/hands", WIN_700).status_code == 409
    assert table.get("/games?status=abandoned").get_json()["items"][0]["status"] == "abandoned"


def test_finished_game_cannot_be_abandoned(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}"
    for _ in range(3):
        table.post(url + "/hands", WIN_700)
    assert table.post(url + "/abandon").status_code == 409


def test_renaming_a_player_changes_the_games_etag(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}"
    etag = table.get(url).headers["ETag"]
    table.patch(f"/players/{ann}", {"name": "Annie"})
    response = table.get(url, headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.get_json()["sides"][0]["seats"][0]["name"] == "Annie"


def test_long_player_names_make_a_team_name_that_fits(table: TableAccess) -> None:
    a, b, c, d = table.add_players("a" * 80, "b" * 80, "c" * 80, "d" * 80)
    game = table.start_game(4, [[a, c], [b, d]])
    assert [len(side["name"]) for side in game["sides"]] == [80, 80]


def test_out_of_range_cursors_and_times_are_422(table: TableAccess) -> None:
    import base64

    huge = base64.urlsafe_b64encode(b"g" + b"9" * 30).decode().rstrip("=")
    assert table.get(f"/games?cursor={huge}").status_code == 422
    assert table.get("/games?from=0001-01-01T00:00:00%2B01:00").status_code == 422
