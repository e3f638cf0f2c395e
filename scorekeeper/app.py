"""The Flask app: its settings, extensions and blueprints, put together by :func:`create_app`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

from scorekeeper import config
from scorekeeper.commands import db as database_commands
from scorekeeper.domain.limits import MAX_ID
from scorekeeper.storage import game_cache
from scorekeeper.storage.extensions import db, migrate
from scorekeeper.web import (
    assets,
    cross_origin,
    errors,
    http,
    i18n,
    limits,
    live,
    logs,
    page_cache,
    request_ids,
    security,
    transactions,
)
from scorekeeper.web.json_http import JSONProvider, JSONRequest


class IdConverter(IntegerConverter):
    """An id in a URL. One too large for the databases' integer columns becomes 0, an id nothing
    has, so it is simply not found (rejecting it in routing would answer 405, not 404)."""

    def to_python(self, value: str) -> int:
        number = int(super().to_python(value))
        return number if number <= MAX_ID else 0


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``SCOREKEEPER_*`` env settings, then ``test_config``."""
    # Named "scorekeeper": its logger and its instance folder.
    app = transactions.TransactionalFlask("scorekeeper", instance_relative_config=True)
    app.json = JSONProvider(app)
    app.request_class = JSONRequest
    app.config.from_mapping(config.defaults(app.instance_path))
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = config.engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    )
    os.makedirs(app.instance_path, exist_ok=True)

    app.url_map.converters["id"] = IdConverter
    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "..", "migrations"))
    database_commands.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    logs.init_app(app)
    request_ids.init_app(app)
    cross_origin.init_app(app)
    limits.init_app(app)  # after the request's id: a 429 names it
    logs.name_the_database(app)
    transactions.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    security.csrf.init_app(app)
    game_cache.init_app(app)
    page_cache.init_app(app)
    live.init_app(app)
    app.after_request(http.leave_server_headers)

    from scorekeeper import api, pages
    from scorekeeper.api import reference
    from scorekeeper.storage import models  # noqa: F401  (for migrations)

    for resource in api.RESOURCES:
        security.csrf.exempt(resource)  # the API authenticates with a bearer token, never a cookie
    app.register_blueprint(api.bp)
    app.register_blueprint(reference.bp)  # the API's reference: openapi.yaml and a page to read it
    app.register_blueprint(pages.bp)
    return app
