"""The API against a bare Flask endpoint doing the same database work, in one run: ratios.

Both apps are served by gunicorn (2 sync workers each) on one fresh database, SQLite (WAL,
``synchronous=FULL``) and, where the PostgreSQL binaries are on the machine, a throwaway
PostgreSQL 15 cluster with fsync on. The bare reference is ``benchmarks/bare_app.py``. Each kind of
request is driven by wrk (one thread, 16 connections) against the bare app and the project in
turn, round after round, and the medians are printed with the ratio project / bare:

- GET a game of 12 hands (table token, full answer with its ETag);
- a 304 poll (``If-None-Match`` with the current ETag);
- POST a hand with a unique ``Idempotency-Key`` per request, into a game of 12 hands dealt afresh
  for each round (a hand that scores nothing, so the game never ends).

Only the ratios mean something: the load generator shares the machine with the servers, and
absolute figures move between runs by a third. The ratio printed is the median over rounds of
each round's project / bare figure (the two runs of a round are seconds apart).

wrk is Debian's package: ``sudo apt-get install wrk`` (the run stops, saying so, without it).

    .venv/bin/python benchmarks/api_vs_bare.py [--seconds 8] [--rounds 3] [--backend sqlite]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.databases import add_backend_option, each_database  # noqa: E402
from benchmarks.load import exchange, server  # noqa: E402  (gunicorn, migrated first)

SCRIPT = Path(__file__).with_name("api_vs_bare.lua")
BARE_APP = "benchmarks.bare_app:create_app()"
CONNECTIONS = 16
SEEDED_HANDS = 12
SEED_HAND = {"sides": [{"distance": 300, "safeties": ["extra_tank"]}, {"distance": 250}]}
"""400 and 250 points a hand: after 12 the game is still far from 5,000."""
POSTED_HAND = {"sides": [{"distance": 0}, {"distance": 0}]}
"""Scores nothing: the game never ends however many hands a round posts."""
GOALS = {"GET game (12 hands)": 0.75, "304 poll": 0.90, "POST hand": 0.60}
"""The issue's floors for the ratio project / bare."""
P99_FACTOR = 2.0
"""The project's p99 may be at most this many times the bare app's."""


def wrk_missing() -> str | None:
    """Why wrk cannot run here, or None when it can."""
    if shutil.which("wrk") is None:
        return "wrk is not installed (Debian: sudo apt-get install wrk)"
    return None


@dataclass(frozen=True, slots=True)
class Figure:
    """One wrk run: requests per second and latency percentiles in ms."""

    rate: float
    p50: float
    p99: float


@dataclass(slots=True)
class Target:
    """One app as the benchmark drives it: its port and how its URLs are written."""

    name: str
    port: int
    prefix: str

    def game(self, game_id: int) -> str:
        return f"{self.prefix}/games/{game_id}"


class Table:
    """The table both apps read and write, made through the project's API."""

    def __init__(self, port: int) -> None:
        self.port = port
        _, table, _ = exchange(port, "POST", "/api/v1/tables", {"name": "Bench"})
        self.url = f"/api/v1/tables/{table['id']}"
        self.auth = f"Bearer {table['token']}"
        self.players = [
            self.request("POST", "/players", {"name": name})["id"] for name in ("Ann", "Bob")
        ]

    def request(self, method: str, path: str, body: object = None) -> dict[str, object]:
        _, data, response = exchange(
            self.port, method, self.url + path, body, {"Authorization": self.auth}
        )
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data}")
        return dict(data) if isinstance(data, dict) else {}

    def game_of_12_hands(self) -> int:
        """A new game, 12 hands in."""
        ann, bob = self.players
        body = {"players": 2, "sides": [{"players": [ann]}, {"players": [bob]}]}
        game_id = int(str(self.request("POST", "/games", body)["id"]))
        for _ in range(SEEDED_HANDS):
            self.request("POST", f"/games/{game_id}/hands", SEED_HAND)
        return game_id

    def etag(self, target: Target, game_id: int) -> str:
        """The game's current ETag as ``target`` gives it (and a check that it gives one)."""
        _, _, response = exchange(
            target.port, "GET", target.game(game_id), headers={"Authorization": self.auth}
        )
        etag = response.getheader("ETag")
        if response.status != 200 or not etag:
            raise RuntimeError(f"{target.name}: GET game answered {response.status}, no ETag")
        _, _, again = exchange(
            target.port,
            "GET",
            target.game(game_id),
            headers={"Authorization": self.auth, "If-None-Match": etag},
        )
        if again.status != 304:
            raise RuntimeError(f"{target.name}: a poll with the current ETag got {again.status}")
        return etag


