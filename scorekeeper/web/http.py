"""HTTP plumbing shared by the API views: JSON bodies, ETags and conditional requests, and
idempotent POSTs for phones that retry on a flaky connection (the API's and the hand form's).

Nothing here commits: a write is committed, or rolled back, by the request's one transaction
(:mod:`scorekeeper.web.transactions`), whatever answers it."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from time import monotonic
from typing import Any

from flask import Response, current_app, jsonify, make_response, redirect, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema
from sqlalchemy import bindparam, delete, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import BadRequest, HTTPException
from werkzeug.http import parse_etags
from werkzeug.wrappers import Response as BaseResponse

from engine.problems import Problem, ProblemCode
from engine.sentences import N_
from scorekeeper.schemas import load
from scorekeeper.services.refusals import InvalidRequest
from scorekeeper.storage.extensions import db
from scorekeeper.storage.locks import LockedWithKey
from scorekeeper.storage.models import Game, IdempotencyRecord, utcnow
from scorekeeper.web.errors import REFUSALS
from scorekeeper.web.transactions import start_over

IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_TTL = timedelta(hours=48)
MAX_KEY_LENGTH = 255
KEY_PATTERN = re.compile(f"[ -~]{{1,{MAX_KEY_LENGTH}}}")
"""Printable ASCII, as a structured-field string (the IETF Idempotency-Key draft); a NUL, which
PostgreSQL cannot store, or anything a proxy might rewrite, is refused before any query."""

ANSWERED: tuple[type[Exception], ...] = (HTTPException, *REFUSALS)
"""The refusals, and Werkzeug's HTTP errors: after one of these an idempotent write looks
again for the record its key may have been given meanwhile."""

Answer = tuple[int, dict[str, Any], str | None, str | None]
"""What a write view produces: the status, the JSON body, the Location and the ETag (or None)."""


def json_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body, loaded through ``schema`` (400, 415 or 422 otherwise)."""
    return load(schema, request.get_json())


def body_read_early(schema: Schema) -> Callable[[], dict[str, Any]]:
    """The request's JSON body, read and loaded through ``schema`` now, before the view's first
    query (which, for a write on SQLite, queues for the write lock: what is done here is not done
    while other phones wait). Calling the result gives the body, or raises its refusal (400, 413,
    415, 422) at that point, so a request with a bad token is still answered 401 first."""
    try:
        document = json_body(schema)
    except (HTTPException, InvalidRequest) as error:
        refusal = error  # the name ``error`` ends with the except clause

        def refuse() -> dict[str, Any]:
            raise refusal

        return refuse
    return lambda: document


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


def idempotent(
    table_id: int, lock: Callable[[str | None], LockedWithKey], produce: Callable[[Game], Answer]
) -> Response:
    """Run a write once per ``Idempotency-Key``: a retry with the same key and body gets the first
    answer again (its status, body, Location and ETag), and nothing is recorded twice; the same
    key with another body is 422.

    Every write of a hand takes its locks in one order, the game's row, then the key (the form's
    and the offline queue's too, :func:`idempotent_form`): two requests with one key on one
    game queue on the game instead of each holding what the other waits for. ``lock(key)``
    locks the game and finds the key's record in one query
    (:func:`scorekeeper.storage.locks.with_key_record`); the key's record is inserted with the
    answer in the write's transaction, so either both are stored or neither.

    A retry arriving while the first request is still writing waits on the game's lock. The
    record the first request commits meanwhile is not in the locking query's answer (on
    PostgreSQL it reads the other tables as they were when it began), so the retry finds it
    after: when inserting its own record fails on the key's unique constraint, or, if the game
    refuses the retry (ended by its own first attempt: 409), when that refusal is rolled back.
    Either way the first answer is replayed. The constraint also orders two requests that no
    lock orders (the key reused at the same moment for another game).
    """
    key = _key()
    game, first = lock(key)
    if key is None:
        status, body, location, etag = produce(game)
        return respond(body, status, location=location, etag=etag)
    fingerprint = _fingerprint()
    first = _unexpired(first)
    if first is not None:
        return _replay(first, fingerprint)
    try:
        status, body, location, etag = produce(game)
    except ANSWERED:
        committed = _committed_after_refusal(table_id, key)
        if committed is None:
            raise
        return _replay(committed, fingerprint)
    record = IdempotencyRecord(
        table_id=table_id,
        key=key,
        request_hash=fingerprint,
        status=status,
        response=body,
        location=location,
        etag=etag,
    )
    committed = _insert(record)
    if committed is not None:
        return _replay(committed, fingerprint)
    return respond(body, status, location=location, etag=etag)


