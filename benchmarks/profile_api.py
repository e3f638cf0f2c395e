"""Where an API request's time goes, in-process: queries per request and a cProfile of many.

A game of 12 hands on a fresh SQLite database (WAL, ``synchronous=FULL``), served by the Flask
test client, so only the app's own work is measured (no server, no network). For each kind of
request it prints the SQL statements one request runs, the CPU milliseconds per request, and
the functions that took the most time over ``--requests`` of them.

    .venv/bin/python benchmarks/profile_api.py [--requests 500] [--top 25] [--kind post]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from benchmarks.api_vs_bare import POSTED_HAND, SEED_HAND, SEEDED_HANDS  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.storage.extensions import db  # noqa: E402


@contextmanager
def counted() -> Iterator[list[str]]:
    """Every SQL statement run inside the block (BEGIN and COMMIT are not statements here)."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.split("\n")[0][:100])

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(Engine, "before_cursor_execute", count)


def seeded(folder: Path) -> tuple[Flask, FlaskClient, str, dict[str, str]]:
    """The app on a new database, a table and a game of 12 hands: its URL and the headers."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'p.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"name": "Bench"}).get_json()
    headers = {"Authorization": f"Bearer {table['token']}"}
    url = f"/api/v1/tables/{table['id']}"
    ann, bob = (
        client.post(f"{url}/players", json={"name": n}, headers=headers).get_json()["id"]
        for n in ("Ann", "Bob")
    )
    body = {"players": 2, "sides": [{"players": [ann]}, {"players": [bob]}]}
    game = client.post(f"{url}/games", json=body, headers=headers).get_json()
    url = f"{url}/games/{game['id']}"
    for _ in range(SEEDED_HANDS):
        client.post(f"{url}/hands", json=SEED_HAND, headers=headers)
    return app, client, url, headers


def kinds(client: FlaskClient, url: str, headers: dict[str, str]) -> dict[str, Callable[[], Any]]:
    etag = client.get(url, headers=headers).headers["ETag"]
    return {
        "get": lambda: client.get(url, headers=headers),
        "poll": lambda: client.get(url, headers={**headers, "If-None-Match": etag}),
        "post": lambda: client.post(
            f"{url}/hands",
            json=POSTED_HAND,
            headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="tottime", help="a pstats sort key: cumulative, ...")
    parser.add_argument("--kind", choices=["get", "poll", "post"], action="append")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app, client, url, headers = seeded(Path(folder))
        requests = kinds(client, url, headers)
        for kind in args.kind or ["get", "poll", "post"]:
            send = requests[kind]
            send()  # warm
            with counted() as statements:
                answer = send()
            print(f"\n== {kind}: {answer.status_code}, {len(statements)} statements")
            for statement in statements:
                print(f"   {statement}")
            start = time.process_time()
            for _ in range(args.requests):
                send()
            per = (time.process_time() - start) / args.requests * 1000
            print(f"   {per:.2f} ms of CPU per request over {args.requests}")
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.requests):
                send()
            profile.disable()
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
