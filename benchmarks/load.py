"""Load benchmark: the API under gunicorn, driven by N simulated tables from another process.

Each simulated table creates its players and a game, then plays it like phones at a table do:
post a hand (with an Idempotency-Key), poll the game with conditional GETs (mostly 304), read the
hand back; a finished game is followed by a new one. Prints requests/s and p50/p99 latency for
each kind of request, on SQLite and, where the PostgreSQL binaries are present, on PostgreSQL.

    .venv/bin/python benchmarks/load.py [--tables 8] [--seconds 15] [--backend sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.databases import add_backend_option, each_database  # noqa: E402

BIN = Path(sys.executable).parent
HANDS = [
    {"sides": [{"distance": 300}, {"distance": 450, "safeties": ["extra_tank"]}]},
    {"sides": [{"distance": 1000, "two_hundreds": 1, "completed_trip": True}, {"distance": 525}]},
    {
        "sides": [
            {"distance": 675, "safeties": ["right_of_way"], "coup_fourres": ["right_of_way"]},
            {"distance": 1000, "two_hundreds": 0, "completed_trip": True, "delayed_action": True},
        ]
    },
]


PIDS: dict[int, int] = {}
"""The gunicorn master serving each port (for benchmarks that read its CPU)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(  # type: ignore[no-untyped-def]
    database_url: str,
    workers: int,
    threads: int,
    app: str = "scorekeeper:create_app()",
    settings: dict[str, str] | None = None,
    worker_class: str | None = None,
):
    """gunicorn serving ``app`` on ``database_url``, migrated first, with ``settings`` added to
    its environment, its workers of ``worker_class`` (gunicorn's choice by default: sync, or
    gthread for more than one thread); yields its port."""
    env = {**os.environ, "DATABASE_URL": database_url, **(settings or {})}
    subprocess.run([BIN / "scorekeeper", "db", "upgrade"], env=env, check=True, capture_output=True)
    port = free_port()
    process = subprocess.Popen(
        [
            BIN / "gunicorn",
            "--workers",
            str(workers),
            *(["--worker-class", worker_class] if worker_class else []),
            "--threads",
            str(threads),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            app,
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("gunicorn did not start")
        PIDS[port] = process.pid
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def exchange(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[float, Any, http.client.HTTPResponse]:
    """One request on a connection of its own: the seconds it took, its JSON body, the response."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request(
        method,
        path,
        body=None if body is None else json.dumps(body),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return time.perf_counter() - start, json.loads(data) if data else None, response


class Table:
    """One simulated table: its token and game. Each request opens its own connection, as a
    phone polling every few seconds does (gunicorn keeps an idle connection 2 s), which also
    lets the kernel spread the requests over the workers."""

    def __init__(self, port: int, record: Any) -> None:
        self.port = port
        self.record = record
        self.headers = {"Content-Type": "application/json"}

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, Any]:
        seconds, data, response = exchange(
            self.port, method, path, body, {**self.headers, **(headers or {})}
        )
        self.record(kind, seconds, response.status)
        return response.status, data, response

    def setup(self) -> None:
        _, table, _ = self.request("create table", "POST", "/api/v1/tables", {"name": "Bench"})
        self.url = f"/api/v1/tables/{table['id']}"
        self.headers["Authorization"] = f"Bearer {table['token']}"
        self.players = [
            self.request("create player", "POST", self.url + "/players", {"name": name})[1]["id"]
            for name in ("Ann", "Bob", "Cat", "Dan")
        ]
        self.new_game()

    def new_game(self) -> None:
        a, b, c, d = self.players
        body = {"players": 4, "sides": [{"players": [a, c]}, {"players": [b, d]}]}
        _, game, response = self.request("create game", "POST", self.url + "/games", body)
        self.game = f"{self.url}/games/{game['id']}"
        self.etag = response.getheader("ETag")
        self.hands = 0

    def play(self, stop: threading.Event) -> None:
        self.setup()
        while not stop.is_set():
            status, _, _ = self.request(
                "POST hand",
                "POST",
                self.game + "/hands",
                HANDS[self.hands % len(HANDS)],
                {"Idempotency-Key": uuid.uuid4().hex},
            )
            self.hands += 1
            if status == 409:
                self.new_game()
                continue
            for _ in range(3):
                _, _, response = self.request(
                    "GET game (poll)", "GET", self.game, headers={"If-None-Match": self.etag or ""}
                )
                self.etag = response.getheader("ETag") or self.etag
            self.request("GET hand", "GET", f"{self.game}/hands/{self.hands}")


def drive(port: int, tables: int, seconds: float) -> dict[str, list[float]]:
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    lock = threading.Lock()

    def record(kind: str, elapsed: float, status: int) -> None:
        with lock:
            latencies[kind].append(elapsed)
            if status >= 500:
                errors[kind] += 1

    stop = threading.Event()
    players = [Table(port, record) for _ in range(tables)]
    threads = [threading.Thread(target=t.play, args=(stop,)) for t in players]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"server errors: {dict(errors)}")
    return latencies


def report(backend: str, latencies: dict[str, list[float]], seconds: float) -> None:
    print(
        f"\n{backend}: {sum(len(v) for v in latencies.values()) / seconds:,.0f} requests/s in all"
    )
    print(f"  {'request':<18}{'count':>8}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for kind, values in sorted(latencies.items(), key=lambda item: -len(item[1])):
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(
            f"  {kind:<18}{len(values):>8}{len(values) / seconds:>9,.0f}"
            f"{statistics.median(values) * 1000:>9.1f}{p99 * 1000:>9.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    add_backend_option(parser)
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}; "
        f"gunicorn {args.workers} workers × {args.threads} threads; {args.tables} tables "
        f"for {args.seconds:.0f} s each"
    )
    for label, url in each_database(args.backend):
        with server(url, args.workers, args.threads) as port:
            report(label, drive(port, args.tables, args.seconds), args.seconds)


if __name__ == "__main__":
    main()
