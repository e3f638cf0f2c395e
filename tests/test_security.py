"""The pages against someone on the same Wi-Fi: tables need their token, redirects stay on the
site, input is checked before acting, cookies and headers hold, secrets stay out of the logs."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def form_token(client: FlaskClient, path: str = "/") -> str:
    """The CSRF token of the form on ``path`` (the phone's session keeps it)."""
    match = CSRF.search(client.get(path).text)
    assert match, f"no form on {path}"
    return match.group(1)


def open_table(client: FlaskClient, name: str = "Club") -> int:
    """Create a table from the home page, as a phone does; its id."""
    response = client.post("/tables", data={"name": name, "csrf_token": form_token(client)})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_the_home_page_lists_only_tables_whose_token_the_phone_holds(app: Flask) -> None:
    owner = app.test_client()
    table_id = open_table(owner, "Secret club")
    assert "Secret club" in owner.get("/").text
    stranger = app.test_client()
    stranger.set_cookie(f"table_{table_id}", "junk")
    stranger.set_cookie(f"table_{table_id + 1}", "junk")
    page = stranger.get("/")
    assert page.status_code == 200
    assert "Secret club" not in page.text
