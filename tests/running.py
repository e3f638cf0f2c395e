"""Helpers for tests (and benchmarks) that run things beside the code under test: phones in
background threads, a clock that moves only when told, a server started in its own process, and
another worker on the same database."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, Self, TypeVar

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import utcnow

Answer = TypeVar("Answer")

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@contextmanager
def served(app: WsgiApp, port: int = 0) -> Iterator[str]:
    """``app`` on werkzeug's threaded server (what ``flask run`` uses) on loopback, on ``port``
    (0: a free one).

    When a browser drops a connection in the middle of a static file, werkzeug's server can skip
    the response's ``close()``, and the open file then surfaces in a later test as a
    ``ResourceWarning``; the app is served through :func:`closing_responses` so that a dropped
    connection closes its file at once.
    """
    server = make_server("127.0.0.1", port, closing_responses(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def closing_responses(app: WsgiApp) -> WsgiApp:
    """``app`` whose every response body is closed when the server stops reading it, whether
    it read to the end, closed it, or let it go (a generator closed on collection runs its
    ``finally``)."""

    def closing(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        body = app(environ, start_response)

        def chunks() -> Iterator[bytes]:
            try:
                yield from body
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()

        return chunks()

    return closing


def wait_until_serving(base: str, seconds: float = 20) -> None:
    """Return once the server at ``base`` answers (a static file: no database needed), or after
    ``seconds``; a server that never came up fails the test's first request, saying why."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/static/app.css", timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)


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


@contextmanager
def another_worker(app: Flask) -> Iterator[Flask]:
    """An app of its own on ``app``'s database, as a second gunicorn worker is: what it commits
    reaches ``app``'s requests only through the database (NOTIFY, SQLite's data version)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    try:
        yield other
    finally:
        with other.app_context():
            db.engine.dispose()


def written_while_waiting(
    app: Flask, writer: str, write: Callable[[FlaskClient], None], wait: Callable[[], Answer]
) -> tuple[Answer, float]:
    """``wait()`` (a request that waits for a change) and how long it took, while ``write``
    runs half a second after it starts, on a client of ``app`` (``writer`` "this worker") or of
    :func:`another_worker`."""
    with contextlib.ExitStack() as stack:
        worker = app if writer == "this worker" else stack.enter_context(another_worker(app))

        def write_soon() -> None:
            time.sleep(0.5)
            with worker.test_client() as client:
                write(client)

        thread = threading.Thread(target=write_soon)
        thread.start()
        try:
            began = time.monotonic()
            answer = wait()
            return answer, time.monotonic() - began
        finally:
            thread.join()


def ask(url: str, headers: dict[str, str], body: object = None) -> tuple[int, dict[str, str], Any]:
    """``url`` asked of a server a test started, with ``headers`` (POST ``body`` as JSON if
    given): its status, its headers and its JSON body (None if it has none)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, fields, text = answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        with error:
            status, fields, text = error.code, dict(error.headers), error.read()
    is_json = fields.get("Content-Type", "").endswith("json")
    return status, fields, json.loads(text) if is_json else None
