"""Fixtures shared by every test: the app on a migrated database, its client and CLI.

API tests run on SQLite and, where the PostgreSQL binaries are on the machine, on a throwaway
PostgreSQL cluster too. Under ``CI=true`` a PostgreSQL that cannot start fails those tests
instead of skipping them, so a green CI run always means both databases were exercised.

Each database is migrated once per session; a test gets a copy of the migrated SQLite file, or
the PostgreSQL database emptied. The migrations themselves are run by the tests of
``tests/web/test_app.py`` (a fresh upgrade, down and up again, models against migrations).

The engine the tests use is checked before any test runs: with ``ENGINE_EXPECT_COMPILED=1`` (the
Makefile's compiled run) every engine module but those pyproject.toml leaves pure must have been
imported from a mypyc extension module, so a silent fall-back to Python cannot pass as compiled;
otherwise none may have been, so the pure run (doctests included) tests the source as it is. The
reference players (``reference/``, which ``make compiled`` builds beside the engine for the
benchmarks, never into a wheel) are held to the same when the build holds them; a build of the
engine alone (``make engine``, what ``make test`` builds) runs them from their source.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import tomllib
from collections.abc import Iterator
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from tests import postgres

pytest_plugins = ["tests.slow_first"]

IN_CI = os.environ.get("CI") == "true"


def require(missing: str | None, purpose: str) -> None:
    """Go on if nothing is ``missing`` (a sentence saying what is, and how to install it);
    otherwise skip the test, saying why, or under CI fail it: a green CI run always means
    ``purpose`` was run for real."""
    if missing:
        if IN_CI:
            pytest.fail(f"{purpose}: {missing}")
        pytest.skip(missing)


# Virtual games in tests ask the people of an attacked side one after another, as with no
# coup-fourré window: the window runs on the clock, and its own tests set it and the clock.
os.environ.setdefault("SCOREKEEPER_VIRTUAL_CHANCE_WINDOW", "0")
# The tests make tables and hands faster than any club from one address: the limits against
# abuse are off but in their own tests (tests/web/test_limits.py), which turn them on. The servers
# the tests start in their own processes inherit this too.
os.environ.setdefault("SCOREKEEPER_RATELIMIT_ENABLED", "false")
EXPECT_COMPILED = os.environ.get("ENGINE_EXPECT_COMPILED") == "1"
ROOT = Path(__file__).resolve().parents[1]


COMPILED_PACKAGES = ("engine", "reference")
"""The packages the Makefile's build compiles: the engine, and the reference players beside it."""


def engine_modules() -> dict[str, str]:
    """Every module of the engine package and of the reference players, imported: the file each
    was loaded from."""
    files = {}
    for name in COMPILED_PACKAGES:
        package = importlib.import_module(name)
        files[name] = str(package.__file__)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            files[module.name] = str(importlib.import_module(module.name).__file__)
    return files


def left_pure() -> set[str]:
    """The engine modules the compiled build leaves as Python (pyproject.toml), by name."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    paths = settings["tool"]["compiled-engine"]["pure"]
    return {path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in paths}


def is_compiled(file: str) -> bool:
    return file.endswith(tuple(EXTENSION_SUFFIXES))


def is_compiled_build(package: Path) -> bool:
    """Whether the package folder ``package`` holds extension modules (is a compiled build)."""
    return any(is_compiled(str(path)) for path in package.rglob("*"))


def pytest_configure(config: pytest.Config) -> None:
    files = engine_modules()
    if EXPECT_COMPILED:
        pure = left_pure()
        if not is_compiled_build(Path(files["reference"]).parent):
            pure |= {name for name in files if name.partition(".")[0] == "reference"}
        wrong = sorted(
            name for name, file in files.items() if name not in pure and not is_compiled(file)
        )
        if wrong or not any(map(is_compiled, files.values())):
            raise pytest.UsageError(
                "ENGINE_EXPECT_COMPILED=1, but these modules were imported from Python "
                f"source, not from extension modules: {', '.join(wrong) or 'all'} (the engine "
                f"package came from {Path(files['engine']).parent}, the reference players from "
                f"{Path(files['reference']).parent}; build them with `make engine` (the engine) "
                "or `make compiled` (with the reference players), and put build/compiled first "
                "on PYTHONPATH)"
            )
    else:
        wrong = sorted(name for name, file in files.items() if is_compiled(file))
        if wrong:
            raise pytest.UsageError(
                f"the pure run imported compiled modules: {', '.join(wrong)} (the engine from "
                f"{Path(files['engine']).parent}); set ENGINE_EXPECT_COMPILED=1 to test a "
                "compiled engine, or remove the extension modules built into engine/ or reference/"
            )


def pytest_report_header(config: pytest.Config) -> str:
    files = engine_modules()
    folder = Path(files["engine"]).parent.parent
    where = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    compiled = sorted(name for name, file in files.items() if is_compiled(file))
    if not compiled:
        return f"engine and reference players: pure Python, from {where or '.'}"
    pure = sorted(set(files) - set(compiled))
    return (
        f"engine and reference players: {len(compiled)} of {len(files)} modules compiled by "
        f"mypyc, from {where}; left pure: {', '.join(pure)}"
    )


def migrate(url: str) -> None:
    """Run every migration on the database at ``url``."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once for the session: each test's database is a copy of it."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    # The last connection closed folds the write-ahead log into the file, so the file alone
    # is the whole database.
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a migrated PostgreSQL database for the session."""
    require(postgres.binaries_missing(), "CI needs PostgreSQL for these tests")
    with postgres.cluster() as server:
        admin = create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text("CREATE DATABASE scorekeeper_test"))
        admin.dispose()
        url = server.rsplit("/", 1)[0] + "/scorekeeper_test"
        migrate(url)
        yield url


def _sqlite_app(template: Path, folder: Path) -> Flask:
    path = folder / "test.sqlite3"
    shutil.copyfile(template, path)
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})


def _empty_postgres_app(url: str) -> Flask:
    """The app on the session's PostgreSQL database, emptied and its ids starting at 1 again.
    (DELETE, not TRUNCATE: on a few rows it takes a millisecond where TRUNCATE takes forty.)"""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.execute(text("SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S'"))
        db.session.commit()
    return app


DATABASES = os.environ.get("SCOREKEEPER_TEST_DATABASES", "sqlite,postgresql").split(",")
"""The databases the ``app`` fixture gives each test: both, but in the Makefile's run on the pure
engine, which repeats the API's tests of the virtual games only for the engine (that run gives
them SQLite alone: the engine sees no database)."""


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on a freshly migrated, empty database: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        app = _sqlite_app(request.getfixturevalue("sqlite_template"), tmp_path)
    else:
        app = _empty_postgres_app(request.getfixturevalue("postgres_server"))
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def sqlite_app(sqlite_template: Path, tmp_path: Path) -> Iterator[Flask]:
    """The app on SQLite only, for tests of what is SQLite's own."""
    app = _sqlite_app(sqlite_template, tmp_path)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def database_free_app(tmp_path: Path) -> Flask:
    """The app with no database it could open, for what must not need one (the stateless
    scoring endpoints): a query would fail the test, so these run once, not per database."""
    nowhere = tmp_path / "no-such-folder" / "none.sqlite3"
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{nowhere}"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
