"""One error renderer: the API answers every error as RFC 9457 problem+json, the pages as an
HTML page carrying the same title and detail."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, has_request_context, json, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, InternalServerError

from engine.errors import IllegalMove, InvalidReport
from engine.problems import Problem, ProblemCode
from engine.report import variant_problem
from engine.rules import UnknownVariant, UnsupportedPlayerCount
from engine.sentences import N_
from scorekeeper.domain.refusals import (
    GameClosed,
    InvalidRequest,
    Missing,
    NameTaken,
    NotNow,
    NotTheLastHand,
    NotTheNextHand,
    Refusal,
    StaleVersion,
    VersionRequired,
)
from scorekeeper.results import queries
from scorekeeper.schemas.loading import Said
from scorekeeper.storage.extensions import db
from scorekeeper.web.i18n import gettext, say
from scorekeeper.web.problems import (
    PROBLEM_JSON,
    problem_document,
    refusal_document,
)

PAGE_TITLES = (
    N_("Bad Request"),
    N_("Forbidden"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Conflict"),
    N_("Precondition Failed"),
    N_("Request Entity Too Large"),
    N_("Content Too Large"),
    N_("Unsupported Media Type"),
    N_("Unprocessable Entity"),
    N_("Unprocessable Content"),
    N_("Precondition Required"),
    N_("Too Many Requests"),
    N_("Internal Server Error"),
    N_("Service Unavailable"),
)
"""The HTTP status phrases an error page's title can be (``HTTPStatus``'s words, in both the
older and the newer spelling of Python's versions), marked so the catalogs translate them."""


def problem_response(
    document: dict[str, object], headers: dict[str, str] | None = None
) -> Response:
    """``document`` as an ``application/problem+json`` response with its status."""
    status = document["status"]
    assert isinstance(status, int)
    response = Response(json.dumps(document), status=status, mimetype=PROBLEM_JSON)
    response.headers.update(headers or {})
    response.vary.add("Accept-Language")  # the detail is said in the asker's language
    return response


def wants_page() -> bool:
    """Whether the request came from the pages (an HTML answer) rather than the API."""
    return has_request_context() and not request.path.startswith("/api/")


