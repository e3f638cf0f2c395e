"""What is stored of an idempotent write: its key's record, the answer a retry gets again.

A record is inserted with the write, in its transaction, so either both are stored or neither.
The flow around them (which request answers, which replays) is HTTP's, in
:mod:`scorekeeper.web.idempotency`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from time import monotonic
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import IdempotencyRecord, utcnow

IDEMPOTENCY_TTL = timedelta(hours=48)
"""How long a key's answer is kept for a retry."""

_RECORD = select(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"), IdempotencyRecord.key == bindparam("key")
)
_FORGET = delete(IdempotencyRecord).where(IdempotencyRecord.id == bindparam("id"))
_EXPIRED = delete(IdempotencyRecord).where(
    IdempotencyRecord.table_id == bindparam("table_id"),
    IdempotencyRecord.created_at < bindparam("before"),
)
_INSERTS = {
    dialect.__name__.rsplit(".", 1)[-1]: dialect.insert(IdempotencyRecord)
    .on_conflict_do_nothing(index_elements=["table_id", "key"])
    .returning(IdempotencyRecord.id)
    for dialect in (postgresql, sqlite)
}
"""All built once: building a statement costs as much as running it."""

SWEEP_EVERY = 3600.0
"""Seconds between two sweeps of a table's expired records by one process. Expired records
never answer (:func:`unexpired`), so sweeping is only about space: once an hour keeps a table's
records to about two days' worth, where a sweep with every write held the game's lock for one
more statement each time."""


def unexpired(record: IdempotencyRecord | None) -> IdempotencyRecord | None:
    """``record``, unless it has expired: an expired record never answers, and it is deleted
    now, so the key's new record can take its place under the unique constraint."""
    if record is None or record.created_at >= utcnow() - IDEMPOTENCY_TTL:
        return record
    db.session.execute(_FORGET, {"id": record.id})
    db.session.expunge(record)  # its id may be the new record's (SQLite reuses the highest)
    return None


def key_record(table_id: int, key: str) -> IdempotencyRecord | None:
    """The unexpired record of ``key`` at the table, if any."""
    record: IdempotencyRecord | None = db.session.execute(
        _RECORD, {"table_id": table_id, "key": key}
    ).scalar_one_or_none()
    return unexpired(record)


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """The answer a key's first request got, kept for its retries: its status, its JSON body,
    its Location and its ETag."""

    status: int
    body: dict[str, Any]
    location: str | None = None
    etag: str | None = None


def store(table_id: int, key: str, request_hash: str, answer: StoredAnswer) -> bool:
    """Store ``answer``, the answer of the request ``request_hash`` names (a digest of its
    method, path and body), under ``key``, with what the transaction writes; False if a request
    with the same key stored its record first (the transaction must then be rolled back: its
    write is not to be kept). Expired records of the table go with the insert, now and then.

    One statement that gives way on the key's unique constraint (``ON CONFLICT DO NOTHING``,
    which on PostgreSQL first waits for a request inserting the same key to end), not a flush
    of the session that may raise: nothing of the session to undo, and no unit of work to run
    for a row nothing reads back."""
    values = {
        "table_id": table_id,
        "key": key,
        "request_hash": request_hash,
        "status": answer.status,
        "response": answer.body,
        "location": answer.location,
        "etag": answer.etag,
    }
    statement = _INSERTS[db.session.get_bind().dialect.name]
    stored = db.session.execute(statement, values).first() is not None
    if stored:
        _sweep(table_id)
    return stored


def _sweep(table_id: int) -> None:
    """Delete the table's records older than :data:`IDEMPOTENCY_TTL`, if this process has not
    done so in the last :data:`SWEEP_EVERY` seconds."""
    swept: dict[int, float] = current_app.extensions.setdefault("idempotency_swept", {})
    now = monotonic()
    if table_id in swept and now - swept[table_id] < SWEEP_EVERY:
        return
    swept[table_id] = now
    db.session.execute(_EXPIRED, {"table_id": table_id, "before": utcnow() - IDEMPOTENCY_TTL})
