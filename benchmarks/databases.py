"""The databases a server benchmark runs on, one after the other: SQLite in a fresh folder, then
a throwaway PostgreSQL cluster (fsync on, as a server keeps it), each named as the figures say.
A machine without PostgreSQL's binaries gets a line saying so, not a failure: the SQLite figures
still stand."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import postgres  # noqa: E402  (the throwaway cluster the tests use)

BACKENDS = ("sqlite", "postgresql")
LABELS = {"sqlite": "SQLite (WAL, synchronous=FULL)", "postgresql": "PostgreSQL 15 (fsync on)"}


def add_backend_option(parser: argparse.ArgumentParser) -> None:
    """``--backend``, repeatable; none given means both."""
    parser.add_argument("--backend", choices=BACKENDS, action="append")


def each_database(backends: Sequence[str] | None) -> Iterator[tuple[str, str]]:
    """The label and URL of each database asked for (both by default), for the loop's body to
    run on; the database goes away once the body is done with it."""
    for backend in backends or BACKENDS:
        if backend == "sqlite":
            folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
            try:
                yield LABELS[backend], f"sqlite:///{folder / 'bench.sqlite3'}"
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            continue
        missing = postgres.binaries_missing()
        if missing:
            print(f"\nPostgreSQL: skipped, {missing}")
            continue
        with postgres.cluster(fsync=True) as url:
            yield LABELS[backend], url
