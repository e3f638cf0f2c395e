"""What makes the pages an installable app: the web manifest, the service worker, and the page a
phone shows when it is offline and has no copy of the page asked for.

The service worker only runs where browsers allow one (localhost and HTTPS); on a table's plain
``http://<ip>:5000`` the pages work as before, and the queue of hands (``static/queue.js``) keeps
hands entered offline without it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from scorekeeper.web.i18n import gettext, language

bp = Blueprint("install", __name__)

THEME_COLOUR = "#c81d25"  # the stylesheet's --accent
BACKGROUND_COLOUR = "#fbfaf7"  # the stylesheet's --bg
SHELL = ("app.css", "app.js", "icons/icon.svg")
"""Static files the service worker keeps from its installation on (with the start page and the
offline page), so an app opened offline has its looks; a screen's own scripts (the hand form's,
the queue's) are kept the first time that screen is opened, with the page itself."""
ICONS = (
    ("icons/icon.svg", "any", "image/svg+xml", "any"),
    ("icons/icon-192.png", "192x192", "image/png", "any"),
    ("icons/icon-512.png", "512x512", "image/png", "any"),
    ("icons/icon-maskable-512.png", "512x512", "image/png", "maskable"),
)


@bp.app_context_processor
def colours() -> dict[str, str]:
    """The theme colour for ``base.html``'s ``theme-color``, the manifest's own."""
    return {"theme_colour": THEME_COLOUR}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web manifest: how the app looks once added to a phone's home screen."""
    start = url_for("pages.tables.home")
    body = {
        "id": start,
        "name": gettext("Mille Bornes scorekeeper"),
        "short_name": "1000 Bornes",
        "lang": str(language()),
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": url_for("static", filename=path), "sizes": sizes, "type": kind, "purpose": use}
            for path, sizes, kind, use in ICONS
        ],
    }
    response = Response(json.dumps(body), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that its scope is every page.

    Its first line, written here, names the files to keep and a version made from their
    content: a new stylesheet or script makes a new worker, which replaces the old cache.
    ``no-cache`` makes the browser ask for it again on each visit (a 304 when unchanged).
    """
    script = (Path(current_app.static_folder or "") / "sw.js").read_bytes()
    shell = [url_for("static", filename=name) for name in SHELL]  # each names its content
    version = hashlib.sha256(script + json.dumps(shell).encode()).hexdigest()[:16]
    config = {
        "version": version,
        "shell": shell,
        "static": url_for("static", filename=""),
        "start": url_for("pages.tables.home"),
        "offline": url_for("pages.install.offline"),
    }
    body = f"const CONFIG = {json.dumps(config)};\n".encode() + script
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(version)
    response.make_conditional(request)
    return response


@bp.get("/offline")
def offline() -> str:
    """What a phone shows for a page it has never opened while the server is out of reach."""
    return render_template("pages/offline.html")
