"""A throwaway PostgreSQL cluster for the test session, on loopback in a temporary folder.

Needs the PostgreSQL server binaries (``initdb``, ``pg_ctl``). As root (CI), the cluster runs as
the ``postgres`` system user, since ``initdb`` refuses to run as root.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

USER = "app"


def binaries_missing() -> str | None:
    """Why a cluster cannot be started here, or None when it can."""
    for binary in ("initdb", "pg_ctl"):
        if shutil.which(binary) is None:
            return f"no PostgreSQL binaries found ({binary} is not on PATH)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as another user"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(*command: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its server's SQLAlchemy URL, and how to stop and start it again (a
    database restarted under a serving app, as an upgrade or a reboot does)."""

    url: str
    pg_ctl: tuple[str, ...]
    options: str

    def stop(self) -> None:
        """Stop the server the way a service manager does: connections are cut, not awaited."""
        _run(_as_server_user(*self.pg_ctl, "-m", "fast", "stop"))

    def start(self) -> None:
        """Start the server again; returns once it accepts connections."""
        _run(_as_server_user(*self.pg_ctl, "-o", self.options, "start"))


@contextmanager
def running_cluster(fsync: bool = False) -> Iterator[Cluster]:
    """Start a cluster in a new temporary folder; yield it; stop it and remove the folder after.
    (Not under pytest's own temporary folder: that one is private to the user running the
    tests, and the server may run as another.) Tests run without fsync; a benchmark wants it
    on, as in production."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = _free_port()
    _run(_as_server_user("initdb", "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8"))
    options = f"-k {folder} -c listen_addresses=127.0.0.1 -p {port} -c max_connections=200"
    if not fsync:
        options += " -c fsync=off"
    pg_ctl = ("pg_ctl", "-D", str(data), "-l", str(folder / "log"), "-w")
    server = Cluster(f"postgresql+psycopg://{USER}@127.0.0.1:{port}/postgres", pg_ctl, options)
    try:
        server.start()
        yield server
    finally:
        subprocess.run(_as_server_user(*pg_ctl, "-m", "fast", "stop"), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def scratch_database(server_url: str, name: str) -> Iterator[str]:
    """A new, empty database ``name`` beside the one ``server_url`` names, by its URL: a test's
    own database on the session's cluster, dropped after with whatever still holds it open."""
    server = server_url.rsplit("/", 1)[0]
    admin = create_engine(server + "/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def cluster(fsync: bool = False) -> Iterator[str]:
    """A cluster of :func:`running_cluster`, by its server's SQLAlchemy URL."""
    with running_cluster(fsync) as server:
        yield server.url


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
