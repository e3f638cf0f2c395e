"""HTTP plumbing shared by the API views: JSON bodies, ETags and conditional requests, and
idempotent POSTs for phones that retry on a flaky connection (the API's and the hand form's)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

from flask import Response, jsonify, make_response, redirect, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema
from sqlalchemy import bindparam, delete, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import BadRequest, HTTPException
from werkzeug.wrappers import Response as BaseResponse

from engine.problems import Problem, ProblemCode
from engine.sentences import N_
from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyRecord, utcnow
from scorekeeper.problems import InvalidRequest
from scorekeeper.schemas import load

IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_TTL = timedelta(hours=48)
MAX_KEY_LENGTH = 255
KEY_PATTERN = re.compile(f"[ -~]{{1,{MAX_KEY_LENGTH}}}")
"""Printable ASCII, as a structured-field string (the IETF Idempotency-Key draft); a NUL, which
PostgreSQL cannot store, or anything a proxy might rewrite, is refused before any query."""

Produced = tuple[int, dict[str, Any], str | None, str | None]
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


def not_modified(etag: str) -> Response:
    """304 Not Modified for a conditional GET whose ETag is still current."""
    response = Response(status=304)
    response.set_etag(etag)
    return response


def idempotent(table_id: int, produce: Callable[[], Produced]) -> Response:
    """Run a write once per ``Idempotency-Key``: a retry with the same key and body gets the first
    answer again (its status, body, Location and ETag), and nothing is recorded twice; the same
    key with another body is 422.

    The caller has locked what the write changes (the game's row) before this runs. A retry
    arriving while the first request is still writing waits on that lock, then finds the first
    answer here and replays it. (Had it checked the game first, it would have found the game
    already ended by its own first attempt and answered 409.) The key's record is inserted with
    the answer in the write's transaction, so either both are stored or neither is; where no lock
    orders two requests with one key (the key reused at the same moment for another game), the
    key's unique constraint refuses the second, which is rolled back and answered as a retry of
    the first.
    """
    key = _key()
    if key is None:
        status, body, location, etag = produce()
        db.session.commit()
        return respond(body, status, location=location, etag=etag)
    fingerprint = _fingerprint()
    record = _record(table_id, key)
    if record is not None:
        return _replay(record, fingerprint)
    status, body, location, etag = produce()
    db.session.add(
        IdempotencyRecord(
            table_id=table_id,
            key=key,
            request_hash=fingerprint,
            status=status,
            response=body,
            location=location,
            etag=etag,
        )
    )
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()  # the write too: the first request's answer stands
        committed = _record(table_id, key)
        if committed is None:
            raise
        return _replay(committed, fingerprint)
    _forget_expired(table_id)
    db.session.commit()
    return respond(body, status, location=location, etag=etag)


def idempotent_form(
    table_id: int, done: str, produce: Callable[[], ResponseReturnValue]
) -> BaseResponse:
    """A page form's write, run once per ``Idempotency-Key`` as :func:`idempotent` runs the
    API's: the queue of hands on a phone (``static/queue.js``) resends a hand whose answer was
    lost, and the retry must not record it twice.

    A form that records something answers with a redirect to ``done``; that answer is claimed
    with the key before the write, so ``produce`` commits both in one transaction (it may commit
    itself, as a correction does). A refusal (422, 409) rolls both back: only what was recorded
    keeps its key, and a retry of a refused form is checked afresh.
    """
    key = _key()
    if key is None:
        return make_response(produce())
    fingerprint = _fingerprint()
    record, claimed = _claim(table_id, key, fingerprint, status=HTTPStatus.FOUND, location=done)
    if not claimed:
        _same_request(record, fingerprint)
        replayed = redirect(record.location or done, record.status)
        replayed.headers["Idempotent-Replayed"] = "true"
        return replayed
    answer = make_response(produce())
    if HTTPStatus.MULTIPLE_CHOICES <= answer.status_code < HTTPStatus.BAD_REQUEST:
        db.session.commit()
    else:
        db.session.rollback()
    return answer


def _key() -> str | None:
    """The request's ``Idempotency-Key``, if it has one (400 if it is not a valid key)."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is not None and not KEY_PATTERN.fullmatch(key):
        raise BadRequest(
            f"{IDEMPOTENCY_KEY} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters "
            "(a UUID is a good key)."
        )
    return key


def _claim(
    table_id: int, key: str, fingerprint: str, *, status: int, location: str | None
) -> tuple[IdempotencyRecord, bool]:
    """The key's record, inserted in this transaction with the answer known so far (True), or
    the one a first request committed (False). Expired records of the table go at the same
    time."""
    record = _record(table_id, key)
    if record is not None:
        return record, False
    record = IdempotencyRecord(
        table_id=table_id,
        key=key,
        request_hash=fingerprint,
        status=status,
        response={},
        location=location,
    )
    db.session.add(record)
    try:
        db.session.flush()
    except IntegrityError:
        # Another request with the same key committed first: answer as a retry of it.
        db.session.rollback()
        committed = _record(table_id, key)
        if committed is None:
            raise
        return committed, False
    _forget_expired(table_id)
    return record, True


_RECORD = select(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"), IdempotencyRecord.key == bindparam("key")
)
_EXPIRED = delete(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"),
    IdempotencyRecord.created_at < bindparam("before"),
)
"""Both built once: building a statement costs as much as running it."""


def _record(table_id: int, key: str) -> IdempotencyRecord | None:
    record: IdempotencyRecord | None = db.session.execute(
        _RECORD, {"table_id": table_id, "key": key}
    ).scalar_one_or_none()
    return record


def _forget_expired(table_id: int) -> None:
    """Delete the table's records older than :data:`IDEMPOTENCY_TTL`."""
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
