"""Live pages: a conditional GET that waits for the game to change (a long poll).

A page showing a game asks for it again with ``If-None-Match`` and ``Prefer: wait=25`` (RFC 7240).
While the game stands where the page showed it, the server holds the answer back, up to that many
seconds (at most ``LIVE_WAIT``), and answers the moment the game's version moves on
(:mod:`scorekeeper.storage.versions`): 200 with the fresh copy, or 304 once the time is up. The
answer says ``Preference-Applied: wait=N`` when it waited; without it (the server at its budget of
waiting requests, all a worker can hold beside its moves or ``LIVE_WAITERS``, or an older server)
the page falls back to asking every few seconds, as before. A view may name an earlier wake-up
(a coup-fourré window that closes: the read that follows closes it).

Each answer is the view's own, the same body a plain conditional GET gets, so what a seat's page
or a seat's token is shown stays exactly what it was: a wait adds no data, only timing.
"""

from __future__ import annotations

import hashlib
import re
import select
import signal
import socket
import threading
from collections import Counter
from collections.abc import Callable
from functools import wraps
from typing import Any, Literal, NamedTuple, TypeVar

from flask import Flask, Response, current_app, g, make_response, request

from scorekeeper.storage import event_loop, versions
from scorekeeper.storage.extensions import db
from scorekeeper.web import limits
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
    for the game to change, if the request asks with ``Prefer: wait``.

    A question asked again as it was last answered (the same request, the tag it was given) is
    not answered before it waits: the view would only find again what it found, at the cost of a
    whole read. The view runs once the wait is over, as always, which checks the token again."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Response:
        seconds = asked_wait()
        answers = recent_answers(current_app)
        key = answers.key()
        shown = answers.unchanged(key) if seconds > 0 else None
        response = None
        if shown is None:
            response = make_response(view(*args, **kwargs))
            shown = g.pop("live_shown", None)
            answers.remember(key, response, shown)
            if seconds <= 0 or shown is None:
                return response
            if not (response.status_code == 304 if shown.idle is None else shown.idle):
                return response
        budget: threading.BoundedSemaphore = current_app.extensions["live_budget"]
        shares, holder = holders(current_app), WaitHolders.holder()
        if not budget.acquire(blocking=False):  # no Preference-Applied: the page polls
            return response or make_response(view(*args, **kwargs))
        if not shares.take(holder):  # this phone's share is taken: it polls too
            budget.release()
            return response or make_response(view(*args, **kwargs))
        gone = asker_gone()
        try:
            timeout = float(seconds)
            if shown.wake_in is not None:
                timeout = min(timeout, max(0.0, shown.wake_in) + WAKE_LATE)
            db.session.close()  # no connection, no snapshot held while waiting
            versions.watch(current_app).wait(shown.watched, shown.version, timeout, gone)
        finally:
            shares.give_back(holder)
            budget.release()
        if gone is not None and gone():  # nobody to read the answer for
            return Response(status=304)
        g.pop("live_shown", None)
        response = make_response(view(*args, **kwargs))
        answers.remember(key, response, g.pop("live_shown", None))
        leave_session_cookie()
        response.headers["Preference-Applied"] = f"wait={seconds}"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    return wrapped  # type: ignore[return-value]


def asker_gone() -> Callable[[], bool] | None:
    """What says whether the request's client closed its connection, under gunicorn (which
    hands the app the connection): a phone that left its page, or a proxy that dropped the
    question when the phone did, frees its waiting place within ``GONE_EVERY`` seconds instead
    of holding it to the end of its wait. None under a server that does not hand it."""
    connection = request.environ.get("gunicorn.socket")
    if connection is None:
        return None

    def gone() -> bool:
        try:
            readable, _, _ = select.select([connection], [], [], 0)
            # Readable with nothing to read: the other end closed. (Bytes waiting are another
            # request of the same client, which is still there.)
            return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):  # closed or reset
            return True

    return gone


