"""Limits against abuse: how many requests one address, and one token, may make in a while
(Flask-Limiter, on the ``limits`` package's counters).

Each request is counted in the categories it belongs to, each by the phone's address and, when
it carries one, by its token:

* **tables**: creating a table (the API's ``POST /api/v1/tables``, the start page's form), by
  address only, since creating one needs no token;
* **writes**: every other write (any method but GET, HEAD and OPTIONS), the API's and the
  pages' forms alike;
* **scoring**: scoring that stores nothing (the API's ``/score`` and ``/score/sheet``, the hand
  form's live preview), counted apart from the writes it would otherwise crowd out;
* **requests**: every request, reads included (static files aside).

The limits are settings (``LIMIT_*``, :func:`scorekeeper.config.defaults`), written in the
``limits`` package's notation (``"600 per minute"``, several joined by ``,`` or ``;``; empty:
none). The defaults leave a whole club behind one Wi-Fi address (its phones share it through the
router's NAT) far from every limit on a busy evening; ``docs/club.md`` gives stricter ones for a
public instance. The counters live in each worker's memory by default, or in Redis when
``RATELIMIT_STORAGE_URI`` names one, so that the workers of every host count together and a
restart forgets nothing.

A request over a limit is answered 429 (problem+json, or the error page for the pages) with
``Retry-After``; that answer and every answer counted carry the RateLimit header fields of
draft-ietf-httpapi-ratelimit-headers-06 (``RateLimit-Limit``, ``-Remaining``, ``-Reset`` in
seconds, and ``RateLimit-Policy``), for the limit nearest to refusing.

:func:`client_address` and :func:`token_key` are the keys, for any other limit of the web layer:
the address the trusted proxy saw (``TRUSTED_PROXIES``, :mod:`scorekeeper.web.security`), and a
digest of the token, never the token itself, so no token reaches the counters' storage or a log.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, Response, current_app, request
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded, RequestLimit
from limits import parse_many

from scorekeeper.web.errors import OWN_WORDS, respond_with
from scorekeeper.web.i18n import gettext
from scorekeeper.web.problems import problem_document
from scorekeeper.web.transactions import WRITES

TABLE_CREATION = frozenset({"api.tables.create_table", "pages.tables.create_table"})
"""The endpoints that create a table."""
SCORING = frozenset({"api.scoring.score", "api.scoring.score_sheet", "pages.hands.preview"})
"""The endpoints that score without storing (the hand form's preview is a POST, not a write)."""
TOKEN_IN_PATH = frozenset({"pages.play.play", "pages.play.move", "pages.play.take_back"})
"""Page routes named by a token in their path (a seat's page); the wall screen's is too."""
IPV6_NETWORK = 64
"""An IPv6 client is counted by its /64 network: one home or phone is handed a whole /64, and
could otherwise take a new address for each request."""


def client_address() -> str:
    """The address of the phone that sent the request: the one the trusted proxy saw
    (``TRUSTED_PROXIES``), else the connection's own; an IPv6 address as its /64 network."""
    address = request.remote_addr or ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_NETWORK), strict=False))
    return str(parsed)


