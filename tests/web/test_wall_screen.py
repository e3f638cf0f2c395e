"""A table's wall screen: made from the table's page as a read-only link (a read token in its
address, shown once with its QR code), it shows the games being played and the last finished,
answers 304 to a copy held, waits for the table's next change, and stops at once when revoked."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import TableAccess, create_table
from tests.api.test_live import AT_ONCE

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
WALL_LINK = re.compile(r'value="(http://localhost/wall/(mbr_[A-Za-z0-9_-]{43}))"')
SMALL = {"sides": [{"distance": 300}, {"distance": 450}]}


@pytest.fixture
def table(app: Flask) -> TableAccess:
    return create_table(app.test_client(), "Club des Bornes")


@pytest.fixture
def owner(app: Flask, table: TableAccess) -> FlaskClient:
    """The phone that made the table (its key in its cookie)."""
    client = app.test_client()
    client.set_cookie(f"table_{table.id}", table.token)
    return client


def make_wall(owner: FlaskClient, table: TableAccess) -> tuple[str, str]:
    """The wall screen's link and token, as the table's page makes them."""
    page = owner.get(f"/t/{table.id}")
    made = owner.post(f"/t/{table.id}/wall", data={"csrf_token": CSRF.findall(page.text)[0]})
    assert made.status_code == 201
    assert made.cache_control.no_store  # the page shows a key
    assert "<svg" in made.text  # its QR code
    ((link, token),) = set(WALL_LINK.findall(made.text))
    return link.removeprefix("http://localhost"), token


@pytest.fixture
def wall(owner: FlaskClient, table: TableAccess) -> Iterator[str]:
    yield make_wall(owner, table)[0]


def test_the_wall_shows_the_games_being_played(app: Flask, table: TableAccess, wall: str) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    table.post(f"/games/{game}/hands", SMALL)
    screen = app.test_client()  # a screen that holds no key of the table
    page = screen.get(wall)
    assert page.status_code == 200
    assert "Club des Bornes" in page.text and "Ann" in page.text and "Bob" in page.text
    assert "300" in page.text and "450" in page.text and "1 hand" in page.text
    assert (
        page.cache_control.no_store and page.headers["Referrer-Policy"] == "same-origin"
    )  # app-wide
    assert "<form" not in page.text.split('id="wall"')[1]  # nothing to enter or change


def test_a_copy_held_is_answered_304_until_the_table_changes(
    app: Flask, table: TableAccess, wall: str
) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    screen = app.test_client()
    etag = screen.get(wall).headers["ETag"]
    assert screen.get(wall, headers={"If-None-Match": etag}).status_code == 304
    table.start_game(2, [[ann], [bob]])
    changed = screen.get(wall, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and "Ann" in changed.text


def test_a_waiting_wall_is_answered_the_moment_a_hand_is_recorded(
    app: Flask, table: TableAccess, wall: str
) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    screen = app.test_client()
    etag = screen.get(wall).headers["ETag"]

    def record_soon() -> None:
        time.sleep(0.5)
        assert table.post(f"/games/{game}/hands", SMALL).status_code == 201

    thread = threading.Thread(target=record_soon)
    thread.start()
    try:
        began = time.monotonic()
        answer = screen.get(wall, headers={"If-None-Match": etag, "Prefer": "wait=20"})
        took = time.monotonic() - began
    finally:
        thread.join()
    assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "wait=20"
    assert 0.4 < took < AT_ONCE, took
    assert "450" in answer.text


def test_a_revoked_wall_stops_at_once_and_the_table_page_lists_it(
    app: Flask, owner: FlaskClient, table: TableAccess, wall: str
) -> None:
    page = owner.get(f"/t/{table.id}")
    assert "Wall screen" in page.text and "Revoke" in page.text
    (token_id,) = [t["id"] for t in table.get("/tokens").get_json()["items"]]
    revoked = owner.post(
        f"/t/{table.id}/tokens/{token_id}/revoke", data={"csrf_token": CSRF.findall(page.text)[0]}
    )
    assert revoked.status_code == 303
    assert app.test_client().get(wall).status_code == 404
    assert table.get("/tokens").get_json()["items"] == []


def test_only_a_read_token_opens_a_wall(app: Flask, table: TableAccess) -> None:
    """The table's own token and a record token are keys: never put in an address."""
    record = table.post("/tokens", {"name": "Bot", "scope": "record"}).get_json()["token"]
    for token in (table.token, record, "mbr_" + "x" * 43):
        assert app.test_client().get(f"/wall/{token}").status_code == 404


def test_the_wall_speaks_the_screens_language(app: Flask, table: TableAccess, wall: str) -> None:
    seats = [{"player": table.add_players("Ann")[0]}, {"computer": "club"}]
    assert table.post("/virtual-games", {"players": 2, "seats": seats}).status_code == 201
    french = app.test_client().get(wall, headers={"Accept-Language": "fr"})
    assert "Ordinateur 2 (Club)" in french.text and "En cours" in french.text
