"""A club evening against the server: 30 phones on 8 games, 4 of them virtual games between two
people, under gunicorn, on SQLite and on PostgreSQL; the live pages (``Prefer: wait``, the unit's
``-w 2 --threads 16``) against today's polling every 2.5 s (``-w 2 --threads 4``) in the same run.

Each virtual game has its two seats' phones and a phone watching it (the table's token); each
tabletop game 4 or 5 phones on its scoreboard, which poll every 2.5 s either way. A person
moves 1 to 3 s after the turn reaches their phone (the seat's first legal move; the coup-fourré
window off, so a move's way to the other phone is all that is timed); with ``--paced``, 3 to 5 s
after the last move in both modes, so both evenings play the same moves and their CPU per phone
compares like for like. Reported: the time from a
move's POST to the other seat's phone holding the new state (p50, p90, max), the server's CPU
share (of one core) and requests/s, open connections and requests in progress (each holds a
worker thread), and the server's CPU per phone against polling's.

With ``--behind caddy`` (or ``nginx``) the phones reach the server through the deploy example's
proxy over HTTPS (its certificate a throwaway one), as a club's phones do; the CPU figures stay
gunicorn's own.

    .venv/bin/python benchmarks/live.py [--seconds 40] [--backend sqlite|postgresql] [--paced]
        [--behind caddy|nginx]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import ssl
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.databases import add_backend_option, each_database  # noqa: E402
from benchmarks.load import PIDS, server  # noqa: E402
from tests.proxies import PROXY_STARTS, SITE, self_signed  # noqa: E402

VIRTUAL_GAMES = 4
TABLETOP_PHONES = [5, 5, 4, 4]
EVERY = 2.5
WAIT = 25


class SiteConnection(http.client.HTTPSConnection):
    """HTTPS to a proxy on a loopback port, as to the site: its name in the TLS handshake (the
    proxy picks its certificate by it) and in the Host header (the proxy's site block)."""

    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        super().__init__("127.0.0.1", port, timeout=WAIT + 10, context=context)
        self.site_context = context

    def connect(self) -> None:
        http.client.HTTPConnection.connect(self)
        self.sock = self.site_context.wrap_socket(self.sock, server_hostname=SITE)

    def putrequest(self, method: str, url: str, *args: Any, **kwargs: Any) -> None:
        super().putrequest(method, url, skip_host=True, skip_accept_encoding=True)
        self.putheader("Host", SITE)


class Evening:
    """The phones' shared counters."""

    def __init__(
        self,
        port: int,
        live: bool,
        paced: bool = False,
        proxy: tuple[int, ssl.SSLContext] | None = None,
    ) -> None:
        self.port = port
        self.proxy = proxy
        self.live = live
        self.paced = paced
        self.lock = threading.Lock()
        self.requests = 0
        self.in_progress = 0
        self.latencies: list[float] = []
        # (game, move number after it) -> when it was posted, and by which seat
        self.posted: dict[tuple[int, int], tuple[float, int]] = {}
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def connection(self) -> http.client.HTTPConnection:
        """A phone's connection: to gunicorn, or to the proxy in front of it."""
        if self.proxy is not None:
            return SiteConnection(*self.proxy)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT + 10)

    def exchange(
        self,
        connection: http.client.HTTPConnection,
        method: str,
        path: str,
        headers: dict[str, str],
        body: Any = None,
    ) -> tuple[int, Any, http.client.HTTPMessage]:
        """One request on ``connection``: its status, its JSON body and its headers (read
        without regard to case: a proxy may write ``Etag``)."""
        with self.lock:
            self.requests += 1
            self.in_progress += 1
        try:
            payload = None if body is None else json.dumps(body)
            sent = {"Content-Type": "application/json", **headers}
            try:
                connection.request(method, path, body=payload, headers=sent)
                response = connection.getresponse()
            except (http.client.HTTPException, OSError):  # an idle connection closed: again
                connection.close()
                connection.request(method, path, body=payload, headers=sent)
                response = connection.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else None, response.headers
        finally:
            with self.lock:
                self.in_progress -= 1


def api(evening: Evening, method: str, path: str, body: Any = None, token: str = "") -> Any:
    connection = evening.connection()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    status, data, _ = evening.exchange(connection, method, path, headers, body)
    connection.close()
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {data}")
    return data


