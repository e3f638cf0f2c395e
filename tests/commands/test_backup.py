"""A backup taken while phones write hands holds every hand acknowledged before it began, and
every game in it keeps what its hands add up to: ``scorekeeper db backup`` on SQLite, the
organiser's guide's ``pg_dump`` and ``pg_restore`` on PostgreSQL."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Hand
from tests.running import Background

WRITERS = 3
REPORT = {"sides": [{"distance": 25}, {"distance": 25}]}  # 200 such hands before anyone wins


class Writers(Background):
    """Phones adding hands to a game each, until told to stop; the hands acknowledged (201)."""

    def __init__(self, app: Flask) -> None:
        client = app.test_client()
        body = client.post("/api/v1/tables", json={"name": "Club"}).get_json()
        self.headers = {"Authorization": f"Bearer {body['token']}"}
        self.url = f"/api/v1/tables/{body['id']}"
        ids = [
            client.post(f"{self.url}/players", json={"name": n}, headers=self.headers).get_json()[
                "id"
            ]
            for n in ("Ann", "Bob")
        ]
        sides = [{"players": [ids[0]]}, {"players": [ids[1]]}]
        self.games = [
            client.post(
                f"{self.url}/games", json={"players": 2, "sides": sides}, headers=self.headers
            ).get_json()["id"]
            for _ in range(WRITERS)
        ]
        self.app = app
        self.acknowledged: list[tuple[int, int]] = []
        super().__init__(partial(self.write, game) for game in self.games)

    def write(self, game: int) -> None:
        client = self.app.test_client()
        while not self.stop.is_set():
            response = client.post(
                f"{self.url}/games/{game}/hands", json=REPORT, headers=self.headers
            )
            assert response.status_code == 201, response.get_json()
            with self.lock:
                self.acknowledged.append((game, response.get_json()["number"]))

    def wait_for(self, hands: int) -> set[tuple[int, int]]:
        """The hands acknowledged once at least ``hands`` are (a count, not a time)."""
        while True:
            with self.lock:
                if len(self.acknowledged) >= hands:
                    return set(self.acknowledged)


def backup_sqlite(app: Flask, folder: Path) -> Iterator[Flask]:
    file = folder / "backup.sqlite3"
    result = app.test_cli_runner().invoke(args=["db", "backup", str(file)])
    assert result.exit_code == 0, result.output
    assert "integrity check ok" in result.output
    restored = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{file}"})
    yield restored
    with restored.app_context():
        db.engine.dispose()


def backup_postgres(app: Flask, folder: Path) -> Iterator[Flask]:
    """The guide's commands: pg_dump of the running database, pg_restore into a new one."""
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    where = ["-h", str(url.host), "-p", str(url.port), "-U", str(url.username)]
    dump = folder / "scorekeeper.dump"
    subprocess.run(["pg_dump", *where, "-Fc", "-f", str(dump), str(url.database)], check=True)
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:  # the admin's connection closed whatever happens, or a later test meets its warning
        with admin.connect() as connection:
            connection.execute(text("DROP DATABASE IF EXISTS scorekeeper_restored"))
            connection.execute(text("CREATE DATABASE scorekeeper_restored"))
        subprocess.run(["pg_restore", *where, "-d", "scorekeeper_restored", str(dump)], check=True)
        restored = url.set(database="scorekeeper_restored")
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": restored})
        yield app
        with app.app_context():
            db.engine.dispose()
        with admin.connect() as connection:
            connection.execute(text("DROP DATABASE scorekeeper_restored"))
    finally:
        admin.dispose()


def test_a_backup_under_writes_holds_every_acknowledged_hand(app: Flask, tmp_path: Path) -> None:
    take = backup_sqlite if db_backend(app) == "sqlite" else backup_postgres
    with Writers(app) as writers:
        before = writers.wait_for(30)
        backups = take(app, tmp_path)
        restored = next(backups)
        writers.wait_for(len(before) + 30)  # the writes go on after the backup
    with restored.app_context():
        kept = {(hand.game_id, hand.number) for hand in db.session.execute(select(Hand)).scalars()}
    assert before <= kept
    assert kept <= set(writers.acknowledged)  # nothing half-written or invented
    verified = restored.test_cli_runner().invoke(args=["db", "verify"])
    assert verified.exit_code == 0, verified.output
    with pytest.raises(StopIteration):
        next(backups)


def db_backend(app: Flask) -> str:
    return make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name()
