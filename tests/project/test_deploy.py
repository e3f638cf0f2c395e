"""The examples of ``deploy/``: the systemd unit runs the documented server line, and the headers
the reverse proxies are documented to send make the app see the HTTPS request the phone made."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from tests.api.conftest import create_table
from tests.project.test_docs import server_line

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SITE = "scores.example.org"
PHONE = "203.0.113.7"  # the phone's address, as the proxy sees it


def unit() -> dict[str, list[str]]:
    """The unit file's settings, each key with its values in order."""
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / "scorekeeper.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def environment_file() -> dict[str, str]:
    lines = (DEPLOY / "scorekeeper.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_the_unit_runs_the_readmes_server_line_with_an_access_log() -> None:
    readme_line = server_line()  # the organiser's guide's line, the one the docs' walk serves
    (started,) = unit()["ExecStart"]
    readme_words = shlex.split(readme_line)
    assert shlex.split(started)[1:] == readme_words[1:]
    assert "--access-logfile" in readme_words


def test_the_unit_is_unprivileged_after_postgresql_and_restarts_on_failure() -> None:
    settings = unit()
    assert settings["User"] == ["scorekeeper"] and settings["Group"] == ["scorekeeper"]
    assert "postgresql.service" in settings["After"][0].split()
    assert settings["Restart"] == ["on-failure"]
    assert settings["EnvironmentFile"] == ["/etc/scorekeeper/env"]


def test_the_unit_opens_no_control_socket() -> None:
    """gunicorn 25.1 and later open a control socket under the user's home unless told not to;
    under ``ProtectSystem=strict`` that home is read-only and every start logs an error. The
    floor in pyproject.toml is the first version that knows the flag."""
    (started,) = unit()["ExecStart"]
    assert "--no-control-socket" in shlex.split(started)
    assert unit()["ProtectSystem"] == ["strict"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (floor,) = [each for each in project["dependencies"] if each.startswith("gunicorn")]
    assert floor == "gunicorn>=25.1"


def test_systemd_reads_the_unit_without_a_complaint(tmp_path: Path) -> None:
    """``systemd-analyze verify``, with the unit's paths pointing at this installation."""
    if shutil.which("systemd-analyze") is None:
        reason = "systemd-analyze is not on this machine (apt-get install -y systemd)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs it to check the unit: {reason}")
        pytest.skip(reason)
    text = (DEPLOY / "scorekeeper.service").read_text()
    here = text.replace("/srv/scorekeeper/.venv", sys.prefix).replace("/srv/scorekeeper", str(ROOT))
    copy = tmp_path / "scorekeeper.service"
    copy.write_text(here)
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    complaints = [line for line in checked.stderr.splitlines() if copy.name in line]
    assert not complaints, checked.stderr


def nginx_headers(scheme: str, sent_for: str | None) -> dict[str, str]:
    """The headers deploy/nginx.conf sets, its variables given what nginx knows of a request
    from ``PHONE`` to ``SITE`` that carried ``X-Forwarded-For: sent_for``."""
    values = {
        "$host": SITE,
        "$scheme": scheme,
        "$server_port": "443" if scheme == "https" else "80",
        "$proxy_add_x_forwarded_for": f"{sent_for}, {PHONE}" if sent_for else PHONE,
    }
    text = (DEPLOY / "nginx.conf").read_text()
    headers = dict(re.findall(r"^\s*proxy_set_header\s+(\S+)\s+(\S+);", text, re.MULTILINE))
    assert set(headers) >= {"Host", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"}
    return {name: values.get(value, value) for name, value in headers.items()}


def caddy_headers() -> dict[str, str]:
    """What Caddy's ``reverse_proxy`` sets by default (its documentation), the Host kept."""
    assert "reverse_proxy 127.0.0.1:8000" in (DEPLOY / "Caddyfile").read_text()
    return {
        "Host": SITE,
        "X-Forwarded-For": PHONE,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": SITE,
    }


@pytest.fixture
def proxied(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """The app as the unit starts it (the environment file's settings read from the
    environment), on the test's database, reached as the proxy reaches it."""
    for name, value in environment_file().items():
        if name.startswith("SCOREKEEPER_"):
            monkeypatch.setenv(name, value)
    uri = sqlite_app.config["SQLALCHEMY_DATABASE_URI"]
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    yield app.test_client(use_cookies=False)  # the Cookie header as the proxy passes it
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("proxy", ["nginx", "caddy"])
def test_behind_the_documented_proxy_the_app_sees_https_and_the_site(
    proxied: FlaskClient, proxy: str
) -> None:
    headers = nginx_headers("https", None) if proxy == "nginx" else caddy_headers()
    table = create_table(proxied)
    cookie = {"Cookie": f"table_{table.id}={table.token}"}
    page = proxied.get(
        f"/t/{table.id}", headers={**headers, **cookie}, base_url="http://127.0.0.1:8000"
    )
    assert page.status_code == 200
    assert f"https://{SITE}/join/{table.id}#{table.token}" in page.text  # the share link
    home = proxied.get("/", headers=headers, base_url="http://127.0.0.1:8000")
    cookies = home.headers.getlist("Set-Cookie")
    assert cookies and all("; Secure" in cookie for cookie in cookies), cookies