def page_response(document: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    """The problem as a page a person reads, with the same status."""
    page = render_template("pages/error.html", problem=document)
    response = Response(page, status=document["status"], mimetype="text/html")
    response.headers.update(headers or {})
    return response


def respond_with(document: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return page_response(document, headers) if wants_page() else problem_response(document, headers)


OWN_WORDS = {
    400: N_("The request could not be read."),
    403: N_("This needs another table's or seat's access."),
    404: N_("There is nothing at this address: the link may be mistyped or out of date."),
    405: N_("This address does not take that kind of request."),
    415: N_("This address does not read a body in that format."),
    429: N_("Too many requests at once: wait a moment and try again."),
    500: N_(
        "The server could not answer. Try again in a moment; if it happens again, the "
        "server's log says why."
    ),
    503: N_(
        "The scoreboard cannot reach its database just now. It will be back in a moment: "
        "try again shortly. Nothing recorded before is lost."
    ),
}
"""What the app says instead of Werkzeug's own descriptions, which are English only and written
for developers ("The server encountered an internal error...")."""


TOO_LARGE = N_("The request is larger than the %(limit)s KiB this server reads.")
FORM_EXPIRED = N_(
    "This form has expired, or was not sent from this site's page: load the page again, then "
    "send it once more."
)
"""What a page's form refused for its CSRF token is told (Flask-WTF's own words are English
only, and name the token, which a player has never heard of)."""


def handle_http_exception(error: HTTPException) -> Response:
    """Flask's own errors (400, 404, 405, 413, 415, ...) in the problem shape, said in the
    request's language (a description is a msgid, or a sentence already translated)."""
    status = error.code or 500
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    description = error.description or ""
    if isinstance(description, Said):
        return respond_with(problem_document(status, say(description.sentence)), headers)
    if status == 413 and description == type(error).description:
        limit = (current_app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024
        return respond_with(problem_document(status, gettext(TOO_LARGE, limit=limit)), headers)
    if isinstance(error, CSRFError):
        description = FORM_EXPIRED
    elif description == type(error).description:
        description = OWN_WORDS.get(status, description)
    return respond_with(problem_document(status, gettext(description)), headers)


REFUSAL_STATUS: dict[type[Exception], int] = {
    InvalidReport: 422,  # the rules refuse the report: every problem listed
    InvalidRequest: 422,  # the body has not the documented shape: every field named
    IllegalMove: 422,  # a virtual game's move the rules do not allow now, naming the rule
    UnknownVariant: 422,
    UnsupportedPlayerCount: 422,
    Missing: 404,
    GameClosed: 409,
    NameTaken: 409,
    NotTheLastHand: 409,
    NotTheNextHand: 409,
    NotNow: 409,
    VersionRequired: 428,
    StaleVersion: 412,
}
"""The one table from a refusal, the engine's or the services', to the status it is answered
with (the API's contract, ``openapi.yaml``); the services and the engine know no HTTP."""

REFUSALS = tuple(REFUSAL_STATUS)
"""What a write raises to refuse a request, as against a failure."""


def refusal_response(error: Exception) -> Response:
    """A refusal answered with its status from :data:`REFUSAL_STATUS` (the nearest class of
    ``error`` that the table names), said in the request's language."""
    status = next(REFUSAL_STATUS[kind] for kind in type(error).__mro__ if kind in REFUSAL_STATUS)
    if isinstance(error, InvalidReport | InvalidRequest):
        shape = isinstance(error, InvalidRequest)
        return respond_with(refusal_document(error.problems, shape=shape))
    if isinstance(error, IllegalMove):
        problem = Problem(code=ProblemCode.ILLEGAL_MOVE, path="/move", sentence=error.sentence)
        return respond_with(refusal_document([problem], shape=True))
    if isinstance(error, UnknownVariant):
        return respond_with(refusal_document([variant_problem(error)], shape=True))
    if isinstance(error, Refusal):
        return respond_with(problem_document(status, say(error.sentence)))
    return respond_with(problem_document(status, str(error)))


RETRY_AFTER_SECONDS = 10
"""What a 503's ``Retry-After`` asks for: PostgreSQL restarted by its service manager (an upgrade,
a reboot) is back within seconds, and a phone retrying sooner only adds to the queue."""


def is_database_unavailable(error: Exception) -> bool:
    """Whether ``error`` says the database cannot answer for now rather than that the request or
    the code is wrong: the server stopped, restarting or unreachable (psycopg's
    ``OperationalError`` and its ``AdminShutdown``), a connection dropped mid-request, no
    connection free in the pool, or SQLite's file locked or unreadable."""
    if isinstance(error, OperationalError | PoolTimeout):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


def handle_database_unavailable(error: Exception) -> Response:
    """503 with ``Retry-After``: the database is down or restarting. The log names the cause
    (the driver's own message, never the statement or its parameters)."""
    cause = getattr(error, "orig", None) or error
    first_line = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    current_app.logger.error("Database unavailable: %s: %s", type(cause).__name__, first_line)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return respond_with(problem_document(503, gettext(OWN_WORDS[503])), headers)


def close_session(_error: BaseException | None) -> None:
    """End the request's database session (before Flask-SQLAlchemy's own teardown, which then
    has nothing left to do), letting a connection the database cut after the answer was made
    fail quietly: PostgreSQL stopping mid-request leaves nothing for the rollback to undo, the
    pool replaces the connection, and the answer stands; raised here, the error would turn it
    into gunicorn's own 500."""
    try:
        db.session.remove()
    except DBAPIError as error:
        if not is_database_unavailable(error):
            raise
        current_app.logger.warning(
            "Database connection lost at the end of a request: %s", error.orig
        )
        db.session.registry.clear()


def handle_integrity(error: IntegrityError) -> Response:
    """A write refused by the database's own constraints: a 404 if the request's table was
    deleted by its owner while the write was under way (a row the write added names a table
    that is gone), else unforeseen."""
    table_id = (request.view_args or {}).get("table_id")
    db.session.rollback()
    if isinstance(table_id, int) and not queries.table_exists(table_id):
        return refusal_response(Missing(N_("There is no such table.")))
    return handle_unexpected(error)


def handle_unexpected(error: Exception) -> Response:
    """Anything unforeseen: a 500 that says nothing of the internals (the log has the trace);
    a database that cannot answer is a 503 (:func:`handle_database_unavailable`)."""
    if is_database_unavailable(error):
        return handle_database_unavailable(error)
    current_app.logger.exception("Unhandled error", exc_info=error)
    return handle_http_exception(InternalServerError())


def init_app(app: Flask) -> None:
    """Register the handlers."""
    app.register_error_handler(HTTPException, handle_http_exception)
    for refusal in REFUSALS:
        app.register_error_handler(refusal, refusal_response)
    app.register_error_handler(IntegrityError, handle_integrity)
    app.register_error_handler(Exception, handle_unexpected)
    app.teardown_appcontext(close_session)  # runs before Flask-SQLAlchemy's (registered first)
