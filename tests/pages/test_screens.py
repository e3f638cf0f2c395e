"""The small things at the table, each found by trying the pages at 360×640: what a
confirmation says, a rematch in one tap, pickers that fill themselves, one colour per side,
sections that look like they open, and a wide table that scrolls in its own box."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.pages.test_pages import SAFE_WIN, add_players, create_table, enter_hand, expect_totals


def test_the_undo_confirmation_names_the_hand_and_its_scores(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Undo")
    add_players(page, "Ann", "Bob")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="Start the game").click()  # the two players, prefilled
    enter_hand(page, [{"100": "2"}, {"50": "1"}])
    enter_hand(page, [SAFE_WIN, {"25": "2"}], completed=0)
    page.get_by_role("link", name="Undo the last hand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Undo hand 2?")
    expect(page.locator(".totals li")).to_have_text(["Ann+1,400", "Bob+50"])
    page.get_by_role("button", name="Undo").click()
    expect_totals(page, "200", "50")


def test_a_rematch_replays_the_sides_seats_and_variants_in_one_tap(
    phone: Callable[..., Page], live_server: str
) -> None:
    page = phone(javascript=False)
    create_table(page, live_server, "Rematch")
    token = page.locator("input.share-link").input_value().split("#")[1]
    add_players(page, "Ann", "Bob", "Cat", "Dan")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="4", exact=True).click()
    sides = page.locator("select[name^=side]")
    for index, name in enumerate(("Dan", "Ann", "Cat", "Bob")):  # not the obvious order
        sides.nth(index).select_option(label=name)
    page.locator("input[name=side1-name]").fill("Les Bleus")
    page.locator("summary", has_text="Rules variants").click()
    page.locator("select[name=shutout]").select_option("capot")
    page.get_by_role("button", name="Start the game").click()
    first = page.url
    for _ in range(3):  # 1,000 km with no 200, Bob & Dan at 0: 1,000 + 400 + 300 + 500 a hand
        enter_hand(page, [{"100": "10"}, {}], completed=0, claims={0: "shutout"})
    expect(page.locator(".banner.win")).to_contain_text("victory for Dan & Ann with 6,600 points")
    page.get_by_role("button", name="Rematch").click()
    expect_totals(page, "0", "0")
    assert page.url != first
    rematch = page.url
    page.go_back()  # the winner screen again, and its button tapped a second time
    page.get_by_role("button", name="Rematch").click()
    expect(page).to_have_url(rematch)  # the same new game: no second one

    def game(url: str) -> dict[str, Any]:
        api = live_server + "/api/v1/tables/" + url.split("/t/")[1]
        return page.request.get(api, headers={"Authorization": f"Bearer {token}"}).json()

    before, after = game(first), game(page.url)
    assert after["status"] == "in_progress" and after["hands"] == []
    assert after["variants"]["shutout"] == "capot"

    def seating(game: dict[str, Any]) -> list[Any]:
        return [game["players"], game["variants"], [(s["name"], s["seats"]) for s in game["sides"]]]

    assert seating(after) == seating(before)


def test_pickers_fill_themselves_when_the_table_fills_the_seats(
    page: Page, live_server: str
) -> None:
    table = create_table(page, live_server, "Pickers")
    add_players(page, "Ann", "Bob", "Cat", "Dan")
    picked = "select[name^={}] option:checked"
    page.goto(table + "/games/new?players=4")
    # Seated in the order they were added: partners opposite (Ann and Cat, Bob and Dan).
    expect(page.locator(picked.format("side"))).to_have_text(["Ann", "Cat", "Bob", "Dan"])
    page.goto(table + "/games/new?players=2")  # four players for two seats: no obvious choice
    expect(page.locator(picked.format("side"))).to_have_text(["—", "—"])
    page.goto(table + "/virtual/new?players=4")
    expect(page.locator(picked.format("seat"))).to_have_text(["Ann", "Bob", "Cat", "Dan"])
    page.goto(table + "/games/new?players=4")
    page.locator("select[name=side0]").first.select_option(label="Bob")  # still a choice
    page.locator("select[name=side1]").first.select_option(label="Ann")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".totals .name")).to_have_text(["Bob & Cat", "Ann & Dan"])


SIDE_COLOURS = """() => [0, 1, 2].map(i => {
  const colour = (selector, property) => {
    const element = document.querySelector(selector);
    return element ? getComputedStyle(element)[property] : 'missing';
  };
  return [
    colour(`.totals .side-${i} .name`, 'color'),
    colour(`.totals .side-${i} .total`, 'color'),
    colour(`.totals .side-${i} progress`, 'accentColor'),
    colour(`table.hands th.side-${i}`, 'color'),
    colour(`.chart .series.side-${i} polyline`, 'stroke'),
    colour(`.chart .series.side-${i} circle`, 'fill'),
    colour(`.chart figcaption .side-${i} rect`, 'fill'),
    colour(`.chart figcaption .side-${i} .name`, 'color'),
  ];
})"""


def test_each_side_has_one_colour_everywhere_in_light_and_dark(
    page: Page, live_server: str
) -> None:
    create_table(page, live_server, "Colours")
    add_players(page, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="6", exact=True).click()
    page.get_by_role("button", name="Start the game").click()  # six players: prefilled
    enter_hand(page, [{"100": "2"}, {"50": "1"}, {"25": "1"}])
    expect(page.locator(".chart")).to_be_visible()
    page.wait_for_load_state("load")  # the style sheet too: colours are read from it
    seen = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        sides = page.evaluate(SIDE_COLOURS)
        for side in sides:
            assert len(set(side)) == 1, (scheme, side)  # one colour for all it shows
        seen[scheme] = [side[0] for side in sides]
        assert len(set(seen[scheme])) == 3, seen  # and three sides, three colours
    assert seen["light"] != seen["dark"]  # each scheme has its own, legible on its background


def test_sections_that_open_show_a_turning_chevron(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Chevron")
    summary = page.locator("details.share > summary")
    page.wait_for_load_state("load")  # the style sheet too: the chevron is drawn by it
    chevron = "e => getComputedStyle(e, '::before').transform"
    closed = summary.evaluate(chevron)
    assert summary.evaluate("e => getComputedStyle(e, '::before').content") == '""'
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44
    summary.click()
    expect(page.locator(".qr svg")).to_be_visible()
    assert summary.evaluate(chevron) != closed


def test_the_statistics_scroll_in_their_own_box_not_the_page(page: Page, live_server: str) -> None:
    table = create_table(page, live_server, "Statistics")
    add_players(page, "Anne-Charlotte", "Bartholomew")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="Start the game").click()
    for _ in range(3):
        enter_hand(page, [SAFE_WIN, {}], completed=0, claims={0: "shutout"})
    page.wait_for_url(re.compile(r"/games/\d+$"))  # the last hand saved before the page is left
    for language in ("en", "fr"):
        page.goto(f"{table}/history?lang={language}")
        box = page.locator(".scroll:has(table.stats)").first
        expect(box.locator("tbody tr")).to_have_count(2)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # never the page
        width, room = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width > room  # eight columns of whole words: wider than a phone, so it scrolls
        assert "gradient" in box.evaluate("e => getComputedStyle(e).backgroundImage")  # the cue
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        expect(box.get_by_role("cell", name="Anne-Charlotte")).to_be_in_viewport()  # stays put
