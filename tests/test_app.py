"""The app's set-up: migrations on a fresh database, SQLite settings, the engine kept pure."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import text

from scorekeeper.config import database_url
from scorekeeper.extensions import db

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_db_upgrade_puts_a_fresh_database_under_migration_control(
    runner: FlaskCliRunner, app: Flask
) -> None:
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        (revision,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert revision == "0001_baseline"


def test_sqlite_connections_use_wal_and_foreign_keys(app: Flask) -> None:
    with app.app_context():
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
