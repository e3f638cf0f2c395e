"""A French phone in chromium: its words come from the catalog and its numbers are written the
French way, in the live preview (fetched by the script) and on the scoreboard; the leaderboard, a
player's page and a virtual game's seat read as French, with no slip of typography."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.pages.test_leaderboard import an_evening
from tests.pages.test_pages import add_players, create_table, start_two_player_game
from tests.web.test_french_typography import ENGLISH_ON_A_PAGE, typography_flaws, visible_text

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


def read_in_french(page: Page, heading: str | None = None) -> None:
    """The page is in French: no English word, and set as a French typographer would."""
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    if heading:
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    page.wait_for_load_state("load")
    text = page.locator("main").inner_text()
    english = sorted({m.group() for m in ENGLISH_ON_A_PAGE.finditer(visible_text(text))})
    assert (english, typography_flaws(text)) == ([], []), page.url


def test_the_leaderboard_a_player_s_page_and_a_seat_read_in_french(
    page: Page, live_server: str
) -> None:
    table = an_evening(page, live_server, "Soirée")
    page.goto(table + "/ratings")
    page.get_by_role("link", name="FR", exact=True).click()
    read_in_french(page, "Classement")
    page.locator("table.leaderboard").get_by_role("link", name="Bob").click()
    read_in_french(page, "Bob")
    expect(page.get_by_text("Cote tirée de 3 parties terminées, dont 1 gagnée.")).to_be_visible()
    page.goto(table + "/virtual/new")
    page.locator("select[name=seat0]").select_option(label="Ann")
    page.locator("select[name=seat1]").select_option(label="Ordinateur (Club)")
    page.get_by_role("button", name="Distribuer").click()
    expect(page.get_by_role("heading", name="Votre main")).to_be_visible()
    read_in_french(page)