class RecentAnswers:
    """What a worker's waiting views last answered to each question (a request's method, path,
    query, credentials and language): the tag it gave and what the answer showed, for the
    ``size`` questions asked last. A question is known by a digest: no token is kept."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._answers: dict[bytes, tuple[str | None, Shown]] = {}
        self._lock = threading.Lock()

    def key(self) -> bytes | None:
        """The question the request asks: what, as whom, in which language (None: nothing is
        remembered)."""
        if self.size <= 0:
            return None
        asked = (
            request.method,
            request.full_path,
            request.headers.get("Authorization", ""),
            request.headers.get("Cookie", ""),
            request.headers.get("Accept-Language", ""),
        )
        return hashlib.blake2b("\0".join(asked).encode(), digest_size=16).digest()

    def unchanged(self, key: bytes | None) -> Shown | None:
        """What the last answer to ``key`` showed, if the request holds its tag (or the answer
        said nothing new) and no time in it runs out (a window to close): the request would be
        answered the same, unless what it shows moved meanwhile, which the wait tells at once."""
        if key is None:
            return None
        with self._lock:
            found = self._answers.get(key)
        if found is None:
            return None
        etag, shown = found
        if shown.wake_in is not None:
            return None
        if shown.idle is None:
            return shown if etag is not None and request.if_none_match.contains(etag) else None
        return shown if shown.idle else None

    def remember(self, key: bytes | None, response: Response, shown: Shown | None) -> None:
        """Keep what ``response`` answered to ``key``, the oldest question forgotten past
        ``size``."""
        if key is None or shown is None or response.status_code not in (200, 304):
            return
        etag = response.get_etag()[0]
        with self._lock:
            self._answers.pop(key, None)
            self._answers[key] = (etag, shown)
            if len(self._answers) > self.size:
                del self._answers[next(iter(self._answers))]


class Holder(NamedTuple):
    """Who holds a waiting request: the client's address and its token (a digest; "" for a
    request without one), each with its own share of a worker's waiting places."""

    address: str
    token: str


class WaitHolders:
    """How many waiting requests each address and each token holds in a worker, against their
    shares (``LIVE_WAITERS_PER_ADDRESS``, ``LIVE_WAITERS_PER_TOKEN``): one script, or one
    leaked token, cannot take every place of a worker and leave the other tables' phones to
    poll. Beyond its share, a request is answered at once, and its page asks again later."""

    def __init__(self, per_address: int, per_token: int) -> None:
        self.per_address = per_address
        self.per_token = per_token
        self._held: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    @property
    def held(self) -> int:
        """The waiting places held now, by all: what a test or a look at a worker counts."""
        with self._lock:
            return sum(count for (kind, _), count in self._held.items() if kind == "address")

    @staticmethod
    def holder() -> Holder:
        return Holder(limits.client_address(), limits.token_key())

    def take(self, holder: Holder) -> bool:
        """Take a place for ``holder``, if both its address and its token are within share."""
        shares = self._shares(holder)
        with self._lock:
            if any(self._held[key] >= share for key, share in shares):
                return False
            self._held.update(key for key, _ in shares)
            return True

    def give_back(self, holder: Holder) -> None:
        """Give back the place :meth:`take` took for ``holder``."""
        keys = [key for key, _ in self._shares(holder)]
        with self._lock:
            self._held.subtract(keys)
            for key in keys:
                if self._held[key] <= 0:
                    del self._held[key]

    def _shares(self, holder: Holder) -> list[tuple[tuple[str, str], int]]:
        shares = [(("address", holder.address), self.per_address)]
        if holder.token:
            shares.append((("token", holder.token), self.per_token))
        return shares


def holders(app: Flask) -> WaitHolders:
    """The app's shares of waiting places (this worker's)."""
    found: WaitHolders = app.extensions["live_holders"]
    return found


def recent_answers(app: Flask) -> RecentAnswers:
    """The app's memory of the answers its waiting views gave (this worker's)."""
    found: RecentAnswers = app.extensions["live_answers"]
    return found


