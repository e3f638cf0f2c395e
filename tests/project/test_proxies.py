"""The reverse proxies of ``deploy/`` run for real: Debian 12's nginx (1.22) and Caddy (2.6) load
``deploy/nginx.conf`` and ``deploy/Caddyfile`` in front of the systemd unit's gunicorn line; a
seat's link and an old share link opened through them leave no token in any of their logs (nor
in the app's), the app's access log and its limits against abuse name the phone's address, not
the proxy's, and a live page's held question passes them the moment the game moves.

The proxies run as ``tests/proxies.py`` starts them (its docstring says what it rewrites), and
nginx's Debian-wide access log must stay empty.
"""

from __future__ import annotations

import http.client
import json
import os
import shlex
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.proxies import (
    DEPLOY,
    PROXY_STARTS,
    ROOT,
    SITE,
    Certificate,
    Proxy,
    caddy_environment,
    free_port,
    needed,
    nginx_command,
    nginx_files,
    nginx_site,
    rewritten,
    running,
    self_signed,
    wait_for_port,
)
from tests.running import wait_until_serving

PHONE = "127.0.0.2"  # a second loopback address: the phone, as the proxy sees it
SPOOFED = "198.51.100.9"  # what a phone may write in its own X-Forwarded-For
PROXIES = ["nginx", "caddy"]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Certificate:
    """A self-signed certificate and key for the site's name."""
    return self_signed(tmp_path_factory.mktemp("certificate"))


# --- The app, as the unit starts it -------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class App:
    port: int
    log: Path  # gunicorn's output: the access log (stdout) and its error log (stderr)


def unit_line() -> str:
    (line,) = [
        line.removeprefix("ExecStart=")
        for line in (DEPLOY / "scorekeeper.service").read_text().splitlines()
        if line.startswith("ExecStart=")
    ]
    return line


