"""The app's extensions, created unbound so models and the factory can import them freely."""

from __future__ import annotations

from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite per connection: WAL so readers never wait for a writer, foreign keys enforced,
    a busy timeout instead of instant "database is locked", and FULL sync so a recorded hand
    survives a power cut."""
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    cursor = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "foreign_keys=ON",
        "busy_timeout=5000",
        "synchronous=FULL",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()
