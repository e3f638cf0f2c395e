"""The reverse proxies of ``deploy/`` started for real in front of an app on a loopback port: Debian
12's nginx (1.22) and Caddy (2.6), each on its example as written but for what a test machine
cannot have, each rewrite checked to have found its text (so a changed example fails rather than
runs half-rewritten):

* the certificate: a throwaway self-signed one for the site's name (``openssl``), where the
  examples name Let's Encrypt's files (nginx) or let Caddy obtain one (``tls`` added);
* the ports: free loopback ports instead of 80, 443 and the app's 8000 (nginx's IPv6 ``listen``
  lines dropped, the same server on an address a test machine may lack; Caddy's ``http_port``,
  ``https_port`` and ``admin off`` added to its global options);
* nginx's log paths: a scratch folder instead of ``/var/log/nginx``. Caddy's logs go to its
  standard error (the journal, under Debian's unit), read from a file here.

nginx reads the site the way Debian's ``/etc/nginx/nginx.conf`` includes it: inside an ``http``
block whose own ``access_log`` (the combined format, every path and query in full) applies to
every site that sets none.

Used by the proxies' tests and by the live updates' benchmark (``--behind``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
SITE = "scores.example.org"


Certificate = tuple[Path, Path]
"""A certificate (its chain) and its key, as files."""


def needed(tool: str) -> str:
    """The path of ``tool``; without it the test is skipped, or fails under ``CI=true`` (.ci/run
    installs it)."""
    found = shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin")
    if found is None:
        require(
            f"{tool} is not on this machine (apt-get install -y {tool})",
            "CI needs it to run the deploy examples",
        )
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rewritten(text: str, changes: list[tuple[str, str]]) -> str:
    """``text`` with each ``(old, new)`` replaced; each ``old`` must be there."""
    for old, new in changes:
        assert old in text, f"the example no longer holds {old!r}: update this test's rewrites"
        text = text.replace(old, new)
    return text


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: Path) -> None:
    """Return once something listens on ``port``; fail, showing ``what``, if ``process`` ends."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"exited with {process.returncode}:\n{what.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on {port}:\n{what.read_text()[-3000:]}")


@contextmanager
def running(command: list[str], log: Path, **options: Any) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` started, its output in ``log``; stopped (SIGTERM) and waited for on leaving."""
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, **options)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def self_signed(folder: Path) -> Certificate:
    """A self-signed certificate and key for the site's name, made in ``folder``."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            needed("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", f"/CN={SITE}", "-addext", f"subjectAltName=DNS:{SITE}",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


# --- The proxies, as the examples configure them ------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Proxy:
    name: str
    http_port: int
    https_port: int
    folder: Path  # every log the proxy writes is in it, and nothing else ends in .log

    def logs(self) -> str:
        return "\n".join(path.read_text() for path in sorted(self.folder.glob("*.log")))


NGINX_MAIN = """\
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{}}
http {{
    # As Debian's /etc/nginx/nginx.conf: the combined format, for every site that sets no log.
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""


def nginx_site(folder: Path, certificate: Certificate) -> list[tuple[str, str]]:
    """The rewrites every nginx run needs: the certificate, and the logs in ``folder``."""
    cert, key = certificate
    return [
        (f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(key)),
        ("/var/log/nginx/", f"{folder}/"),
    ]


def nginx_files(folder: Path, site: str) -> Path:
    """The site in ``folder``, included by a main file like Debian's: the main file's path."""
    (folder / "site.conf").write_text(site)
    main = folder / "main.conf"
    main.write_text(NGINX_MAIN.format(folder=folder))
    return main


def nginx_command(folder: Path, main: Path, *extra: str) -> list[str]:
    """nginx on the files in ``folder``; ``-e`` names the log of errors met before the
    configuration names one (Debian's build would open /var/log/nginx/error.log)."""
    return [needed("nginx"), "-e", str(folder / "error.log"), "-p", str(folder), "-c", str(main),
            *extra]  # fmt: skip


@contextmanager
def nginx(folder: Path, certificate: Certificate, upstream: int) -> Iterator[Proxy]:
    http_port, https_port = free_port(), free_port()
    site = rewritten(
        (DEPLOY / "nginx.conf").read_text(),
        [
            *nginx_site(folder, certificate),
            ("    listen [::]:80;\n", ""),
            ("    listen [::]:443 ssl http2;\n", ""),
            ("listen 80;", f"listen 127.0.0.1:{http_port};"),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
            ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{upstream};"),
        ],
    )
    main = nginx_files(folder, site)
    command = nginx_command(folder, main, "-g", "daemon off;")
    with running(command, folder / "nginx.out") as process:
        wait_for_port(https_port, process, folder / "error.log")
        yield Proxy(name="nginx", http_port=http_port, https_port=https_port, folder=folder)


def caddy_environment(folder: Path) -> dict[str, str]:
    """Caddy's data (certificates) and autosaved configuration in ``folder``, not in a home."""
    return {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config")}  # fmt: skip


@contextmanager
def caddy(folder: Path, certificate: Certificate, upstream: int) -> Iterator[Proxy]:
    http_port, https_port = free_port(), free_port()
    cert, key = certificate
    text = (DEPLOY / "Caddyfile").read_text()
    assert text.splitlines().count("{") == 1, "the Caddyfile's global options: one block"
    config = rewritten(
        text,
        [
            ("\n{\n", f"\n{{\n\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"),
            (f"\n{SITE} {{\n", f"\n{SITE} {{\n\ttls {cert} {key}\n"),
            ("reverse_proxy 127.0.0.1:8000", f"reverse_proxy 127.0.0.1:{upstream}"),
        ],
    )
    (folder / "Caddyfile").write_text(config)
    command = [needed("caddy"), "run", "--adapter", "caddyfile", "--config", "Caddyfile"]
    log = folder / "caddy.log"  # its standard error: the journal, under Debian's unit
    with running(command, log, cwd=folder, env=caddy_environment(folder)) as process:
        wait_for_port(https_port, process, log)
        yield Proxy(name="caddy", http_port=http_port, https_port=https_port, folder=folder)


PROXY_STARTS: dict[str, Callable[[Path, Certificate, int], AbstractContextManager[Proxy]]] = {
    "nginx": nginx,
    "caddy": caddy,
}