def environment_file() -> dict[str, str]:
    lines = (DEPLOY / "scorekeeper.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The unit's ExecStart on a free port, with the environment file's settings (its
    PostgreSQL replaced by a migrated SQLite file), the way the service runs it."""
    folder = tmp_path_factory.mktemp("app")
    port = free_port()
    environment = {
        **os.environ,
        **environment_file(),
        "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}",
        "SECRET_KEY": "a-key-for-this-test-only",
        "SCOREKEEPER_RATELIMIT_ENABLED": "true",  # on, as in production (the suite turns it off)
    }
    subprocess.run(
        [str(Path(sys.prefix) / "bin" / "scorekeeper"), "db", "upgrade"],
        env=environment, cwd=ROOT, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    line = rewritten(
        unit_line(),
        [("/srv/scorekeeper/.venv", sys.prefix), ("127.0.0.1:8000", f"127.0.0.1:{port}")],
    )
    log = folder / "gunicorn.log"
    with running(shlex.split(line), log, env=environment, cwd=ROOT) as server:
        wait_for_port(port, server, log)
        wait_until_serving(f"http://127.0.0.1:{port}")
        yield App(port=port, log=log)


@pytest.fixture(scope="module", params=PROXIES)
def proxy(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    certificate: Certificate,
    app: App,
) -> Iterator[Proxy]:
    folder = tmp_path_factory.mktemp(request.param)
    with PROXY_STARTS[request.param](folder, certificate, app.port) as started:
        yield started


# --- A phone ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def ask(
    proxy: Proxy,
    certificate: Certificate,
    method: str,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    body: Any = None,
    https: bool = True,
    source: str = "127.0.0.1",
) -> Answer:
    """One request to the site through ``proxy``, as a phone at ``source`` makes it: the site's
    name resolved to loopback, the certificate checked against the throwaway one."""
    port = proxy.https_port if https else proxy.http_port
    raw = socket.create_connection(("127.0.0.1", port), timeout=15, source_address=(source, 0))
    context = ssl.create_default_context(cafile=str(certificate[0]))
    with context.wrap_socket(raw, server_hostname=SITE) if https else raw as connection:
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {SITE}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        response = http.client.HTTPResponse(connection)
        try:
            response.begin()
            return Answer(status=response.status, headers=response.headers, body=response.read())
        finally:
            response.close()


def logged(read: Callable[[], str], wanted: str) -> str:
    """What ``read`` gives once it holds ``wanted`` (a proxy or gunicorn logs a request once
    its answer is sent, a moment after the phone has read it), or after 10 seconds."""
    deadline = time.monotonic() + 10
    text = read()
    while wanted not in text and time.monotonic() < deadline:
        time.sleep(0.1)
        text = read()
    return text


@dataclass(frozen=True, slots=True, kw_only=True)
class Links:
    table_id: int
    table_token: str
    seat_token: str
    wall_token: str


def open_links(proxy: Proxy, certificate: Certificate, agent: str) -> Links:
    """Through ``proxy``: a table made with the API, a virtual game with a seat for its player,
    then the seat's link opened (with the stylesheet its page asks for, the seat's page as its
    referrer), the same link over http://, and the table's share link in its old ``?token=`` form.
    Every request carries the user agent ``agent``, to find its lines in the logs."""

    def api(path: str, body: Any, token: str | None = None) -> Any:
        headers = {"User-Agent": agent, **({"Authorization": f"Bearer {token}"} if token else {})}
        answer = ask(proxy, certificate, "POST", path, headers=headers, body=body)
        assert answer.status == 201, answer.body
        return answer.json()

    table = api("/api/v1/tables", {"name": "Club"})
    tables = f"/api/v1/tables/{table['id']}"
    player = api(f"{tables}/players", {"name": "Ann"}, table["token"])
    seats = [{"player": player["id"]}, {"computer": "random"}]
    game = api(f"{tables}/virtual-games", {"players": 2, "seats": seats}, table["token"])
    (seat,) = [seat["token"] for seat in game["seat_tokens"]]
    wall = api(f"{tables}/tokens", {"name": "Wall screen", "scope": "read"}, table["token"])
    links = Links(
        table_id=table["id"], table_token=table["token"], seat_token=seat, wall_token=wall["token"]
    )

    seat_page = f"/play/{links.seat_token}"
    phone = {"User-Agent": agent}
    assert ask(proxy, certificate, "GET", seat_page, headers=phone).status == 200
    referred = {**phone, "Referer": f"https://{SITE}{seat_page}"}
    assert ask(proxy, certificate, "GET", "/static/app.css", headers=referred).status == 200
    wall_page = f"/wall/{links.wall_token}"
    assert ask(proxy, certificate, "GET", wall_page, headers=phone).status == 200
    from_wall = {**phone, "Referer": f"https://{SITE}{wall_page}"}
    assert ask(proxy, certificate, "GET", "/static/app.js", headers=from_wall).status == 200
    moved = ask(proxy, certificate, "GET", seat_page, headers=phone, https=False)
    assert moved.status in (301, 308) and moved.headers["Location"].startswith("https://")
    old_link = f"/join/{links.table_id}?token={links.table_token}"
    joined = ask(proxy, certificate, "GET", old_link, headers=phone)
    assert joined.status == 302
    # The app saw HTTPS (the proxy's X-Forwarded-Proto, believed): the table's cookie is Secure.
    assert "; Secure" in joined.headers["Set-Cookie"], joined.headers
    return links


# --- The tests ----------------------------------------------------------------------------------


def test_debian_12s_nginx_loads_the_example(tmp_path: Path, certificate: Certificate) -> None:
    """``nginx -t``, the site as written but for the certificate and the log folder (nginx -t
    reads the one and opens the others). nginx before 1.25.1 refuses ``http2 on;``."""
    site = rewritten((DEPLOY / "nginx.conf").read_text(), nginx_site(tmp_path, certificate))
    checked = subprocess.run(
        nginx_command(tmp_path, nginx_files(tmp_path, site), "-t"),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_debian_12s_caddy_validates_the_example(tmp_path: Path) -> None:
    """``caddy validate``, the Caddyfile as written; ``caddy fmt`` has nothing to change."""
    caddy_path = needed("caddy")
    example = str(DEPLOY / "Caddyfile")
    checked = subprocess.run(
        [caddy_path, "validate", "--adapter", "caddyfile", "--config", example],
        capture_output=True, text=True, timeout=60, env=caddy_environment(tmp_path),
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert "Valid configuration" in checked.stdout + checked.stderr
    formatted = subprocess.run(
        [caddy_path, "fmt", example], capture_output=True, text=True, timeout=60, check=True
    )
    assert formatted.stdout == (DEPLOY / "Caddyfile").read_text()


def test_the_proxy_speaks_http2(proxy: Proxy, certificate: Certificate) -> None:
    """The phone is offered HTTP/2 (nginx 1.22: ``listen ... ssl http2``)."""
    context = ssl.create_default_context(cafile=str(certificate[0]))
    context.set_alpn_protocols(["h2", "http/1.1"])
    raw = socket.create_connection(("127.0.0.1", proxy.https_port), timeout=15)
    with context.wrap_socket(raw, server_hostname=SITE) as connection:
        assert connection.selected_alpn_protocol() == "h2"


def test_no_token_reaches_the_proxys_logs(proxy: Proxy, certificate: Certificate, app: App) -> None:
    links = open_links(proxy, certificate, agent=f"phone-links-{proxy.name}")
    old_link = f"/join/{links.table_id}?token=[redacted]"
    logs = logged(proxy.logs, old_link)
    assert "/play/[redacted]" in logs and old_link in logs, logs[-3000:]
    assert f"https://{SITE}/play/[redacted]" in logs  # the referrer
    assert "/wall/[redacted]" in logs and f"https://{SITE}/wall/[redacted]" in logs
    for token in (links.table_token, links.seat_token, links.wall_token):
        assert token not in logs, f"{proxy.name} logged a token:\n{logs[-3000:]}"
    if proxy.name == "nginx":
        assert (proxy.folder / "access.log").read_text() == "", "Debian's default access log"
    gunicorn = logged(app.log.read_text, old_link)
    assert all(token not in gunicorn for token in (links.table_token, links.seat_token))
    assert links.wall_token not in gunicorn


@pytest.mark.parametrize("name", PROXIES)
def test_with_the_app_down_no_token_reaches_the_proxys_logs(
    name: str, tmp_path: Path, certificate: Certificate
) -> None:
    """A proxy whose app does not answer logs the failed request (nginx names its request line
    in its error log, Caddy the whole request): a seat's link opened then leaves no token."""
    seat_page = "/play/mbs_" + "K" * 43
    with PROXY_STARTS[name](tmp_path, certificate, free_port()) as down:
        answer = ask(down, certificate, "GET", seat_page, headers={"User-Agent": "phone-down"})
        assert answer.status == 502
        logs = logged(down.logs, "/play/[redacted]")
    assert "/play/[redacted]" in logs, logs[-3000:]
    assert "K" * 43 not in logs, logs[-3000:]


