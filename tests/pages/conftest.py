"""Real-browser fixtures: Debian's chromium, as its headless shell, driven by Playwright against
the app on a real port.

Where chromium is missing the browser tests skip, saying so; under ``CI=true`` they fail instead,
so a green CI run always means the pages were driven for real.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper import create_app
from scorekeeper.storage.extensions import db
from tests.running import served

CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Chromium's headless shell (Debian's ``chromium-headless-shell``, built from the same source as
its ``chromium``): the same Blink and V8 that lay out and run the pages, without the desktop
browser around them, as Playwright runs headless Chromium by default. The whole browser in its
headless mode took more than twice the time and CPU for the same page tests (tests/pages on three
workers of a 2-core machine: 5 min 0 s and 264 s of CPU, against 11 min 41 s and 604 s with
/usr/bin/chromium), time and CPU the rest of the suite shares."""
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Headless chromium as root in a container, quiet: no sandbox, no GPU, no calls home."""
PHONE = {"width": 360, "height": 640}

# What a page is expected to show may take longer than Playwright's 5 s to come on a machine busy
# with the suite's parallel workers (`make test`): an expectation still has to come true, and one
# that does returns at once; only a failure waits the whole 15 s.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        reason = f"no browser: {CHROMIUM} is missing (apt-get install -y chromium-headless-shell)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs the browser for these tests: {reason}")
        pytest.skip(reason)
    return {
        "executable_path": CHROMIUM,
        "headless": True,
        "args": BROWSER_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args() -> dict[str, Any]:
    return {"viewport": PHONE, "locale": "en-GB", "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="session")
def live_server(sqlite_template: Path) -> Iterator[str]:
    """The app served on a free loopback port, on its own migrated SQLite database.

    One server serves every page test of a worker, and a phone closed at the end of a test leaves
    its waiting question held on the server until its time is up (25 s): werkzeug's server cannot
    tell that the phone has gone. Those questions would use up a worker's budget of waiting
    requests (``LIVE_WAITERS``, sized for the threads of one gunicorn worker, which werkzeug's
    server does not have: it starts a thread a request), and the next test's page would poll
    instead of wait. This server's budget is as large as its thread count: unbounded."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pages-"))
    database = folder / "pages.sqlite3"
    shutil.copyfile(sqlite_template, database)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "LIVE_WAITERS": 10_000,
        }
    )
    with served(app) as base:
        yield base
        app.extensions["version_watch"].stop()  # the questions still held answer now
    with app.app_context():
        db.engine.dispose()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Another phone at the table: ``phone()`` opens a page in a new browser context of the
    phone's size (its own cookies; ``javascript=False`` for a phone without scripts); every
    phone opened is closed after the test."""
    contexts: list[BrowserContext] = []

    def open_phone(javascript: bool = True) -> Page:
        context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
