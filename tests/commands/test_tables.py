"""``scorekeeper tables``: every table with its id, so an operator names the right one to
``export`` or ``new-token``; on both databases (the counts are subqueries, and SQLite and
PostgreSQL give a ``max()`` of times back differently)."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskCliRunner

from tests.api.conftest import create_table

HAND = {"sides": [{"distance": 25}, {"distance": 50}]}  # a hand that ends nothing


def test_an_empty_database_says_so(runner: FlaskCliRunner) -> None:
    ran = runner.invoke(args=["tables"])
    assert ran.exit_code == 0, ran.output
    assert re.fullmatch(r"No table in \S+ yet\.\n", ran.output)


def test_lists_each_table_by_id_with_its_players_and_games(
    app: Flask, runner: FlaskCliRunner
) -> None:
    client = app.test_client()
    club = create_table(client, "Club du jeudi — Bornes & Cie")
    ann, bob = club.add_players("Ann", "Bob")
    game = club.start_game(2, [[ann], [bob]])
    assert club.post(f"/games/{game['id']}/hands", HAND).status_code == 201
    club.start_game(2, [[bob], [ann]])
    create_table(client, "Family")

    ran = runner.invoke(args=["tables"])

    assert ran.exit_code == 0, ran.output
    header, first, second = ran.output.splitlines()
    assert header.split() == ["id", "players", "games", "in", "progress", "created", "last"] + [
        "played",
        "name",
    ]
    assert first.split()[:4] == [str(club.id), "2", "2", "2"]
    assert first.endswith("  Club du jeudi — Bornes & Cie")  # the whole name, last
    assert second.split()[:4] == [str(club.id + 1), "0", "0", "0"]
    assert second.split()[5:] == ["-", "Family"]  # never played
    # The name starts in the same column on every line, however long the names are.
    assert first.index("Club") == second.index("Family") == header.index("name")


def test_json_gives_each_table_whole(app: Flask, runner: FlaskCliRunner) -> None:
    client = app.test_client()
    club = create_table(client, "Club")
    ann, bob = club.add_players("Ann", "Bob")
    game = club.start_game(2, [[ann], [bob]])
    club.post(f"/games/{game['id']}/hands", HAND)

    ran = runner.invoke(args=["tables", "--json"])

    assert ran.exit_code == 0, ran.output
    (row,) = json.loads(ran.output)
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    assert re.fullmatch(stamp, row.pop("created_at"))
    assert re.fullmatch(stamp, row.pop("last_played_at"))
    assert row == {"id": club.id, "name": "Club", "players": 2, "games": 1, "games_in_progress": 1}


def test_json_of_an_empty_database_is_an_empty_list(runner: FlaskCliRunner) -> None:
    ran = runner.invoke(args=["tables", "--json"])
    assert ran.exit_code == 0
    assert json.loads(ran.output) == []
