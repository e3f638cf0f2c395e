"""HTTP plumbing shared by the API views: JSON bodies, ETags and conditional requests.

Nothing here commits: a write is committed, or rolled back, by the request's one transaction
(:mod:`scorekeeper.web.transactions`), whatever answers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, jsonify, request
from marshmallow import Schema
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_etags

from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.schemas import load


def json_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body, loaded through ``schema`` (400, 415 or 422 otherwise)."""
    return load(schema, request.get_json())


@dataclass(frozen=True, slots=True)
class LoadedBody:
    """A request's JSON body loaded before the view's first query, or why it could not be."""

    document: dict[str, Any]
    refusal: HTTPException | InvalidRequest | None = None

    def checked(self) -> dict[str, Any]:
        """The body, or its refusal (400, 413, 415, 422) raised now."""
        if self.refusal is not None:
            raise self.refusal
        return self.document


def load_body_first(schema: Schema) -> LoadedBody:
    """The request's JSON body, read and loaded through ``schema`` now, before the view's first
    query (which, for a write on SQLite, queues for the write lock: what is done here is not done
    while other phones wait). Its refusal is raised when the view asks for the body
    (:meth:`LoadedBody.checked`), so a request with a bad token is still answered 401 first."""
    try:
        return LoadedBody(json_body(schema))
    except (HTTPException, InvalidRequest) as refusal:
        return LoadedBody({}, refusal)


def respond(
    body: dict[str, Any] | list[Any],
    status: int = 200,
    *,
    etag: str | None = None,
    location: str | None = None,
) -> Response:
    """A JSON response; with an ``etag``, a conditional GET may answer 304 Not Modified."""
    response = jsonify(body)
    response.status_code = status
    if location:
        response.headers["Location"] = location
    if etag:
        response.set_etag(etag)
        if request.method in ("GET", "HEAD"):
            response.make_conditional(request)
    return response


def no_content() -> Response:
    """A 204: done, nothing to say (and so no body type either)."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


def versions_read() -> frozenset[str] | None:
    """The versions a change was read at, for every write that can race: the entity tags the
    request's ``If-Match`` names, or on a page (not the API) the one its form carries in its
    ``etag`` field. None without either, or with ``*``, which says nothing of what was read; a
    weak tag never matches (RFC 9110's strong comparison), so one names no version."""
    header = request.headers.get("If-Match")
    page_version = not request.path.startswith("/api/") and request.form.get("etag")
    if header is None and page_version:
        return frozenset({page_version.replace('"', "")})
    etags = parse_etags(header)
    return None if header is None or etags.star_tag else frozenset(etags.as_set())


def not_modified(etag: str) -> Response:
    """304 Not Modified for a conditional GET whose ETag is still current."""
    response = Response(status=304)
    response.set_etag(etag)
    return response


SERVER_HEADERS = frozenset({"date", "server", "connection", "transfer-encoding"})
"""The headers the server (gunicorn, Werkzeug's) writes on every answer, whatever the app sent:
the app leaves them out, or a client reads them twice."""


def leave_server_headers(response: Response) -> Response:
    """Every answer without the headers the server adds itself: Werkzeug's conditional
    responses (an ETag's, a static file's) carry a ``Date`` that gunicorn does not look for, so
    the answer reached the client with two."""
    for name in SERVER_HEADERS:
        response.headers.pop(name, None)
    return response
