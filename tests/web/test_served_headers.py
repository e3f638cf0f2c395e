"""Through real servers, as a client reads the wire: every answer carries each header once.
Werkzeug's conditional answers (an ETag's) used to add a ``Date`` that Werkzeug's own server
(``flask run``) then sent again; gunicorn, the unit's server, is held to the same."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from tests.contract import header_problems
from tests.running import served, wait_until_serving

HAND = {"sides": [{"distance": 300}, {"distance": 450}]}


@pytest.fixture(scope="module", params=["werkzeug", "gunicorn"])
def port(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder: Path = tmp_path_factory.mktemp("served")
    database = f"sqlite:///{folder / 'served.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    if request.param == "werkzeug":
        with served(app) as base:
            yield int(base.rsplit(":", 1)[1])
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{free}", "--workers", "1",
            "scorekeeper:create_app()",
        ],
        env={**os.environ, "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database},
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_serving(f"http://127.0.0.1:{free}", seconds=30)
        yield free
    finally:
        server.terminate()
        server.wait(timeout=10)


def exchange(
    port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPResponse, list[str], bytes]:
    """The answer, the header names as sent (repeats kept) and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {**(headers or {})}
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        sent["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    content = response.read()
    names = [name for name, _ in response.getheaders()]
    connection.close()
    return response, names, content


def test_every_answer_carries_each_header_once_through_gunicorn(port: int) -> None:
    table = json.loads(exchange(port, "POST", "/api/v1/tables", {"name": "Served"})[2])
    auth = {"Authorization": f"Bearer {table['token']}"}
    base = f"/api/v1/tables/{table['id']}"
    ann, bob = (
        json.loads(exchange(port, "POST", base + "/players", {"name": name}, auth)[2])["id"]
        for name in ("Ann", "Bob")
    )
    sides = {"players": 2, "sides": [{"players": [ann]}, {"players": [bob]}]}
    game = (
        f"{base}/games/{json.loads(exchange(port, 'POST', base + '/games', sides, auth)[2])['id']}"
    )
    added, names, _ = exchange(port, "POST", game + "/hands", HAND, auth)
    assert added.status == 201
    answers = [("POST", game + "/hands", added.status, names)]
    etag = exchange(port, "GET", game, headers=auth)[0].getheader("ETag") or ""
    for path, headers in [
        (game, auth),
        (game, {**auth, "If-None-Match": etag}),
        (game + "/hands/1", auth),
        (base, auth),
        (base + "/games/999", auth),
        ("/static/app.css", {}),
        ("/", {}),
        ("/api/openapi.yaml", {}),
    ]:
        response, names, _ = exchange(port, "GET", path, headers=headers)
        answers.append(("GET", path, response.status, names))
    assert [status for *_, status, _ in answers] == [201, 200, 304, 200, 200, 404, 200, 200, 200]
    for method, path, status, names in answers:
        where = f"{method} {path} → {status}"
        assert header_problems(where, names, on_the_wire=True) == []
        assert [name.lower() for name in names].count("date") == 1, where
