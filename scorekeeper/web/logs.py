"""Access logs without secrets.

A table's token opens the table and a seat's token plays the seat; the database keeps only their
hashes, which is worth little if the server's log keeps them in full. They reach the log in URLs:
an old share link (``/join/1?token=mb_...``), a seat's page (``/play/mbs_...``, also in the
``Referer`` of every request that page makes). So the access loggers of werkzeug (``flask run``)
and gunicorn get a filter that blanks them out of every line, whatever the log format names
(the request line, the path, the query, the referrer, any header).

Behind the trusted proxy the access log names the phone, not the proxy: werkzeug's ``ProxyFix``
(``security.py``) writes the address the proxy added to ``X-Forwarded-For`` (the last one, never
one a phone wrote there itself) into the request's WSGI environ as ``REMOTE_ADDR``, and gunicorn
reads its ``%(h)s`` from that same environ once the answer is sent. The proxies' own logs are the
deploy examples' to keep free of tokens (``deploy/nginx.conf``, ``deploy/Caddyfile``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import MutableMapping
from typing import Any

from flask import Flask

ACCESS_LOGGERS = ("werkzeug", "gunicorn.access")
HIDDEN = "[redacted]"

_SECRETS = (
    (re.compile(r"([?&;]token=)[^&;\s\"]*"), rf"\1{HIDDEN}"),  # a token parameter of any form
    (re.compile(r"\b(mb[srw]?_)[A-Za-z0-9_-]+"), rf"\1{HIDDEN}"),  # tokens, wherever they appear
    (re.compile(r"(/(?:play|wall)/)[^/?#\s\"]+"), rf"\1{HIDDEN}"),  # a seat's page, a wall's
)


def redact(text: str) -> str:
    """``text`` with every token and secret path part replaced.

    >>> redact('"GET /join/3?token=mb_Xy-1 HTTP/1.1" 302 -')
    '"GET /join/3?token=[redacted] HTTP/1.1" 302 -'
    >>> redact("/play/abc/move")
    '/play/[redacted]/move'
    """
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactSecrets(logging.Filter):
    """Redacts a log record's message and arguments (werkzeug passes the request line as an
    argument; gunicorn a mapping of its log format's atoms, changed in place since it answers
    ``-`` for atoms it lacks)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, MutableMapping):
            for key, value in record.args.items():
                if isinstance(value, str):
                    record.args[key] = redact(value)
        elif isinstance(record.args, tuple):
            record.args = tuple(_redacted(value) for value in record.args)
        return True


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


def name_the_database(app: Flask) -> None:
    """Under gunicorn, say in its log which database each worker serves (password hidden): a
    server started without ``DATABASE_URL`` serves a new SQLite file, and the log says so at
    start-up rather than the club finding its tables gone. gunicorn configures its error log's
    handlers; without them (tests, ``flask run``, where the command says it) nothing is said."""
    from scorekeeper.config import shown_database
    from scorekeeper.version import __version__

    gunicorn = logging.getLogger("gunicorn.error")
    if gunicorn.handlers:
        shown = shown_database(app.config["SQLALCHEMY_DATABASE_URI"])
        gunicorn.info("Scorekeeper %s, database: %s", __version__, shown)


def init_app(app: Flask) -> None:
    """Install the filter on the access loggers, once per process, and on the app's own logger,
    whose report of an unhandled error names the request's path (a seat page's holds its token)."""
    for logger in [*(logging.getLogger(name) for name in ACCESS_LOGGERS), app.logger]:
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())
