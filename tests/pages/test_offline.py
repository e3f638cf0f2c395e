"""The app installed and offline: its manifest and icons, the service worker's copies of the pages,
and the queue of hands a phone keeps while the scorekeeper cannot be reached (on localhost, and
on a plain-HTTP address of the table's Wi-Fi, where browsers offer no service worker).

The hand form is filled through its field names (``s0-km``, ``completed``…), which the form keeps
with or without script, and saved with its submit button.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserType, Page, Route, expect

from tests.pages.conftest import PHONE
from tests.pages.test_pages import add_players, create_table, expect_totals, start_two_player_game

RETRY = 15_000
"""How long a queued hand may take to go once the server is reachable (the queue retries every
5 seconds, and at once on the ``online`` event)."""


def open_game(page: Page, server: str, name: str) -> str:
    """A table with Ann and Bob and a game between them; the scoreboard's URL."""
    create_table(page, server, name)
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    return page.url


def open_form(page: Page, link: str = "Enter a hand") -> None:
    """Open the hand form (or a hand's correction) from the scoreboard, its scripts run: the
    phone goes offline only after the page has loaded, as a phone at the table does."""
    page.get_by_role("link", name=link, exact=True).click()
    expect(page.locator("form.hand-form")).to_be_visible()
    page.wait_for_load_state("load")


def fill_hand(page: Page, ann_km: int, bob_km: int) -> None:
    """Fill the open hand form (nobody completes the trip) and save it."""
    page.locator("input[name='s0-km']").fill(str(ann_km))
    page.locator("input[name='s1-km']").fill(str(bob_km))
    page.locator("input[name=completed][value='']").check()
    page.locator("form.hand-form .save-bar [type=submit]").click()


def waiting(page: Page) -> Any:
    return page.locator("#queue [role=status]")


