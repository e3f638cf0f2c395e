"""Match history: finished games and each player's result, as JSON and CSV."""

from __future__ import annotations

import csv
import io

import yaml

from tests.api.conftest import TableAccess
from tests.contract import SPEC_PATH

WIN_1000 = {
    "sides": [{"distance": 1000, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]
}
TIE_A = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
TIE_B = {"sides": [{"distance": 0}, {"distance": 700, "two_hundreds": 0, "completed_trip": True}]}


def test_history_lists_each_player_of_each_finished_game(table: TableAccess) -> None:
    a, b, c, d = table.add_players("Ann", "Bob", "Cat", "Dan")
    game = table.start_game(4, [[a, c], [b, d]])
    unfinished = table.start_game(4, [[a, b], [c, d]])
    table.post(f"/games/{unfinished['id']}/hands", WIN_1000)
    for _ in range(3):
        table.post(f"/games/{game['id']}/hands", WIN_1000)
    rows = table.get("/history").get_json()["items"]
    assert [(r["player"], r["side_name"], r["total"], r["result"]) for r in rows] == [
        ("Ann", "Ann & Cat", 6600, "won"),
        ("Cat", "Ann & Cat", 6600, "won"),
        ("Bob", "Bob & Dan", 0, "lost"),
        ("Dan", "Bob & Dan", 0, "lost"),
    ]
    assert {r["game_id"] for r in rows} == {game["id"]}


def test_tied_game_is_tied_for_the_leaders(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}/hands"
    # 1,900 each per completed shutout hand: A, B, A, B, then both 650 + 600: 5,050 each.
    for report in (TIE_A, TIE_B, TIE_A, TIE_B):
        table.post(url, report)
    table.post(url, {"sides": [{"distance": 650}, {"distance": 650}]})
    table.post(url, {"sides": [{"distance": 600}, {"distance": 600}]})
    rows = table.get("/history").get_json()["items"]
    assert [(r["player"], r["total"], r["result"]) for r in rows] == [
        ("Ann", 5050, "tied"),
        ("Bob", 5050, "tied"),
    ]


def test_csv_export_matches_the_json(table: TableAccess) -> None:
    ann, bob = table.add_players("=cmd|' /C calc'!A0", "Bob")
    url = f"/games/{table.start_game(2, [[ann], [bob]])['id']}/hands"
    for _ in range(3):
        table.post(url, TIE_A)
    response = table.get("/history.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["player"], r["total"], r["result"]) for r in rows] == [
        ("'=cmd|' /C calc'!A0", "5700", "won"),
        ("Bob", "0", "lost"),
    ]
    assert rows[0]["side_name"].startswith("'=")


def test_the_csv_header_is_the_contracts(table: TableAccess) -> None:
    operation = yaml.safe_load(SPEC_PATH.read_text())["paths"][
        "/api/v1/tables/{table_id}/history.csv"
    ]["get"]
    documented = operation["responses"]["200"]["description"].split(":", 1)[1]
    columns = [name.strip(" .") for name in documented.split(",")]
    row = yaml.safe_load(SPEC_PATH.read_text())["components"]["schemas"]["HistoryRow"]
    header = table.get("/history.csv").get_data(as_text=True).splitlines()[0]
    assert header.split(",") == columns == list(row["properties"])
