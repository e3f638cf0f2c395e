"""Live pages: a conditional GET that waits for the game to change (a long poll).

A page showing a game asks for it again with ``If-None-Match`` and ``Prefer: wait=25`` (RFC 7240).
While the game stands where the page showed it, the server holds the answer back, up to that many
seconds (at most ``LIVE_WAIT``), and answers the moment the game's version moves on
(:mod:`scorekeeper.storage.versions`): 200 with the fresh copy, or 304 once the time is up. The
answer says ``Preference-Applied: wait=N`` when it waited; without it (the server at its budget of
waiting requests, ``LIVE_WAITERS`` per worker, or an older server) the page falls back to asking
every few seconds, as before. A view may name an earlier wake-up (a coup-fourré window that closes:
the read that follows closes it).

Each answer is the view's own, the same body a plain conditional GET gets, so what a seat's page
or a seat's token is shown stays exactly what it was: a wait adds no data, only timing.
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, NamedTuple, TypeVar

from flask import Flask, Response, current_app, g, make_response, request

from scorekeeper.storage import versions
from scorekeeper.storage.extensions import db
from scorekeeper.web.security import leave_session_cookie

View = TypeVar("View", bound=Callable[..., Any])

_WAIT = re.compile(r"(?:^|[,;\s])wait\s*=\s*\"?(\d{1,6})\"?", re.IGNORECASE)
WAKE_LATE = 0.05
"""Seconds past a wake-up time (a window's close) before reading again, so the read finds it due."""


class Shown(NamedTuple):
    """What a view's answer showed: what :func:`waits` waits on if it said nothing new."""

    watched: versions.Watched
    version: int
    wake_in: float | None = None
    """In how many seconds it must be read again at the latest (a window that closes)."""
    idle: bool | None = None
    """Whether the answer said nothing new (None: if it is a 304)."""


def watched(game_id: int, version: int, wake_in: float | None = None) -> None:
    """Say which game (and version) the view's answer shows, and in how many seconds it must be
    read again at the latest: what :func:`waits` waits on if the answer is 304."""
    g.live_shown = Shown(versions.game(game_id), version, wake_in)


def watched_feed(table_id: int, count: int, *, idle: bool | None) -> None:
    """Say that the view's answer shows table ``table_id``'s feed up to event ``count``, and
    whether it was ``idle`` (no event after the follower's; None: if it is a 304): what
    :func:`waits` waits on."""
    g.live_shown = Shown(versions.feed(table_id), count, None, idle)


def asked_wait() -> int:
    """The seconds the request's ``Prefer: wait=N`` asks for, capped at ``LIVE_WAIT``; 0 if it
    asks none (a preference the server does not know, or cannot read, is ignored: RFC 7240)."""
    found = _WAIT.search(request.headers.get("Prefer", ""))
    return 0 if found is None else min(int(found.group(1)), int(current_app.config["LIVE_WAIT"]))


def waits(view: View) -> View:
    """``view`` (a conditional GET that calls :func:`watched`) answering 304 only after waiting
    for the game to change, if the request asks with ``Prefer: wait``."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Response:
        response = make_response(view(*args, **kwargs))
        seconds = asked_wait()
        shown: Shown | None = g.pop("live_shown", None)
        if seconds <= 0 or shown is None:
            return response
        if not (response.status_code == 304 if shown.idle is None else shown.idle):
            return response
        budget: threading.BoundedSemaphore = current_app.extensions["live_budget"]
        if not budget.acquire(blocking=False):
            return response  # no Preference-Applied: the page polls as before
        try:
            timeout = float(seconds)
            if shown.wake_in is not None:
                timeout = min(timeout, max(0.0, shown.wake_in) + WAKE_LATE)
            db.session.close()  # no connection, no snapshot held while waiting
            versions.watch(current_app).wait(shown.watched, shown.version, timeout)
        finally:
            budget.release()
        g.pop("live_shown", None)
        response = make_response(view(*args, **kwargs))
        leave_session_cookie()
        response.headers["Preference-Applied"] = f"wait={seconds}"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    return wrapped  # type: ignore[return-value]


SPARE_THREADS = 4
"""A worker's threads never taken by waiting requests: they serve the moves that end the waits."""


def init_app(app: Flask) -> None:
    """The worker's watch and its budget of waiting requests; under a server that stops its
    workers with SIGTERM (gunicorn), the waits end at once when it does, so a restart is not held
    back by the phones waiting, and the budget stays ``SPARE_THREADS`` below its threads."""
    versions.init_app(app)
    waiters = int(app.config["LIVE_WAITERS"])
    earlier = None
    if threading.current_thread() is threading.main_thread():
        earlier = signal.getsignal(signal.SIGTERM)
    if callable(earlier):  # a server's own handler (gunicorn's worker), not the default
        signal.signal(signal.SIGTERM, _stopping(app, earlier))
        signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn's worker sets it
        waiters = within_threads(app, waiters, server_threads(earlier))
    app.extensions["live_budget"] = threading.BoundedSemaphore(waiters)


def server_threads(handler: Callable[..., Any]) -> int | None:
    """The threads of the worker whose SIGTERM ``handler`` this is (gunicorn's ``--threads``),
    or None for a server that does not say."""
    settings = getattr(getattr(handler, "__self__", None), "cfg", None)
    threads = getattr(settings, "threads", None)
    return threads if isinstance(threads, int) and threads > 0 else None


def within_threads(app: Flask, waiters: int, threads: int | None) -> int:
    """``waiters``, lowered (with a warning) to leave ``SPARE_THREADS`` of the worker's
    ``threads`` free: waiting requests that held every thread would leave none for the move that
    ends their wait."""
    if threads is None or int(app.config["LIVE_WAIT"]) <= 0:
        return waiters
    allowed = max(threads - SPARE_THREADS, 0)
    if waiters > allowed:
        app.logger.warning(
            "LIVE_WAITERS=%d needs %d threads a worker (gunicorn --threads), it has %d: "
            "at most %d requests wait at once (0: the pages poll)",
            waiters,
            waiters + SPARE_THREADS,
            threads,
            allowed,
        )
        return allowed
    return waiters


def _stopping(app: Flask, earlier: Callable[..., Any]) -> Callable[..., Any]:
    def handler(number: int, frame: Any) -> Any:
        versions.watch(app).stop()
        return earlier(number, frame)

    return handler
