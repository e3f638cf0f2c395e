"""The live pages under the unit's server, gunicorn's gevent worker: a question held waiting
holds no thread, a worker's places are shared out by token, and a phone that goes away gives its
place back within seconds rather than at the end of its wait."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.storage.versions import GONE_EVERY
from tests.conftest import migrate
from tests.postgres import _free_port
from tests.running import ask, wait_until_serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The app under ``gunicorn -k gevent``, one worker, each token holding one waiting place,
    a question held up to two minutes."""
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    migrate(database)
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "gevent-test",
        "SCOREKEEPER_RATELIMIT_ENABLED": "false",
        "SCOREKEEPER_LIVE_WAIT": "120",
        "SCOREKEEPER_LIVE_WAITERS_PER_TOKEN": "1",
    }
    command = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1"]
    command += ["-b", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with (tmp_path / "server.log").open("w") as log:
        process = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=log)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base, 60)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=60)


def a_seat(base: str) -> tuple[str, dict[str, str], str]:
    """A virtual game between two people: the first seat's address, headers and ETag."""
    _, _, table = ask(base + "/api/v1/tables", {}, {"name": "Club"})
    url, owner = f"/api/v1/tables/{table['id']}", {"Authorization": f"Bearer {table['token']}"}
    ids = [ask(base + url + "/players", owner, {"name": name})[2]["id"] for name in "AB"]
    seats = [{"player": ids[0]}, {"player": ids[1]}]
    _, _, dealt = ask(base + url + "/virtual-games", owner, {"players": 2, "seats": seats})
    game = f"{url}/virtual-games/{dealt['game']['id']}"
    headers = {"Authorization": f"Bearer {dealt['seat_tokens'][0]['token']}"}
    _, fields, _ = ask(base + game, headers)
    return game, headers, fields["ETag"]


def held_elsewhere(base: str, game: str, headers: dict[str, str], etag: str) -> bool:
    """Whether the seat's token's one waiting place is taken: a question that asks to wait one
    second is then answered at once, without ``Preference-Applied``."""
    asked = {**headers, "If-None-Match": etag, "Prefer": "wait=1"}
    status, fields, _ = ask(base + game, asked)
    assert status == 304
    return "Preference-Applied" not in fields


def test_a_phone_that_goes_away_gives_its_waiting_place_back(server: str) -> None:
    game, headers, etag = a_seat(server)
    host, port = server.removeprefix("http://").split(":")
    phone = socket.create_connection((host, int(port)))
    head = {**headers, "If-None-Match": etag, "Prefer": "wait=120", "Host": f"{host}:{port}"}
    lines = "".join(f"{name}: {value}\r\n" for name, value in head.items())
    phone.sendall(f"GET {game} HTTP/1.1\r\n{lines}\r\n".encode())
    deadline = time.monotonic() + 60
    while not held_elsewhere(server, game, headers, etag):  # until the server holds it
        assert time.monotonic() < deadline, "the phone's question was never held"
    phone.close()  # the phone leaves the page: its question's place is free within seconds
    deadline = time.monotonic() + 60  # far less than the 120 s the question asked to wait
    while held_elsewhere(server, game, headers, etag):
        assert time.monotonic() < deadline, f"the place was not given back within {GONE_EVERY} s"
