"""What a newcomer meets on a player's page: every statistic whole on a 360 px phone, in English
and in French, and a page with no game that speaks in the words of the season chosen."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from tests.api.conftest import create_table
from tests.pages.conftest import PHONE
from tests.pages.test_leaderboard import an_evening
from tests.web.test_i18n import play_a_game

CUT_OFF = """() => [...document.querySelectorAll("dl.statistics :is(div, dt, dd)")]
    .filter(e => {
        const box = e.getBoundingClientRect();
        return e.scrollWidth > e.clientWidth || box.left < 0 || box.right > window.innerWidth;
    })
    .map(e => e.textContent)"""
"""The statistics (their boxes, labels and figures) wider than their box or than the screen."""


@pytest.mark.parametrize(
    ("language", "labels"),
    [
        ("en", ["Games finished", "Games won", "Win rate", "Average hand", "Best hand"]),
        ("fr", ["Parties terminées", "Parties gagnées", "Taux de victoire", "Moyenne par manche"]),
    ],
)
def test_every_statistic_fits_a_phone(
    page: Page, live_server: str, language: str, labels: list[str]
) -> None:
    table = an_evening(page, live_server, f"Figures {language}")
    page.goto(f"{table}/ratings")
    if language == "fr":
        page.get_by_role("link", name="FR", exact=True).click()
    page.locator("table.leaderboard").get_by_role("link", name="Bob").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bob")
    page.wait_for_load_state("load")  # the style sheet too: the layout is what is tested
    figures = page.locator("dl.statistics > div")
    expect(figures).to_have_count(7)
    expect(figures.locator("dt")).to_contain_text(labels)
    expect(figures.locator("dd").nth(4)).to_have_text(re.compile("^1[,\u202f]900$"))  # best hand
    assert page.evaluate(CUT_OFF) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for figure in figures.all():
        figure.scroll_into_view_if_needed()
        expect(figure).to_be_in_viewport(ratio=1)  # each box whole on the screen
    coups = figures.filter(has_text=re.compile("Coups[- ]fourrés"))
    expect(coups).to_have_count(1)  # the figure once cut off at the right edge


def test_the_fit_check_finds_a_figure_cut_off(page: Page, live_server: str) -> None:
    """The check above can fail: the old table's seven columns in one row do not fit."""
    table = an_evening(page, live_server, "Figures cut off")
    page.goto(f"{table}/ratings?lang=fr")
    page.locator("table.leaderboard").get_by_role("link", name="Bob").click()
    page.wait_for_load_state("load")
    page.locator("dl.statistics").evaluate(
        "e => { e.style.display = 'flex'; e.style.gridTemplateColumns = 'none'; }"
    )
    assert page.evaluate(CUT_OFF) != []


def test_the_rating_line_agrees_with_each_count(page: Page, live_server: str) -> None:
    """Bob finished three games and won one: each count has its own plural."""
    table = an_evening(page, live_server, "Agreement")
    page.goto(f"{table}/ratings")
    page.get_by_role("link", name="FR", exact=True).click()
    page.locator("table.leaderboard").get_by_role("link", name="Bob").click()
    expect(page.get_by_text("Cote tirée de 3 parties terminées, dont 1 gagnée.")).to_be_visible()
    page.get_by_role("link", name="EN", exact=True).click()
    expect(page.get_by_text("Rated over 3 finished games, 1 won.")).to_be_visible()


SEASONS = {
    "all time": ("", "No finished game yet.", "Aucune partie terminée pour l'instant."),
    "this year": (
        "THIS_YEAR",
        "No finished game this year.",
        "Aucune partie terminée cette année.",
    ),
    "days chosen": (
        "?from=2001-01-01&to=2001-12-31",
        "No finished game in this season.",
        "Aucune partie terminée sur cette période.",
    ),
}


@pytest.mark.parametrize("season", SEASONS)
def test_a_new_player_s_page_speaks_of_the_season_chosen(sqlite_app: Flask, season: str) -> None:
    client = sqlite_app.test_client()
    table = create_table(client, "Club")
    play_a_game(table)  # Ann and Bob have played; Zoé is new
    (zoe,) = table.add_players("Zoé")
    client.set_cookie(f"table_{table.id}", table.token)
    query, english, french = SEASONS[season]
    if query == "THIS_YEAR":  # the address the page's own "This year" button links to
        page = client.get(f"/t/{table.id}/players/{zoe}").text
        query = re.search(r'href="[^"?]*(\?from=[^"]*)"[^>]*>This year<', page).group(1)
        query = query.replace("&amp;", "&")
    for language, said in (("en", english), ("fr", french)):
        page = client.get(
            f"/t/{table.id}/players/{zoe}{query}", headers={"Accept-Language": language}
        )
        assert page.status_code == 200
        text = page.text.replace("&#39;", "'")
        assert text.count(said) == 1, (season, language)
        assert "this season" not in text or season == "days chosen"
        with_another = said.replace("game", "game with another player").replace(
            "partie terminée", "partie terminée avec un autre joueur"
        )
        assert with_another in text, (season, language)
