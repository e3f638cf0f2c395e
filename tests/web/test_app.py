"""The app's set-up: migrations on a fresh database, SQLite settings, the engine kept pure."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy import select, text

from scorekeeper import create_app
from scorekeeper.config import database_url
from scorekeeper.domain.refusals import NameTaken
from scorekeeper.services.operations import create_player
from scorekeeper.storage import sqlite
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Table, utcnow

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _newest_migration() -> str | None:
    config = Config()
    config.set_main_option("script_location", str(ENGINE.parent / "migrations"))
    return ScriptDirectory.from_config(config).get_current_head()


def test_db_upgrade_creates_every_table_on_a_fresh_database(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(path) as connection:
        (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert revision == _newest_migration()
    assert {"tables", "players", "games", "sides", "seats", "hands", "virtual_moves"} <= tables
    with app.app_context():
        db.engine.dispose()


def test_migrations_go_down_and_up_again(sqlite_app: Flask) -> None:
    runner = sqlite_app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", "base"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0


def test_the_models_match_the_migrations(sqlite_app: Flask) -> None:
    with sqlite_app.app_context():
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"render_as_batch": True})
            assert compare_metadata(context, db.metadata) == []


def test_sqlite_connections_use_wal_and_foreign_keys(sqlite_app: Flask) -> None:
    with sqlite_app.app_context():
        with db.engine.connect() as connection:
            pragmas = {
                name: connection.execute(text(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": 5000,
        "synchronous": 2,
    }


def test_a_write_keeps_the_queue_until_its_transaction_ends_not_a_savepoint(
    sqlite_app: Flask,
) -> None:
    """The write queue is let go when SQLite lets go of its write lock: at the commit of the
    transaction, not at the end of a savepoint inside it."""
    with sqlite_app.app_context():
        token = sqlite.begin_writing()
        try:
            writer = sqlite._writer.get()
            assert writer is not None
            db.session.execute(text("SELECT 1"))
            assert writer.locked is not None  # BEGIN IMMEDIATE, after queueing
            with db.session.begin_nested():
                db.session.execute(text("SELECT 1"))
            assert writer.locked is not None  # the savepoint ended; the transaction did not
            db.session.commit()
            assert writer.locked is None
        finally:
            db.session.remove()
            sqlite.end_writing(token)


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db/x", "postgresql+psycopg://u:p@db/x"),
        ("postgresql://u@db/x", "postgresql+psycopg://u@db/x"),
        ("sqlite:////tmp/a.db", "sqlite:////tmp/a.db"),
    ],
)
def test_database_url_names_the_driver(
    monkeypatch: pytest.MonkeyPatch, given: str, used: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", given)
    assert database_url("/instance") == used


def test_sqlite_in_the_instance_folder_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url("/srv/instance") == "sqlite:////srv/instance/scorekeeper.sqlite3"


def test_engine_imports_nothing_of_the_web_or_the_database() -> None:
    forbidden = {"flask", "scorekeeper", "sqlalchemy", "marshmallow", "werkzeug", "click"}
    for module in ENGINE.rglob("*.py"):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{module.name} imports {name}"


def test_importing_the_engine_loads_no_web_framework() -> None:
    code = (
        "import sys, engine; print(sorted(m for m in ('flask', 'sqlalchemy') if m in sys.modules))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"


def test_players_whose_names_read_alike_survive_the_name_key_migration(app: Flask) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", "0004_replayed_etags"]).exit_code == 0
    try:
        with app.app_context():
            db.session.execute(
                text("INSERT INTO tables (name, token_hash, created_at) VALUES ('T', 'x', :now)"),
                {"now": utcnow()},
            )
            for name in ("Ann", "ann", "Bob"):
                db.session.execute(
                    text(
                        "INSERT INTO players (table_id, name, created_at) "
                        "VALUES ((SELECT id FROM tables), :name, :now)"
                    ),
                    {"name": name, "now": utcnow()},
                )
            db.session.commit()
            db.session.remove()
    finally:
        result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        table = db.session.execute(select(Table)).scalar_one()
        assert [player.name for player in table.players] == ["Ann", "ann", "Bob"]
        with pytest.raises(NameTaken):
            create_player(table, "ANN")
        assert create_player(table, "Cat").name == "Cat"
