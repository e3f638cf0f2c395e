"""PostgreSQL stopped and started under a serving gunicorn: 503 while it is away, never 500, and
every request served again once it is back.

A real cluster (its own: the session's is shared) is stopped with ``pg_ctl -m fast``, as a
service manager stops it, while phones read and add hands through the service unit's gunicorn line.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests import postgres
from tests.conftest import migrate, require
from tests.running import Background, wait_until_serving

PHONES = 4
PASSWORD = "not-for-the-log"  # the cluster trusts loopback: a password is taken, and unused
REPORT = {"sides": [{"distance": 25}, {"distance": 25}]}  # 200 such hands before anyone wins


@dataclass(frozen=True)
class Answer:
    """One request's answer, and when the request was sent."""

    sent: float
    status: int
    content_type: str
    retry_after: str | None
    body: bytes


def ask(
    url: str, body: object = None, headers: dict[str, str] | None = None, timeout: float = 10
) -> Answer:
    """GET ``url`` (POST ``body`` as JSON if given); the answer, whatever its status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    sent = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(
                sent, response.status, response.headers["Content-Type"], None, response.read()
            )
    except urllib.error.HTTPError as error:
        with error:
            return Answer(
                sent,
                error.code,
                error.headers["Content-Type"],
                error.headers["Retry-After"],
                error.read(),
            )


@dataclass(frozen=True)
class Served:
    """gunicorn serving a table with a game on its own PostgreSQL cluster."""

    cluster: postgres.Cluster
    base: str
    game: str
    page: str
    headers: dict[str, str]
    cookie: dict[str, str]
    log: Path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    require(postgres.binaries_missing(), "CI needs PostgreSQL for these tests")
    folder: Path = tmp_path_factory.mktemp("outage")
    with postgres.running_cluster() as cluster:
        admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text("CREATE DATABASE club"))
        admin.dispose()
        url = cluster.url.rsplit("/", 1)[0] + "/club"
        migrate(url)
        url = url.replace("app@", f"app:{PASSWORD}@")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        log = (folder / "server.log").open("w")
        server = subprocess.Popen(
            [
                sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "4",
                "-b", f"127.0.0.1:{port}", "scorekeeper:create_app()",
            ],
            env={**os.environ, "DATABASE_URL": url, "SECRET_KEY": "outage-test"},
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_serving(base)
            yield open_table(cluster, base, folder / "server.log")
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()


def open_table(cluster: postgres.Cluster, base: str, log: Path) -> Served:
    """A table with two players and a game, through the API."""
    table = json.loads(ask(base + "/api/v1/tables", {"name": "Club"}).body)
    headers = {"Authorization": f"Bearer {table['token']}"}
    url = f"{base}/api/v1/tables/{table['id']}"
    ids = [json.loads(ask(url + "/players", {"name": n}, headers).body)["id"] for n in "AB"]
    sides = {"players": 2, "sides": [{"players": [ids[0]]}, {"players": [ids[1]]}]}
    game = json.loads(ask(url + "/games", sides, headers).body)["id"]
    return Served(
        cluster,
        base,
        f"{url}/games/{game}",
        f"{base}/t/{table['id']}",
        headers,
        {"Cookie": f"table_{table['id']}={table['token']}"},
        log,
    )


class Phones(Background):
    """Phones each reading the game and adding a hand in turn, until told to stop."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.answers: list[Answer] = []
        super().__init__([self.play] * PHONES)

    def play(self) -> None:
        while not self.stop.is_set():
            for answer in (
                ask(self.served.game, headers=self.served.headers),
                ask(self.served.game + "/hands", REPORT, self.served.headers),
            ):
                with self.lock:
                    self.answers.append(answer)

    def wait_for(self, count: int, since: float) -> None:
        """Until ``count`` answers to requests sent after ``since`` are in."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with self.lock:
                if sum(answer.sent > since for answer in self.answers) >= count:
                    return
            time.sleep(0.05)
        raise AssertionError(f"fewer than {count} answers in 60 s")


def test_a_stopped_database_is_503_with_retry_after_then_served_again(served: Served) -> None:
    with Phones(served) as phones:
        phones.wait_for(20, since=0)
        stopped = time.monotonic()
        served.cluster.stop()
        try:
            phones.wait_for(40, since=time.monotonic())
            page = ask(served.page, headers=served.cookie)
        finally:
            served.cluster.start()
        restarted = time.monotonic()
        phones.wait_for(40, since=restarted)
    statuses = {answer.status for answer in phones.answers}
    assert statuses <= {200, 201, 503}, statuses
    away = [answer for answer in phones.answers if stopped < answer.sent < restarted]
    refused = [answer for answer in away if answer.status == 503]
    assert len(refused) >= 30, [answer.status for answer in away]
    for answer in refused:
        assert answer.content_type == "application/problem+json"
        assert answer.retry_after == "10"
        problem = json.loads(answer.body)
        assert problem["status"] == 503 and "will be back" in problem["detail"]
    assert page.status == 503 and page.content_type.startswith("text/html")
    assert page.retry_after == "10" and "will be back" in page.body.decode()
    back = [answer.status for answer in phones.answers if answer.sent > restarted]
    assert set(back) == {200, 201}, back


def test_the_first_requests_after_a_restart_are_served(served: Served) -> None:
    """The connections each worker keeps were cut by the restart (psycopg's ``AdminShutdown``
    on their next use); they are checked before use and replaced, so no request fails."""
    with Phones(served) as phones:  # every worker's pool holds connections
        phones.wait_for(40, since=0)
    served.cluster.stop()
    served.cluster.start()
    answers = [ask(served.game, headers=served.headers).status for _ in range(10)]
    answers += [ask(served.page, headers=served.cookie).status for _ in range(10)]
    assert answers == [200] * 20


def test_each_worker_names_its_database_in_the_log_password_hidden(served: Served) -> None:
    """The server answers once one worker is up; the other may still be starting on a busy
    machine, so its line is waited for (up to a minute), not expected at once."""
    port = served.cluster.url.split(":")[-1].split("/")[0]
    shown = f"database: postgresql+psycopg://app:***@127.0.0.1:{port}/club"
    deadline = time.monotonic() + 60
    while True:
        log = served.log.read_text()
        started = [line for line in log.splitlines() if "[INFO] Scorekeeper " in line]
        if len(started) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(started) == 2 and all(line.endswith(shown) for line in started), started
    assert PASSWORD not in log
