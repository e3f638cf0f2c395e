"""``scorekeeper tables``: every table with its id, so an operator names the right one to
``export`` or ``new-token``; and ``tables prune``, which deletes only the tables unused for as
long as it is told; on both databases (the counts are subqueries, and SQLite and PostgreSQL give
a ``max()`` of times back differently)."""

from __future__ import annotations

import json
import re
from datetime import datetime

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select, update

from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Table, TableEvent
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


LONG_AGO = datetime(2020, 1, 1)


def _unused_since_long_ago(app: Flask, table_id: int) -> None:
    """Every moment that says table ``table_id`` was used, set years back."""
    with app.app_context():
        db.session.execute(update(Table).where(Table.id == table_id).values(created_at=LONG_AGO))
        db.session.execute(
            update(Game).where(Game.table_id == table_id).values(updated_at=LONG_AGO)
        )
        db.session.execute(
            update(TableEvent).where(TableEvent.table_id == table_id).values(created_at=LONG_AGO)
        )
        db.session.commit()


def _table_names(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.execute(select(Table.name).order_by(Table.id)).scalars())


def test_prune_deletes_only_the_tables_unused_for_that_long(
    app: Flask, runner: FlaskCliRunner
) -> None:
    client = app.test_client()
    old, played, joined, new = (
        create_table(client, name) for name in ("Old", "Played", "Joined", "New")
    )
    for table in (old, played, joined):
        ann, bob = table.add_players("Ann", "Bob")
        game = table.start_game(2, [[ann], [bob]])
        _unused_since_long_ago(app, table.id)
    game = played.get("/games").get_json()["items"][0]["id"]
    assert played.post(f"/games/{game}/hands", HAND).status_code == 201  # a game changed now
    joined.add_players("Cat")  # an event now, no game changed
    _unused_since_long_ago(app, new.id)
    new.add_players("Dan")  # made long ago, a player added now

    dry = runner.invoke(args=["tables", "prune", "--unused-for", "365d", "--dry-run"])

    assert dry.exit_code == 0, dry.output
    assert f"  {old.id}  Old (2 players, 1 games; last used 2020-01-01T00:00:00Z)" in dry.output
    assert "Played" not in dry.output and "Joined" not in dry.output
    assert "Nothing was deleted" in dry.output
    assert _table_names(app) == ["Old", "Played", "Joined", "New"]

    ran = runner.invoke(args=["tables", "prune", "--unused-for", "52w"])

    assert ran.exit_code == 0, ran.output
    assert ran.output.startswith("Deleted 1 table(s) unused for 364 days:\n")
    assert _table_names(app) == ["Played", "Joined", "New"]
    assert old.get("").status_code == 401
    again = runner.invoke(args=["tables", "prune", "--unused-for", "365"])
    assert again.output == "No table unused for 365 days.\n"


def test_prune_reads_its_setting_and_refuses_a_length_it_cannot_read(
    app: Flask, runner: FlaskCliRunner
) -> None:
    table = create_table(app.test_client(), "Old")
    _unused_since_long_ago(app, table.id)
    unsaid = runner.invoke(args=["tables", "prune"])
    assert unsaid.exit_code == 2 and "PRUNE_UNUSED_FOR" in unsaid.output
    for wrong in ("1y", "0d", "-3", "d"):
        refused = runner.invoke(args=["tables", "prune", "--unused-for", wrong])
        assert refused.exit_code == 2, (wrong, refused.output)
    assert _table_names(app) == ["Old"]
    app.config["PRUNE_UNUSED_FOR"] = "30d"
    ran = runner.invoke(args=["tables", "prune"])
    assert ran.exit_code == 0 and "unused for 30 days" in ran.output
    assert _table_names(app) == []


def test_the_operator_deletes_a_table_by_its_id_after_asking(
    app: Flask, runner: FlaskCliRunner
) -> None:
    """An erasure request reaches the server's operator, who has no table token: the command
    asks before it deletes, and deletes only the table named."""
    client = app.test_client()
    club, family = create_table(client, "Club"), create_table(client, "Family")
    club.add_players("Ann", "Bob")
    declined = runner.invoke(args=["tables", "delete", str(club.id)], input="n\n")
    assert declined.exit_code == 1 and "Delete table" in declined.output
    assert club.get("").status_code == 200
    ran = runner.invoke(args=["tables", "delete", str(club.id), "--yes"])
    assert ran.exit_code == 0, ran.output
    assert ran.output == f"Deleted table {club.id} (Club).\n"
    assert club.get("").status_code == 401  # its token opens nothing now
    assert family.get("").status_code == 200
    missing = runner.invoke(args=["tables", "delete", str(club.id), "--yes"])
    assert missing.exit_code == 2 and f"There is no table {club.id}" in missing.output


def test_the_operator_erases_a_players_name(app: Flask, runner: FlaskCliRunner) -> None:
    client = app.test_client()
    club = create_table(client, "Club")
    ann, bob = club.add_players("Ann", "Bob")
    game = club.start_game(2, [[ann], [bob]])
    assert club.post(f"/games/{game['id']}/hands", HAND).status_code == 201
    ran = runner.invoke(args=["tables", "erase-player", str(club.id), "ann"])
    assert ran.exit_code == 0, ran.output
    assert "Erased player 1" in ran.output
    shown = club.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Ann" not in shown and "Erased player 1" in shown and "Bob" in shown
    unknown = runner.invoke(args=["tables", "erase-player", str(club.id), "Zoé"])
    assert unknown.exit_code == 2 and "no player named 'Zoé'" in unknown.output
