"""Migrations never lose data: a full database walked down one step at a time to the first schema
that holds games, and up again, on SQLite and on PostgreSQL.

After each step a canonical dump of what the schema holds is compared with what it should hold.
A step down may drop only what the older schema has no place for: the columns the step added,
and at the bottom (0003 to 0002) the virtual games, which need a seed, seats without a player
and a table of moves. Any other row lost, or changed, fails; so does any row that differs after
the walk back up, but for the idempotency records' ETags (0004 added them; a record that lost
its ETag replays without one, as records stored before 0004 do).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import MetaData, select
from sqlalchemy.engine import Connection

from scorekeeper import create_app
from scorekeeper.storage.extensions import db, migrate
from tests.full_database import fill
from tests.postgres import scratch_database

FIRST_WITH_GAMES = "0002_games"
LOST_ON_THE_WAY = {("idempotency_records", "etag"), ("tables", "event_count")}
"""Columns whose values the walk down loses for good, beside the virtual games."""
TABLES_LOST_ON_THE_WAY = {"access_tokens", "table_events"}
"""Tables the walk down drops with their rows: the tokens a table issued (revoked, in effect,
as the changelog says of a rollback) and its feed's events."""

Dump = dict[str, list[dict[str, Any]]]
"""Each table's rows, every row a dict holding every column of the table (None included)."""


def canonical_dump(connection: Connection) -> Dump:
    """Every row of every table the schema has (but Alembic's own), by table, in primary key
    order, each column read as the schema types it. An empty table is one row of its column
    names mapped to a marker, so a table's columns are known even when it has no rows."""
    metadata = MetaData()
    metadata.reflect(connection)
    dump: Dump = {}
    for name, table in sorted(metadata.tables.items()):
        if name == "alembic_version":
            continue
        statement = select(table).order_by(*table.primary_key.columns)
        dump[name] = [dict(row._mapping) for row in connection.execute(statement)]
        dump[name] = dump[name] or [dict.fromkeys(table.columns.keys(), EMPTY)]
    return dump


EMPTY = "(no rows)"


def _text(dump: Dump) -> str:
    return json.dumps(dump, indent=1, sort_keys=True, default=str)


def differences(found: Dump, expected: Dump) -> list[str]:
    """Each table whose rows differ, with the first row that does: short enough to read."""
    found_rows, expected_rows = json.loads(_text(found)), json.loads(_text(expected))
    lines = [] if found.keys() == expected.keys() else [f"tables {sorted(found)}"]
    for name in sorted(found.keys() & expected.keys()):
        if found_rows[name] != expected_rows[name]:
            pairs = zip(found_rows[name] + [None], expected_rows[name] + [None], strict=False)
            first = next((pair for pair in pairs if pair[0] != pair[1]), None)
            lines.append(
                f"{name}: {len(found_rows[name])} rows, {len(expected_rows[name])} expected; "
                f"first difference {first}"
            )
    return lines


def _empty(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict.fromkeys(rows[0], EMPTY)] if rows else []


def without_virtual_games(dump: Dump) -> Dump:
    """What the schema of 0002 can hold of ``dump``: the tabletop games only."""
    virtual = {game["id"] for game in dump["games"] if game.get("seed") is not None}
    sides = {side["id"] for side in dump["sides"] if side["game_id"] in virtual}
    kept = dict(dump)
    kept["games"] = [game for game in dump["games"] if game["id"] not in virtual]
    kept["sides"] = [side for side in dump["sides"] if side["id"] not in sides]
    kept["seats"] = [seat for seat in dump["seats"] if seat["side_id"] not in sides]
    kept["hands"] = [hand for hand in dump["hands"] if hand["game_id"] not in virtual]
    if "virtual_moves" in kept:
        kept["virtual_moves"] = _empty(kept["virtual_moves"])
    return kept


def projected(dump: Dump, onto: Dump) -> Dump:
    """``dump`` with only the tables and columns ``onto`` has."""
    return {
        name: [{column: row[column] for column in onto[name][0]} for row in rows]
        for name, rows in dump.items()
        if name in onto
    }


def forgetting(dump: Dump, lost: set[tuple[str, str]]) -> Dump:
    """``dump`` with the ``lost`` (table, column) values blanked, and the tables lost on the
    way emptied."""
    return {
        name: _empty(rows)
        if name in TABLES_LOST_ON_THE_WAY
        else [{k: (None if (name, k) in lost else v) for k, v in row.items()} for row in rows]
        for name, rows in dump.items()
    }


def revisions_down_to(bottom: str) -> list[str]:
    """The revisions from the newest down to ``bottom``, newest first."""
    script = ScriptDirectory.from_config(migrate.get_config())
    walk = [revision.revision for revision in script.walk_revisions("base", "heads")]
    return walk[: walk.index(bottom) + 1]


def _dump() -> Dump:
    db.engine.dispose()  # the schema just changed: no connection keeps an old one
    with db.engine.connect() as connection:
        return canonical_dump(connection)


def assert_full(dump: Dump) -> None:
    """The database walked holds one of everything the app stores."""
    games = dump["games"]
    assert sorted({game["players"] for game in games if game["seed"] is None}) == [2, 3, 4, 6]
    assert {game["status"] for game in games} == {"in_progress", "finished", "abandoned"}
    virtual = {game["status"] for game in games if game["seed"] is not None}
    assert virtual == {"in_progress", "finished"}
    assert any(hand["version"] > 1 for hand in dump["hands"])  # a correction
    assert any(seat["stand_in"] for seat in dump["seats"])
    assert all(dump[name] for name in ("virtual_moves", "idempotency_records"))
    assert all(dump[name][0]["id"] != EMPTY for name in TABLES_LOST_ON_THE_WAY)


def walk(app: Flask) -> None:
    """Down one step at a time to 0002, then up one step at a time, checking each step."""
    with app.app_context():
        revisions = revisions_down_to(FIRST_WITH_GAMES)
        seen = {revisions[0]: _dump()}
        assert_full(seen[revisions[0]])
        for newer, older in itertools.pairwise(revisions):
            downgrade(revision=older)
            seen[older] = _dump()
            kept = without_virtual_games(seen[newer]) if older == FIRST_WITH_GAMES else seen[newer]
            expected = projected(kept, seen[older])
            assert differences(seen[older], expected) == [], f"{newer} -> {older}"
        for older, newer in itertools.pairwise(reversed(revisions)):
            upgrade(revision=newer)
            found = forgetting(_dump(), LOST_ON_THE_WAY)
            wanted = forgetting(
                projected(without_virtual_games(seen[newer]), found), LOST_ON_THE_WAY
            )
            assert differences(found, wanted) == [], f"{older} -> {newer}"


@pytest.fixture
def walked_sqlite(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/w.db"})
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def walked_postgres(postgres_server: str) -> Iterator[Flask]:
    """A database of its own on the session's PostgreSQL server, dropped after."""
    with scratch_database(postgres_server, "scorekeeper_walk") as url:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade()
        yield app
        with app.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("database", ["walked_sqlite", "walked_postgres"])
def test_a_full_database_walks_down_and_up_losing_nothing_it_has_a_place_for(
    database: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = request.getfixturevalue(database)
    fill(app, monkeypatch)
    walk(app)