def recorded_hands(page: Page, scoreboard: str, api: str = "") -> list[tuple[int, list[int]]]:
    """Every hand the server holds for the game, as (number, each side's distance), read through
    the API (at ``api``, else the page's server) with the table's key, which this phone holds in
    its cookie."""
    parts = urlsplit(scoreboard)
    _, _, table_id, _, game_id = parts.path.split("/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == f"table_{table_id}")
    answer = page.request.get(
        f"{api or parts.scheme + '://' + parts.netloc}/api/v1/tables/{table_id}/games/{game_id}",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.ok, answer.text()
    return [
        (hand["number"], [side["distance"] for side in hand["report"]["sides"]])
        for hand in answer.json()["hands"]
    ]


def png_size(body: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR, the first chunk)."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_manifest_is_linked_and_its_icons_are_served(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    link = page.locator("link[rel=manifest]").get_attribute("href")
    assert link == "/manifest.webmanifest"
    answer = page.request.get(live_server + link)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] == "Mille Bornes scorekeeper"
    assert manifest["short_name"] == "1000 Bornes"
    theme = page.locator("meta[name=theme-color]").get_attribute("content")
    assert manifest["theme_color"] == theme == "#c81d25"
    assert manifest["background_color"] == "#fbfaf7"
    sizes: dict[tuple[str, str], str] = {}
    for icon in manifest["icons"]:
        body = page.request.get(live_server + icon["src"])
        assert body.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(body.body())
            assert icon["sizes"] == f"{width}x{height}"
            assert len(body.body()) < 20_000
        sizes[icon["sizes"], icon["purpose"]] = icon["type"]
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes.keys()
    favicon = page.locator("link[rel=icon]").get_attribute("href")
    assert (
        page.request.get(live_server + str(favicon))
        .headers["content-type"]
        .startswith("image/svg+xml")
    )
    touch = page.request.get(
        live_server + str(page.locator("link[rel=apple-touch-icon]").get_attribute("href"))
    )
    assert png_size(touch.body()) == (180, 180)


def test_the_service_worker_serves_the_pages_once_offline(page: Page, live_server: str) -> None:
    scoreboard = open_game(page, live_server, "Cached")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == live_server + "/"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    worker = page.request.get(live_server + "/sw.js")
    assert worker.headers["cache-control"] == "no-cache"
    assert worker.headers["content-type"].startswith("text/javascript")
    page.locator("a.crumb").click()  # the table's page: the start page kept now lists it
    expect(page.get_by_role("heading", level=1)).to_have_text("Cached")
    page.goto(scoreboard)
    open_form(page)
    fill_hand(page, 300, 100)
    expect(page).to_have_url(scoreboard)  # this visit, under the worker, is the one kept
    expect_totals(page, "300", "100")

    page.context.set_offline(True)
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    expect_totals(page, "300", "100")
    # The form kept is the one opened before hand 1: the queue numbers its hand 2 all the same.
    open_form(page)
    expect(page.locator("form.hand-form input[name=number]")).to_have_value("2")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 2")
    # Its script too, kept with it: the chips and toggles of the form, not the bare one.
    expect(page.get_by_role("button", name="Ann: add 50 km")).to_be_visible()
    page.goto(live_server + "/")
    expect(page.get_by_role("link", name="Cached")).to_be_visible()
    page.goto(scoreboard.rsplit("/games/", 1)[0] + "/history")  # never opened: the offline page
    expect(page.get_by_role("heading", level=1)).to_have_text("Offline")


def test_hands_saved_offline_are_sent_once_each_in_order(page: Page, live_server: str) -> None:
    scoreboard = open_game(page, live_server, "Queue")
    open_form(page)
    fill_hand(page, 300, 100)
    expect_totals(page, "300", "100")

    open_form(page)
    page.context.set_offline(True)
    fill_hand(page, 200, 50)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    expect(page.locator("input[name='s0-km']")).to_have_value("")  # ready for the next hand
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 3")
    fill_hand(page, 100, 25)
    expect(waiting(page)).to_contain_text("2 hands waiting")
    assert recorded_hands(page, scoreboard) == [(1, [300, 100])]

    page.context.set_offline(False)
    expect(page).to_have_url(scoreboard, timeout=RETRY)
    expect_totals(page, "600", "175")
    expect(page.locator("#queue")).to_be_hidden()
    assert recorded_hands(page, scoreboard) == [(1, [300, 100]), (2, [200, 50]), (3, [100, 25])]


@pytest.fixture
def lost_answer(page: Page) -> Iterator[list[int]]:
    """The first hand form POST reaches the server, but its answer never reaches the phone (the
    connection drops on the way back); the statuses the server gave are listed."""
    statuses: list[int] = []

    def lose(route: Route) -> None:
        if route.request.method != "POST" or statuses:
            route.continue_()
            return
        statuses.append(route.fetch(max_redirects=0).status)
        route.abort("connectionreset")

    page.route("**/hands/new", lose)
    yield statuses
    page.unroute("**/hands/new", lose)


def test_a_hand_whose_answer_was_lost_is_recorded_once(
    page: Page, live_server: str, lost_answer: list[int]
) -> None:
    scoreboard = open_game(page, live_server, "Lost answer")
    open_form(page)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    assert lost_answer == [302]  # it was recorded; the phone does not know
    expect(page).to_have_url(scoreboard, timeout=RETRY)  # the retry, answered from the keys
    expect_totals(page, "300", "100")
    assert recorded_hands(page, scoreboard) == [(1, [300, 100])]


@pytest.fixture
def on_the_wifi(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any]
) -> Iterator[Browser]:
    """A browser that reaches the app as ``http://table.lan:<port>``, as a phone reaches a laptop
    on the table's Wi-Fi: plain HTTP on a name that is not localhost, not a secure context."""
    args = [*browser_type_launch_args["args"], "--host-resolver-rules=MAP table.lan 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


def test_on_plain_http_the_queue_works_without_a_service_worker(
    on_the_wifi: Browser, live_server: str
) -> None:
    server = live_server.replace("127.0.0.1", "table.lan")
    page = on_the_wifi.new_context(viewport=PHONE).new_page()
    scoreboard = open_game(page, server, "Wi-Fi")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    assert page.evaluate("typeof crypto.randomUUID") == "undefined"

    open_form(page)
    page.context.set_offline(True)
    fill_hand(page, 200, 75)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    page.context.set_offline(False)
    expect(page).to_have_url(scoreboard, timeout=RETRY)
    expect_totals(page, "200", "75")
    assert recorded_hands(page, scoreboard, api=live_server) == [(1, [200, 75])]


def hand_one_offline_copies_allowed(page: Page, live_server: str, table: str) -> tuple[str, str]:
    """A new 2-player game whose hand 1 (300 to 100) this phone keeps, offline: the table's
    share link and the game's scoreboard."""
    create_table(page, live_server, table)
    add_players(page, "Ann", "Bob")
    share = page.locator("input.share-link").input_value()
    start_two_player_game(page, "Ann", "Bob")
    scoreboard = page.url
    open_form(page)
    page.context.set_offline(True)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    return share, scoreboard


@pytest.mark.parametrize(("choice", "after"), [("Record mine as hand 2", 2), ("Drop mine", 1)])
def test_a_hand_taken_meanwhile_is_shown_beside_the_queued_one(
    page: Page, phone: Callable[..., Page], live_server: str, choice: str, after: int
) -> None:
    share, scoreboard = hand_one_offline_copies_allowed(page, live_server, "Conflict")

    second = phone()
    second.goto(share)
    second.goto(scoreboard)
    open_form(second)
    fill_hand(second, 500, 200)  # phone 2's hand 1, recorded
    expect_totals(second, "500", "200")

    page.mouse.wheel(0, 2000)  # the person has scrolled down the next hand's form
    page.context.set_offline(False)
    conflict = page.locator("#queue [role=alert]")
    expect(conflict).to_contain_text("Another phone recorded hand 1 meanwhile.", timeout=RETRY)
    # The question and its two answers first, on screen at once; Save waits for the choice.
    for name in ("Record mine as hand 2", "Drop mine"):
        expect(conflict.get_by_role("button", name=name)).to_be_in_viewport(ratio=1)
    save = page.locator("form.hand-form .save-bar [type=submit]")
    expect(save).to_be_disabled()
    expect(save).to_be_hidden()
    # Each version shows only what scored, and its totals.
    expect(conflict.locator(".yours tbody th")).to_have_text(["Distance", "Total"])
    expect(conflict.locator(".yours [data-preview-total]")).to_have_text(["300", "100"])
    expect(conflict.locator(".theirs tbody th")).to_have_text(["Distance", "Total"])
    expect(conflict.locator(".theirs [data-preview-total]")).to_have_text(["500", "200"])
    assert recorded_hands(page, scoreboard) == [(1, [500, 200])]  # nothing overwritten

    conflict.get_by_role("button", name=choice).click()
    expect(page.locator("#queue")).to_be_hidden(timeout=RETRY)
    expected = [(1, [500, 200]), (2, [300, 100])][:after]
    assert recorded_hands(page, scoreboard) == expected
    # The form left on screen is the next hand's, and its Save is back.
    expect(page.locator("form.hand-form input[name=number]")).to_have_value(str(after + 1))
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Hand {after + 1}")
    expect(save).to_be_enabled()
    fill_hand(page, 50, 25)
    expect(page).to_have_url(scoreboard)
    assert recorded_hands(page, scoreboard) == [*expected, (after + 1, [50, 25])]


def test_a_correction_changed_meanwhile_is_kept_only_when_chosen(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    create_table(page, live_server, "Two fixes")
    add_players(page, "Ann", "Bob")
    share = page.locator("input.share-link").input_value()
    start_two_player_game(page, "Ann", "Bob")
    scoreboard = page.url
    open_form(page)
    fill_hand(page, 300, 100)
    expect_totals(page, "300", "100")

    open_form(page, "Correct hand 1")
    page.context.set_offline(True)
    fill_hand(page, 325, 100)  # phone 1's correction, kept on the phone
    expect(waiting(page)).to_contain_text("1 hand waiting")

    second = phone()
    second.goto(share)
    second.goto(scoreboard)
    open_form(second, "Correct hand 1")
    fill_hand(second, 350, 100)  # phone 2's correction, applied
    expect_totals(second, "350", "100")

    page.context.set_offline(False)
    conflict = page.locator("#queue [role=alert]")
    expect(conflict).to_contain_text(
        "Hand 1 was changed on another phone meanwhile.", timeout=RETRY
    )
    expect(conflict.locator(".yours [data-preview-total]")).to_have_text(["325", "100"])
    expect(conflict.locator(".theirs [data-preview-total]")).to_have_text(["350", "100"])
    assert recorded_hands(page, scoreboard) == [(1, [350, 100])]  # nothing overwritten
    keep = conflict.get_by_role("button", name="Keep my correction")
    expect(keep).to_be_in_viewport(ratio=1)
    save = page.locator("form.hand-form .save-bar [type=submit]")
    expect(save).to_be_disabled()

    keep.click()
    expect(page.locator("#queue")).to_be_hidden(timeout=RETRY)
    assert recorded_hands(page, scoreboard) == [(1, [325, 100])]
    expect(save).to_be_enabled()
    expect(page.locator("form.hand-form input[name=number]")).to_have_value("1")  # still hand 1


def test_a_hand_offline_copies_allowed_leaves_a_blank_form_with_its_toggles_off(
    page: Page, live_server: str
) -> None:
    """The form clears for the next hand: the safety toggles that mirror its boxes clear too, so
    the next hand does not look as if its safeties were already laid."""
    open_game(page, live_server, "Toggles")
    open_form(page)
    page.context.set_offline(True)
    safety = page.get_by_role("button", name="Ann: Driving Ace", exact=True)
    safety.click()
    expect(safety).to_have_attribute("aria-pressed", "true")
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    expect(page.locator("input[name='s0-km']")).to_have_value("")
    expect(safety).to_have_attribute("aria-pressed", "false")
    expect(page.locator("input[name='s0-safety-driving_ace']")).not_to_be_checked()


def test_a_hand_kept_since_another_session_is_recorded_once(page: Page, live_server: str) -> None:
    """The session that gave the form its CSRF token is gone by the time the hand can go (the
    browser closed, the server restarted with another key): the hand goes with the current
    session's token, never lost to the refusal of the old one."""
    scoreboard = open_game(page, live_server, "New session")
    open_form(page)
    page.context.set_offline(True)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    names = {cookie["name"] for cookie in page.context.cookies()}
    assert "session" in names and any(name.startswith("table_") for name in names)
    page.context.clear_cookies(name="session")  # the table's own cookie stays

    page.context.set_offline(False)
    expect(page).to_have_url(scoreboard, timeout=RETRY)
    expect_totals(page, "300", "100")
    expect(page.locator("#queue")).to_be_hidden()
    assert recorded_hands(page, scoreboard) == [(1, [300, 100])]


SEND_TIMEOUT = 8_000
"""How long the queue waits for the server's answer before it counts the server as out of reach
(``TIMEOUT`` in the queue's script)."""


def test_a_server_that_does_not_answer_leaves_the_hand_waiting(
    page: Page, live_server: str
) -> None:
    """The laptop is on the Wi-Fi but does not answer: the hand is shown waiting after a few
    seconds, not minutes, and Save is back for the next hand. This hand did reach the server:
    its resend, once the server answers, records nothing twice."""
    scoreboard = open_game(page, live_server, "No answer")
    open_form(page)
    reached: list[int] = []

    def stall(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        if not reached:
            reached.append(route.fetch(max_redirects=0).status)
        # ...and no answer ever reaches the phone: neither fulfilled nor aborted.

    page.route("**/hands/new", stall)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting", timeout=SEND_TIMEOUT + 4_000)
    expect(page.locator("input[name='s0-km']")).to_have_value("")  # ready for the next hand
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 2")
    expect(page.locator("form.hand-form .save-bar [type=submit]")).to_be_enabled()
    assert reached == [302]  # recorded; the phone does not know

    page.unroute("**/hands/new", stall)
    expect(page).to_have_url(scoreboard, timeout=RETRY + SEND_TIMEOUT)
    expect_totals(page, "300", "100")
    assert recorded_hands(page, scoreboard) == [(1, [300, 100])]


@pytest.mark.parametrize(("choice", "after"), [("Record mine as hand 1", 1), ("Drop mine", 0)])
def test_a_hand_refused_by_the_server_waits_for_the_persons_choice(
    page: Page, live_server: str, choice: str, after: int
) -> None:
    """A queued hand the server refuses for another reason than the hand itself (here, a phone
    that no longer holds the table's cookie: 404) is kept, with what the server said; it goes
    again, or is dropped, only when the person says so."""
    scoreboard = open_game(page, live_server, "Refused")
    open_form(page)
    page.context.set_offline(True)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    table = next(c for c in page.context.cookies() if c["name"].startswith("table_"))
    page.context.clear_cookies(name=table["name"])

    page.context.set_offline(False)
    refusal = page.locator("#queue [role=alert]")
    expect(refusal).to_contain_text("The hand was refused", timeout=RETRY)
    expect(refusal).to_contain_text("This phone has not joined that table")
    expect(waiting(page)).to_contain_text("1 hand waiting")  # still kept on the phone
    save = page.locator("form.hand-form .save-bar [type=submit]")
    expect(save).to_be_disabled()

    page.context.add_cookies([table])  # the phone joined the table again
    refusal.get_by_role("button", name=choice).click()
    if after:
        expect(page).to_have_url(scoreboard, timeout=RETRY)
        expect_totals(page, "300", "100")
    else:
        expect(page.locator("#queue")).to_be_hidden()
        expect(save).to_be_enabled()
        # The form's hand takes the number the dropped hand had.
        expect(page.locator("form.hand-form input[name=number]")).to_have_value("1")
    assert recorded_hands(page, scoreboard) == [(1, [300, 100])][:after]


def test_a_version_that_cannot_be_read_is_said_in_words_not_pasted_as_a_page(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    """The preview of the queued hand fails (an error page, scripts and all): the choice shows
    what the server said in plain words; the page's scripts never run there (no second queue)."""
    share, scoreboard = hand_one_offline_copies_allowed(page, live_server, "Broken preview")

    second = phone()
    second.goto(share)
    second.goto(scoreboard)
    open_form(second)
    fill_hand(second, 500, 200)
    expect_totals(second, "500", "200")

    error_page = (
        "<!doctype html><title>Oops</title><h1>Internal Server Error</h1>"
        "<p class='problem'>Something went wrong.</p><script>window.pasted = true</script>"
    )
    page.route(
        "**/preview",
        lambda route: route.fulfill(status=500, content_type="text/html", body=error_page),
    )
    page.context.set_offline(False)
    conflict = page.locator("#queue [role=alert]")
    expect(conflict).to_contain_text("Another phone recorded hand 1 meanwhile.", timeout=RETRY)
    expect(conflict.locator(".yours")).to_contain_text(
        "Internal Server Error – Something went wrong."
    )
    expect(conflict.locator(".yours h1, .yours title")).to_have_count(0)
    expect(conflict.locator(".theirs [data-preview-total]")).to_have_text(["500", "200"])
    assert page.evaluate("window.pasted") is None
    expect(page.locator("#queue")).to_have_count(1)

    conflict.get_by_role("button", name="Record mine as hand 2").click()
    expect(page.locator("#queue")).to_be_hidden(timeout=RETRY)
    assert recorded_hands(page, scoreboard) == [(1, [500, 200]), (2, [300, 100])]


def test_the_offline_scoreboard_adds_the_waiting_hands_marked_as_waiting(
    page: Page, live_server: str
) -> None:
    """The form was scored by the server before the Wi-Fi went: once kept, that hand's points
    join the scoreboard's totals as waiting (the served copy of the scoreboard says 0 – 0); a
    hand entered with no connection at all adds no points and says it has no score yet."""
    scoreboard = open_game(page, live_server, "Waiting totals")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(scoreboard)  # kept by the worker, as the table's phone would have it
    open_form(page)
    page.get_by_role("button", name="Ann: 700 km in all").tap()
    page.locator("input[name='s1-km']").fill("325")
    # 700 + 400 (trip) + 300 (safe trip: 0 × 200 km) = 1,400; Bob 325.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 1,400")
    page.context.set_offline(True)
    page.locator("form.hand-form .save-bar [type=submit]").click()
    expect(waiting(page)).to_contain_text("1 hand waiting")
    page.get_by_role("link", name="Back to the game").click()
    expect_totals(page, "0", "0")  # the copy kept: what the scorekeeper holds
    lines = page.locator(".totals .waiting-total")
    expect(lines).to_have_text(["With the hands waiting: 1,400", "With the hands waiting: 325"])
    expect(waiting(page)).to_contain_text("1 hand waiting")

    open_form(page)
    fill_hand(page, 100, 25)  # no preview out of reach: no points to add
    expect(waiting(page)).to_contain_text("2 hands waiting")
    page.get_by_role("link", name="Back to the game").click()
    expect(lines.first).to_have_text(
        "With the hands waiting: 1,400 A hand waiting has no score yet: it is scored once sent."
    )

    page.context.set_offline(False)
    # Both sent, and the scoreboard shown again as the scorekeeper has it.
    expect(page.locator(".totals .total")).to_have_text(["1,500", "350"], timeout=RETRY)
    expect(lines).to_have_count(0)
    assert recorded_hands(page, scoreboard) == [(1, [700, 325]), (2, [100, 25])]
