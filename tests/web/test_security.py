"""The pages against someone on the same Wi-Fi: tables need their token, redirects stay on the
site, input is checked before acting, cookies and headers hold, secrets stay out of the logs."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from tests.running import served, wait_until_serving

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


def set_cookies(response: Any) -> dict[str, str]:
    """Each cookie the response sets, by name, with its attributes."""
    return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}


@pytest.fixture
def behind_a_proxy(app: Flask) -> Iterator[Flask]:
    """The same database, served by an app that trusts one proxy's X-Forwarded-* headers."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    proxied = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "TRUSTED_PROXIES": 1})
    yield proxied
    with proxied.app_context():
        db.engine.dispose()


def test_x_forwarded_proto_is_not_trusted_unless_configured(app: Flask) -> None:
    client = app.test_client()
    https = {"X-Forwarded-Proto": "https"}
    token = form_token(client)
    response = client.post("/tables", data={"name": "C", "csrf_token": token}, headers=https)
    cookies = set_cookies(response)
    assert [name for name in cookies if name.startswith("table_")]
    assert not any("Secure" in cookie for cookie in cookies.values())


def test_behind_a_trusted_https_proxy_every_cookie_is_secure(behind_a_proxy: Flask) -> None:
    client = behind_a_proxy.test_client()
    https = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "192.0.2.7",
        "Referer": "https://localhost/",  # Flask-WTF wants it over HTTPS, as browsers send it
    }
    page = client.get("/", headers=https, base_url="https://localhost")
    token = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
    response = client.post(
        "/tables",
        data={"name": "C", "csrf_token": token},
        headers=https,
        base_url="https://localhost",
    )
    assert response.status_code == 302
    switched = client.get("/language/fr", headers=https, base_url="https://localhost")
    cookies = set_cookies(page) | set_cookies(response) | set_cookies(switched)
    assert {"session", "lang"} <= cookies.keys()
    assert any(name.startswith("table_") for name in cookies)
    assert all("; Secure" in cookie for cookie in cookies.values()), cookies


def test_the_session_cookie_is_same_site_and_http_only(client: FlaskClient) -> None:
    session = set_cookies(client.get("/"))["session"]
    assert "SameSite=Lax" in session
    assert "HttpOnly" in session


