"""How each worker's watch hears that another connection changed the database
(:mod:`scorekeeper.storage.changes`): SQLite's data version, PostgreSQL's LISTEN/NOTIFY."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.orm import Session

from scorekeeper.storage import changes


@pytest.fixture
def bell() -> Iterator[int]:
    """The watch's bell: a pipe's reading end, nobody ringing it here."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    yield read
    os.close(read)
    os.close(write)


def notify(engine: Engine, commit: bool) -> None:
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_notify(:channel, '1')"), {"channel": changes.CHANNEL})
        if commit:
            connection.commit()
        else:
            connection.rollback()


def test_sqlite_hears_another_connections_commit_and_nothing_else(
    tmp_path: Path, bell: int
) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'watched.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE games (id INTEGER PRIMARY KEY, version INTEGER)"))
    heard = changes.listen(engine, interval=0.05)
    try:
        assert heard.wait(bell) == changes.NOTHING
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO games VALUES (1, 1)"))
        assert heard.wait(bell) == changes.ANYTHING  # which game, SQLite does not say
        assert heard.wait(bell) == changes.NOTHING  # told once
    finally:
        heard.close()
        engine.dispose()


@pytest.fixture
def postgres_engine(postgres_server: str) -> Iterator[Engine]:
    engine = create_engine(postgres_server)
    yield engine
    engine.dispose()


@pytest.fixture
def listening(postgres_engine: Engine) -> Iterator[changes.Changes]:
    """PostgreSQL's listener, as a watch opens it."""
    heard = changes.listen(postgres_engine, interval=0.2)
    yield heard
    heard.close()


def test_postgresql_hears_a_commit_at_once_and_never_a_rollback(
    postgres_engine: Engine, listening: changes.Changes, bell: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(changes, "QUIET", 1.0)
    notify(postgres_engine, commit=False)
    began = time.monotonic()
    assert listening.wait(bell) == changes.ANYTHING  # quiet for a second: looked, said "maybe"
    assert time.monotonic() - began >= 1.0
    monkeypatch.setattr(changes, "QUIET", 20.0)
    notify(postgres_engine, commit=True)
    began = time.monotonic()
    assert listening.wait(bell).unknown  # an older server's payload: anything may have changed
    assert time.monotonic() - began < 10  # heard, not the 20 s of quiet waited out


def test_postgresql_hears_the_versions_a_transaction_names(
    postgres_engine: Engine, listening: changes.Changes, bell: int
) -> None:
    """A commit's NOTIFY names each game's and feed's new version: the watch reads nothing."""
    with Session(postgres_engine) as session:
        changes.notify(session, [(("game", 12), 7), (("feed", 3), 55)])
        changes.notify(session, [(("game", 12), 8)])  # a later flush of the same transaction
        session.commit()
    heard = listening.wait(bell)
    for _ in range(3):  # the two notifications may come in two reads
        if heard.versions.get(("game", 12)) == 8:
            break
        heard = changes.Heard(heard.unknown, heard.versions | listening.wait(bell).versions)
    assert heard == changes.Heard(False, {("game", 12): 8, ("feed", 3): 55})


def test_too_many_changes_for_one_notification_say_anything_changed(
    postgres_engine: Engine, listening: changes.Changes, bell: int
) -> None:
    many = [(("game", number), 1) for number in range(1, 2000)]
    with Session(postgres_engine) as session:
        changes.notify(session, many)
        session.commit()
    assert listening.wait(bell) == changes.ANYTHING


def test_postgresql_notices_a_listening_connection_that_died(
    postgres_engine: Engine, listening: changes.Changes, bell: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut without a word to the watch: its next look fails, and the watch listens again."""
    monkeypatch.setattr(changes, "QUIET", 0.5)
    with postgres_engine.connect() as connection:
        connection.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            )
        )
    with pytest.raises(Exception, match="(?i)terminat|closed|connection"):
        for _ in range(4):
            listening.wait(bell)