def test_the_apps_log_names_the_phone_behind_the_proxy(
    proxy: Proxy, certificate: Certificate, app: App
) -> None:
    """The phone's address, as the proxy saw it; never what the phone wrote in its own
    X-Forwarded-For, nor the proxy's loopback address."""
    agent = f"phone-address-{proxy.name}"
    headers = {"User-Agent": agent, "X-Forwarded-For": SPOOFED}
    assert ask(proxy, certificate, "GET", "/", headers=headers, source=PHONE).status == 200
    (line,) = [line for line in logged(app.log.read_text, agent).splitlines() if agent in line]
    assert line.split()[0] == PHONE, line
    assert SPOOFED not in line


def test_the_limits_count_the_phone_behind_the_proxy(
    proxy: Proxy, certificate: Certificate, app: App
) -> None:
    """The limits against abuse count the address the proxy saw: a phone that writes another
    X-Forwarded-For each time is still one phone, and the phone beside it (another address, as
    the proxy sees it) has a count of its own, not the proxy's. The unit's two workers count
    apart, each in its memory: of five requests, three reach the same worker, and two of them
    fall in the same minute's count, even one crossing into the next minute."""
    phone, beside = {"nginx": ("127.0.0.5", "127.0.0.6"), "caddy": ("127.0.0.7", "127.0.0.8")}[
        proxy.name
    ]
    left = []
    for spoofed in ("198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4", "::1"):
        headers = {"X-Forwarded-For": spoofed}
        answer = ask(proxy, certificate, "GET", "/", headers=headers, source=phone)
        assert answer.status == 200
        left.append(int(answer.headers["RateLimit-Remaining"]))
    assert max(left) == 2999 and min(left) < 2999, left  # the overall limit: 3000 a minute
    answer = ask(proxy, certificate, "GET", "/", source=beside)
    assert int(answer.headers["RateLimit-Remaining"]) == 2999