def test_pages_forbid_framing_sniffing_and_anything_not_the_apps_own(client: FlaskClient) -> None:
    headers = client.get("/").headers
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in headers["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == policy["script-src"] == policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_api_answers_and_static_files_carry_the_headers_too(client: FlaskClient) -> None:
    for path in ("/api/v1/tables/1", "/static/app.css"):
        with client.get(path) as response:
            assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
            assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port or subdomain of the host
        {"Origin": "http://other.example"},
        {"Origin": "null"},
    ],
)
def test_a_form_posted_from_another_site_is_refused(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    table_id = open_table(client)
    form = {"name": "Ann", "csrf_token": form_token(client, f"/t/{table_id}")}
    response = client.post(f"/t/{table_id}/players", data=form, headers=headers)
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert player_names(client, table_id) == []


@pytest.mark.parametrize(
    "headers",
    [{"Sec-Fetch-Site": "same-origin"}, {"Origin": "http://localhost"}, {}],
)
def test_a_form_posted_from_the_site_itself_is_accepted(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    table_id = open_table(client)
    form = {"name": "Ann", "csrf_token": form_token(client, f"/t/{table_id}")}
    assert client.post(f"/t/{table_id}/players", data=form, headers=headers).status_code == 302
    assert player_names(client, table_id) == ["Ann"]


def secret_requests(base: str) -> None:
    """An old share link and a seat's page, the second with a seat's page as its referrer."""
    for path, headers in (
        (f"/join/1?token=mb_{SECRET}", {}),
        (f"/play/mbs_{SECRET}", {"Referer": f"{base}/play/mbs_{SECRET}"}),
    ):
        request = urllib.request.Request(base + path, headers=headers)
        try:
            urllib.request.urlopen(request, timeout=10).close()
        except urllib.error.HTTPError as error:
            error.close()  # 404: these tokens open nothing; the log line is what matters


SECRET = "Z2hvc3Qtb2YtYS10b2tlbi10aGF0LW11c3Qtbm90LWxlYWs"


def test_werkzeugs_access_log_keeps_no_token(
    sqlite_app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="werkzeug")
    with served(sqlite_app) as base:
        secret_requests(base)
    lines = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert any("/join/1?token=[redacted]" in line for line in lines), lines
    assert any("/play/[redacted]" in line for line in lines), lines
    assert not any(SECRET in line for line in lines)


def test_the_apps_error_log_keeps_no_token(
    sqlite_app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    """Flask reports an unhandled error with the request's path: a seat page's holds its token."""
    sqlite_app.logger.error("Exception on %s [%s]", f"/play/mbs_{SECRET}", "GET")
    (line,) = [record.getMessage() for record in caplog.records if record.name == "scorekeeper"]
    assert line == "Exception on /play/[redacted] [GET]"


def test_gunicorns_access_log_keeps_no_token(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'logged.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "access.log"
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
            "--access-logfile", str(log),
            "--access-logformat", '%(h)s "%(r)s" %(s)s "%(f)s" %(U)s?%(q)s',
            "scorekeeper:create_app()",
        ],
        env={**os.environ, "SCOREKEEPER_SQLALCHEMY_DATABASE_URI": database},
        cwd=tmp_path,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base, seconds=10)
        secret_requests(base)
    finally:
        server.terminate()
        server.wait(timeout=10)
    lines = log.read_text().splitlines()
    assert any("/join/1?token=[redacted]" in line for line in lines), lines
    assert any("/play/[redacted]" in line for line in lines), lines
    assert not any(SECRET in line for line in lines), lines


def table_token(client: FlaskClient, table_id: int) -> str:
    cookie = client.get_cookie(f"table_{table_id}")
    assert cookie is not None
    return cookie.value


def test_the_share_link_keeps_the_token_in_its_fragment(client: FlaskClient) -> None:
    table_id = open_table(client)
    token = table_token(client, table_id)
    page = client.get(f"/t/{table_id}").text
    assert f'value="http://localhost/join/{table_id}#{token}"' in page
    assert "token=" not in page


@pytest.mark.parametrize(
    "pasted",
    ["http://localhost/join/{id}#{token}", "http://localhost/join/{id}?token={token}", "{token}"],
)
def test_a_phone_joins_by_posting_the_links_fragment(app: Flask, pasted: str) -> None:
    owner = app.test_client()
    table_id = open_table(owner, "Shared")
    link = pasted.format(id=table_id, token=table_token(owner, table_id))
    phone = app.test_client()
    landing = phone.get(f"/join/{table_id}")
    assert landing.status_code == 200
    assert not any(name.startswith("table_") for name in set_cookies(landing))
    assert phone.get(f"/t/{table_id}").status_code == 404
    form = {"token": link, "csrf_token": form_token(phone, f"/join/{table_id}")}
    joined = phone.post(f"/join/{table_id}", data=form)
    assert (joined.status_code, joined.headers["Location"]) == (302, f"/t/{table_id}")
    assert "Shared" in phone.get(f"/t/{table_id}").text


def test_a_wrong_key_joins_nothing(app: Flask) -> None:
    table_id = open_table(app.test_client())
    phone = app.test_client()
    form = {"token": "mb_wrong", "csrf_token": form_token(phone, f"/join/{table_id}")}
    response = phone.post(f"/join/{table_id}", data=form)
    assert response.status_code == 404
    assert set_cookies(response).keys() <= {"session"}


def test_an_old_share_link_still_opens_the_table(app: Flask) -> None:
    owner = app.test_client()
    table_id = open_table(owner)
    phone = app.test_client()
    response = phone.get(f"/join/{table_id}?token={table_token(owner, table_id)}")
    assert response.status_code == 302
    assert phone.get(f"/t/{table_id}").status_code == 200


@pytest.mark.parametrize(
    ("name", "status"), [("An\u200bn", 422), ("\u202eAnn", 422), ("ANN", 409), ("ann  ", 409)]
)
def test_the_add_player_page_keeps_the_name_rules(
    client: FlaskClient, name: str, status: int
) -> None:
    table_id = open_table(client)
    for given in ("Ann", name):
        form = {"name": given, "csrf_token": form_token(client, f"/t/{table_id}")}
        response = client.post(f"/t/{table_id}/players", data=form)
    assert response.status_code == status
    assert player_names(client, table_id) == ["Ann"]
