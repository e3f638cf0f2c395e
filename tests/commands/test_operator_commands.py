"""What the server's operator runs: commands that name their database, the app's own version,
and a new token for a table whose token was lost."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from flask import Flask
from flask.testing import FlaskCliRunner

import scorekeeper
from scorekeeper.commands.tokens import share_link
from tests.web.test_security import form_token

ROOT = Path(__file__).resolve().parents[2]
COMMAND = Path(sys.executable).with_name("scorekeeper")
PASSWORD = "never-in-the-output"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``scorekeeper`` command, as an operator runs it."""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [str(COMMAND), *args],
        env={**environment, "SECRET_KEY": "operator-test", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_version_is_the_apps_own_and_has_its_changelog_section() -> None:
    ran = run("--version")
    assert ran.returncode == 0
    assert ran.stdout == f"scorekeeper {scorekeeper.__version__}\n"
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == "Unreleased"  # what main holds beyond the last version
    assert headings[1] == scorekeeper.__version__


def test_a_command_names_its_database_with_the_password_hidden(tmp_path: Path) -> None:
    url = f"postgresql://club:{PASSWORD}@127.0.0.1:1/scores"  # port 1: nothing listens
    ran = run("db", "verify", env={"DATABASE_URL": url})
    assert " * Database: postgresql+psycopg://club:***@127.0.0.1:1/scores\n" in ran.stderr
    assert ran.returncode == 1
    assert "Error: The database cannot be reached: connection failed" in ran.stderr
    assert "Traceback" not in ran.stderr
    assert PASSWORD not in ran.stdout + ran.stderr


def test_db_verify_refuses_a_database_no_migration_ran_on(tmp_path: Path) -> None:
    """Without ``DATABASE_URL`` pointing at the club's database, the check read an empty file
    and said "0 games checked", exit 0."""
    empty = tmp_path / "empty.sqlite3"
    ran = run("db", "verify", env={"DATABASE_URL": f"sqlite:///{empty}"})
    assert ran.returncode == 1, ran.stdout
    assert f" * Database: sqlite:///{empty}\n" in ran.stderr
    assert f"sqlite:///{empty} has no migrations applied" in ran.stderr
    assert "games checked" not in ran.stdout


def test_engine_commands_open_no_database() -> None:
    ran = run("score", str(ROOT / "examples" / "hand.json"))
    assert ran.returncode == 0
    assert "Database" not in ran.stderr


def test_share_link_keeps_the_token_after_the_hash() -> None:
    assert share_link("", 3, "mb_x") == "/join/3#mb_x"
    assert share_link("https://scores.example.org", 3, "mb_x") == (
        "https://scores.example.org/join/3#mb_x"
    )


def test_new_token_replaces_a_lost_one(app: Flask, runner: FlaskCliRunner) -> None:
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"name": "Club"}).get_json()
    url = f"/api/v1/tables/{table['id']}"
    ran = runner.invoke(args=["new-token", str(table["id"]), "--url", "https://scores.example"])
    assert ran.exit_code == 0, ran.output
    (token,) = re.findall(r"^Token \(shown this once\): (mb_\S+)$", ran.output, re.MULTILINE)
    assert f"Share link: https://scores.example/join/{table['id']}#{token}\n" in ran.output
    old = client.get(url, headers={"Authorization": f"Bearer {table['token']}"})
    assert old.status_code == 401
    new = client.get(url, headers={"Authorization": f"Bearer {token}"})
    assert new.status_code == 200 and new.get_json()["name"] == "Club"


def test_new_token_joins_a_phone_by_its_share_link(app: Flask, runner: FlaskCliRunner) -> None:
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"name": "Club"}).get_json()
    ran = runner.invoke(args=["new-token", str(table["id"])])
    (link,) = re.findall(r"^Share link: (\S+)$", ran.output, re.MULTILINE)
    path, token = link.split("#")
    assert path == f"/join/{table['id']}"
    phone = app.test_client()
    assert phone.get(f"/t/{table['id']}").status_code == 404
    joined = phone.post(path, data={"token": link, "csrf_token": form_token(phone, path)})
    assert joined.status_code == 302
    assert phone.get(f"/t/{table['id']}").status_code == 200


def test_new_token_for_no_such_table_exits_1(runner: FlaskCliRunner) -> None:
    ran = runner.invoke(args=["new-token", "99"])
    assert ran.exit_code == 1
    assert "There is no table 99 in " in ran.output


def test_make_install_installs_and_neither_serves_nor_makes_a_database() -> None:
    """What ``make install`` would run (``make -n``): the install, and nothing that starts a
    server or opens a database (a SQLite file would be made in ``instance/``)."""
    planned = subprocess.run(
        ["make", "-n", "install", "EXTRAS=postgres"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "uv pip install --quiet --python .venv/bin/python -e '.[postgres]'" in planned
    for never in ("scorekeeper run", "scorekeeper db", "gunicorn", "flask run"):
        assert never not in planned, planned
