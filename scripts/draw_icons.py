"""Draw the app's PNG icons from its SVG milestone, in Debian's chromium.

Browsers install a web app only from PNG icons (192 and 512 px, plus a "maskable" one whose
shape the phone cuts to a circle or a squircle), and iOS wants its own opaque 180 px
``apple-touch-icon``. The SVG (``scorekeeper/static/icons/icon.svg``) is the one design; run this
after changing it and commit the PNGs:

    .venv/bin/python scripts/draw_icons.py
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "static" / "icons"
BACKGROUND = "#fbfaf7"  # the stylesheet's --bg
BROWSER_ARGS = ["--no-sandbox", "--disable-background-networking", "--no-first-run"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Icon:
    """One PNG: its file, its size, and how much of it the milestone fills (the rest is a
    plain background, or transparent when ``opaque`` is false)."""

    name: str
    size: int
    fill: float = 1.0
    opaque: bool = False


PNGS = (
    Icon(name="icon-192.png", size=192),
    Icon(name="icon-512.png", size=512),
    # A maskable icon keeps what matters inside the centred circle of 80% of its width.
    Icon(name="icon-maskable-512.png", size=512, fill=0.72, opaque=True),
    Icon(name="apple-touch-icon.png", size=180, fill=0.8, opaque=True),
)


def page_for(icon: Icon, svg: bytes) -> str:
    source = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    side = round(icon.size * icon.fill)
    background = BACKGROUND if icon.opaque else "transparent"
    return (
        f"<body style='margin:0;width:{icon.size}px;height:{icon.size}px;display:grid;"
        f"place-items:center;background:{background}'>"
        f"<img src='{source}' width='{side}' height='{side}'></body>"
    )


def main() -> None:
    svg = (ICONS / "icon.svg").read_bytes()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=BROWSER_ARGS)
        for icon in PNGS:
            page = browser.new_page(viewport={"width": icon.size, "height": icon.size})
            page.set_content(page_for(icon, svg))
            page.screenshot(path=ICONS / icon.name, omit_background=not icon.opaque)
            page.close()
            print(f"{icon.name}: {(ICONS / icon.name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
