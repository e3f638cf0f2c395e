"""The storage's extensions (the database and its migrations), created unbound so models and the
factory can import them freely. The web's own (Babel, CSRF) are made in ``web/``."""

from __future__ import annotations

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase

from scorekeeper.storage import sqlite  # noqa: F401  (registers SQLite's connection settings)


class Base(DeclarativeBase):
    """Declarative base for every model (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
