"""Static files under URLs naming their content: kept by the phone for a year, and a changed
file gets a new URL, so no phone keeps an old stylesheet."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask, url_for

from scorekeeper.web import assets


def test_a_page_links_its_stylesheet_under_its_digest_kept_a_year(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    link = re.search(r'href="(/static/app\.css\?v=\w+)"', client.get("/").text)
    assert link is not None
    with client.get(link.group(1)) as answer:
        assert answer.status_code == 200
        assert answer.cache_control.max_age == 365 * 24 * 3600
        assert answer.cache_control.immutable


def test_an_address_without_the_files_digest_is_not_kept(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    for path in ("/static/app.css", "/static/app.css?v=0123456789ab"):
        with client.get(path) as answer:
            assert answer.status_code == 200
            assert answer.cache_control.max_age is None and not answer.cache_control.immutable


def test_a_changed_file_gets_a_new_address(tmp_path: Path) -> None:
    app = Flask(__name__, static_folder=str(tmp_path), static_url_path="/static")
    assets.init_app(app)
    sheet = tmp_path / "sheet.css"
    sheet.write_text("body { color: red; }")
    with app.test_request_context():
        before = url_for("static", filename="sheet.css")
        sheet.write_text("body { color: blue; margin: 0; }")
        after = url_for("static", filename="sheet.css")
    assert before != after and before.startswith("/static/sheet.css?v=")
