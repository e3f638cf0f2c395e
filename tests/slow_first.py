"""The longest tests first, one worker each: a run does not end on one worker alone with them.

pytest-xdist's work stealing gives each worker an even, contiguous share of the collected tests,
in the order collected (pytest-randomly's, drawn from the run's seed), and a worker done early
takes half of a busy one's queue. A test of a minute that falls at the end of a share then runs
while the other workers wait: on a 2-core machine, the last minutes of a run were one worker on
the pictures or the organiser's guide. A test marked ``slow(seconds)`` (what it takes on an idle
machine) is moved to the front of a share, the longest first, each to the share with the fewest
seconds of slow tests so far; the other tests keep their drawn order, so a run's order is still
the one its seed draws, and the same in every worker (pytest-xdist checks it).
"""

from __future__ import annotations

import os

import pytest


def shares(count: int, workers: int) -> list[int]:
    """How many tests each worker is given at first, as pytest-xdist's work stealing divides
    ``count`` tests among ``workers``."""
    sizes = []
    for remaining in range(workers, 0, -1):
        sizes.append((count - sum(sizes)) // remaining)
    return sizes


def seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.args[0]) if marker is not None else 0.0


@pytest.hookimpl(trylast=True)  # after pytest-randomly has drawn the order
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    slow = sorted((item for item in items if seconds(item)), key=seconds, reverse=True)
    if workers < 2 or not slow:
        return
    rest = iter([item for item in items if not seconds(item)])
    sizes = shares(len(items), workers)
    firsts: list[list[pytest.Item]] = [[] for _ in sizes]
    for item in slow:
        lightest = min(range(len(sizes)), key=lambda share: sum(map(seconds, firsts[share])))
        firsts[lightest].append(item)
    ordered: list[pytest.Item] = []
    for size, first in zip(sizes, firsts, strict=True):
        ordered += first
        ordered += [next(rest) for _ in range(max(0, size - len(first)))]
    ordered += list(rest)
    items[:] = ordered
