"""200 clients following one table's feed (a club's wall screens, chat bots and spectators) on
one machine, under gunicorn, on SQLite and on PostgreSQL: following with ``Prefer: wait=25``
(each waiting question holds a worker thread: ``-w 2 --threads 208``, 204 waiters a worker)
against asking every 2.5 s without it, alternating, in the same run.

A phone at the table records a small hand every 2 s (``--hand-every``) through the API: a
virtual game's moves come about as often. Each follower asks for
the events after the last it holds and notes when each hand's event reaches it. Reported per
mode: the delay from a hand's POST leaving the phone to the follower holding its event (p50,
p90, max, over every follower and every hand), how many hands' events every follower received,
the server's CPU share (of one core) and its CPU per follower and minute, and requests/s; then
the server's CPU per follower, waiting against polling.

    .venv/bin/python benchmarks/feed.py [--followers 200] [--seconds 30] [--rounds 2]
        [--backend sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.databases import add_backend_option, each_database  # noqa: E402
from benchmarks.live import cpu_seconds  # noqa: E402
from benchmarks.load import PIDS, server  # noqa: E402

WAIT = 25
EVERY = 2.5
"""Seconds between two questions of a follower that does not wait."""
HAND = {"sides": [{"distance": 25}, {"distance": 0}]}
"""A hand that never ends the game, however long the benchmark runs."""
HEADER = (
    "mode      hands  every hand  p50 s  p90 s  max s  CPU share  CPU ms/follower/min  req/s"
    "  not waited"
)
THREADS = 208
WAITERS = 204
"""Each worker could hold every follower's question, however gunicorn shares the connections
out between its two workers (a follower refused a wait would poll, and time polling)."""


class Follower(threading.Thread):
    """One client following the feed on a connection of its own."""

    def __init__(self, run: Run, live: bool) -> None:
        super().__init__(daemon=True)
        self.run_ = run
        self.live = live
        self.received: dict[int, float] = {}  # hand number -> when its event arrived
        self.requests = 0
        self.refused = 0  # questions asked to wait and answered without waiting

    def run(self) -> None:
        run = self.run_
        connection = http.client.HTTPConnection("127.0.0.1", run.port, timeout=WAIT + 10)
        after = run.start_after
        headers = {"Authorization": f"Bearer {run.token}"}
        if self.live:
            headers["Prefer"] = f"wait={WAIT}"
        while not run.stop.is_set():
            path = f"{run.table}/events?after={after}"
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                body = json.loads(response.read())
            except (http.client.HTTPException, OSError):
                connection.close()  # an idle connection the server closed: ask again
                continue
            self.requests += 1
            now = time.monotonic()
            for event in body["items"]:
                if event["kind"] == "hand_recorded":
                    self.received.setdefault(event["hand"], now)
            after = body["last"]
            waited = "Preference-Applied" in response.headers
            self.refused += self.live and not waited
            if not (self.live and waited):
                run.stop.wait(EVERY)
        connection.close()


class Run:
    """One mode's run: its table, its followers, the hands recorded."""

    def __init__(self, port: int, followers: int, live: bool) -> None:
        self.port = port
        self.stop = threading.Event()
        table = call(port, "POST", "/api/v1/tables", {"name": "Wall"})
        self.token = table["token"]
        self.table = f"/api/v1/tables/{table['id']}"
        ids = [
            call(port, "POST", f"{self.table}/players", {"name": n}, self.token)["id"] for n in "AB"
        ]
        sides = [{"players": [player]} for player in ids]
        game = call(port, "POST", f"{self.table}/games", {"players": 2, "sides": sides}, self.token)
        self.game = f"{self.table}/games/{game['id']}"
        self.start_after = call(port, "GET", f"{self.table}/events", token=self.token)["last"]
        self.sent: dict[int, float] = {}  # hand number -> when its POST left the phone
        self.followers = [Follower(self, live) for _ in range(followers)]

    def record_hands(self, every: float) -> None:
        number = 0
        while not self.stop.wait(every):
            number += 1
            self.sent[number] = time.monotonic()
            call(self.port, "POST", f"{self.game}/hands", {**HAND, "number": number}, self.token)


def call(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(
        method, path, body=None if body is None else json.dumps(body), headers=headers
    )
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data}")
    return data


def one_run(port: int, followers: int, seconds: float, live: bool, every: float) -> dict[str, Any]:
    run = Run(port, followers, live)
    pid = PIDS[port]
    for follower in run.followers:
        follower.start()
    time.sleep(3)  # every follower asking (or waiting) before the first hand
    began, cpu = time.monotonic(), cpu_seconds(pid)
    recorder = threading.Thread(target=run.record_hands, args=(every,), daemon=True)
    recorder.start()
    time.sleep(seconds)
    elapsed, used = time.monotonic() - began, cpu_seconds(pid) - cpu
    run.stop.set()
    recorder.join()
    hands = sorted(run.sent)[:-1]  # the last hand may be in flight when the run stops
    delays = sorted(
        follower.received[hand] - run.sent[hand]
        for follower in run.followers
        for hand in hands
        if hand in follower.received
    )
    complete = sum(all(hand in f.received for hand in hands) for f in run.followers)
    for follower in run.followers:
        follower.join(timeout=WAIT + 15)
    requests = sum(follower.requests for follower in run.followers)
    refused = sum(follower.refused for follower in run.followers)
    return {
        "hands": len(hands),
        "complete": complete,
        "p50": statistics.median(delays) if delays else float("nan"),
        "p90": delays[int(0.9 * (len(delays) - 1))] if delays else float("nan"),
        "max": delays[-1] if delays else float("nan"),
        "cpu": used / elapsed,
        "cpu_follower": used / followers / elapsed * 60 * 1000,
        "rps": requests / elapsed,
        "refused": refused,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--hand-every", type=float, default=2.0, help="seconds between hands")
    parser.add_argument(
        "--rounds", type=int, default=2, help="each mode this many times, alternating"
    )
    add_backend_option(parser)
    args = parser.parse_args()
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
        f"{args.followers} followers of one table; a hand every {args.hand_every:g} s; "
        f"{args.seconds:.0f} s a run, {args.rounds} rounds alternating"
    )
    settings = {"SCOREKEEPER_LIVE_WAITERS": str(WAITERS)}
    for label, url in each_database(args.backend):
        print(f"\n{label}, gunicorn -w 2 --threads {THREADS}")
        print(HEADER)
        results: dict[str, list[dict[str, Any]]] = {"waiting": [], "polling": []}
        with server(url, 2, THREADS, settings=settings) as port:
            for _ in range(args.rounds):
                for mode in ("waiting", "polling"):
                    live = mode == "waiting"
                    r = one_run(port, args.followers, args.seconds, live, args.hand_every)
                    results[mode].append(r)
                    print(
                        f"{mode:8} {r['hands']:6} {r['complete']:5}/{args.followers:<5} "
                        f"{r['p50']:6.3f} {r['p90']:6.3f} {r['max']:6.3f} {r['cpu']:9.1%} "
                        f"{r['cpu_follower']:20.1f} {r['rps']:6.1f} {r['refused']:11}"
                    )
        waiting = statistics.median(r["cpu_follower"] for r in results["waiting"])
        polling = statistics.median(r["cpu_follower"] for r in results["polling"])
        print(f"server CPU per follower, waiting against polling: ×{waiting / polling:.2f}")


if __name__ == "__main__":
    main()