def run_wrk(
    target: Target,
    path: str,
    seconds: float,
    *,
    method: str = "GET",
    body: Path | None = None,
    keys: bool = False,
    headers: dict[str, str],
) -> Figure:
    """Drive ``path`` of ``target`` for ``seconds`` with wrk; any error answer fails the run."""
    arguments = [
        method,
        str(body) if body else "-",
        f"{uuid.uuid4().hex}-" if keys else "-",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    done = subprocess.run(
        [
            "wrk",
            "-t1",
            f"-c{CONNECTIONS}",
            f"-d{max(1, round(seconds))}s",
            "--timeout",
            "10s",
            "-s",
            str(SCRIPT),
            f"http://127.0.0.1:{target.port}{path}",
            "--",
            *arguments,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no summary:\n{done.stdout}{done.stderr}")
    fields = {key: int(value) for key, value in (part.split("=") for part in line.split()[1:])}
    failed = fields["status"] + fields["timeout"] + fields["connect"]
    if failed or not fields["requests"]:
        raise RuntimeError(f"{target.name} {method} {path}: {failed} failed requests: {line}")
    return Figure(
        rate=fields["requests"] / (fields["duration_us"] / 1e6),
        p50=fields["p50_us"] / 1000,
        p99=fields["p99_us"] / 1000,
    )


@dataclass(slots=True)
class Comparison:
    """Each round's figures of one kind of request, bare and project."""

    kind: str
    bare: list[Figure]
    project: list[Figure]

    @property
    def ratio(self) -> float:
        """The median of each round's project / bare requests per second."""
        return statistics.median(
            p.rate / b.rate for b, p in zip(self.bare, self.project, strict=True)
        )

    @property
    def p99_ratio(self) -> float:
        """The median of each round's project / bare p99."""
        return statistics.median(
            p.p99 / b.p99 for b, p in zip(self.bare, self.project, strict=True)
        )


def compare(url: str, seconds: float, rounds: int, workers: int, folder: Path) -> list[Comparison]:
    """Serve both apps on ``url`` and drive each kind of request, alternating apps."""
    with ExitStack() as stack:
        project_port = stack.enter_context(server(url, workers, 1))
        bare_port = stack.enter_context(server(url, workers, 1, BARE_APP))
        table = Table(project_port)
        project = Target("project", project_port, table.url)
        bare = Target("bare", bare_port, "")
        auth = {"Authorization": table.auth}
        game_id = table.game_of_12_hands()
        posted = folder / "hand.json"
        posted.write_text(json.dumps(POSTED_HAND))
        for target in (bare, project):  # warm both: imports, connections, caches
            # One request answered first: gunicorn listens before its workers have imported
            # the app, which on a busy machine takes longer than a warm-up run lasts.
            table.etag(target, game_id)
            run_wrk(target, target.game(game_id), 1, headers=auth)
        comparisons = [
            Comparison("GET game (12 hands)", [], []),
            Comparison("304 poll", [], []),
            Comparison("POST hand", [], []),
        ]
        for _ in range(rounds):
            get, poll, post = comparisons
            for target, figures in ((bare, get.bare), (project, get.project)):
                figures.append(run_wrk(target, target.game(game_id), seconds, headers=auth))
            for target, figures in ((bare, poll.bare), (project, poll.project)):
                etag = table.etag(target, game_id)
                headers = {**auth, "If-None-Match": etag}
                figures.append(run_wrk(target, target.game(game_id), seconds, headers=headers))
            for target, figures in ((bare, post.bare), (project, post.project)):
                fresh = table.game_of_12_hands()
                figures.append(
                    run_wrk(
                        target,
                        target.game(fresh) + "/hands",
                        seconds,
                        method="POST",
                        body=posted,
                        keys=True,
                        headers={**auth, "Content-Type": "application/json"},
                    )
                )
        return comparisons


def report(backend: str, comparisons: list[Comparison]) -> None:
    """The table of medians and ratios, then each goal of the issue, met or not."""
    print(f"\n{backend}")
    print(
        f"  {'request':<21}{'bare req/s':>11}{'project':>9}{'ratio':>8}"
        f"{'bare p99':>10}{'project':>9}{'p99 ×':>7}"
    )
    for c in comparisons:
        print(
            f"  {c.kind:<21}{statistics.median(f.rate for f in c.bare):>11,.0f}"
            f"{statistics.median(f.rate for f in c.project):>9,.0f}{c.ratio:>8.2f}"
            f"{statistics.median(f.p99 for f in c.bare):>9.1f} "
            f"{statistics.median(f.p99 for f in c.project):>8.1f} {c.p99_ratio:>6.2f}"
        )
    for c in comparisons:
        goal = GOALS[c.kind]
        met = "met" if c.ratio >= goal else "not met"
        p99 = "met" if c.p99_ratio <= P99_FACTOR else "not met"
        print(
            f"  {c.kind}: ratio {c.ratio:.2f} (goal ≥ {goal:.2f}): {met}; "
            f"p99 ×{c.p99_ratio:.2f} (goal ≤ ×{P99_FACTOR:.0f}): {p99}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8, help="each run of wrk (whole s)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per request")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers per app")
    add_backend_option(parser)
    args = parser.parse_args()
    missing = wrk_missing()
    if missing:
        sys.exit(f"Cannot run: {missing}.")
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}; "
        f"gunicorn {args.workers} sync workers per app; wrk -t1 -c{CONNECTIONS}, "
        f"{args.rounds} alternating rounds of {args.seconds:.0f} s"
    )
    with tempfile.TemporaryDirectory(prefix="scorekeeper-vs-bare-") as scratch:
        for label, url in each_database(args.backend):
            report(label, compare(url, args.seconds, args.rounds, args.workers, Path(scratch)))


if __name__ == "__main__":
    main()
