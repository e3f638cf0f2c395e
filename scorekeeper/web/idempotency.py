"""Idempotent writes, for phones that retry on a flaky connection: a retry with the same
``Idempotency-Key`` (the API's, the hand form's and the offline queue's) gets the first answer
again, and nothing is recorded twice; the same key with another body is 422.

Every keyed write locks its game and reads its key's record in one query, the game's row before
the key (:mod:`scorekeeper.storage.locks`): two requests with one key on one game queue on the
game instead of each holding what the other waits for. The key's record is inserted with the
write, in the request's transaction (:mod:`scorekeeper.storage.idempotency`), so either both
are stored or neither.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import Response, make_response, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, HTTPException
from werkzeug.wrappers import Response as BaseResponse

from engine.problems import Problem, ProblemCode
from engine.sentences import N_
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.services import operations
from scorekeeper.storage import idempotency
from scorekeeper.storage.idempotency import StoredAnswer
from scorekeeper.storage.models import Game, IdempotencyRecord, Table
from scorekeeper.web.errors import REFUSALS
from scorekeeper.web.http import respond
from scorekeeper.web.transactions import start_over

IDEMPOTENCY_KEY = "Idempotency-Key"
MAX_KEY_LENGTH = 255
KEY_PATTERN = re.compile(f"[ -~]{{1,{MAX_KEY_LENGTH}}}")
"""Printable ASCII, as a structured-field string (the IETF Idempotency-Key draft); a NUL, which
PostgreSQL cannot store, or anything a proxy might rewrite, is refused before any query."""

ANSWERED: tuple[type[Exception], ...] = (HTTPException, *REFUSALS)
"""The refusals, and Werkzeug's HTTP errors: after one of these an idempotent write looks
again for the record its key may have been given meanwhile."""


@dataclass(frozen=True, slots=True)
class WriteAnswer(StoredAnswer):
    """What an idempotent API write answers, and what a retry of it is answered again."""

    def response(self) -> Response:
        return respond(self.body, self.status, location=self.location, etag=self.etag)


def idempotent(
    table: Table, game_id: int, write: Callable[[Game], WriteAnswer], *, hands: bool = True
) -> Response:
    """``write`` to game ``game_id`` (locked, with its hands if ``hands``), once per key.

    A retry arriving while the first request is still writing waits on the game's lock. The
    record the first request commits meanwhile is not in the locking query's answer (on
    PostgreSQL it reads the other tables as they were when it began), so the retry finds it
    after: when storing its own record gives way on the key's unique constraint, or, if the game
    refuses the retry (ended by its own first attempt: 409), when that refusal is rolled back.
    Either way the first answer is replayed. The constraint also orders two requests that no
    lock orders (the key reused at the same moment for another game).
    """
    key = _key()
    locked = operations.locked_for_key(table, game_id, key, hands=hands)
    if key is None:
        return write(locked.game).response()
    fingerprint = _fingerprint()
    first = idempotency.unexpired(locked.key_record)
    if first is not None:
        return _replay(first, fingerprint)
    try:
        answer = write(locked.game)
    except ANSWERED:
        start_over()  # the refusal's half-write; the key's record is read afresh
        committed = idempotency.key_record(table.id, key)
        if committed is None:
            raise
        return _replay(committed, fingerprint)
    committed = _store(table.id, key, fingerprint, answer)
    return answer.response() if committed is None else _replay(committed, fingerprint)


def idempotent_form(
    table: Table, game_id: int, done: str, write: Callable[[Game], ResponseReturnValue]
) -> BaseResponse:
    """A page form's ``write`` to game ``game_id``, run once per key as :func:`idempotent` runs
    the API's, with its locks in the same order: the queue of hands on a phone
    (``static/queue.js``) resends a hand whose answer was lost, and the retry must not record it
    twice.

    A form that records something answers with a redirect to ``done``; that answer is claimed
    with the key after the game is locked and before the write, in the request's transaction:
    a redirect commits both, a refusal (422, 409) rolls both back. Only what was recorded keeps
    its key, and a retry of a refused form is checked afresh.
    """
    key = _key()
    locked = operations.locked_for_key(table, game_id, key)
    if key is None:
        return make_response(write(locked.game))
    fingerprint = _fingerprint()
    first = idempotency.unexpired(locked.key_record)
    if first is None:
        first = _store(table.id, key, fingerprint, StoredAnswer(HTTPStatus.FOUND, {}, done))
    if first is not None:
        _same_request(first, fingerprint)
        replayed = redirect(first.location or done, first.status)
        replayed.headers["Idempotent-Replayed"] = "true"
        return replayed
    return make_response(write(locked.game))


def _key() -> str | None:
    """The request's ``Idempotency-Key``, if it has one (400 if it is not a valid key)."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is not None and not KEY_PATTERN.fullmatch(key):
        raise BadRequest(
            f"{IDEMPOTENCY_KEY} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters "
            "(a UUID is a good key)."
        )
    return key


def _store(
    table_id: int, key: str, fingerprint: str, answer: StoredAnswer
) -> IdempotencyRecord | None:
    """Store the key's ``answer`` with what this transaction writes (None); or, if a request
    with the same key committed its record first, roll this transaction back and return that
    record, to be answered as a retry of the first request."""
    if idempotency.store(table_id, key, fingerprint, answer):
        return None
    start_over()  # the write too: the first request's answer stands
    committed = idempotency.key_record(table_id, key)
    if committed is None:
        raise RuntimeError(f"The key {key!r} gave way to another request's, which is not stored.")
    return committed


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
                    ProblemCode.IDEMPOTENCY_KEY_REUSED,
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
