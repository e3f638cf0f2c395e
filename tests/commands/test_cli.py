"""``scorekeeper score``: the same JSON as the API, exit codes 0 / 1 / 2, and a readable table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.rules import Rules
from engine.validation import read_report
from scorekeeper.cli import cli
from tests.reports import hand, side

VALID = hand(2, side("Ann", 700, completed_trip=True), side("Bob", 0))
REFUSED = hand(2, side("Team A", 75), side("Team B", 700, completed_trip=True, claims=["shutout"]))


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, ["score", *args], input=stdin)


def test_scores_a_file(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(VALID))
    result = run(str(path))
    assert result.exit_code == 0
    body = json.loads(result.output)
    assert [s["total"] for s in body["sides"]] == [1900, 0]


def test_reads_standard_input_with_dash_or_nothing() -> None:
    for args in (("-",), ()):
        result = run(*args, stdin=json.dumps(VALID))
        assert result.exit_code == 0
        assert json.loads(result.output)["target"] == 700


def test_refused_report_exits_1_with_problem_json() -> None:
    result = run(stdin=json.dumps(REFUSED))
    assert result.exit_code == 1
    problem = json.loads(result.output)
    assert problem["status"] == 422
    assert problem["errors"] == [
        {
            "path": "/sides/1/claims/0",
            "code": "claim_not_earned",
            "detail": "A shutout is claimed for Team B, but Team A travelled 75 km.",
        }
    ]


def test_malformed_json_exits_1_with_problem_json() -> None:
    result = run(stdin='{"players": ')
    assert result.exit_code == 1
    assert json.loads(result.output)["status"] == 400


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run(str(tmp_path / "missing.json")).exit_code == 2
    assert run("--no-such-option", stdin="{}").exit_code == 2


def test_table_lists_every_category() -> None:
    result = run("--table", stdin=json.dumps(VALID))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "Target 700 km"
    assert "Ann" in lines[1] and "Bob" in lines[1]
    assert any(line.split()[:2] == ["shutout", "500"] for line in lines)
    assert lines[-1].split() == ["total", "1,900", "0"]


def test_scores_a_whole_sheet() -> None:
    win = side("", 1000, completed_trip=True, two_hundreds=0)
    sheet = {"players": 4, "sides": ["Us", "Them"], "hands": [{"sides": [win, side("", 0)]}] * 3}
    result = run(stdin=json.dumps(sheet))
    assert result.exit_code == 0
    body = json.loads(result.output)
    assert [h["totals"] for h in body["hands"]] == [[2200, 0], [4400, 0], [6600, 0]]
    assert (body["status"], body["winner"]) == ("won", "Us")


def test_sheet_table_ends_with_the_state_of_the_game() -> None:
    sheet = {
        "players": 3,
        "sides": ["A", "B", "C"],
        "hands": [{"sides": [side("", 300), side("", 200), side("", 0)]}],
    }
    result = run("--table", stdin=json.dumps(sheet))
    assert result.exit_code == 0
    assert result.output.strip().endswith("Totals: A 300, B 200, C 0. Game in progress.")


def test_refused_sheet_names_the_hand() -> None:
    sheet = {
        "players": 2,
        "hands": [{"sides": [side("", 0), side("", 0)]}, {"sides": [side("", 30), side("", 0)]}],
    }
    result = run(stdin=json.dumps(sheet))
    assert result.exit_code == 1
    assert json.loads(result.output)["errors"][0]["path"] == "/hands/1/sides/0/distance"


def test_french_names_survive_the_round_trip() -> None:
    report = hand(2, side("Éloïse", 100), side("Zoé", 0))
    result = run(stdin=json.dumps(report, ensure_ascii=False))
    assert json.loads(result.output)["sides"][0]["name"] == "Éloïse"


def test_deeply_nested_json_is_refused_not_crashed() -> None:
    result = run(stdin="[" * 100_000 + "]" * 100_000)
    assert result.exit_code == 1
    assert json.loads(result.output)["detail"].endswith("nested too deeply.")


def test_input_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"players": 2, "sides": [{"name": "\xe9", "distance": 0}]}')
    result = run(str(path))
    assert result.exit_code == 1
    assert json.loads(result.output)["status"] == 400


def test_numbers_too_large_for_a_table_are_refused() -> None:
    report = hand(2, side("A", {"200": 10**4000}), side("B", 0))
    result = run(stdin=json.dumps(report))
    assert result.exit_code == 1
    assert json.loads(result.output)["errors"][0]["path"] == "/sides/0/distance/200"


def test_simulate_summarises_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "games.json"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "--players",
            "greedy,random",
            "--seats",
            "2",
            "--games",
            "4",
            "--seed",
            "7",
            "--json",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = [
        line.split() for line in result.output.splitlines() if line.startswith(("greedy", "random"))
    ]
    assert {line[0] for line in lines} == {"greedy", "random"}
    assert sum(float(line[2]) for line in lines) == 4  # one win (or shared win) per game
    games = json.loads(record.read_text())
    assert len(games) == 4 and all(game["status"] in ("won", "tied") for game in games)
    replay = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert replay.exit_code == 0
    assert "4 games replayed identically" in replay.output


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    record = tmp_path / "games.json"
    CliRunner().invoke(cli, ["simulate", "--games", "1", "--json", str(record)])
    games = json.loads(record.read_text())
    games[0]["totals"][0] += 1
    record.write_text(json.dumps(games))
    result = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert result.exit_code == 1


def test_simulate_refuses_unknown_players() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--players", "nobody,random"])
    assert result.exit_code == 2


def simulate_json(tmp_path: Path, *options: str) -> list[dict[str, Any]]:
    record = tmp_path / f"games{len(options)}.json"
    arguments = ["simulate", "--players", "strong,greedy", "--seats", "4", "--games", "3"]
    result = CliRunner().invoke(cli, [*arguments, "--seed", "5", "--json", str(record), *options])
    assert result.exit_code == 0, result.output
    games: list[dict[str, Any]] = json.loads(record.read_text())
    return games


def test_simulate_records_each_hand_report_and_breakdown(tmp_path: Path) -> None:
    for game in simulate_json(tmp_path):
        rules = Rules.for_players(game["players"], game["variants"])
        totals = [0] * rules.sides
        for played in game["hands"]:
            if "score" not in played:
                continue  # the deal after the last hand is never played
            read_rules, _, score = read_report(played["report"])  # checked against §11 too
            assert read_rules == rules
            assert score.to_dict() == played["score"]
            sides = played["score"]["sides"]
            totals = [total + side["total"] for total, side in zip(totals, sides, strict=True)]
        assert totals == game["totals"]


def test_simulate_gives_the_same_games_with_worker_processes(tmp_path: Path) -> None:
    assert simulate_json(tmp_path, "--workers", "2") == simulate_json(tmp_path)


def test_replay_refuses_a_tampered_hand_score(tmp_path: Path) -> None:
    games = simulate_json(tmp_path)
    games[0]["hands"][0]["score"]["sides"][0]["total"] += 100
    record = tmp_path / "tampered.json"
    record.write_text(json.dumps(games))
    result = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert result.exit_code == 1
    assert "hand 1 scores differently" in result.output


def test_replay_reads_one_game_record_as_the_api_gives_it(tmp_path: Path) -> None:
    # GET …/virtual-games/{id}/record answers one game's record (a JSON object), not a list.
    record = tmp_path / "record.json"
    record.write_text(json.dumps(simulate_json(tmp_path)[0]))
    result = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "1 game replayed identically." in result.output


def test_replay_refuses_one_tampered_game_record(tmp_path: Path) -> None:
    game = simulate_json(tmp_path)[0]
    game["totals"][0] += 1
    record = tmp_path / "record.json"
    record.write_text(json.dumps(game))
    result = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert result.exit_code == 1
    assert "the replayed totals differ" in result.output


@pytest.mark.parametrize("text", ["{not json", "42", '["a game"]', '{"players": 2}'])
def test_replay_refuses_what_is_not_a_record_without_a_traceback(tmp_path: Path, text: str) -> None:
    record = tmp_path / "record.json"
    record.write_text(text)
    result = CliRunner().invoke(cli, ["simulate", "--replay", str(record)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
