"""Configuration: SQLite in the instance folder unless ``DATABASE_URL`` names another database."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

from scorekeeper.jsonio import stored_json

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


def shown_database(url: str | URL) -> str:
    """``url`` as the commands and the server's log name it: the password hidden.

    >>> shown_database("postgresql+psycopg://club:hunter2@db.example/scores")
    'postgresql+psycopg://club:***@db.example/scores'
    """
    return make_url(url).render_as_string(hide_password=True)


def secret_key(instance_path: str) -> str:
    """``SECRET_KEY``, or a random key made once and kept in the instance folder (so every
    worker and every restart signs cookies alike, and no key is ever a known default)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f"secret_key.{os.getpid()}")
        draft.write_text(secrets.token_urlsafe(48))
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # atomic: a worker starting at the same time reads one key
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def engine_options(url: str | URL, options: dict[str, Any]) -> dict[str, Any]:
    """SQLAlchemy's engine options for ``url``: a database server's connections are checked
    before each use (``pool_pre_ping``), so after PostgreSQL restarts, the connections it cut
    (psycopg's ``AdminShutdown``) are replaced instead of failing the first requests. A SQLite
    file has no connection to lose, and skips the check.

    >>> engine_options("postgresql+psycopg://app@db/club", {})
    {'pool_pre_ping': True}
    >>> engine_options("sqlite:///instance/scorekeeper.sqlite3", {})
    {}
    """
    if make_url(url).get_backend_name() == "sqlite":
        return options
    return {"pool_pre_ping": True, **options}


def defaults(instance_path: str) -> dict[str, Any]:
    """The settings an app starts from, before ``test_config`` or ``SCOREKEEPER_*`` overrides."""
    return {
        "SECRET_KEY": secret_key(instance_path),
        "WTF_CSRF_TIME_LIMIT": None,  # a form stays valid while the phone keeps its session
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "MAX_CONTENT_LENGTH": MAX_REQUEST_BYTES,
        "JSON_SORT_KEYS": False,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # The session holds the forms' CSRF token: it outlives a closed browser, so a hand kept
        # on the phone while the server was out of reach is still accepted days later.
        "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
        "TRUSTED_PROXIES": 0,  # proxies whose X-Forwarded-* headers are believed (security.py)
        "VIRTUAL_GAME_CACHE": 32,  # virtual games kept restored per worker, 0 none (game_cache.py)
        # Seconds a coup-fourré window stays open for the people of an attacked side, all asked
        # at once; 0: no window, each answers in turn (virtual.py).
        "VIRTUAL_CHANCE_WINDOW": 5,
        # The hands' JSON columns read back with orjson (jsonio.py): the bulk of a game's read.
        "SQLALCHEMY_ENGINE_OPTIONS": {"json_deserializer": stored_json},
    }
