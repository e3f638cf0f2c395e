"""An evening of phones against the server: virtual games between two people, each with a phone
watching it, and tabletop games' scoreboards, under gunicorn, on SQLite and on PostgreSQL; the
server as the unit runs it (``gevent``: ``-k gevent -w 2``, a waiting question holds no thread)
against the threaded unit of version 0.3 (``threads``: ``-w 2 --threads 16``, a question held is a
thread held) and against polling every 2.5 s (``polling``: ``-w 2 --threads 4``), one after the
other in the same run.

By default a club's evening: 30 phones on 8 games, 4 of them virtual. ``--phones N`` scales it
to N phones in the same proportions (a virtual game's 3 phones for every 2 tabletop phones, those
4 or 5 on a scoreboard); ``--virtual-games G`` sets the virtual games, the rest of the N phones on
scoreboards. A person moves 1 to 3 s after the turn reaches their phone (the seat's first legal
move; the coup-fourré window off, so a move's way to the other phone is all that is timed); with
``--paced``, 3 to 5 s after the last move in every mode, so the evenings play the same moves and
their CPU per phone compares like for like.

Reported: the time from a move's POST to the other seat's phone holding the new state (p50,
p90, max), the server's CPU share (of one core), its memory (resident, master and workers),
requests/s and CPU per request, requests in progress, the questions that asked to wait but
were answered at once (the phone fell back to polling), the phones' own CPU, and how busy the
whole machine was (every core: the database, the proxy and the phones too). The phones are one
asyncio loop in this process, each with a keep-alive connection of its own, so a thousand of
them cost the server's two cores little.

With ``--behind caddy`` (or ``nginx``) the phones reach the server through the deploy example's
proxy over HTTPS (its certificate a throwaway one), as a club's phones do; the CPU figures stay
gunicorn's own.

    .venv/bin/python benchmarks/live.py [--seconds 40] [--phones 30] [--virtual-games G]
        [--modes polling,threads,gevent] [--backend sqlite|postgresql] [--paced]
        [--behind caddy|nginx]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import ssl
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.databases import add_backend_option, each_database  # noqa: E402
from benchmarks.load import PIDS, server  # noqa: E402
from tests.proxies import PROXY_STARTS, SITE, self_signed  # noqa: E402

EVERY = 2.5
WAIT = 25
CLUB_PHONES = 30
CLUB_VIRTUAL_GAMES = 4


ONE_ADDRESS = {
    f"SCOREKEEPER_LIMIT_{name}": "1000000 per minute"
    for name in ("TABLES_PER_ADDRESS", "WRITES_PER_ADDRESS", "REQUESTS_PER_ADDRESS")
} | {"SCOREKEEPER_LIVE_WAITERS_PER_ADDRESS": "1000000"}
"""Every phone here comes from one address: the limits per address, still counted, never bind."""


@dataclass(frozen=True)
class Mode:
    """How gunicorn serves the evening, and whether the pages ask it to wait."""

    name: str
    worker_class: str
    threads: int
    live: bool


MODES = {
    "polling": Mode("polling", "gthread", 4, False),
    "threads": Mode("threads", "gthread", 16, True),
    "gevent": Mode("gevent", "gevent", 1, True),
}


@dataclass(frozen=True)
class Shape:
    """The evening's phones: ``virtual_games`` with 3 phones each, ``scoreboards`` with theirs."""

    virtual_games: int
    scoreboards: tuple[int, ...]

    @property
    def phones(self) -> int:
        return 3 * self.virtual_games + sum(self.scoreboards)

    @classmethod
    def of(cls, phones: int, virtual_games: int | None) -> Shape:
        """``phones`` phones: a club's evening at 30, otherwise 3 on a virtual game for every 2
        on a scoreboard (or ``virtual_games`` virtual games), scoreboards of 4 or 5 phones."""
        if virtual_games is None:
            virtual_games = CLUB_VIRTUAL_GAMES if phones == CLUB_PHONES else phones * 3 // 5 // 3
        rest = phones - 3 * virtual_games
        if rest < 0:
            raise SystemExit(f"{virtual_games} virtual games need {3 * virtual_games} phones")
        boards = max(1, round(rest / 4.5)) if rest else 0
        sizes = [rest // boards + (i < rest % boards) for i in range(boards)] if boards else []
        return cls(virtual_games, tuple(sizes))


@dataclass
class Evening:
    """The phones' shared counters, and where they connect."""

    port: int
    live: bool
    paced: bool = False
    proxy: tuple[int, ssl.SSLContext] | None = None
    requests: int = 0
    in_progress: int = 0
    fell_back: int = 0  # questions that asked to wait and were answered at once
    latencies: list[float] = field(default_factory=list)
    # (game, move number after it) -> when it was posted, and by which seat
    posted: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def connection(self) -> Connection:
        return Connection(self)


class Connection:
    """A phone's keep-alive HTTP/1.1 connection (to gunicorn, or over HTTPS to the proxy): just
    what the server answers here (a body with Content-Length, or chunked)."""

    def __init__(self, evening: Evening) -> None:
        self.evening = evening
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        if self.evening.proxy is not None:
            port, context = self.evening.proxy
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", port, ssl=context, server_hostname=SITE
            )
        else:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.evening.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(
        self, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int, Any, dict[str, str]]:
        """One request: its status, its JSON body and its headers (names in lower case)."""
        evening = self.evening
        evening.requests += 1
        evening.in_progress += 1
        try:
            payload = b"" if body is None else json.dumps(body).encode()
            host = SITE if evening.proxy is not None else f"127.0.0.1:{evening.port}"
            head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
            request = (
                f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\n{head}\r\n"
            ).encode() + payload
            for attempt in (1, 2):
                try:
                    if self.writer is None:
                        await self._open()
                    return await asyncio.wait_for(self._send(request), WAIT + 10)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    self.close()  # an idle connection closed by the server: again, once
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            evening.in_progress -= 1

    async def _send(self, request: bytes) -> tuple[int, Any, dict[str, str]]:
        assert self.reader is not None and self.writer is not None
        self.writer.write(request)
        await self.writer.drain()
        line = await self.reader.readline()
        if not line:  # the server closed the connection while it was idle
            raise ConnectionResetError("closed")
        status = int(line.split()[1])
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            data = b""
            while size := int((await self.reader.readline()).strip(), 16):
                data += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        else:
            data = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, json.loads(data) if data else None, headers


