"""The API's reference, served by the app itself: ``openapi.yaml`` as it is, and a page to read it.

``/api/openapi.yaml`` is the contract byte for byte (``scorekeeper/openapi.yaml`` is a link to the
project's own file, so a wheel ships a copy of it and a checkout reads the one the tests check).
``/api/docs`` shows it with Swagger UI: every operation with its parameters, bodies, answers,
errors and examples, browsable on a phone as on a laptop, and "Try it out" against this server.

Swagger UI's files come from the ``flask-swagger-ui`` package (only its ``dist`` folder, which is
Swagger UI's own build, version for version: its blueprint writes its settings in an inline
script, which the pages' Content-Security-Policy forbids). They are served from here, never from
a CDN: a table's server is often a laptop on a Wi-Fi with no internet. The page's own settings
are in ``static/api_reference.js``.

None of these routes is an operation of the API, so ``openapi.yaml`` does not list them: they
answer HTML, YAML and Swagger UI's files to a reader, take no token and never change anything
(the contract test names them as the only ``/api/`` routes it leaves out).
"""

from __future__ import annotations

from importlib import resources
from importlib.metadata import version
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, send_from_directory
from werkzeug.exceptions import NotFound

from scorekeeper.web.security import ONE_YEAR, REFERENCE_POLICY

bp = Blueprint("reference", __name__, url_prefix="/api")

SWAGGER_UI = Path(str(resources.files("flask_swagger_ui") / "dist"))
"""Swagger UI's build, as the package ships it."""
SWAGGER_UI_VERSION = version("flask-swagger-ui")
"""The package's version, which is Swagger UI's: it names the files' content in their address."""
SWAGGER_UI_FILES = frozenset({"swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"})
"""The files the page uses (and Swagger UI's licence): nothing else of the folder is served."""
SPEC = "openapi.yaml"
"""The contract, beside the package's modules (a link to the project's file)."""


@bp.get("/openapi.yaml")
def document() -> Response:
    """The API's contract, ``openapi.yaml``, exactly as written (revalidated by its ETag)."""
    return send_from_directory(current_app.root_path, SPEC, mimetype="application/yaml")


@bp.get("/docs")
def docs() -> Response:
    """The browsable reference: Swagger UI on :func:`document`.

    The page's policy is the pages' own but for one word: ``img-src`` also allows ``data:``
    addresses, because Swagger UI's stylesheet draws its icons as ``data:`` images. Scripts and
    styles still come from this app only, with no inline script (``REFERENCE_POLICY``).
    """
    response = Response(render_template("api/reference.html", swagger_ui=SWAGGER_UI_VERSION))
    response.headers["Content-Security-Policy"] = REFERENCE_POLICY
    return response


@bp.get("/docs/<path:filename>")
def swagger_ui(filename: str) -> Response:
    """One of Swagger UI's files. Kept by the browser for a year when asked for under the
    version the page names (a new package is a new address), revalidated otherwise."""
    if filename not in SWAGGER_UI_FILES:
        raise NotFound()
    current = request.args.get("v") == SWAGGER_UI_VERSION
    mimetype = "text/plain" if filename == "LICENSE" else None
    response = send_from_directory(
        SWAGGER_UI, filename, mimetype=mimetype, max_age=ONE_YEAR if current else None
    )
    if current:
        response.cache_control.public = True
        response.cache_control.immutable = True
    return response
