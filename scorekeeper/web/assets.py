"""Static files under URLs that name their content, kept by the browser for a year.

Every ``url_for("static", ...)`` carries ``?v=`` and a digest of the file. A phone then never asks
for the stylesheet or a script again until the file changes (a new digest is a new URL), and the
service worker fills its cache from the browser's copy instead of downloading the shell a
second time. An address without the right digest (an old page, a hand-typed URL) is still
served, revalidated as before, never kept for long.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.wrappers import Response

from scorekeeper.web.security import ONE_YEAR


def init_app(app: Flask) -> None:
    folder = Path(app.static_folder or "")

    @cache
    def content_digest(path: Path, modified: int, size: int) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]

    def digest(filename: str) -> str:
        """The file's digest, read again only when the file changes (an edited stylesheet gets
        its new URL without a restart)."""
        path = folder / filename
        try:
            stat = path.stat()
            return content_digest(path, stat.st_mtime_ns, stat.st_size) if path.is_file() else ""
        except OSError:
            return ""  # not a file: Flask answers 404 for it anyway

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = digest(str(values.get("filename", "")))
            if version:
                values["v"] = version

    @app.after_request
    def kept_for_a_year(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code == 200:
            filename = str((request.view_args or {}).get("filename", ""))
            version = request.args.get("v")
            if version and version == digest(filename):
                response.cache_control.public = True
                response.cache_control.max_age = ONE_YEAR
                response.cache_control.immutable = True
                response.cache_control.no_cache = None
        return response
