"""What a phone keeps of a page: nothing of a page carrying the table's key, never a copy whose
form token its session no longer knows, and a session that outlives the closed browser."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import TableAccess, create_table


def phone(app: Flask, table: TableAccess) -> FlaskClient:
    client = app.test_client()
    client.set_cookie(f"table_{table.id}", table.token)
    return client


def test_the_table_page_with_its_share_link_is_never_kept(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    page = phone(sqlite_app, table).get(f"/t/{table.id}")
    assert page.status_code == 200 and table.token in page.text  # the share link
    assert page.cache_control.no_store


def test_a_phone_never_revalidates_a_copy_made_for_another_session(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    path = f"/t/{table.id}/games/{game['id']}"
    first, second = phone(sqlite_app, table), phone(sqlite_app, table)
    etag = first.get(path).headers["ETag"]
    assert first.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert second.get(path, headers={"If-None-Match": etag}).status_code == 200


def test_the_pages_session_outlives_the_browser(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    client.get("/")
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None
