"""Scoring throughput: how many hand reports per second the engine and the endpoint check and score.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/run.py``). Prints one line per figure.
"""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import read_report
from scorekeeper import create_app

ALL = ["driving_ace", "extra_tank", "puncture_proof", "right_of_way"]
REPORTS: list[dict[str, Any]] = [
    {
        "players": 2,
        "extension_called_by": 0,
        "sides": [
            {
                "name": "Ann",
                "distance": {"50": 2, "100": 7, "200": 1},
                "safeties": ALL,
                "coup_fourres": ["extra_tank"],
                "completed_trip": True,
                "claims": ["shutout"],
            },
            {"name": "Bob", "distance": 0},
        ],
    },
    {
        "players": 4,
        "sides": [
            {
                "name": "N",
                "distance": 1000,
                "two_hundreds": 0,
                "completed_trip": True,
                "delayed_action": True,
                "safeties": ALL[:3],
            },
            {
                "name": "E",
                "distance": 275,
                "safeties": ["right_of_way"],
                "coup_fourres": ["right_of_way"],
            },
        ],
    },
    {
        "players": 6,
        "extension_called_by": 0,
        "sides": [
            {"name": "A", "distance": 925},
            {"name": "B", "distance": 1000, "two_hundreds": 1, "completed_trip": True},
            {"name": "C", "distance": 300, "claims": ["extension"]},
        ],
    },
]
SHEET = {
    "players": 3,
    "sides": ["A", "B", "C"],
    "hands": [
        {
            "sides": [
                {"distance": 700, "two_hundreds": 0, "completed_trip": True},
                {"distance": 325},
                {"distance": 0},
            ]
        }
    ]
    * 4,
}


def rate(work: Callable[[], object], seconds: float = 2.0) -> tuple[float, float]:
    """Calls per second over ``seconds``, and the median latency of one call in µs."""
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        work()
        latencies.append(time.perf_counter() - start)
    return len(latencies) / sum(latencies), statistics.median(latencies) * 1e6


def main() -> None:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    client = app.test_client()
    bodies = [json.dumps(report) for report in REPORTS]

    def engine_hand() -> None:
        for report in REPORTS:
            read_report(report)

    def endpoint_hand() -> None:
        for body in bodies:
            client.post("/api/v1/score", data=body, content_type="application/json")

    sheet_body = json.dumps(SHEET)

    def endpoint_sheet() -> None:
        client.post("/api/v1/score/sheet", data=sheet_body, content_type="application/json")

    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()}"
    )
    per_call, median = rate(engine_hand)
    print(
        f"engine: read+check+score   {per_call * len(REPORTS):>9,.0f} reports/s  "
        f"(median {median / len(REPORTS):,.0f} µs per report)"
    )
    per_call, median = rate(endpoint_hand)
    print(
        f"POST /api/v1/score         {per_call * len(REPORTS):>9,.0f} requests/s "
        f"(median {median / len(REPORTS):,.0f} µs, in-process WSGI)"
    )
    per_call, median = rate(endpoint_sheet)
    print(
        f"POST /api/v1/score/sheet   {per_call:>9,.0f} requests/s "
        f"(4 hands; median {median:,.0f} µs, in-process WSGI)"
    )


if __name__ == "__main__":
    main()
