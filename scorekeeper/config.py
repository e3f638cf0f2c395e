"""Configuration: SQLite in the instance folder unless ``DATABASE_URL`` names another database."""

from __future__ import annotations

import os
import pwd
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

from scorekeeper.jsonio import stored_json

MAX_REQUEST_BYTES = 256 * 1024
"""A score sheet of a long game is a few tens of KiB; anything far larger is not a report."""


LIMITS = {
    "LIMIT_TABLES_PER_ADDRESS": "60 per hour",
    "LIMIT_WRITES_PER_ADDRESS": "600 per minute",
    "LIMIT_WRITES_PER_TOKEN": "300 per minute",
    "LIMIT_SCORING_PER_ADDRESS": "1200 per minute",
    "LIMIT_SCORING_PER_TOKEN": "600 per minute",
    "LIMIT_REQUESTS_PER_ADDRESS": "3000 per minute",
    "LIMIT_REQUESTS_PER_TOKEN": "3000 per minute",
}
"""The limits of a club's server (web/limits.py says what each counts). The busiest minute of a
club evening, 30 phones on 8 games behind one address, uses a third of the overall limit and
less of the others (tests/web/test_limits.py plays it): the phones following a scoreboard ask
every 2.5 s, and with the hands and moves that is about 990 requests in the minute from the
club's one address. A club may keep all its games on
one table, so a token may be as busy as the address."""


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


class ConfigurationError(RuntimeError):
    """A file the app cannot start without is out of the reach of the user running it. The
    message names the file, whose it is and what to run instead; the commands print it as a
    sentence, not a traceback."""


def secret_key(instance_path: str) -> str:
    """``SECRET_KEY``, or a random key made once and kept in the instance folder (so every
    worker and every restart signs cookies alike, and no key is ever a known default).

    The file belongs to whoever ran the first command: made by a command run as root, it keeps
    the service's own user out (:class:`ConfigurationError` says so, and how to set it right).
    """
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    try:
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
    except PermissionError as error:
        raise ConfigurationError(out_of_reach(path)) from error


def out_of_reach(path: Path) -> str:
    """Why the running user cannot read ``path`` (or make it, when it does not exist yet), and
    what to run instead: the command as the user it belongs to, or, when a command run as root
    made it in another user's folder, ``chown`` it back to that folder's owner."""
    user = _user_name(os.geteuid())
    folder = path.parent
    try:
        status = path.stat()
    except FileNotFoundError:
        owner = _owner(folder) or _owner(folder.parent)
        if owner is None:
            return f"{user} cannot make {path}: its folder is out of reach."
        return (
            f"{user} cannot make {path}: the folder belongs to {owner}. Run the command as "
            f"{owner} (`sudo -u {owner} …`)."
        )
    except PermissionError:
        owner = _owner(folder.parent)
        whose = f" (a folder of {owner})" if owner else ""
        return f"{user} cannot reach {path}: {folder}{whose} is closed to it."
    owner = _user_name(status.st_uid)
    said = f"{user} cannot read {path}: it belongs to {owner} (mode {status.st_mode & 0o777:03o})."
    folder_owner = _owner(folder)
    if status.st_uid == 0 and folder_owner not in (None, owner):
        return (
            f"{said} A command run as root made it in {folder_owner}'s folder: give it back "
            f"(`sudo chown {folder_owner}: {path}`), and run every command as {folder_owner} "
            f"(`sudo -u {folder_owner} …`)."
        )
    return f"{said} Run the command as {owner} (`sudo -u {owner} …`)."


def _owner(path: Path) -> str | None:
    try:
        return _user_name(path.stat().st_uid)
    except OSError:
        return None


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a user id with no name (a container's, a deleted user's)
        return f"user {uid}"


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
        "VIRTUAL_CHANCE_WINDOW": 3,
        # A page showing a game may ask the server to hold its conditional GET until the game
        # changes (live.py): at most LIVE_WAIT seconds, at most LIVE_WAITERS requests waiting per
        # worker (None: all the worker holds beside its moves, from gunicorn's --threads or
        # --worker-connections); on SQLite, a change looked for every LIVE_INTERVAL seconds
        # (PostgreSQL says it at once). LIVE_WAIT 0: pages poll as before.
        "LIVE_WAIT": 25,
        "LIVE_WAITERS": None,
        "LIVE_INTERVAL": 0.2,
        # The questions a worker remembers answering (live.py), so that one asked again as
        # answered waits without being read first: a few hundred bytes each. 0: none.
        "LIVE_ANSWERS_KEPT": 10_000,
        # The waiting requests one address, and one token, may hold in a worker (live.py): a
        # club's phones share the venue's address, a table's phones its token. Beyond, answered
        # at once (the page polls). A public instance sets them lower (docs/club.md).
        "LIVE_WAITERS_PER_ADDRESS": 450,
        "LIVE_WAITERS_PER_TOKEN": 100,
        # How long a table goes unused before ``scorekeeper tables prune`` deletes it (365d, 52w,
        # or days); None: only a length given to the command. The nightly backup prunes when
        # it is set (deploy/scorekeeper-backup).
        "PRUNE_UNUSED_FOR": None,
        "CORS_ORIGINS": [],  # the sites whose pages may call the API (cross_origin.py): none
        # Limits against abuse (web/limits.py), per address and per token, in the limits
        # package's notation ("600 per minute", several joined by "," or ";"; empty: none). A club's
        # phones share one address behind its router, so every default is far above what a
        # busy club evening sends; docs/club.md gives stricter ones for a public instance.
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "memory://",  # each worker's own; redis://host:6379 shares them
        "RATELIMIT_STRATEGY": "fixed-window",
        "RATELIMIT_KEY_PREFIX": "scorekeeper",
        "RATELIMIT_SWALLOW_ERRORS": True,  # Redis out of reach: served unlimited, and logged
        **LIMITS,
        # The hands' JSON columns read back with orjson (jsonio.py): the bulk of a game's read.
        "SQLALCHEMY_ENGINE_OPTIONS": {"json_deserializer": stored_json},
    }
