"""Every screen, in English and French, light and dark, at 360×640: axe-core finds no serious or
critical violation, the page never scrolls sideways, every target is at least 44×44 px, and no
control is cut off (each wholly inside the viewport and inside any box that scrolls sideways).

The screens are built once (:func:`tests.pages.screens.build`) and each case opens one in a
browser context holding the table's cookies, in its language and colour scheme. A screen known to
fail carries ``xfail="..."`` in :data:`tests.pages.screens.SCREENS`, naming what fails (strict: it
is noticed when fixed). A new screen is one line there. axe-core is the copy bundled with
``axe-playwright-python``, evaluated in the page (so the pages' Content-Security-Policy, which
allows no inline script, is kept as it is).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from scorekeeper.services import virtual
from tests.pages.screens import SCREENS, Evening, Screen, build

SERIOUS = {"serious", "critical"}
LANGUAGES = ("en", "fr")
SCHEMES = ("light", "dark")

SMALL_TARGETS = """() => {
  const small = [];
  const visible = (e) => {
    const box = e.getBoundingClientRect();
    // checkVisibility: what a closed <details> holds is laid out but not shown.
    return box.width > 0 && box.height > 0 && e.checkVisibility({ visibilityProperty: true });
  };
  // A link inside running text may be as tall as its line (WCAG 2.5.8's inline exception).
  const inline = (e) => e.matches('a') && getComputedStyle(e).display === 'inline'
    && e.parentElement.textContent.trim() !== e.textContent.trim();
  for (const e of document.querySelectorAll('a[href], button, input, select, summary')) {
    if (e.type === 'hidden' || !visible(e) || inline(e)) continue;
    let box = e.getBoundingClientRect();
    if (['checkbox', 'radio'].includes(e.type)) {  // the label around it is the target
      const label = e.closest('label');
      if (label) box = label.getBoundingClientRect();
      if (label && box.height >= 44) continue;
    }
    if (box.width < 44 || box.height < 44) {
      small.push(`${Math.round(box.width)}x${Math.round(box.height)} ${e.outerHTML.slice(0, 90)}`);
    }
  }
  return small;
}"""

CUT_OFF = """() => {
  const cut = [];
  const room = document.documentElement.clientWidth;
  const controls =
    'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  for (const e of document.querySelectorAll(controls)) {
    if (e.type === 'hidden' || !e.checkVisibility({ visibilityProperty: true })) continue;
    const label = ['checkbox', 'radio'].includes(e.type) ? e.closest('label') : null;
    const target = label || e;  // a box or a radio is tapped through its label
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const where = [];
    if (box.left < -0.5 || box.right > room + 0.5) where.push(`the ${room} px viewport`);
    for (let a = target.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(a).overflowX)) continue;
      const left = a.getBoundingClientRect().left + a.clientLeft;
      if (box.left < left - 0.5 || box.right > left + a.clientWidth + 0.5) {
        where.push(`its scrolling box (${a.clientWidth} px wide, ${a.className || a.tagName})`);
      }
    }
    if (where.length) {
      const name = (e.getAttribute('aria-label') || target.textContent).trim().slice(0, 40);
      const at = `${Math.round(box.left)}–${Math.round(box.right)} px`;
      cut.push(`${e.tagName.toLowerCase()} "${name}" at ${at}: outside ${where.join(' and ')}`);
    }
  }
  return cut;
}"""
"""Controls not wholly on screen at scroll position 0: any part of their box outside the viewport
(left and right), or outside a box of theirs that scrolls or clips sideways, so that a person
would have to swipe to see all of them (or could never see it)."""

BROKEN_NUMBERS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('.total, .scroll td, .num')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const text = document.createRange();
      text.selectNodeContents(node);
      const lines = new Set([...text.getClientRects()].map((line) => Math.round(line.top)));
      if (lines.size > 1) broken.push(node.textContent.trim());
    }
  }
  return broken;
}"""
"""Words and numbers of totals and table cells split over two lines ("2,1" above "00")."""


@pytest.fixture(scope="module")
def evening(browser: Browser, live_server: str) -> Iterator[tuple[Evening, dict[str, Any]]]:
    """The screens' data, built once for the module, and the cookies that open it."""
    with pytest.MonkeyPatch.context() as patch:
        numbers = itertools.count(1)
        patch.setattr(virtual.lifecycle, "new_seed", lambda: next(numbers))
        context = browser.new_context()
        built = build(context.new_page(), live_server)
        state = context.storage_state()
        context.close()
    yield built, dict(state)


