"""Page weight: bytes on the wire for each screen at a 360×640 phone, in Debian's chromium.

Starts the app on a free port with a throwaway SQLite database, plays a 3-player game through the
pages, and prints what each screen cost (headers and bodies, uncompressed), assets included when
the cache is cold.

    .venv/bin/python benchmarks/page_weight.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from flask_migrate import upgrade
from playwright.sync_api import Page, Request, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def serve() -> str:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-weight-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'weight.sqlite3'}"})
    with app.app_context():
        upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def main() -> None:
    # Count what the service worker fetches (the shell it keeps at installation, the pages it
    # fetches for the phone): Playwright reports those requests, on the context, only with this.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    base = serve()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 640})
        page = context.new_page()
        seen: list[tuple[str, int]] = []

        def finished(request: Request) -> None:
            sizes = request.sizes()
            seen.append((request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"]))

        context.on("requestfinished", finished)  # the service worker's requests too

        def weigh(name: str, action: Callable[[], object]) -> None:
            seen.clear()
            action()
            page.wait_for_load_state("networkidle")
            foreign = [url for url, _ in seen if not url.startswith(base)]
            total = sum(size for _, size in seen)
            print(
                f"{name:<34}{total / 1024:>7.1f} KiB in {len(seen)} requests"
                + (f"  LEFT THE HOST: {foreign}" if foreign else "")
            )

        weigh("home (cold cache)", lambda: page.goto(base + "/"))
        page.get_by_label("Table name").fill("Weights")
        weigh("table", lambda: page.get_by_role("button", name="Create").click())
        for name in ("Ann", "Bob", "Cat"):
            page.get_by_label("Add a player").fill(name)
            page.get_by_role("button", name="Add", exact=True).click()
        page.get_by_role("link", name="New game").click()
        page.get_by_role("button", name="3", exact=True).click()
        for index, name in enumerate(("Ann", "Bob", "Cat")):
            page.locator("select[name^=side]").nth(index).select_option(label=name)
        weigh(
            "scoreboard, no hand yet",
            lambda: page.get_by_role("button", name="Start the game").click(),
        )
        for hand in range(3):
            weigh(
                f"hand entry (with its live preview) {hand + 1}",
                lambda: page.get_by_role("link", name="Enter a hand").click(),
            )
            page.locator("#side-0 details.more summary").click()  # the cards by value
            page.locator("input[name='s0-d100']").fill("7")
            page.locator("input[name=completed][value='0']").check()
            weigh(f"scoreboard after hand {hand + 1}", lambda: save(page))
        browser.close()


def save(page: Page) -> None:
    page.get_by_role("button", name="Save the hand").click()


if __name__ == "__main__":
    main()
