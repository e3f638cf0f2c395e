"""What each pytest-xdist worker of a run would otherwise make for itself, made once for the run.

A module-scoped fixture is set up on every worker that runs a test of its module, and
pytest-xdist's work stealing spreads a module over several: the documentation's run (a minute)
was made twice or three times a run. A fixture whose value is plain data (or a folder on disk)
makes it through :func:`once_per_run`: the first worker to ask makes it and leaves it in the
run's shared temporary folder, under a lock; the others wait for it and read it. pytest-xdist's
documentation gives this recipe ("Making session-scoped fixtures execute only once").
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[], T]) -> T:
    """``make()``, called once for the whole run whatever the workers, under ``name``: its value
    must pickle, and be the same whichever worker makes it."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: nobody to share with
        return make()
    shared = tmp_path_factory.getbasetemp().parent  # the run's, beside each worker's own
    stored = shared / f"{name}.pickle"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stored.exists():
            value: T = pickle.loads(stored.read_bytes())
            return value
        value = make()
        stored.write_bytes(pickle.dumps(value))
        return value