def new_table(evening: Evening, name: str) -> tuple[str, str]:
    table = api(evening, "POST", "/api/v1/tables", {"name": name})
    return f"/api/v1/tables/{table['id']}", table["token"]


def seat_phone(evening: Evening, game: int, url: str, token: str, seat: int) -> None:
    """A person at a virtual game's seat: follows the game, moves when the turn comes."""
    connection = evening.connection()
    rng = random.Random(f"{game}/{seat}")
    etag = ""
    while not evening.stop.is_set():
        headers = {"Authorization": f"Bearer {token}"}
        if etag:
            headers["If-None-Match"] = etag
            if evening.live:
                headers["Prefer"] = f"wait={WAIT}"
        status, view, answer = evening.exchange(connection, "GET", url, headers)
        now = time.monotonic()
        if status == 200:
            etag = answer.get("ETag", "")
            turn_since = now
            with evening.lock:
                key = (game, view["next_move"])
                if key in evening.posted and evening.posted[key][1] != seat:
                    turn_since = evening.posted.pop(key)[0]
                    evening.latencies.append(now - turn_since)
            state = view["state"]
            if state is None:
                return
            if state["to_act"] == seat and state["legal_moves"]:
                if evening.paced:  # the same pace either way: 3 to 5 s after the last move
                    time.sleep(max(0.0, turn_since + rng.uniform(3, 5) - time.monotonic()))
                else:
                    time.sleep(rng.uniform(1, 3))  # the person sees it, thinks, taps
                move = {"number": view["next_move"], **state["legal_moves"][0]}
                began = time.monotonic()
                status, after, answer = evening.exchange(
                    connection, "POST", url + "/moves", {"Authorization": f"Bearer {token}"}, move
                )
                if status == 200 and after["state"] and after["state"]["to_act"] != seat:
                    with evening.lock:
                        evening.posted[(game, after["next_move"])] = (began, seat)
                etag = ""  # read the game afresh: the answer to a move has no seat's page tag
                continue
        if status != 200 and not answer.get("Preference-Applied"):
            evening.stop.wait(EVERY)


def watcher(evening: Evening, url: str, token: str, live: bool) -> None:
    """A phone watching a game: conditional GETs, waiting where the game is live."""
    connection = evening.connection()
    etag = ""
    while not evening.stop.is_set():
        headers = {"Authorization": f"Bearer {token}"}
        if etag:
            headers["If-None-Match"] = etag
            if live:
                headers["Prefer"] = f"wait={WAIT}"
        status, _, answer = evening.exchange(connection, "GET", url, headers)
        etag = answer.get("ETag", etag)
        if not answer.get("Preference-Applied"):
            evening.stop.wait(EVERY)


def phone(evening: Evening, target: Any, *args: Any) -> threading.Thread:
    """A phone's thread; a connection the stopping server closes ends it quietly."""

    def run() -> None:
        try:
            target(evening, *args)
        except (http.client.HTTPException, OSError, json.JSONDecodeError):
            if not evening.stop.is_set():
                raise

    return threading.Thread(target=run, daemon=True)


def phones(evening: Evening) -> list[threading.Thread]:
    threads = []
    for game in range(VIRTUAL_GAMES):
        url, token = new_table(evening, f"Virtual {game}")
        ids = [api(evening, "POST", url + "/players", {"name": n}, token)["id"] for n in "AB"]
        dealt = api(
            evening,
            "POST",
            url + "/virtual-games",
            {"players": 2, "seats": [{"player": ids[0]}, {"player": ids[1]}]},
            token,
        )
        game_url = f"{url}/virtual-games/{dealt['game']['id']}"
        for entry in dealt["seat_tokens"]:
            args = (game, game_url, entry["token"], entry["seat"])
            threads.append(phone(evening, seat_phone, *args))
        threads.append(phone(evening, watcher, game_url, token, evening.live))
    for count in TABLETOP_PHONES:
        url, token = new_table(evening, "Tabletop")
        ids = [api(evening, "POST", url + "/players", {"name": n}, token)["id"] for n in "ABCD"]
        body = {"players": 4, "sides": [{"players": ids[0::2]}, {"players": ids[1::2]}]}
        game = api(evening, "POST", url + "/games", body, token)
        game_url = f"{url}/games/{game['id']}"
        threads += [phone(evening, watcher, game_url, token, False) for _ in range(count)]
    return threads


