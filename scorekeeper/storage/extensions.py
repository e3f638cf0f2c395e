"""The app's extensions, created unbound so models and the factory can import them freely."""

from __future__ import annotations

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

from scorekeeper.storage import sqlite  # noqa: F401  (registers SQLite's connection settings)


class Base(DeclarativeBase):
    """Declarative base for every model (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel(configure_jinja=False)  # see scorekeeper.web.i18n.init_app
