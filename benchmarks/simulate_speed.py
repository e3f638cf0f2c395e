"""`scorekeeper simulate` end to end, in games per CPU second, against the command as it was.

    .venv/bin/python benchmarks/simulate_speed.py [--games 300] [--rounds 3] [--players random]

Three commands, each a whole `scorekeeper simulate --players P,P --games N` in a process of its
own, start-up included (imports, seating, playing, the summary printed):

- reference: the command at commit 9884a0b, before the work on its speed, frozen in
  ``benchmarks/reference/simulate-9884a0b.zip`` (its ``engine`` and ``scorekeeper`` Python
  files, ``git archive``), imported from the zip; its engine was pure Python;
- pure: this source tree's command on its engine as Python;
- compiled: the same command on the engine compiled by mypyc into ``build/compiled``
  (``make compiled``), the one ``make run`` installs; skipped, saying why, when it is not built
  or older than the source.

Seconds are the child process's CPU time (user and system), so other work on the machine slows
the figures less. The commands take turns, round after round (the first to go changing each
round); each figure is the median of its rounds. The ratios to the reference are the figures to
compare between machines, the games per second only on the machine named.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "benchmarks" / "reference" / "simulate-9884a0b.zip"
COMPILED = ROOT / "build" / "compiled"
GOALS = {"pure": 3.0, "compiled": 6.0}
"""Wanted: end to end, on random games, this many times the reference's games per CPU second."""

COMMAND = """
import sys
sys.path[:0] = {path!r}
for name in [name for name in sys.modules if name.split(".")[0] in ("scorekeeper", "engine")]:
    del sys.modules[name]  # loaded at start-up by the compiled engine's .pth: not the one measured
from scorekeeper.cli import cli
cli({arguments!r})
"""
"""The command in a child process whose ``sys.path`` starts with the engine measured (before
the virtual environment's entries, the compiled engine's included)."""


def compiled_state() -> str | None:
    """Why the compiled engine cannot be measured, or None if it is built and up to date."""
    built = COMPILED / ".built"
    if not built.exists():
        return "not built (make compiled)"
    newest = max(path.stat().st_mtime for path in (ROOT / "engine").rglob("*.py"))
    if newest > built.stat().st_mtime:
        return "older than the source (make compiled)"
    return None


def paths(engine: str) -> list[str]:
    if engine == "reference":
        return [str(REFERENCE)]
    if engine == "compiled":
        return [str(COMPILED), str(ROOT)]
    return [str(ROOT)]


def cpu_seconds(engine: str, arguments: list[str]) -> float:
    """One run of the command on ``engine``: its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = COMMAND.format(path=paths(engine), arguments=arguments)
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=os.sep,  # not the source tree: the working folder would come first on sys.path
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", default="random", help="the kind at both seats")
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    arguments = [
        "simulate",
        "--players",
        f"{options.players},{options.players}",
        "--games",
        str(options.games),
        "--seed",
        str(options.seed),
    ]
    engines = ["reference", "pure", "compiled"]
    why_not = compiled_state()
    if why_not is not None:
        print(f"compiled engine: {why_not}; measuring the others only")
        engines.remove("compiled")
    print(
        f"scorekeeper simulate --players {options.players},{options.players} --games "
        f"{options.games}: {options.rounds} rounds, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )
    seconds: dict[str, list[float]] = {engine: [] for engine in engines}
    for number in range(options.rounds):
        order = engines[number % len(engines) :] + engines[: number % len(engines)]
        for engine in order:
            seconds[engine].append(cpu_seconds(engine, arguments))
    rates = {engine: options.games / statistics.median(runs) for engine, runs in seconds.items()}
    print(f"{'command':<10}{'games/CPU s':>13}{'× reference':>13}  goal")
    for engine, rate in rates.items():
        ratio = rate / rates["reference"]
        goal = GOALS.get(engine)
        verdict = "" if goal is None else f"≥{goal:.0f}×: {'met' if ratio >= goal else 'not met'}"
        print(f"{engine:<10}{rate:>13.1f}{ratio:>13.2f}  {verdict}")


if __name__ == "__main__":
    main()
