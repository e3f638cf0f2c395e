"""The longest tests start first, each on a worker of its own (tests/slow_first.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests import slow_first


def item(name: str, seconds: float = 0) -> Any:
    marker = SimpleNamespace(args=(seconds,)) if seconds else None
    return SimpleNamespace(name=name, get_closest_marker=lambda _: marker)


def test_the_shares_are_those_pytest_xdist_gives() -> None:
    assert slow_first.shares(10, 3) == [3, 3, 4]
    assert slow_first.shares(2493, 3) == [831, 831, 831]


def test_each_share_starts_with_its_slow_tests_the_rest_in_their_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "3")
    items = [item(f"t{n}") for n in range(9)]
    items[4:4] = [item("a", 40), item("b", 60), item("c", 20), item("d", 30)]
    slow_first.pytest_collection_modifyitems(items)
    names = [each.name for each in items]
    # 13 tests in shares of 4, 4 and 5, the longest first each to the lightest share: b (60),
    # a (40), d (30), then c (20) beside d.
    assert names == ["b", "t0", "t1", "t2", "a", "t3", "t4", "t5", "d", "c", "t6", "t7", "t8"]


def test_without_workers_the_order_is_left_as_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    items = [item("t0"), item("a", 40), item("t1")]
    slow_first.pytest_collection_modifyitems(items)
    assert [each.name for each in items] == ["t0", "a", "t1"]
