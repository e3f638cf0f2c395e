"""A throwaway Redis server for the tests of the limits kept in Redis (several workers and hosts
counting together), on loopback at a free port, its folder a temporary one, nothing saved to disk.

Needs ``redis-server`` (Debian's package of that name, which ``.ci/run`` installs).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from tests.postgres import _free_port


def binary_missing() -> str | None:
    """Why a Redis server cannot be started here, or None when it can."""
    if shutil.which("redis-server") is None:
        return "no Redis server found (redis-server is not on PATH)"
    return None


@contextmanager
def server() -> Iterator[str]:
    """Start a Redis server; yield its URL (``redis://127.0.0.1:<port>/0``); stop it after."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-redis-"))
    port = _free_port()
    with (folder / "log").open("w") as log:  # the server has its own copy of the file
        process = subprocess.Popen(
            [
                "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                "--save", "", "--appendonly", "no", "--daemonize", "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for(url, process, folder / "log")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 20) -> None:
    """Return once the server at ``url`` answers PING; raise, with its log, if it never does."""
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
    finally:
        client.close()
    raise RuntimeError(f"redis-server did not start:\n{log.read_text()}")


def keys(url: str) -> list[str]:
    """Every key the server at ``url`` holds."""
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        return sorted(str(key) for key in client.scan_iter())
    finally:
        client.close()