def cpu_seconds(pid: int) -> float:
    """User and system CPU of gunicorn's master and its workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(child) for child in (task / "children").read_text().split()]
    total = 0
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def open_connections(port: int) -> int:
    """Established TCP connections to the server's port (its side of them)."""
    wanted = f":{port:04X}"
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            count += local.endswith(wanted) and state == "01"
    return count


def evening(night: Evening, pid: int, seconds: float) -> dict[str, Any]:
    """The evening's figures, its phones stopped (those waiting end when the server stops)."""
    port = night.port
    threads = night.threads = phones(night)
    began, cpu = time.monotonic(), cpu_seconds(pid)
    requests = night.requests
    for thread in threads:
        thread.start()
    connections, in_progress = [], []
    while time.monotonic() - began < seconds:
        time.sleep(0.5)
        connections.append(open_connections(port))
        in_progress.append(night.in_progress)
    night.stop.set()
    elapsed, used = time.monotonic() - began, cpu_seconds(pid) - cpu
    done = night.requests - requests
    moves = sorted(night.latencies)
    return {
        "phones": len(threads),
        "moves": len(moves),
        "p50": statistics.median(moves) if moves else float("nan"),
        "p90": moves[int(0.9 * (len(moves) - 1))] if moves else float("nan"),
        "max": moves[-1] if moves else float("nan"),
        "cpu": used / elapsed,
        "cpu_move": used / len(moves) * 1000 if moves else float("nan"),
        "rps": done / elapsed,
        "connections": (statistics.mean(connections), max(connections)),
        "in_progress": (statistics.mean(in_progress), max(in_progress)),
    }


def run(url: str, label: str, seconds: float, paced: bool, behind: str | None) -> None:
    results = {}
    for mode, threads, settings in (
        ("polling", 4, {"SCOREKEEPER_LIVE_WAIT": "0"}),
        ("live", 16, {}),
    ):
        settings = {**settings, "SCOREKEEPER_VIRTUAL_CHANCE_WINDOW": "0"}
        with ExitStack() as stack:
            port = stack.enter_context(server(url, 2, threads, settings=settings))
            proxy = None
            if behind is not None:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                certificate = self_signed(folder)
                started = stack.enter_context(PROXY_STARTS[behind](folder, certificate, port))
                context = ssl.create_default_context(cafile=str(certificate[0]))
                proxy = (started.https_port, context)
            night = Evening(port, mode == "live", paced, proxy)
            results[mode] = evening(night, PIDS[port], seconds)
        for thread in night.threads:  # the server stopped: the waits ended at once
            thread.join(5)
    print(f"\n{label}")
    print(
        "mode     phones moves  p50 s  p90 s  max s  CPU share  CPU ms/move  req/s  "
        "connections (mean/max)  requests in progress (mean/max)"
    )
    for mode, r in results.items():
        print(
            f"{mode:8} {r['phones']:6} {r['moves']:5} {r['p50']:6.3f} {r['p90']:6.3f} "
            f"{r['max']:6.3f} {r['cpu']:9.1%} {r['cpu_move']:11.1f} {r['rps']:6.1f}  "
            f"{r['connections'][0]:10.1f} / {r['connections'][1]:<3}"
            f"          {r['in_progress'][0]:8.1f} / {r['in_progress'][1]}"
        )
    ratio = results["live"]["cpu"] / results["polling"]["cpu"]
    requests = results["live"]["rps"] / results["polling"]["rps"]
    per_move = results["live"]["cpu_move"] / results["polling"]["cpu_move"]
    print(
        f"server CPU per phone, live against polling: ×{ratio:.2f}; per move: ×{per_move:.2f}; "
        f"requests/s: ×{requests:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument(
        "--paced",
        action="store_true",
        help="people move 3 to 5 s after the last move in both modes (the same moves to compare)",
    )
    add_backend_option(parser)
    parser.add_argument(
        "--behind", choices=sorted(PROXY_STARTS), help="the phones reach gunicorn through it"
    )
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} cores; {VIRTUAL_GAMES} virtual games × 3 phones, "
        f"{len(TABLETOP_PHONES)} tabletop games, {sum(TABLETOP_PHONES)} phones; "
        f"{args.seconds:.0f} s each" + (f", behind {args.behind}" if args.behind else "")
    )
    for label, url in each_database(args.backend):
        run(url, label, args.seconds, args.paced, args.behind)


if __name__ == "__main__":
    main()