async def api(evening: Evening, method: str, path: str, body: Any = None, token: str = "") -> Any:
    connection = evening.connection()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        status, data, _ = await connection.exchange(method, path, headers, body)
    finally:
        connection.close()
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {data}")
    return data


async def new_table(evening: Evening, name: str) -> tuple[str, str]:
    table = await api(evening, "POST", "/api/v1/tables", {"name": name})
    return f"/api/v1/tables/{table['id']}", table["token"]


async def asked(
    evening: Evening, connection: Connection, url: str, token: str, etag: str, live: bool
) -> tuple[int, Any, dict[str, str]]:
    """A conditional GET, asking the server to wait when the page is live; one answered at once
    to a question that asked to wait is counted as a fall back to polling."""
    headers = {"Authorization": f"Bearer {token}"}
    if etag:
        headers["If-None-Match"] = etag
        if live:
            headers["Prefer"] = f"wait={WAIT}"
    status, view, answer = await connection.exchange("GET", url, headers)
    if etag and live and status == 304 and "preference-applied" not in answer:
        evening.fell_back += 1
    return status, view, answer


async def seat_phone(evening: Evening, game: int, url: str, token: str, seat: int) -> None:
    """A person at a virtual game's seat: follows the game, moves when the turn comes."""
    connection = evening.connection()
    rng = random.Random(f"{game}/{seat}")
    etag = ""
    while not evening.stop.is_set():
        status, view, answer = await asked(evening, connection, url, token, etag, evening.live)
        now = time.monotonic()
        if status == 200:
            etag = answer.get("etag", "")
            turn_since = now
            key = (game, view["next_move"])
            if key in evening.posted and evening.posted[key][1] != seat:
                turn_since = evening.posted.pop(key)[0]
                evening.latencies.append(now - turn_since)
            state = view["state"]
            if state is None:
                return
            if state["to_act"] == seat and state["legal_moves"]:
                if evening.paced:  # the same pace in every mode: 3 to 5 s after the last move
                    await asyncio.sleep(max(0.0, turn_since + rng.uniform(3, 5) - time.monotonic()))
                else:
                    await asyncio.sleep(rng.uniform(1, 3))  # the person sees it, thinks, taps
                move = {"number": view["next_move"], **state["legal_moves"][0]}
                began = time.monotonic()
                status, after, answer = await connection.exchange(
                    "POST", url + "/moves", {"Authorization": f"Bearer {token}"}, move
                )
                if status == 200 and after["state"] and after["state"]["to_act"] != seat:
                    evening.posted[(game, after["next_move"])] = (began, seat)
                etag = ""  # read the game afresh: the answer to a move has no seat's page tag
                continue
        if status != 200 and "preference-applied" not in answer:
            await pause(evening, EVERY)


