"""HTTP plumbing shared by the API views: JSON bodies, query parameters, ETags and conditional
requests, held to one convention on every endpoint: a query parameter the endpoint does not
take is refused (422), and every GET answers with an ETag and 304 to a request that holds it.

Nothing here commits: a write is committed, or rolled back, by the request's one transaction
(:mod:`scorekeeper.web.transactions`), whatever answers it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Response, current_app, g, jsonify, request
from marshmallow import RAISE, Schema
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_etags

from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.schemas import load

View = TypeVar("View", bound=Callable[..., Any])


class NoQuery(Schema):
    """The query of an endpoint that takes no parameter: any one is refused, named."""

    class Meta:
        unknown = RAISE


def queried(schema: Schema) -> Callable[[View], View]:
    """Mark a view as taking its query parameters through ``schema`` (:func:`query` gives
    them); an unmarked view takes none."""

    def mark(view: View) -> View:
        view.query_schema = schema  # type: ignore[attr-defined]
        return view

    return mark


def check_query() -> None:
    """Load the request's query through its view's schema before the view runs: an unknown
    parameter, or one the view cannot read, is refused with the others (422, each named)."""
    view = current_app.view_functions.get(request.endpoint or "")
    if view is None:
        return
    g.query = load(getattr(view, "query_schema", None) or NoQuery(), request.args.to_dict())


def query() -> dict[str, Any]:
    """The request's query parameters, as its view's schema loaded them."""
    loaded: dict[str, Any] = g.query
    return loaded


def tag_every_read(response: Response) -> Response:
    """Give a read's answer that names no version of its own an ETag from its bytes, and
    answer 304 to a request that holds it: every GET can be asked again for nothing."""
    if (
        request.method in ("GET", "HEAD")
        and response.status_code == 200
        and "ETag" not in response.headers
        and not response.is_streamed
    ):
        response.add_etag()
        response.make_conditional(request)
    return response


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
