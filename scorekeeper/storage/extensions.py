"""The storage's extensions (the database and its migrations), created unbound so models and the
factory can import them freely, and what a session tells of its transaction. The web's own
extensions (Babel, CSRF) are made in ``web/``."""

from __future__ import annotations

from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase, ORMExecuteState, Session, SessionTransaction

from scorekeeper.storage import sqlite  # noqa: F401  (registers SQLite's connection settings)


class Base(DeclarativeBase):
    """Declarative base for every model (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)

_WROTE = "wrote"
"""Where a session notes that its transaction has written (flushed, or run a statement other
than a query)."""


def has_writes(session: Session) -> bool:
    """Whether ``session``'s transaction holds writes: changes flushed or statements run that
    change data, or changes still waiting for a flush. A transaction that holds none has nothing
    to commit, and what it read matches what is committed."""
    return bool(session.info.get(_WROTE) or session.new or session.dirty or session.deleted)


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context: Any) -> None:
    session.info[_WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _executed(state: ORMExecuteState) -> None:
    if not state.is_select:
        state.session.info[_WROTE] = True


@event.listens_for(Session, "after_transaction_end")
def _transaction_ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        session.info.pop(_WROTE, None)
