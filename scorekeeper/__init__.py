"""The Mille Bornes scorekeeper: a thin Flask layer over the engine and the database.

The package itself imports nothing: the command line's engine commands (``simulate``, ``score``)
start without loading the web app, which costs a second of CPU (Flask, SQLAlchemy, Alembic,
marshmallow), more than a hundred simulated games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

from scorekeeper.version import __version__ as __version__


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app (:func:`scorekeeper.app.create_app`): defaults, then ``SCOREKEEPER_*`` env
    settings, then ``test_config``."""
    from scorekeeper import engine_build

    engine_build.prefer_compiled()
    from scorekeeper.app import create_app as build

    return build(test_config)