async def watcher(evening: Evening, url: str, token: str, live: bool) -> None:
    """A phone watching a game: conditional GETs, waiting where the game is live."""
    connection = evening.connection()
    etag = ""
    while not evening.stop.is_set():
        _, _, answer = await asked(evening, connection, url, token, etag, live)
        etag = answer.get("etag", etag)
        if "preference-applied" not in answer:
            await pause(evening, EVERY)


async def pause(evening: Evening, seconds: float) -> None:
    try:
        await asyncio.wait_for(evening.stop.wait(), seconds)
    except TimeoutError:
        pass


async def virtual_game(evening: Evening, game: int) -> list[Any]:
    url, token = await new_table(evening, f"Virtual {game}")
    ids = [(await api(evening, "POST", url + "/players", {"name": n}, token))["id"] for n in "AB"]
    dealt = await api(
        evening,
        "POST",
        url + "/virtual-games",
        {"players": 2, "seats": [{"player": ids[0]}, {"player": ids[1]}]},
        token,
    )
    game_url = f"{url}/virtual-games/{dealt['game']['id']}"
    phones: list[Any] = [
        (seat_phone, game, game_url, entry["token"], entry["seat"])
        for entry in dealt["seat_tokens"]
    ]
    return [*phones, (watcher, game_url, token, evening.live)]


async def scoreboard(evening: Evening, count: int) -> list[Any]:
    """A tabletop game's scoreboard and its ``count`` phones, which poll either way (a table's
    phones show the game between hands)."""
    url, token = await new_table(evening, "Tabletop")
    ids = [(await api(evening, "POST", url + "/players", {"name": n}, token))["id"] for n in "ABCD"]
    body = {"players": 4, "sides": [{"players": ids[0::2]}, {"players": ids[1::2]}]}
    game = await api(evening, "POST", url + "/games", body, token)
    return [(watcher, f"{url}/games/{game['id']}", token, False)] * count


async def phones(evening: Evening, shape: Shape) -> list[Any]:
    """What each phone runs, its tables made 16 at a time."""
    made: list[Any] = []
    jobs = [virtual_game(evening, game) for game in range(shape.virtual_games)]
    jobs += [scoreboard(evening, count) for count in shape.scoreboards]
    for start in range(0, len(jobs), 16):
        for found in await asyncio.gather(*jobs[start : start + 16]):
            made += found
    return made


async def run_phone(evening: Evening, target: Any, *args: Any) -> None:
    """A phone; a connection the stopping server closes ends it quietly."""
    try:
        await target(evening, *args)
    except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError):
        if not evening.stop.is_set():
            raise


def cpu_seconds(pid: int) -> float:
    """User and system CPU of gunicorn's master and its workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for each in processes(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def machine_seconds() -> tuple[float, float]:
    """The machine's busy and total CPU seconds so far, every core (the database's, the
    proxy's and the phones' included)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and waiting for I/O
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


def memory_mib(pid: int) -> float:
    """Resident memory of gunicorn's master and its workers."""
    total = 0
    for each in processes(pid):
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except FileNotFoundError:
            continue
        total += next(int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmRSS:")
    return total / 1024


def processes(pid: int) -> list[int]:
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        pids += [int(child) for child in (task / "children").read_text().split()]
    return pids


async def evening(night: Evening, shape: Shape, pid: int, seconds: float) -> dict[str, Any]:
    """The evening's figures, its phones stopped (those waiting end when the server stops)."""
    made = await phones(night, shape)
    began, cpu = time.monotonic(), cpu_seconds(pid)
    phones_cpu = time.process_time()
    machine = machine_seconds()
    requests = night.requests
    tasks = [asyncio.create_task(run_phone(night, *phone)) for phone in made]
    in_progress, memory = [], []
    while time.monotonic() - began < seconds:
        await asyncio.sleep(0.5)
        in_progress.append(night.in_progress)
        memory.append(memory_mib(pid))
    elapsed, used = time.monotonic() - began, cpu_seconds(pid) - cpu
    phones_used = time.process_time() - phones_cpu
    busy, total = (now - then for now, then in zip(machine_seconds(), machine, strict=True))
    done = night.requests - requests
    night.stop.set()
    moves = sorted(night.latencies)
    for task in tasks:
        task.cancel()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, Exception):  # a phone that failed: the figures would lie
            raise outcome
    return {
        "phones": len(made),
        "moves": len(moves),
        "p50": statistics.median(moves) if moves else float("nan"),
        "p90": moves[int(0.9 * (len(moves) - 1))] if moves else float("nan"),
        "max": moves[-1] if moves else float("nan"),
        "cpu": used / elapsed,
        "phones_cpu": phones_used / elapsed,
        "machine": busy / total if total else float("nan"),
        "cpu_request": used / done * 1000 if done else float("nan"),
        "rps": done / elapsed,
        "memory": max(memory),
        "in_progress": (statistics.mean(in_progress), max(in_progress)),
        "fell_back": night.fell_back,
    }


