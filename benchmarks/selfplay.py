"""Self-play speed of the engine, as ratios against today's engine measured in the same run.

    .venv/bin/python benchmarks/selfplay.py [--seconds 2] [--rounds 3] [--quick]

Three engines, each measured in a process of its own whose PYTHONPATH puts it first:

- reference: the engine as it was at commit c9a1462, before any work on its speed, frozen in
  ``benchmarks/reference/engine-v1.zip`` (``git archive c9a1462 engine``, imported from the zip);
- pure: the engine of this source tree, as Python;
- compiled: the same source compiled by mypyc into ``build/compiled`` (``make compiled``), when it
  has been built and is not older than the source.

Hands/s: whole games to 5,000 (every deal, every move, each hand's report scored and checked by the
scorer) between computer players of one kind, all decisions made through seat views, the hands
counted. Search: decisions/s of the search player (its default settings) at seat 0, the other seats
strong, over whole hands, its own time only. Seconds are the measuring process's CPU time, so that
other work on the machine slows the figures less (it still does: caches, frequency). Every engine
plays the same seeds. The engines take turns for each figure, round after round (the first to go
changing each round), and each figure is the median of its rounds; the ratios to the reference are
the figures to compare between machines, the hands/s only on the machine named.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "benchmarks" / "reference" / "engine-v1.zip"
COMPILED = ROOT / "build" / "compiled"
FIGURES = [
    ("random", 2),
    ("random", 4),
    ("greedy", 2),
    ("greedy", 4),
    ("strong", 2),
    ("strong", 4),
    ("search", 2),
    ("search", 4),
]
GOALS = (
    "Goals (engine core six times faster): pure ≥3× the reference for random and strong at 2 and "
    "4 seats; compiled ≥5,000 random and ≥3,000 strong hands/s at 2 seats; search ≥5× the "
    "reference's decisions/s, compiled."
)


# -- one figure, in a process whose PYTHONPATH chose the engine ----------------------------------


def whole_game_class() -> Any:
    """The engine's class of a whole game: ``VirtualGame``, or ``Game`` in the reference engine
    (it was renamed since)."""
    try:
        from engine.game import Game  # type: ignore[import-not-found]
    except ModuleNotFoundError:
        from engine.virtual_game import VirtualGame

        return VirtualGame
    return Game


def hands_per_second(kind: str, players: int, seconds: float) -> float:
    from random import Random

    from engine.players import make_player
    from engine.rules import Rules

    VirtualGame = whole_game_class()

    def play(seed: int) -> int:
        game = VirtualGame(Rules.for_players(players), seed)
        game.play([make_player(kind, Random(seed * 10 + seat)) for seat in range(players)])
        return len(game.sheet.hands)

    play(1_000_000)  # warm-up, not counted
    hands, seed = 0, 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        hands += play(seed)
        seed += 1
    return hands / (time.process_time() - start)


def search_decisions_per_second(players: int, seconds: float) -> tuple[float, dict[str, Any]]:
    """The search player deciding at seat 0 (other seats strong), over whole hands; with the
    search settings it reports (``deals``, ``candidates``), to show they were the same."""
    from random import Random

    from engine.players import make_player
    from engine.rules import Rules
    from engine.view import seat_view

    VirtualGame = whole_game_class()
    decisions, searching, seed = 0, 0.0, 0
    settings: dict[str, Any] = {}
    while searching < seconds:
        game = VirtualGame(Rules.for_players(players), seed)
        computers = [make_player("strong", Random(seed * 10 + seat)) for seat in range(players)]
        searcher = make_player("search", Random(seed))
        settings = {name: getattr(searcher, name, "?") for name in ("deals", "candidates")}
        while not game.over and len(game.sheet.hands) < 1:
            seat = game.hand.to_act
            view = seat_view(game.hand, seat)
            if seat == 0:
                start = time.process_time()
                move = searcher.choose(view)
                searching += time.process_time() - start
                decisions += 1
            else:
                move = computers[seat].choose(view)
            game.apply(move, seat)
        seed += 1
    return decisions / searching, settings


def measure(kind: str, players: int, seconds: float) -> dict[str, Any]:
    """One figure, with where the engine came from and how many of its modules were compiled."""
    settings: dict[str, Any] = {}
    if kind == "search":
        rate, settings = search_decisions_per_second(players, seconds)
    else:
        rate = hands_per_second(kind, players, seconds)
    import engine

    modules = [module for name, module in sys.modules.items() if name.split(".")[0] == "engine"]
    compiled = [m for m in modules if str(m.__file__).endswith(tuple(EXTENSION_SUFFIXES))]
    return {
        "rate": rate,
        "engine": str(engine.__file__),
        "compiled": len(compiled),
        "settings": settings,
    }


# -- the run: engines in turn, round after round ------------------------------------------------


@dataclass(frozen=True)
class Engine:
    name: str
    path: Path
    """What goes first on PYTHONPATH: the zip, the source tree or the compiled build."""

    def run(self, kind: str, players: int, seconds: float) -> dict[str, Any]:
        environment = {**os.environ, "PYTHONPATH": str(self.path), "PYTHONHASHSEED": "0"}
        arguments = [str(Path(__file__).resolve()), "--measure", kind, str(players), str(seconds)]
        done = subprocess.run(
            [sys.executable, "-P", *arguments],
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            sys.exit(f"{self.name} engine, {kind} at {players} seats, failed:\n{done.stderr}")
        figure: dict[str, Any] = json.loads(done.stdout)
        self.check(figure)
        return figure

    def check(self, figure: dict[str, Any]) -> None:
        """The engine measured must be this one: a fall-back to another would pass unseen."""
        origin = Path(figure["engine"])
        expected = self.path / "engine"
        if origin.parent != expected:
            sys.exit(f"{self.name}: the engine came from {origin.parent}, not {expected}")
        if (figure["compiled"] > 0) != (self.name == "compiled"):
            sys.exit(f"{self.name}: {figure['compiled']} engine modules were compiled ones")


def compiled_status(folder: Path) -> str | None:
    """Why the compiled engine cannot be measured (None if it can)."""
    built = [
        path for suffix in EXTENSION_SUFFIXES for path in (folder / "engine").rglob(f"*{suffix}")
    ]
    if not built:
        return f"not built ({folder.relative_to(ROOT)}: `make compiled`)"
    source = max(path.stat().st_mtime for path in (ROOT / "engine").rglob("*.py"))
    if source > min(path.stat().st_mtime for path in built):
        return "older than the engine source (`make compiled` builds it again)"
    return None


def machine() -> str:
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def load() -> str:
    try:
        return ", ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def ratio(value: float | None, reference: float) -> str:
    return "—" if value is None else f"{value:,.0f} ×{value / reference:.2f}"


def verdicts(median: dict[tuple[str, int], dict[str, float]]) -> list[str]:
    """Each goal, the figures it reads and whether they reach it (nothing checks it but you)."""

    def times(engine: str, kind: str, players: int) -> float | None:
        figures = median[kind, players]
        return figures[engine] / figures["reference"] if engine in figures else None

    def line(goal: str, values: list[tuple[str, float | None, float]]) -> str:
        shown = [(label, value, bar) for label, value, bar in values if value is not None]
        if not shown:
            return f"{goal}: not measured"
        met = all(value >= bar for _, value, bar in shown)
        figures = ", ".join(
            (f"{label} " if label else "") + (f"{value:,.0f}" if bar > 100 else f"×{value:.2f}")
            for label, value, bar in shown
        )
        return f"{goal}: {figures}: {'met' if met else 'not yet'}"

    pure = [
        (f"{kind} {players}", times("pure", kind, players), 3.0)
        for kind in ("random", "strong")
        for players in (2, 4)
    ]
    compiled = median["random", 2].get("compiled"), median["strong", 2].get("compiled")
    search = {
        engine: [(f"{players} seats", times(engine, "search", players), 5.0) for players in (2, 4)]
        for engine in ("pure", "compiled")
    }
    pure_search = ", ".join(
        f"{label} ×{value:.2f}" for label, value, _ in search["pure"] if value is not None
    )
    return [
        line("pure ≥3×", pure),
        line("compiled ≥5,000 random hands/s, 2 seats", [("", compiled[0], 5000.0)]),
        line("compiled ≥3,000 strong hands/s, 2 seats", [("", compiled[1], 3000.0)]),
        line("search ≥5×, compiled (the engine a wheel installs)", search["compiled"]),
        f"search, pure Python (no goal of its own): {pure_search or 'not measured'}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2, help="per figure, engine and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smoke run: --seconds 0.2 --rounds 1")
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.measure:
        kind, players, seconds = args.measure
        print(json.dumps(measure(kind, int(players), float(seconds))))
        return
    if args.quick:
        args.seconds, args.rounds = 0.2, 1
    engines = [Engine("reference", REFERENCE), Engine("pure", ROOT)]
    missing = compiled_status(COMPILED)
    if missing is None:
        engines.append(Engine("compiled", COMPILED))
    print(__doc__.splitlines()[0])
    print(f"Machine: {machine()}; one core, CPU time; load average {load()} at the start")
    print(GOALS)
    print(
        f"Each figure: the median of {args.rounds} round(s) of {args.seconds:g} s per engine; "
        f"the reference: {REFERENCE.relative_to(ROOT)} (commit c9a1462)"
        + (f"; compiled: {missing}" if missing else ""),
        flush=True,
    )
    rates: dict[tuple[str, int], dict[str, list[float]]] = {}
    settings: dict[str, dict[str, Any]] = {}
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds}…", file=sys.stderr, flush=True)
        turn = engines[number % len(engines) :] + engines[: number % len(engines)]
        for kind, players in FIGURES:
            for engine in turn:
                figure = engine.run(kind, players, args.seconds)
                rates.setdefault((kind, players), {}).setdefault(engine.name, []).append(
                    figure["rate"]
                )
                if kind == "search":
                    settings[engine.name] = figure["settings"]
    median = {
        key: {name: statistics.median(values) for name, values in by_engine.items()}
        for key, by_engine in rates.items()
    }
    print()
    print(f"{'kind':<8}{'seats':>6}{'reference':>12}{'pure':>16}{'compiled':>16}  unit")
    for (kind, players), figures in median.items():
        reference = figures["reference"]
        unit = "decisions/s" if kind == "search" else "hands/s"
        print(
            f"{kind:<8}{players:>6}{reference:>12,.0f}{ratio(figures['pure'], reference):>16}"
            f"{ratio(figures.get('compiled'), reference):>16}  {unit}"
        )
    print()
    for line in verdicts(median):
        print(line)
    if len({json.dumps(value, sort_keys=True) for value in settings.values()}) > 1:
        print(f"Warning: the search settings differ between engines: {settings}")
    elif settings:
        shown = ", ".join(f"{k} {v}" for k, v in next(iter(settings.values())).items())
        print(f"Search settings (the player's defaults): {shown}")
    print(f"Load average {load()} at the end.")


if __name__ == "__main__":
    main()
