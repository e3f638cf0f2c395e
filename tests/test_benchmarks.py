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

import pytest

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI") == "true"


def test_the_api_benchmark_prints_each_ratio_to_the_bare_endpoint() -> None:
    if shutil.which("wrk") is None:
        reason = "wrk is not installed (Debian: apt-get install wrk)"
        if IN_CI:
            pytest.fail(f"CI needs {reason}")
        pytest.skip(reason)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "api_vs_bare.py"),
            "--seconds",
            "1",
            "--rounds",
            "1",
            "--backend",
            "sqlite",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for kind in ("GET game (12 hands)", "304 poll", "POST hand"):
        row = rf"^  {re.escape(kind)} +[\d,]+ +[\d,]+ +\d+\.\d\d +[\d.]+ +[\d.]+ +\d+\.\d\d$"
        assert re.search(row, done.stdout, re.MULTILINE), (kind, done.stdout)
        assert re.search(rf"^  {re.escape(kind)}: ratio \d+\.\d\d \(goal", done.stdout, re.M)


def test_the_api_benchmark_stops_saying_why_without_wrk(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "api_vs_bare.py"), "--seconds", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PATH": str(tmp_path)},
    )
    assert done.returncode != 0
    assert "wrk is not installed (Debian: sudo apt-get install wrk)" in done.stderr


def test_the_selfplay_benchmark_prints_a_ratio_to_the_reference_for_each_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "selfplay.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pure ≥3×" in done.stdout and "compiled ≥5,000 random" in done.stdout
    for kind in ("random", "greedy", "strong", "search"):
        for seats in (2, 4):
            row = rf"^{kind} +{seats} +[\d,]+ +[\d,]+ ×\d+\.\d\d +([\d,]+ ×\d+\.\d\d|—) "
            assert re.search(row, done.stdout, re.MULTILINE), (kind, seats, done.stdout)


def test_the_decision_time_benchmark_prints_a_row_per_player_and_seat_count() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "decision_time.py"), "--games", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for kind in ("search", "strong"):
        for seats in (2, 3, 4, 6):
            row = rf"^{kind} +{seats} +[\d,]+( +\d+\.\d\d){{4}}$"
            assert re.search(row, done.stdout, re.MULTILINE), (kind, seats, done.stdout)


def test_the_search_ceiling_benchmark_prints_a_share_won_per_row() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "search_ceiling.py"), "--games", "2"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for row in ("search", "every turn", "knows the hand", "knows every card"):
        line = rf"^{row} +2 +\d+\.\d% +\d+\.\d%–\d+\.\d%$"
        assert re.search(line, done.stdout, re.MULTILINE), (row, done.stdout)