def run(
    url: str, label: str, shape: Shape, modes: list[Mode], args: argparse.Namespace
) -> dict[str, dict[str, Any]]:
    results = {}
    for mode in modes:
        settings = {"SCOREKEEPER_VIRTUAL_CHANCE_WINDOW": "0", **ONE_ADDRESS}
        if not mode.live:
            settings["SCOREKEEPER_LIVE_WAIT"] = "0"
        if mode.worker_class == "gthread":  # version 0.3's budget: the threads less 4
            settings["SCOREKEEPER_LIVE_WAITERS"] = str(max(mode.threads - 4, 0))
        with ExitStack() as stack:
            port = stack.enter_context(
                server(url, 2, mode.threads, settings=settings, worker_class=mode.worker_class)
            )
            proxy = None
            if args.behind is not None:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                certificate = self_signed(folder)
                started = stack.enter_context(PROXY_STARTS[args.behind](folder, certificate, port))
                context = ssl.create_default_context(cafile=str(certificate[0]))
                proxy = (started.https_port, context)
            night = Evening(port, mode.live, args.paced, proxy)
            results[mode.name] = asyncio.run(evening(night, shape, PIDS[port], args.seconds))
    print(f"\n{label}")
    print(
        "mode     phones moves  p50 s  p90 s  max s  CPU share  memory MiB  req/s  "
        "CPU ms/request  in progress (mean/max)  fell back to polling  phones' CPU  "
        "machine busy"
    )
    for name, r in results.items():
        print(
            f"{name:8} {r['phones']:6} {r['moves']:5} {r['p50']:6.3f} {r['p90']:6.3f} "
            f"{r['max']:6.3f} {r['cpu']:9.1%} {r['memory']:11.0f} {r['rps']:6.1f} "
            f"{r['cpu_request']:15.1f} {r['in_progress'][0]:12.1f} / {r['in_progress'][1]:<4} "
            f"{r['fell_back']:10} {r['phones_cpu']:22.1%} {r['machine']:13.0%}"
        )
    base = next((name for name in ("polling", "threads") if name in results), None)
    for name, r in results.items():
        if base is not None and name != base:
            print(
                f"server CPU per phone, {name} against {base}: "
                f"×{r['cpu'] / results[base]['cpu']:.2f}; "
                f"requests/s ×{r['rps'] / results[base]['rps']:.2f}"
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--phones", type=int, default=CLUB_PHONES)
    parser.add_argument("--virtual-games", type=int)
    parser.add_argument(
        "--modes",
        default="polling,threads,gevent",
        help="comma-separated, in the order run: " + ", ".join(MODES),
    )
    parser.add_argument(
        "--paced",
        action="store_true",
        help="people move 3 to 5 s after the last move in every mode (the same moves to compare)",
    )
    add_backend_option(parser)
    parser.add_argument(
        "--behind", choices=sorted(PROXY_STARTS), help="the phones reach gunicorn through it"
    )
    args = parser.parse_args()
    shape = Shape.of(args.phones, args.virtual_games)
    modes = [MODES[name] for name in args.modes.split(",")]
    print(
        f"{platform.machine()}, {os.cpu_count()} cores; {shape.phones} phones: "
        f"{shape.virtual_games} virtual games × 3 phones, {len(shape.scoreboards)} scoreboards "
        f"with {sum(shape.scoreboards)}; {args.seconds:.0f} s each"
        + (f", behind {args.behind}" if args.behind else "")
        + (", paced" if args.paced else "")
    )
    for label, url in each_database(args.backend):
        run(url, label, shape, modes, args)


if __name__ == "__main__":
    main()