def request_token() -> str | None:
    """The token the request carries, if any: the API's bearer token, a seat's page or a wall
    screen's token in the path, or the cookie holding the table's token on the table's pages."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    arguments = request.view_args or {}
    in_path = arguments.get("token")
    if isinstance(in_path, str) and in_path:
        return in_path
    table_id = arguments.get("table_id")
    if isinstance(table_id, int):
        return request.cookies.get(f"table_{table_id}") or None
    return None


def token_key() -> str:
    """A digest of the request's token (see :func:`request_token`), or ``""`` without one. Not
    the digest the database stores: the counters' keys say nothing a table's row does."""
    token = request_token()
    if token is None:
        return ""
    return hashlib.sha256(b"limits:" + token.encode()).hexdigest()[:32]


def no_token() -> bool:
    return request_token() is None


@dataclass(frozen=True)
class Category:
    """A kind of request, counted by address and by token against its own settings."""

    name: str
    applies: Callable[[], bool]
    by_address: str
    """The setting of its limit per address."""
    by_token: str | None
    """The setting of its limit per token; None: counted by address only."""


def _creates_a_table() -> bool:
    return request.endpoint in TABLE_CREATION


def _writes() -> bool:
    return request.method in WRITES and request.endpoint not in SCORING


def _scores() -> bool:
    return request.endpoint in SCORING


CATEGORIES = (
    Category("tables", _creates_a_table, "LIMIT_TABLES_PER_ADDRESS", None),
    Category("writes", _writes, "LIMIT_WRITES_PER_ADDRESS", "LIMIT_WRITES_PER_TOKEN"),
    Category("scoring", _scores, "LIMIT_SCORING_PER_ADDRESS", "LIMIT_SCORING_PER_TOKEN"),
    Category("requests", lambda: True, "LIMIT_REQUESTS_PER_ADDRESS", "LIMIT_REQUESTS_PER_TOKEN"),
)
"""Every category a request may be counted in, with the settings of its limits."""


def _setting(app: Flask, name: str) -> str:
    """The limits setting ``name``, checked now rather than at the first request it counts."""
    value = str(app.config.get(name) or "")
    try:
        parse_many(value) if value else None
    except ValueError as error:
        raise ValueError(f"{name}={value!r} is not a limit such as '600 per minute'") from error
    return value


def _exempt_unless(applies: Callable[[], bool], *, by_token: bool) -> Callable[[], bool]:
    """Whether a request is left out of a category's limit: not of the category, or counted
    by token without one."""

    def exempt() -> bool:
        return (by_token and no_token()) or not applies()

    return exempt


def application_limits(app: Flask) -> list[ApplicationLimit]:
    """Every category's limits, by address and by token, as the app's settings give them."""
    found = []
    for category in CATEGORIES:
        keyed = [("address", category.by_address, client_address)]
        if category.by_token is not None:
            keyed.append(("token", category.by_token, token_key))
        found += [
            ApplicationLimit(
                limit_provider=_setting(app, setting),
                key_function=key,
                scope=f"{category.name}:{kind}",
                exempt_when=_exempt_unless(category.applies, by_token=kind == "token"),
            )
            for kind, setting, key in keyed
        ]
    return found


def limiter() -> Limiter:
    """The app's limiter."""
    found: Limiter = current_app.extensions["scorekeeper_limiter"]
    return found


def _seconds_left(limit: RequestLimit) -> int:
    """Seconds until ``limit``'s window lets a request through again (at least 1 once
    refused)."""
    reset, _ = limit.window
    left = max(0, math.ceil(reset - time.time()))
    return max(left, 1) if limit.breached else left


def nearest(limits: list[RequestLimit]) -> RequestLimit:
    """The limit this request is nearest to being refused by: the one it broke, else the one
    with the fewest requests left (the shorter wait between two alike)."""
    broken = [limit for limit in limits if limit.breached]
    if broken:
        return broken[0]
    return min(limits, key=lambda limit: (limit.remaining, _seconds_left(limit)))


def policy(limits: list[RequestLimit]) -> str:
    """``RateLimit-Policy``: each limit the request was counted against, as ``quota;w=window``."""
    items = [f"{limit.limit.amount};w={limit.limit.get_expiry()}" for limit in limits]
    return ", ".join(dict.fromkeys(items))


def add_limit_headers(response: Response) -> Response:
    """The RateLimit fields on every answer that was counted, and ``Retry-After`` on a 429.
    A storage out of reach (Redis stopped) costs the answer its fields, never the answer."""
    extension = limiter()
    if not extension.enabled:
        return response
    try:
        counted = extension.current_limits
        if not counted:
            return response
        shown = nearest(counted)
        left = _seconds_left(shown)
        headers = response.headers
        headers["RateLimit-Limit"] = str(shown.limit.amount)
        headers["RateLimit-Remaining"] = str(0 if shown.breached else shown.remaining)
        headers["RateLimit-Reset"] = str(left)
        headers["RateLimit-Policy"] = policy(counted)
        if response.status_code == 429:
            headers["Retry-After"] = str(max(left, 1))
    except Exception:  # the storage's own errors (redis's) are of no one class
        if not current_app.config.get("RATELIMIT_SWALLOW_ERRORS"):
            raise
        current_app.logger.exception("The rate limits' storage could not be read")
    return response


def too_many_requests(_error: RateLimitExceeded) -> Response:
    """429 in the request's language; :func:`add_limit_headers` says how long to wait."""
    return respond_with(problem_document(429, gettext(OWN_WORDS[429])))


def init_app(app: Flask) -> None:
    """Count every request against the app's limits (unless ``RATELIMIT_ENABLED`` is false)."""
    extension = Limiter(
        client_address,
        application_limits=[*application_limits(app)],
        headers_enabled=False,  # add_limit_headers writes the draft's fields instead
    )
    extension.init_app(app)
    app.extensions["scorekeeper_limiter"] = extension
    app.register_error_handler(RateLimitExceeded, too_many_requests)
    app.after_request(add_limit_headers)
