"""Helpers for tests (and benchmarks) that run things beside the code under test: phones in
background threads, and a clock that moves only when told."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Self

from scorekeeper.storage.models import utcnow


class Background:
    """A thread for each of ``works``, each running until :attr:`stop` is set (``lock`` guards
    what they share); a ``with`` block starts them and, on leaving, stops them and waits."""

    def __init__(self, works: Iterable[Callable[[], None]]) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=work) for work in works]

    def __enter__(self) -> Self:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()


class Clock:
    """The time the server goes by, moved only by :meth:`wait`: a coup-fourré window then closes
    when the caller says, whatever the machine's speed."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
