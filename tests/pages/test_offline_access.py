"""What a phone keeps for offline use belongs to its access to the table: no copy holds a key, a
table's copies go at the first refusal (a cookie cleared, a token rotated), and "Leave this table"
takes its key, its copies and its hands waiting, after asking when hands wait. The network is cut
through Playwright (``set_offline``), the server's answers dropped through ``route``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route, expect

from scorekeeper.services import virtual
from tests.pages.test_offline import RETRY, fill_hand, open_form, open_game, waiting
from tests.pages.test_pages import expect_totals

KEY = re.compile(r"mbs?_[A-Za-z0-9_-]{20,}|/play/")
"""A table's or a seat's key, or a seat's page, wherever it would show in a copy."""

KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      kept.push({ cache: name, url: request.url, body: await response.text() });
    }
  }
  return kept;
}"""
"""Everything in the phone's Cache Storage: each copy's cache, address and body."""

HANDS_WAITING = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("scorekeeper-queue", 1);
  opening.onupgradeneeded = () =>
    opening.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
  opening.onsuccess = () => {
    const db = opening.result;
    const count = db.transaction("hands").objectStore("hands").count();
    count.onsuccess = () => { db.close(); resolve(count.result); };
  };
  opening.onerror = () => reject(opening.error);
})"""
"""How many hands wait in the phone's queue (``static/queue.js``), for any table."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Virtual games dealt from the seeds 1, 2, 3..., the same cards on every run."""
    numbers = itertools.count(1)
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: next(numbers))


def kept(page: Page) -> list[dict[str, str]]:
    copies: list[dict[str, str]] = page.evaluate(KEPT)
    return copies


def served_by_the_worker(page: Page, url: str) -> None:
    """Open ``url`` once the service worker controls the page, so the visit is one it keeps."""
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(url)


def table_of(scoreboard: str) -> tuple[str, str]:
    """The table's page and id, from a game's scoreboard URL."""
    parts = urlsplit(scoreboard)
    table_id = parts.path.split("/")[2]
    return f"{parts.scheme}://{parts.netloc}/t/{table_id}", table_id


def table_key(page: Page, table_id: str) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == f"table_{table_id}")


def unreadable_offline(page: Page, server: str, scoreboard: str, name: str) -> None:
    """Offline, the table's pages are the offline page, its copies are gone, and the start page
    kept no longer lists it."""
    page.context.set_offline(True)
    for address in (scoreboard, scoreboard + "/hands/new", table_of(scoreboard)[0] + "/history"):
        page.goto(address)
        expect(page.get_by_role("heading", level=1)).to_have_text("Offline")
        expect(page.locator("main")).not_to_contain_text("Ann")
    assert not [
        copy["url"] for copy in kept(page) if copy["cache"].startswith("scorekeeper-table-")
    ]
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mille Bornes scorekeeper")
    expect(page.get_by_role("link", name=name)).to_have_count(0)


def test_cache_storage_holds_no_key_after_an_evening(page: Page, live_server: str) -> None:
    """A game at the table, a virtual game dealt from the same phone, one of its seats played
    here, its scoreboard and its abandon page ("Back to your seat"), the seats' links: of all
    that, the phone keeps the pages without a key, and no key."""
    scoreboard = open_game(page, live_server, "Evening")
    served_by_the_worker(page, scoreboard)
    open_form(page)
    fill_hand(page, 300, 100)
    expect_totals(page, "300", "100")
    page.goto(scoreboard + "/abandon")
    table, _ = table_of(scoreboard)
    page.goto(table + "/history")
    page.goto(table)
    page.get_by_role("link", name="Play in the app").click()
    page.locator("select[name=seat0]").select_option(label="Ann")
    page.locator("select[name=seat1]").select_option(label="Bob")
    page.get_by_role("button", name="Deal").click()
    links = page.locator(".seat-links input")
    expect(links).to_have_count(2)
    seat_page = links.first.input_value()
    links_page = page.url
    page.goto(seat_page)
    expect(page.locator("#play")).to_be_visible()
    virtual_game = table + "/games/" + links_page.split("/virtual/")[1].split("/")[0]
    page.goto(virtual_game)
    expect(page.get_by_role("link", name=re.compile("Back to your seat"))).to_be_visible()
    page.goto(virtual_game + "/abandon")
    expect(page.get_by_role("link", name=re.compile("Back to your seat"))).to_be_visible()
    page.goto(links_page)
    page.goto(live_server + "/")

    copies = kept(page)
    assert [c["url"] for c in copies if KEY.search(c["url"] + c["body"])] == []
    pages = {c["url"] for c in copies if c["cache"].startswith("scorekeeper-table-")}
    # What may be kept is: the game at the table, its hand form and its abandon page, the history.
    assert {scoreboard, scoreboard + "/hands/new", scoreboard + "/abandon"} <= pages
    assert table + "/history" in pages
    assert not {virtual_game, virtual_game + "/abandon", links_page, table} & pages


def rotate(page: Page, server: str, table_id: str) -> None:
    """Another phone (or the operator) gives the table a new token."""
    answer = page.request.post(
        f"{server}/api/v1/tables/{table_id}/token",
        headers={"Authorization": f"Bearer {table_key(page, table_id)}"},
    )
    assert answer.ok, answer.text()


