"""Under gevent's worker (the unit's ``-k gevent``), in a process monkey-patched as gunicorn's
worker is: a request waiting for the other worker process to finish its SQLite write waits off the
event loop, so the rest of its worker's requests go on meanwhile (the whole process stopping in
``flock`` is what made a move take seconds to reach the other phone at 340 phones,
docs/contributing/live.md); and a signal handler's work runs in a greenlet of its own, so a lock
held by the greenlet the signal interrupted does not stop the worker."""

from __future__ import annotations

import fcntl
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

WORKER = """
from gevent import monkey
monkey.patch_all()
import sys
import gevent
from scorekeeper.storage import sqlite

database = sys.argv[1]

def others_go_on():
    for _ in range(3):
        gevent.sleep(0.01)
    print("another request went on", flush=True)

def writer():
    sqlite._lock(database)
    print("write lock taken", flush=True)

gevent.joinall([gevent.spawn(writer), gevent.spawn(others_go_on)])
"""


def said(process: subprocess.Popen[str]) -> str:
    """The worker's next line, or "" if a minute goes by without one (a process stopped)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 60)
    return process.stdout.readline() if ready else ""


@contextmanager
def worker(script: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    """``script`` run by Python as a gevent worker runs (it patches itself first), its output
    read through :func:`said`; killed at the end of the block if still running."""
    with subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    ) as process:
        try:
            yield process
        finally:
            process.kill()


def test_a_write_waiting_for_the_other_worker_stops_nothing_else(tmp_path: Path) -> None:
    """The other worker holds the write lock until this worker's other request has gone on: a
    process stopped in ``flock`` never gets there, and this test's read of its output would time
    out instead of seeing the lines in this order."""
    database = str(tmp_path / "scores.sqlite3")
    held = os.open(database + "-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)  # the other worker, mid-write
    try:
        with worker(WORKER, database) as process:
            assert said(process) == "another request went on\n"
            fcntl.flock(held, fcntl.LOCK_UN)  # the other worker's write is over
            assert said(process) == "write lock taken\n"
            assert process.wait(timeout=60) == 0
    finally:
        os.close(held)


SIGNALLED = """
from gevent import monkey
monkey.patch_all()
import os
import signal
import threading
import gevent
from scorekeeper.storage import event_loop

lock = threading.Lock()

def stop():
    with lock:
        print("the handler's work ran", flush=True)

signal.signal(signal.SIGTERM, lambda number, frame: event_loop.soon(stop))
with lock:  # the signal comes while this greenlet holds the lock the handler's work takes
    os.kill(os.getpid(), signal.SIGTERM)
    gevent.sleep(0.01)
    print("the interrupted greenlet went on", flush=True)
gevent.sleep(0.1)
"""


def test_a_signal_handlers_work_waits_for_the_lock_the_interrupted_greenlet_holds() -> None:
    """Run in the interrupted greenlet, the work would wait for a lock that greenlet holds,
    forever: the process would say nothing more."""
    with worker(SIGNALLED) as process:
        assert said(process) == "the interrupted greenlet went on\n"
        assert said(process) == "the handler's work ran\n"
        assert process.wait(timeout=60) == 0
