"""Configuration: SQLite in the instance folder unless ``DATABASE_URL`` names another database."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

MAX_REQUEST_BYTES = 256 * 1024
"""A score sheet of a long game is a few tens of KiB; anything far larger is not a report."""


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` (PostgreSQL, ``postgresql+psycopg://...``) or SQLite in the instance."""
    url = os.environ.get("DATABASE_URL")
    if url:
        # Hosting platforms hand out ``postgres://`` URLs; SQLAlchemy wants the driver named.
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url.removeprefix(prefix)
        return url
    return "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3")


def defaults(instance_path: str) -> dict[str, Any]:
    """The settings an app starts from, before ``test_config`` or ``SCOREKEEPER_*`` overrides."""
    return {
        "SECRET_KEY": os.environ.get("SECRET_KEY", "dev-only-secret"),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "MAX_CONTENT_LENGTH": MAX_REQUEST_BYTES,
        "JSON_SORT_KEYS": False,
    }