def test_a_waiting_page_hears_a_move_through_the_proxy_at_once(
    proxy: Proxy, certificate: Certificate, app: App
) -> None:
    """Live pages behind the example proxy: a seat's page that asks with ``Prefer: wait`` is
    held by the app, and its answer, the fresh page, passes the proxy the moment the other seat
    moves (no buffering holds it back)."""
    agent = {"User-Agent": f"phone-live-{proxy.name}"}

    def api(path: str, body: Any, token: str) -> Answer:
        authorized = {**agent, "Authorization": f"Bearer {token}"}
        return ask(proxy, certificate, "POST", path, headers=authorized, body=body)

    def read(game: str, token: str) -> Any:
        authorized = {**agent, "Authorization": f"Bearer {token}"}
        return ask(proxy, certificate, "GET", game, headers=authorized).json()

    table = ask(proxy, certificate, "POST", "/api/v1/tables", headers=agent, body={"name": "Live"})
    table_id, token = table.json()["id"], table.json()["token"]
    tables = f"/api/v1/tables/{table_id}"
    ids = [api(f"{tables}/players", {"name": name}, token).json()["id"] for name in ("Ann", "Bob")]
    seats = [{"player": player} for player in ids]
    started = api(f"{tables}/virtual-games", {"players": 2, "seats": seats}, token)
    assert started.status == 201, started.body
    game = started.headers["Location"].removeprefix(f"https://{SITE}")
    tokens = {entry["seat"]: entry["token"] for entry in started.json()["seat_tokens"]}
    mover = read(game, tokens[0])["state"]["to_act"]
    waiter_page = f"/play/{tokens[1 - mover]}"
    page = ask(proxy, certificate, "GET", waiter_page, headers=agent)
    etag = page.headers["ETag"]  # names the session's form tokens too: the phone keeps its cookie
    session = page.headers["Set-Cookie"].split(";")[0]
    mover_view = read(game, tokens[mover])
    move = {"number": mover_view["next_move"], **mover_view["state"]["legal_moves"][0]}

    answered: list[tuple[Answer, float]] = []

    def wait() -> None:
        waiting = {**agent, "Cookie": session, "If-None-Match": etag, "Prefer": "wait=20"}
        answer = ask(proxy, certificate, "GET", waiter_page, headers=waiting)
        answered.append((answer, time.monotonic()))

    waiter = threading.Thread(target=wait)
    waiter.start()
    # The question reaches the app and is held meanwhile (a few milliseconds on an idle machine;
    # nothing outside the app shows when it is held).
    time.sleep(2.0)
    assert waiter.is_alive()
    moved_at = time.monotonic()
    assert api(f"{game}/moves", move, tokens[mover]).status == 200
    waiter.join(timeout=20)
    ((answer, at),) = answered
    assert answer.status == 200
    assert answer.headers["Preference-Applied"] == "wait=20"
    assert answer.headers["ETag"] != etag
    assert at - moved_at < 10, at - moved_at  # woken by the move, not after the 20 s asked