@pytest.mark.parametrize(
    ("lost", "reached"),
    [("cookie", "table"), ("token", "table"), ("token", "start")],
    ids=["cookie-cleared", "token-rotated", "token-rotated-start-page"],
)
def test_a_table_this_phone_lost_is_unreadable_offline_after_one_refusal(
    page: Page, live_server: str, lost: str, reached: str
) -> None:
    name = f"Lost {lost} {reached}"
    scoreboard = open_game(page, live_server, name)
    served_by_the_worker(page, scoreboard)
    open_form(page)
    page.goto(scoreboard.rsplit("/games/", 1)[0] + "/history")
    expect(page.locator("main")).to_contain_text("Ann")
    table, table_id = table_of(scoreboard)
    copied = {c["url"] for c in kept(page) if c["cache"] == f"scorekeeper-table-{table_id}"}
    assert {scoreboard, scoreboard + "/hands/new", table + "/history"} <= copied

    if lost == "cookie":
        page.context.clear_cookies(name=f"table_{table_id}")
    else:
        rotate(page, live_server, table_id)
    if reached == "table":
        page.goto(scoreboard)  # one refusal
        expect(page.locator("main")).to_contain_text("This phone has not joined that table")
    else:
        page.goto(live_server + "/")  # the start page, which no longer lists it
        expect(page.get_by_role("link", name=name)).to_have_count(0)
    unreadable_offline(page, live_server, scoreboard, name)


@pytest.fixture
def no_answer_to_hands(page: Page) -> Iterator[list[str]]:
    """The server answers no hand (the connection drops on the way): a hand saved waits on the
    phone, online or not. Yields the hands' requests that were dropped."""
    dropped: list[str] = []

    def drop(route: Route) -> None:
        if route.request.method == "POST":
            dropped.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/hands/new", drop)
    yield dropped
    page.unroute("**/hands/new", drop)


def hands_on_the_server(page: Page, scoreboard: str, key: str) -> list[list[int]]:
    """Each hand the server holds for the game, as each side's distance (read with ``key``)."""
    parts = urlsplit(scoreboard)
    _, _, table_id, _, game_id = parts.path.split("/")
    answer = page.request.get(
        f"{parts.scheme}://{parts.netloc}/api/v1/tables/{table_id}/games/{game_id}",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert answer.ok, answer.text()
    hands: list[dict[str, Any]] = answer.json()["hands"]
    return [[side["distance"] for side in hand["report"]["sides"]] for hand in hands]


def a_hand_waiting(page: Page, live_server: str, name: str, dropped: list[str]) -> str:
    """A game whose hand 1 waits on the phone (its pages kept); the phone is on the table's page."""
    scoreboard = open_game(page, live_server, name)
    served_by_the_worker(page, scoreboard)
    open_form(page)
    fill_hand(page, 300, 100)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    assert dropped
    page.goto(table_of(scoreboard)[0])
    return scoreboard


def test_leaving_with_a_hand_waiting_asks_first_then_removes_everything(
    page: Page, live_server: str, no_answer_to_hands: list[str]
) -> None:
    scoreboard = a_hand_waiting(page, live_server, "Leaving", no_answer_to_hands)
    table, table_id = table_of(scoreboard)
    key = table_key(page, table_id)
    page.get_by_role("button", name="Leave this table").click()
    question = page.get_by_role("alert")
    expect(question).to_contain_text(
        "1 hand entered on this phone has not been sent yet. Leaving the table deletes it."
    )
    expect(page).to_have_url(table)  # nothing done yet
    assert page.evaluate(HANDS_WAITING) == 1

    question.get_by_role("button", name="Leave and delete them").click()
    expect(page).to_have_url(live_server + "/")
    expect(page.get_by_role("link", name="Leaving")).to_have_count(0)
    assert page.evaluate(HANDS_WAITING) == 0
    assert f"table_{table_id}" not in {c["name"] for c in page.context.cookies()}
    assert not [c for c in kept(page) if c["cache"] == f"scorekeeper-table-{table_id}"]
    assert hands_on_the_server(page, scoreboard, key) == []
    unreadable_offline(page, live_server, scoreboard, "Leaving")


def test_a_hand_waiting_is_sent_once_when_the_table_is_kept(
    page: Page, live_server: str, no_answer_to_hands: list[str]
) -> None:
    """The person is asked before leaving, and stays: the hand still waits, and goes once the
    server answers, once."""
    scoreboard = a_hand_waiting(page, live_server, "Staying", no_answer_to_hands)
    table, table_id = table_of(scoreboard)
    page.get_by_role("button", name="Leave this table").click()
    question = page.get_by_role("alert")
    question.get_by_role("button", name="Stay").click()
    expect(question).to_be_hidden()
    expect(page).to_have_url(table)
    assert page.evaluate(HANDS_WAITING) == 1

    page.unroute("**/hands/new")
    page.goto(scoreboard)
    expect(page.locator(".totals .total")).to_have_text(["300", "100"], timeout=RETRY)
    expect(page.locator("#queue")).to_be_hidden()
    assert page.evaluate(HANDS_WAITING) == 0
    assert hands_on_the_server(page, scoreboard, table_key(page, table_id)) == [[300, 100]]
    page.reload()
    expect_totals(page, "300", "100")


def test_leaving_with_no_hand_waiting_asks_nothing(page: Page, live_server: str) -> None:
    scoreboard = open_game(page, live_server, "Nothing waiting")
    served_by_the_worker(page, scoreboard)
    table, table_id = table_of(scoreboard)
    page.goto(table)
    page.get_by_role("button", name="Leave this table").click()
    expect(page).to_have_url(live_server + "/")
    expect(page.get_by_role("link", name="Nothing waiting")).to_have_count(0)
    assert not [c for c in kept(page) if c["cache"] == f"scorekeeper-table-{table_id}"]
