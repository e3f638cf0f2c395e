"""The benchmarks run and print their figures (smoke runs: no speed or strength is asserted, the
figures of so short a run mean nothing).

The API-against-bare benchmark drives both apps with wrk: without it the test is skipped, saying
why, except under ``CI=true``, where it fails (``.ci/run`` installs wrk), so a green CI run always
means the benchmark ran.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from scorekeeper.cli import cli
from tests.conftest import require
from tests.proxies import needed

ROOT = Path(__file__).resolve().parents[2]


def benchmark(script: str, *arguments: str, **options: Any) -> subprocess.CompletedProcess[str]:
    """``benchmarks/<script>`` run with ``arguments``, its output captured."""
    command = [sys.executable, str(ROOT / "benchmarks" / script), *arguments]
    settings: dict[str, Any] = {"timeout": 600, **options}
    return subprocess.run(command, capture_output=True, text=True, check=False, **settings)


def printed(script: str, *arguments: str) -> str:
    """What ``benchmarks/<script>`` printed, having run to its end without an error."""
    done = benchmark(script, *arguments)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow(28)
def test_the_api_benchmark_prints_each_ratio_to_the_bare_endpoint() -> None:
    if shutil.which("wrk") is None:
        require("wrk is not installed (Debian: apt-get install wrk)", "CI needs it")
    stdout = printed("api_vs_bare.py", "--seconds", "1", "--rounds", "1", "--backend", "sqlite")
    for kind in ("GET game (12 hands)", "304 poll", "POST hand"):
        row = rf"^  {re.escape(kind)} +[\d,]+ +[\d,]+ +\d+\.\d\d +[\d.]+ +[\d.]+ +\d+\.\d\d$"
        assert re.search(row, stdout, re.MULTILINE), (kind, stdout)
        assert re.search(rf"^  {re.escape(kind)}: ratio \d+\.\d\d \(goal", stdout, re.M)


def test_the_api_benchmark_stops_saying_why_without_wrk(tmp_path: Path) -> None:
    done = benchmark(
        "api_vs_bare.py", "--seconds", "1", timeout=60, env={**os.environ, "PATH": str(tmp_path)}
    )
    assert done.returncode != 0
    assert "wrk is not installed (Debian: sudo apt-get install wrk)" in done.stderr


@pytest.mark.slow(20)
def test_the_selfplay_benchmark_prints_a_ratio_to_the_reference_for_each_figure() -> None:
    stdout = printed("selfplay.py", "--quick")
    assert "pure ≥3×" in stdout and "compiled ≥5,000 random" in stdout
    for kind in ("random", "greedy", "strong", "search"):
        for seats in (2, 4):
            row = rf"^{kind} +{seats} +[\d,]+ +[\d,]+ ×\d+\.\d\d +([\d,]+ ×\d+\.\d\d|—) "
            assert re.search(row, stdout, re.MULTILINE), (kind, seats, stdout)


def test_the_decision_time_benchmark_prints_a_row_per_player_and_seat_count() -> None:
    stdout = printed("decision_time.py", "--games", "1")
    for kind in ("search", "strong"):
        for seats in (2, 3, 4, 6):
            row = rf"^{kind} +{seats} +[\d,]+( +\d+\.\d\d){{4}}$"
            assert re.search(row, stdout, re.MULTILINE), (kind, seats, stdout)


def test_the_search_ceiling_benchmark_prints_a_share_won_per_row() -> None:
    stdout = printed("search_ceiling.py", "--games", "2")
    for row in (
        "search",
        "every turn",
        "knows the hand",
        "knows the hand and play",
        "knows every card",
    ):
        line = rf"^{row} +2 +\d+\.\d% +\d+\.\d%–\d+\.\d%$"
        assert re.search(line, stdout, re.MULTILINE), (row, stdout)


def test_the_search_ceiling_benchmark_plays_its_rows_against_a_reference() -> None:
    stdout = printed(
        "search_ceiling.py", "--games", "2", "--against", "classic", "--rows", "search"
    )
    assert re.search(r"^search player vs classic +games", stdout, re.MULTILINE), stdout
    assert re.search(r"^search +2 +\d+\.\d% +\d+\.\d%–\d+\.\d%$", stdout, re.MULTILINE), stdout


def test_the_match_benchmark_plays_the_reference_opponents_as_simulate_plays() -> None:
    """The reference opponents, which ``scorekeeper simulate`` does not know, play in worker
    processes; the app's players come out as the command's own table prints them."""
    stdout = printed(
        "match.py", *"--players strong,classic,contest --seats 3 --games 3 --workers 2".split()
    )
    for name in ("strong", "classic", "contest"):
        row = rf"^{name} +3 +\d+\.\d +\d+\.\d% +\d+\.\d%–\d+\.\d% +\d+\.\d  "
        assert re.search(row, stdout, re.MULTILINE), (name, stdout)
    arguments = ["--players", "strong,greedy", "--games", "4", "--seed", "3"]
    command = CliRunner().invoke(cli, ["simulate", *arguments])
    assert command.exit_code == 0, command.output
    assert printed("match.py", *arguments) == command.stdout


def test_the_simulate_benchmark_prints_each_command_against_the_reference() -> None:
    stdout = printed("simulate_speed.py", "--games", "2", "--rounds", "1")
    assert re.search(r"^reference +\d+\.\d +1\.00 *$", stdout, re.MULTILINE), stdout
    assert re.search(r"^pure +\d+\.\d +\d+\.\d\d  ≥3×: (met|not met)$", stdout, re.MULTILINE)
    compiled = r"^compiled +\d+\.\d +\d+\.\d\d  ≥6×: (met|not met)$"
    assert re.search(compiled, stdout, re.MULTILINE) or "compiled engine: " in stdout, stdout


def test_the_leaderboard_benchmark_prints_its_ratio_to_the_history_page() -> None:
    stdout = printed("leaderboard.py", "--games", "60", "--players", "8", "--rounds", "2")
    for page in ("leaderboard", "history"):
        assert re.search(rf"^  {page} +\d+\.\d +\d+\.\d +\d+\.\d$", stdout, re.M), stdout
    assert re.search(r"^  leaderboard p90 / history p90: ratio \d+\.\d\d$", stdout, re.M)
    assert re.search(
        r"^  leaderboard p90 [\d.]+ ms: (within|OVER) the goal of 50 ms$", stdout, re.M
    )


@pytest.mark.slow(60)
def test_the_live_benchmark_prints_a_row_per_mode_and_the_cost_per_phone() -> None:
    """An evening of ``--phones N`` in the club's proportions, its phones through Caddy, as the
    figures quoted are measured: a row per server, and what a phone costs each against polling."""
    needed("caddy")
    stdout = printed(
        "live.py", "--seconds", "2", "--phones", "40", "--backend", "sqlite", "--behind", "caddy"
    )
    assert "40 phones: 8 virtual games × 3 phones, 4 scoreboards with 16" in stdout
    assert "behind caddy" in stdout
    figure, mean_max = r" +([\d.]+|nan)", r" +[\d.]+ / \d+"
    for mode in ("polling", "threads", "gevent"):
        row = (
            rf"^{mode} +40 +\d+({figure}){{3}} +[\d.]+% +\d+ +[\d.]+{figure}{mean_max}"
            r" +\d+ +[\d.]+% +\d+%$"
        )
        assert re.search(row, stdout, re.MULTILINE), (mode, stdout)
    for mode in ("threads", "gevent"):
        assert re.search(rf"^server CPU per phone, {mode} against polling: ×[\d.]+;", stdout, re.M)


@pytest.mark.slow(30)
def test_the_feed_benchmark_prints_a_row_per_mode_and_the_cost_per_follower() -> None:
    stdout = printed(
        "feed.py", "--followers", "5", "--seconds", "5", "--rounds", "1", "--backend", "sqlite"
    )
    figure = r" +([\d.]+|nan)"
    for mode in ("waiting", "polling"):
        row = rf"^{mode} +\d+ +\d+/5 +({figure}){{3}} +[\d.]+%{figure}{figure} +\d+$"
        assert re.search(row, stdout, re.MULTILINE), (mode, stdout)
    assert re.search(r"^server CPU per follower, waiting against polling: ×[\d.]+$", stdout, re.M)
