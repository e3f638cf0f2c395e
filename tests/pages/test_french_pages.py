"""A French phone in chromium: its words come from the catalog and its numbers are written the
French way, in the live preview (fetched by the script) and on the scoreboard."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.pages.test_pages import add_players, create_table, start_two_player_game

ONE_THOUSAND_NINE_HUNDRED = re.compile("^1\u202f900$")  # CLDR's French group: a narrow space


def test_a_hand_entered_in_french_shows_french_numbers(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Club")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="FR", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    # Ann: 700 km with no 200, trip completed, shutout: 700 + 400 + 300 + 500.
    page.get_by_role("link", name="Saisir une manche").click()
    page.locator("input[name='s0-km']").fill("700")
    page.locator("input[name='s0-two_hundreds'][value='0']").check()
    page.locator("input[name=completed][value='0']").check()
    page.locator("#side-0 details.claims summary").click()
    page.locator("input[name='s0-claim-shutout']").check()
    expect(page.locator("[data-preview-total='0']")).to_have_text(ONE_THOUSAND_NINE_HUNDRED)
    expect(page.locator("[data-bar-summary] .side-total").first).to_contain_text("1\u202f900")
    page.get_by_role("button", name="Enregistrer la manche").click()

    expect(page.locator(".totals .total").first).to_have_text(ONE_THOUSAND_NINE_HUNDRED)
    expect(page.locator(".hands .running").first).to_have_text(re.compile("^Σ 1\u202f900$"))