def idempotent_form(
    table_id: int,
    done: str,
    lock: Callable[[str | None], LockedWithKey],
    produce: Callable[[Game], ResponseReturnValue],
) -> BaseResponse:
    """A page form's write, run once per ``Idempotency-Key`` as :func:`idempotent` runs the
    API's, with its locks in the same order (the game's row, then the key): the queue of hands
    on a phone (``static/queue.js``) resends a hand whose answer was lost, and the retry must
    not record it twice.

    A form that records something answers with a redirect to ``done``; that answer is claimed
    with the key after the game is locked and before the write, in the request's transaction:
    a redirect commits both, a refusal (422, 409) rolls both back. Only what was recorded keeps
    its key, and a retry of a refused form is checked afresh.
    """
    key = _key()
    game, first = lock(key)
    if key is None:
        return make_response(produce(game))
    fingerprint = _fingerprint()
    first = _unexpired(first)
    if first is None:
        claim = IdempotencyRecord(
            table_id=table_id,
            key=key,
            request_hash=fingerprint,
            status=HTTPStatus.FOUND,
            response={},
            location=done,
        )
        first = _insert(claim)
    if first is not None:
        _same_request(first, fingerprint)
        replayed = redirect(first.location or done, first.status)
        replayed.headers["Idempotent-Replayed"] = "true"
        return replayed
    return make_response(produce(game))


def _key() -> str | None:
    """The request's ``Idempotency-Key``, if it has one (400 if it is not a valid key)."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is not None and not KEY_PATTERN.fullmatch(key):
        raise BadRequest(
            f"{IDEMPOTENCY_KEY} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters "
            "(a UUID is a good key)."
        )
    return key


def _unexpired(record: IdempotencyRecord | None) -> IdempotencyRecord | None:
    """``record``, unless it has expired: an expired record never answers, and it is deleted
    now, so the key's new record can take its place under the unique constraint."""
    if record is None or record.created_at >= utcnow() - IDEMPOTENCY_TTL:
        return record
    db.session.execute(_FORGET, {"id": record.id})
    return None


def _insert(record: IdempotencyRecord) -> IdempotencyRecord | None:
    """Insert the key's ``record`` with what this transaction writes (None), or, if a request
    with the same key committed its record first, roll this transaction back and return that
    record, to be answered as a retry of the first request. Expired records of the table go
    with the insert, now and then (:func:`_sweep`)."""
    db.session.add(record)
    try:
        db.session.flush()
    except IntegrityError:
        start_over()  # the write too: the first request's answer stands
        committed = _record(record.table_id, record.key)
        if committed is None:
            raise
        return committed
    _sweep(record.table_id)
    return None


def _committed_after_refusal(table_id: int, key: str) -> IdempotencyRecord | None:
    """After a refusal, rolled back here: the key's record if a request with the same key
    committed it meanwhile (the refusal is then answered as a retry of that request)."""
    start_over()
    return _record(table_id, key)


_RECORD = select(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"), IdempotencyRecord.key == bindparam("key")
)
_FORGET = delete(IdempotencyRecord).where(IdempotencyRecord.id == bindparam("id"))
_EXPIRED = delete(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"),
    IdempotencyRecord.created_at < bindparam("before"),
)
"""All built once: building a statement costs as much as running it."""

SWEEP_EVERY = 3600.0
"""Seconds between two sweeps of a table's expired records by one process. Expired records
never answer (:func:`_unexpired`), so sweeping is only about space: once an hour keeps a table's
records to about two days' worth, where a sweep with every write held the game's lock for one
more statement each time."""


def _record(table_id: int, key: str) -> IdempotencyRecord | None:
    record: IdempotencyRecord | None = db.session.execute(
        _RECORD, {"table_id": table_id, "key": key}
    ).scalar_one_or_none()
    return _unexpired(record)


def _sweep(table_id: int) -> None:
    """Delete the table's records older than :data:`IDEMPOTENCY_TTL`, if this process has not
    done so in the last :data:`SWEEP_EVERY` seconds."""
    swept: dict[int, float] = current_app.extensions.setdefault("idempotency_swept", {})
    now = monotonic()
    if table_id in swept and now - swept[table_id] < SWEEP_EVERY:
        return
    swept[table_id] = now
    db.session.execute(_EXPIRED, {"table_id": table_id, "before": utcnow() - IDEMPOTENCY_TTL})


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    _same_request(record, fingerprint)
    response = respond(record.response, record.status, location=record.location, etag=record.etag)
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _same_request(record: IdempotencyRecord, fingerprint: str) -> None:
    """422 unless the retry is the request the key was first used for."""
    if record.request_hash != fingerprint:
        raise InvalidRequest(
            [
                Problem.of(
                    ProblemCode.INVALID_FIELD,
                    "",
                    N_(
                        "This %(header)s was already used for another request; use a new key "
                        "for a new request."
                    ),
                    header=IDEMPOTENCY_KEY,
                )
            ]
        )


def _fingerprint() -> str:
    """The method, path and JSON body (or form fields), canonically encoded and hashed. A form's
    CSRF token is left out: it proves the session, it is not part of what is recorded."""
    body = request.get_json(silent=True)
    parts: list[Any] = [request.method, request.path, body]
    fields = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
    if fields:
        parts.append(fields)
    canonical = json.dumps(parts, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
