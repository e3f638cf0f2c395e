"""The leaderboard and the player's page in chromium at 360 px, in English and in French.

The games are entered through the API with the table's key (the share link's part after ``#``),
so the pages show ratings from hands the server scored, not rows written by the test.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from playwright.sync_api import Page, expect

from tests.pages.conftest import PHONE
from tests.pages.test_pages import add_players, create_table

WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
LOSE = {"sides": [WIN["sides"][1], WIN["sides"][0]]}


def table_api(page: Page, server: str, table: str) -> tuple[str, dict[str, str]]:
    """The table's API address and the header carrying its key (from the share link)."""
    page.goto(table)
    page.locator("details.share summary").click()
    token = page.locator(".share-link").input_value().split("#", 1)[1]
    table_id = table.rstrip("/").rsplit("/", 1)[1]
    return f"{server}/api/v1/tables/{table_id}", {"Authorization": f"Bearer {token}"}


def api_game(
    page: Page, api: tuple[str, dict[str, str]], sides: list[list[int]], *hands: Any
) -> None:
    """A two-player game played to its end through the API."""
    url, headers = api
    body = {"players": 2, "sides": [{"players": side} for side in sides]}
    game = page.request.post(url + "/games", data=body, headers=headers).json()
    for hand in hands:
        answer = page.request.post(f"{url}/games/{game['id']}/hands", data=hand, headers=headers)
        assert answer.status == 201, answer.text()


def an_evening(page: Page, server: str, name: str) -> str:
    """A table where Ann beat Bob twice and Bob beat Cat once; its address."""
    table = create_table(page, server, name)
    add_players(page, "Ann", "Bob", "Cat")
    api = table_api(page, server, table)
    items = page.request.get(api[0] + "/players", headers=api[1]).json()["items"]
    ids = {player["name"]: player["id"] for player in items}
    api_game(page, api, [[ids["Ann"]], [ids["Bob"]]], WIN, WIN, WIN)
    api_game(page, api, [[ids["Bob"]], [ids["Ann"]]], LOSE, LOSE, LOSE)
    api_game(page, api, [[ids["Bob"]], [ids["Cat"]]], WIN, LOSE, WIN, WIN)
    return table


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]


def test_the_leaderboard_ranks_the_table_with_uncertainty(page: Page, live_server: str) -> None:
    table = an_evening(page, live_server, "Ratings")
    page.goto(table)
    page.get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboard")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows.locator("td:nth-child(2)")).to_have_text(["Ann", "Bob", "Cat"])
    expect(rows.first.locator("td.rating")).to_have_text(
        re.compile(r"^\d+\.\d\s±\s\d\.\d provisional$")
    )
    fits_the_phone(page)

    page.get_by_role("link", name="This year").click()
    expect(page).to_have_url(re.compile(f"from={date.today().year}-01-01"))
    expect(page.get_by_role("link", name="This year")).to_have_attribute("aria-current", "true")
    expect(rows).to_have_count(3)  # every game was finished today
    page.get_by_text("Choose the days and the games").click()
    page.get_by_label("Games played in the app").select_option("only")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_text("No finished game this year.")).to_be_visible()


def test_the_leaderboard_in_french(page: Page, live_server: str) -> None:
    table = an_evening(page, live_server, "Classement")
    page.goto(table + "/ratings")
    page.get_by_role("link", name="FR", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Classement")
    first = page.locator("table.leaderboard tbody tr").first.locator("td.rating")
    expect(first).to_have_text(re.compile(r"^\d+,\d\s±\s\d,\d provisoire$"))  # decimal commas
    expect(page.get_by_role("link", name="Cette année")).to_be_visible()
    fits_the_phone(page)


def test_a_player_s_page_shows_the_head_to_head_and_the_trends(
    page: Page, live_server: str
) -> None:
    table = an_evening(page, live_server, "Rivals")
    page.goto(table + "/ratings")
    page.locator("table.leaderboard").get_by_role("link", name="Bob").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bob")
    rivals = page.locator("table.head-to-head tbody tr")
    expect(rivals.locator("td:nth-child(1)")).to_have_text(["Ann", "Cat"])
    expect(rivals.first.locator("td")).to_have_text(["Ann", "2", "0 – 2", "0 – 1,900", "0", "—"])
    expect(page.get_by_role("img", name="Rating after each game")).to_be_visible()
    page.get_by_text("The trends as a table").click()
    expect(page.locator("details.figures tbody tr")).to_have_count(3)
    fits_the_phone(page)