SPARE_THREADS = 4
"""A threaded worker's threads never taken by waiting requests: they serve the moves that end the
waits."""
SPARE_SHARE = 10
"""An event-loop worker keeps one connection in this many free of waiting requests, for the same
reason: a phone whose question waits posts its move on another connection."""
UNKNOWN_SERVER_WAITERS = 12
"""The waiting requests a worker holds under a server that does not say its size (werkzeug's,
which starts a thread per request)."""


class ServerSize(NamedTuple):
    """What one worker of the server can hold at once: ``threads`` (gunicorn's gthread worker:
    each request holds one) or ``connections`` (an event-loop worker, gevent: a request waiting
    holds a greenlet and its connection, no thread)."""

    kind: Literal["threads", "connections"]
    number: int

    def waiters(self) -> int:
        """The most requests that may wait at once, the rest left for the moves."""
        if self.kind == "threads":
            return max(self.number - SPARE_THREADS, 0)
        return self.number - max(self.number // SPARE_SHARE, 1)


def init_app(app: Flask) -> None:
    """The worker's watch and its budget of waiting requests; under a server that stops its
    workers with SIGTERM (gunicorn), the waits end at once when it does, so a restart is not held
    back by the phones waiting, and the budget stays within what a worker can hold."""
    versions.init_app(app)
    app.extensions["live_answers"] = RecentAnswers(int(app.config["LIVE_ANSWERS_KEPT"]))
    app.extensions["live_holders"] = WaitHolders(
        int(app.config["LIVE_WAITERS_PER_ADDRESS"]), int(app.config["LIVE_WAITERS_PER_TOKEN"])
    )
    earlier = None
    if threading.current_thread() is threading.main_thread():
        earlier = signal.getsignal(signal.SIGTERM)
    size = None
    if callable(earlier):  # a server's own handler (gunicorn's worker), not the default
        signal.signal(signal.SIGTERM, _stopping(app, earlier))
        signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn's worker sets it
        size = server_size(earlier)
    app.extensions["live_budget"] = threading.BoundedSemaphore(waiters_allowed(app, size))


def server_size(handler: Callable[..., Any]) -> ServerSize | None:
    """What the worker whose SIGTERM ``handler`` this is can hold (gunicorn's ``--threads``, or
    ``--worker-connections`` for an event-loop worker), or None for a server that does not say."""
    worker = getattr(handler, "__self__", None)
    connections = getattr(worker, "worker_connections", None)
    if _event_loop_worker(worker) and isinstance(connections, int) and connections > 0:
        return ServerSize("connections", connections)
    threads = getattr(getattr(worker, "cfg", None), "threads", None)
    return ServerSize("threads", threads) if isinstance(threads, int) and threads > 0 else None


def _event_loop_worker(worker: object) -> bool:
    """Whether ``worker`` is gunicorn's event-loop worker (gevent's): its threaded worker has
    ``worker_connections`` too, but each of its requests holds a thread."""
    try:
        from gunicorn.workers.base_async import AsyncWorker
    except ImportError:  # served by another server
        return False
    return isinstance(worker, AsyncWorker)


def waiters_allowed(app: Flask, size: ServerSize | None) -> int:
    """How many requests a worker lets wait: ``LIVE_WAITERS`` if set, lowered (with a warning) to
    what the worker can hold beside the moves that end the waits; unset, all it can hold."""
    setting = app.config.get("LIVE_WAITERS")
    if size is None:
        return UNKNOWN_SERVER_WAITERS if setting is None else int(setting)
    allowed = size.waiters()
    if setting is None or int(app.config["LIVE_WAIT"]) <= 0:
        return allowed
    if int(setting) > allowed:
        app.logger.warning(
            "LIVE_WAITERS=%d is more than a worker of %d %s holds beside the moves: "
            "at most %d requests wait at once (0: the pages poll)",
            int(setting),
            size.number,
            size.kind,
            allowed,
        )
        return allowed
    return int(setting)


def _stopping(app: Flask, earlier: Callable[..., Any]) -> Callable[..., Any]:
    def handler(number: int, frame: Any) -> Any:
        event_loop.soon(versions.watch(app).stop)
        return earlier(number, frame)

    return handler
