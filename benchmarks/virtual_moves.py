"""Virtual game moves over HTTP: does a move late in a game cost what a move early in it does?

Whole 6-seat virtual games, served by gunicorn on SQLite: one seat played by this client (a
seeded random legal move each turn, from the seat view the last answer gave), five computer
seats (``strong`` unless ``--computer`` says otherwise) answering within the request. Each move
is timed (the POST, the computers' answers included), and so is a read of the seat's view after
it; the figures are p50, p90 and max by hand number and overall.

The same games (the same deals, from seeds this client gives, and the same moves) are played
twice, alternately: on a server with each worker's cache of virtual games (the default), and
on a server without it (``SCOREKEEPER_VIRTUAL_GAME_CACHE=0``), where every request replays the
game from its seed. The load generator shares the machine's cores with the server.

    .venv/bin/python benchmarks/virtual_moves.py [--games 6] [--computer strong|search]
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import sys
import tempfile
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import exchange  # noqa: E402

SEED_HEADER = "X-Bench-Seed"
MODES = {"cache": {}, "no cache": {"SCOREKEEPER_VIRTUAL_GAME_CACHE": "0"}}


def seeded_app() -> Any:
    """The app as gunicorn serves it, except that a virtual game is dealt from the seed in the
    request's ``X-Bench-Seed`` header: so both servers deal the same games."""
    from flask import request

    from scorekeeper import engine_build

    engine_build.prefer_compiled()  # as create_app does, before this imports the engine
    from scorekeeper import create_app
    from scorekeeper.services import virtual

    fresh = virtual.lifecycle.new_seed
    virtual.lifecycle.new_seed = lambda: int(request.headers.get(SEED_HEADER) or fresh())
    return create_app()


class Client:
    """One phone: a connection per request, as phones polling every few seconds make."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json"}

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[float, Any, http.client.HTTPResponse]:
        elapsed, data, response = exchange(
            self.port, method, path, body, {**self.headers, **(headers or {})}, timeout=120
        )
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {str(data)[:300]}")
        return elapsed, data, response

    def setup(self) -> None:
        _, table, _ = self.request("POST", "/api/v1/tables", {"name": "Bench"})
        self.url = f"/api/v1/tables/{table['id']}"
        self.headers["Authorization"] = f"Bearer {table['token']}"
        _, player, _ = self.request("POST", self.url + "/players", {"name": "Ann"})
        self.player = player["id"]

    def play(self, seed: int, computer: str, record: Any, moves: int | None = None) -> Any:
        """Play the game dealt from ``seed`` to its end (or ``moves`` moves of this seat);
        ``record(kind, hand, seconds)`` each request. The game's last view."""
        seats = [{"player": self.player}] + [{"computer": computer}] * 5
        _, body, response = self.request(
            "POST",
            self.url + "/virtual-games",
            {"players": 6, "seats": seats},
            {SEED_HEADER: str(seed)},
        )
        url = response.getheader("Location")
        mine = {"Authorization": f"Bearer {body['seat_tokens'][0]['token']}"}
        _, view, _ = self.request("GET", url, headers=mine)
        rng = Random(seed)
        played = 0
        while view["state"] is not None and (moves is None or played < moves):
            hand, number = view["hand_number"], view["next_move"]
            move = rng.choice(view["state"]["legal_moves"])
            elapsed, view, _ = self.request(
                "POST", url + "/moves", {"number": number, **move}, mine
            )
            record("POST move", hand, elapsed)
            elapsed, _, _ = self.request("GET", f"{url}?since={view['next_move']}", headers=mine)
            record("GET view", hand, elapsed)
            played += 1
        return view


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def figures(values: list[float]) -> str:
    if not values:
        return " " * 21
    return "".join(
        f"{value * 1000:>7.1f}"
        for value in (percentile(values, 0.5), percentile(values, 0.9), max(values))
    )


def report(kind: str, latencies: dict[str, dict[str, dict[int, list[float]]]]) -> None:
    """One table: a row per hand number and one for all, p50, p90 and max for each mode."""
    modes = list(latencies)
    hands = sorted({hand for mode in modes for hand in latencies[mode][kind]})
    rows = [
        (f"hand {hand}", [latencies[mode][kind].get(hand, []) for mode in modes]) for hand in hands
    ]
    every = [[v for values in latencies[mode][kind].values() for v in values] for mode in modes]
    rows.append(("all", every))
    print(f"\n{kind}, ms")
    print(f"  {'':<13}" + "   ".join(f"{mode:>21}" for mode in modes))
    print(f"  {'':<7}{'count':>6}" + "   ".join("    p50    p90    max" for _ in modes))
    for label, columns in rows:
        print(f"  {label:<7}{len(columns[0]):>6}" + "   ".join(map(figures, columns)))
    for mode, values in zip(modes, every, strict=True):
        by_hand = latencies[mode][kind]
        worst = max(by_hand, key=lambda hand: percentile(by_hand[hand], 0.9))
        print(
            f"  {mode}: p90 {percentile(values, 0.9) * 1000:.1f} ms in all, "
            f"{percentile(by_hand[worst], 0.9) * 1000:.1f} ms in its worst hand (hand {worst})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="whole games in each mode")
    parser.add_argument("--computer", default="strong", help="the five computer seats' kind")
    parser.add_argument("--seed", type=int, default=2026, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    from benchmarks.load import server

    print(
        f"{platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}; "
        f"gunicorn {args.workers} workers × {args.threads} threads, SQLite; 6 seats: this "
        f"client and five {args.computer}; {args.games} whole games in each mode, alternating"
    )
    latencies: dict[str, dict[str, dict[int, list[float]]]] = {
        mode: defaultdict(lambda: defaultdict(list)) for mode in MODES
    }
    outcomes: dict[str, list[Any]] = defaultdict(list)
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    with ExitStack() as stack:
        clients = {}
        for number, (mode, settings) in enumerate(MODES.items()):
            port = stack.enter_context(
                server(
                    f"sqlite:///{folder / f'bench{number}.sqlite3'}",
                    args.workers,
                    args.threads,
                    app="benchmarks.virtual_moves:seeded_app()",
                    settings=settings,
                )
            )
            clients[mode] = Client(port)
            clients[mode].setup()
            for warm_up in range(2 * args.workers):  # every worker's first requests, untimed
                clients[mode].play(warm_up, args.computer, lambda *_: None, moves=3)
        for game in range(args.games):
            order = list(MODES) if game % 2 == 0 else list(reversed(MODES))
            for mode in order:

                def record(kind: str, hand: int, seconds: float, mode: str = mode) -> None:
                    latencies[mode][kind][hand].append(seconds)

                last = clients[mode].play(args.seed + game, args.computer, record)
                outcomes[mode].append((last["next_move"], last["game"]["totals"]))
    first, *others = outcomes.values()
    same = all(outcome == first for outcome in others)
    moves = sum(count for count, _ in first)
    print(
        f"{moves} moves in {args.games} games ({moves / args.games:.0f} a game); "
        + ("the same games in both modes" if same else "THE MODES PLAYED DIFFERENT GAMES")
    )
    for kind in ("POST move", "GET view"):
        report(kind, latencies)
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
