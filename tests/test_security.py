"""The pages against someone on the same Wi-Fi: tables need their token, redirects stay on the
site, input is checked before acting, cookies and headers hold, secrets stay out of the logs."""

from __future__ import annotations

import re

import pytest
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


@pytest.mark.parametrize(
    "referrer",
    [
        "http://localhost//other.example/x",
        "http://localhost/\t/other.example/x",
        "http://localhost/\\other.example/x",
        "https://other.example/t/1",
    ],
)
def test_the_language_switch_never_leaves_the_site(client: FlaskClient, referrer: str) -> None:
    response = client.get("/language/fr", headers={"Referer": referrer})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_the_language_switch_goes_back_to_the_page(client: FlaskClient) -> None:
    response = client.get("/language/fr", headers={"Referer": "http://localhost/t/1/games/new"})
    assert response.headers["Location"] == "/t/1/games/new"


def player_names(client: FlaskClient, table_id: int) -> list[str]:
    return re.findall(r"<li>([^<]*)</li>", client.get(f"/t/{table_id}").text.split('"chips"')[1])


@pytest.mark.parametrize(
    "back",
    ["/t/{id}/games/new\r\nSet-Cookie: x=y", "https://other.example/t/{id}/", "/t/{id}/\t/x"],
)
def test_a_bad_next_is_refused_before_the_player_is_added(client: FlaskClient, back: str) -> None:
    table_id = open_table(client)
    form = {
        "name": "Ann",
        "next": back.format(id=table_id),
        "csrf_token": form_token(client, f"/t/{table_id}"),
    }
    response = client.post(f"/t/{table_id}/players", data=form)
    assert response.status_code == 422
    assert "next" in response.text
    assert player_names(client, table_id) == []


def test_next_leads_back_into_the_table(client: FlaskClient) -> None:
    table_id = open_table(client)
    back = f"/t/{table_id}/games/new?players=3"
    form = {"name": "Ann", "next": back, "csrf_token": form_token(client, f"/t/{table_id}")}
    response = client.post(f"/t/{table_id}/players", data=form)
    assert response.headers["Location"] == back
    assert player_names(client, table_id) == ["Ann"]
