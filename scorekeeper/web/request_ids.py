"""Each request's id, to quote in a bug report and find in the server's logs: the client's own
``X-Request-Id`` when it sends a sane one (a proxy's, or a bot's that logs its requests),
otherwise a new UUID. Every answer carries it back in ``X-Request-Id``; a problem document names
it as its ``instance``; the app's log lines name it; and gunicorn's access log can, with the
``%({x-request-id}o)s`` atom in its ``--access-logformat`` (docs/api.md).
"""

from __future__ import annotations

import logging
import re
import uuid

from flask import Flask, Response, g, has_request_context, request

HEADER = "X-Request-Id"
SANE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
"""A client's id taken as it is: up to 128 letters, digits and ``. _ : -`` (nothing a log line
or a header could be split on, nothing a format string reads)."""


def request_id() -> str:
    """The id of the request being answered."""
    found: str | None = g.get("request_id")
    if found is None:
        sent = request.headers.get(HEADER, "")
        found = sent if SANE.fullmatch(sent) else str(uuid.uuid4())
        g.request_id = found
    return found


def instance() -> str:
    """The request as a problem document's ``instance`` (RFC 9457: this occurrence)."""
    return f"urn:request:{request_id()}"


class NameTheRequest(logging.Filter):
    """Adds the request's id to each line the app logs while answering one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if has_request_context() and isinstance(record.msg, str):
            record.msg = f"{record.msg} [request {request_id()}]"
        return True


def answer_with_id(response: Response) -> Response:
    response.headers[HEADER] = request_id()
    return response


def init_app(app: Flask) -> None:
    app.after_request(answer_with_id)
    if not any(isinstance(existing, NameTheRequest) for existing in app.logger.filters):
        app.logger.addFilter(NameTheRequest())
