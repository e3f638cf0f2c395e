"""Page weight: bytes on the wire for every screen at a 360×640 phone, in Debian's chromium.

Starts the app on a free port with a throwaway SQLite database, builds an evening at one table
through the pages (the same screens the accessibility test walks, ``tests/pages/screens.py``),
then opens each screen on a phone with a cold cache and prints what it cost (headers and
bodies, uncompressed, the style sheet, the scripts, any live preview and the service worker
with the shell it keeps included), and whether it keeps within the 100 KB a screen may weigh.
A screen that is the answer to a form (a refused hand) counts from the sending on: the page it
was sent from is a screen of its own.

    .venv/bin/python benchmarks/page_weight.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path

from flask_migrate import upgrade
from playwright.sync_api import Request, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from tests.pages.screens import SCREENS, build  # noqa: E402

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 640}
BUDGET = 100_000
"""Bytes a screen may cost on the wire, assets included, on a phone that has none cached."""


def serve() -> str:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-weight-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'weight.sqlite3'}"})
    with app.app_context():
        upgrade()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def main() -> int:
    """Print one line per screen; exit 1 if a screen is over budget or leaves the host."""
    # Count what the service worker fetches too (the shell it keeps when it installs, the pages it
    # fetches for the phone): Playwright reports those requests, on the context, only with this.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    base = serve()
    failures = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        setup = browser.new_context(viewport=PHONE)
        evening = build(setup.new_page(), base)
        cookies = setup.storage_state()
        setup.close()
        print(f"{'screen':<30}{'bytes':>9}  requests  within {BUDGET:,} B")
        for screen in SCREENS:
            context = browser.new_context(viewport=PHONE, storage_state=cookies)
            page = context.new_page()
            seen: list[tuple[str, int]] = []

            def finished(request: Request, seen: list[tuple[str, int]] = seen) -> None:
                sizes = request.sizes()
                seen.append((request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"]))

            context.on("requestfinished", finished)
            screen.visit(page, base, evening, sending=seen.clear)
            page.wait_for_load_state("networkidle")
            context.close()
            total = sum(size for _, size in seen)
            foreign = [url for url, _ in seen if not url.startswith(base)]
            within = total <= BUDGET and not foreign
            failures += not within
            print(
                f"{screen.name:<30}{total:>9,}  {len(seen):>8}  {'yes' if within else 'NO'}"
                + (f"  LEFT THE HOST: {foreign}" if foreign else "")
            )
        browser.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
