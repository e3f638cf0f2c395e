"""Cross-origin calls to the API: refused (no CORS header) unless the origin is one the
settings name; then a browser may send the token and read the ETag and the request id."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.storage.extensions import db

CLUB = "https://club.example"
PREFLIGHT = {
    "Origin": CLUB,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
}


@pytest.fixture
def open_to_the_club(sqlite_template: Path, tmp_path: Path) -> Iterator[Flask]:
    database = tmp_path / "cors.sqlite3"
    database.write_bytes(sqlite_template.read_bytes())
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "CORS_ORIGINS": [CLUB],
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def test_no_origin_is_allowed_by_default(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    preflight = client.options("/api/v1/tables", headers=PREFLIGHT)
    assert "Access-Control-Allow-Origin" not in preflight.headers
    answer = client.post("/api/v1/tables", json={"name": "Club"}, headers={"Origin": CLUB})
    assert answer.status_code == 201
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_a_named_origin_may_call_the_api_and_read_its_headers(open_to_the_club: Flask) -> None:
    client = open_to_the_club.test_client()
    preflight = client.options("/api/v1/tables", headers=PREFLIGHT)
    assert preflight.headers["Access-Control-Allow-Origin"] == CLUB
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.split(", "))
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    answer = client.post("/api/v1/tables", json={"name": "Club"}, headers={"Origin": CLUB})
    assert answer.status_code == 201
    assert answer.headers["Access-Control-Allow-Origin"] == CLUB
    exposed = answer.headers["Access-Control-Expose-Headers"].lower()
    assert {"etag", "location", "x-request-id"} <= set(exposed.split(", "))


def test_another_origin_and_the_pages_stay_closed(open_to_the_club: Flask) -> None:
    client = open_to_the_club.test_client()
    other = client.options(
        "/api/v1/tables", headers={**PREFLIGHT, "Origin": "https://evil.example"}
    )
    assert "Access-Control-Allow-Origin" not in other.headers
    page = client.get("/", headers={"Origin": CLUB})
    assert "Access-Control-Allow-Origin" not in page.headers
