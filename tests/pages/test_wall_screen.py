"""A table's wall screen in headless chromium: made from the table's page, opened on a screen
that holds no key of the table, it shows a hand recorded through the API without being reloaded
(its question waits on the table's feed), and says so at once when its link is revoked."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.pages.test_leaderboard import table_api
from tests.pages.test_pages import add_players, create_table

HAND = {"sides": [{"distance": 300}, {"distance": 450}]}


def test_a_wall_screen_follows_the_table_live_and_stops_when_revoked(
    phone: Callable[..., Page], live_server: str
) -> None:
    owner = phone()
    table = create_table(owner, live_server, "Club du mur")
    add_players(owner, "Ann", "Bob")
    api, headers = table_api(owner, live_server, table)
    players = owner.request.get(api + "/players", headers=headers).json()["items"]
    sides = [{"players": [player["id"]]} for player in players]

    owner.goto(table)
    owner.get_by_text("Wall screen and spectators").click()
    owner.get_by_role("button", name="Make a read-only link").click()
    link = owner.get_by_label("Wall screen link").input_value()
    assert "/wall/mbr_" in link

    screen = phone()
    screen.goto(link)
    expect(screen.get_by_role("heading", level=1)).to_have_text("Club du mur")
    expect(screen.get_by_text("No game is being played at this table.")).to_be_visible()
    expect(screen.locator("html[data-live=waiting]")).to_be_attached()
    screen.evaluate("window.stillTheSamePage = true")

    game = owner.request.post(api + "/games", data={"players": 2, "sides": sides}, headers=headers)
    assert game.status == 201, game.text()
    hand = owner.request.post(f"{api}/games/{game.json()['id']}/hands", data=HAND, headers=headers)
    assert hand.status == 201, hand.text()
    expect(screen.locator(".wall-game .total").nth(1)).to_have_text("450")
    expect(screen.get_by_text("1 hand", exact=True)).to_be_visible()
    assert screen.evaluate("window.stillTheSamePage") is True  # redrawn in place, not reloaded

    owner.goto(table)
    owner.get_by_text("Wall screen and spectators").click()
    owner.get_by_role("button", name="Revoke Wall screen 1").click()
    expect(screen.get_by_text("This wall screen's link is not valid")).to_be_visible()