@pytest.fixture(scope="module")
def contexts(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    evening: tuple[Evening, dict[str, Any]],
) -> Iterator[Callable[[str, str], BrowserContext]]:
    """A phone's browser context per language and colour scheme, opened once and reused."""
    opened: dict[tuple[str, str], BrowserContext] = {}

    def context_for(language: str, scheme: str) -> BrowserContext:
        if (language, scheme) not in opened:
            context = browser.new_context(
                **browser_context_args,
                color_scheme=scheme,  # type: ignore[arg-type]
                storage_state=evening[1],  # type: ignore[arg-type]
            )
            context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
            opened[language, scheme] = context
        return opened[language, scheme]

    yield context_for
    for context in opened.values():
        context.close()


def cases() -> Iterator[Any]:
    for screen, language, scheme in itertools.product(SCREENS, LANGUAGES, SCHEMES):
        marks = [pytest.mark.xfail(strict=True, reason=screen.xfail)] if screen.xfail else []
        name = f"{screen.name}-{language}-{scheme}"
        yield pytest.param(screen, language, scheme, marks=marks, id=name)


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize(("screen", "language", "scheme"), list(cases()))
def test_screen_is_accessible_at_the_table(
    screen: Screen,
    language: str,
    scheme: str,
    contexts: Callable[[str, str], BrowserContext],
    evening: tuple[Evening, dict[str, Any]],
    live_server: str,
    axe: Axe,
) -> None:
    page: Page = contexts(language, scheme).new_page()
    try:
        screen.visit(page, live_server, evening[0])
        assert page.evaluate("document.documentElement.lang") == language
        violations = [
            f"axe {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']]}"
            for v in axe.run(page).response["violations"]
            if v["impact"] in SERIOUS
        ]
        width, room = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        scrolls = [f"the page scrolls sideways: {width} px for {room}"] if width > room else []
        small = [f"target under 44×44 px: {target}" for target in page.evaluate(SMALL_TARGETS)]
        broken = [f"split over lines: {text!r}" for text in page.evaluate(BROKEN_NUMBERS)]
        cut = [f"cut off: {control}" for control in page.evaluate(CUT_OFF)]
        problems = violations + scrolls + small + broken + cut
        assert not problems, f"{screen.name}:\n" + "\n".join(problems)
    finally:
        page.close()


CONTROL = re.compile(r'^(\s*)- (link|button|combobox|textbox|spinbutton|checkbox|radio) "(.*)"')
URL = re.compile(r"^\s*- /url: (.*)$")


def alike(snapshot: str) -> list[str]:
    """Controls of an accessibility snapshot that read alike but do different things: two
    links of one name to two places, or two buttons or fields of one name."""
    seen: dict[tuple[str, str], set[str]] = {}
    lines = snapshot.splitlines()
    for index, line in enumerate(lines):
        if match := CONTROL.match(line):
            _, role, name = match.groups()
            place = str(index)  # a button or a field is a control of its own
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if role == "link" and (url := URL.match(following)):
                place = url.group(1)  # links of one name to one place are one link
            seen.setdefault((role, name), set()).add(place)
    return [
        f"{role} {name!r} ×{len(places)}"
        for (role, name), places in seen.items()
        if len(places) > 1
    ]


@pytest.mark.parametrize(
    "screen",
    SCREENS,
    ids=lambda screen: screen.name,
)
def test_controls_that_read_alike_do_the_same(
    screen: Screen,
    contexts: Callable[[str, str], BrowserContext],
    evening: tuple[Evening, dict[str, Any]],
    live_server: str,
) -> None:
    """A screen reader lists links and buttons by name: "Correct", "Correct", "Correct" tell
    nothing apart, "Correct hand 1", "Correct hand 2" do."""
    page = contexts("en", "light").new_page()
    try:
        screen.visit(page, live_server, evening[0])
        assert alike(page.locator("body").aria_snapshot()) == []
    finally:
        page.close()


def test_the_cut_off_check_sees_a_control_pushed_out_of_its_box(page: Page) -> None:
    """The check itself: a "Correct" link in the last column of a table wider than its scrolling
    box (the scoreboard's old hands table) is reported; the same link inside the box is not."""
    page.set_viewport_size({"width": 360, "height": 640})
    page.set_content(
        '<div style="overflow-x:auto;width:336px"><table style="width:420px"><tr>'
        '<td style="width:340px"><a href="#a">Kept</a></td><td><a href="#b">Correct</a></td>'
        "</tr></table></div>"
    )
    cut = page.evaluate(CUT_OFF)
    assert len(cut) == 1 and '"Correct"' in cut[0] and "scrolling box" in cut[0], cut
