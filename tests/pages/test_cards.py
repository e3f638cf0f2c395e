"""A virtual game played like cards, in headless chromium at 360×640: each card drawn as a card,
tapped to choose it, then its move tapped; the own tableau above the fold; a way back to the
seat from the scoreboard. Each test deals from a fixed seed, so the hands below are known."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.services import virtual
from tests.pages.conftest import PHONE
from tests.pages.test_virtual_pages import NEXT_MOVE, deal, play, tap_card

ANN_AND_A_COMPUTER = ["Ann", "Computer (Club)"]
THREE_SIDES = ["Ann", "Computer (Club)", "Computer (Club)"]
SIX_SEATS = ["Ann"] + ["Computer (Club)"] * 5


def seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Deal every virtual game of the test from ``seed``."""
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: seed)


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_cards_show_their_names_and_values(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Faces")
    hand = page.locator(".hand-card")
    expect(hand).to_have_count(7)
    expect(hand.locator(".card-pick")).to_have_count(7)  # each card is a button once scripted
    expect(page.get_by_role("button", name="Spare Tire, remedy")).to_be_visible()
    expect(page.get_by_role("button", name="Speed Limit, hazard")).to_be_visible()
    expect(page.get_by_role("button", name="25 km, distance")).to_be_visible()
    expect(page.locator(".hand-card[data-card=distance_25] .km-value")).to_have_text("25")
    expect(page.locator(".hand-card[data-card=speed_limit] .name")).to_have_text("Speed Limit")
    # A drawn symbol, served with the page (no image from elsewhere).
    expect(page.locator(".hand-card[data-card=speed_limit] use")).to_have_attribute(
        "href", "#sym-speed_limit"
    )
    expect(page.locator("symbol#sym-speed_limit")).to_be_attached()
    for card in hand.all():
        box = card.locator(".card-pick").bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
        assert box["height"] > box["width"]  # portrait


def test_tapping_a_card_then_its_target_plays_it(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Tap")
    expect(page.locator(".card-panel")).to_have_count(0)
    panel = tap_card(page, page.locator(".hand-card[data-card=speed_limit]"))
    # Only that card's moves: on the other side, or discarded.
    expect(panel.locator("form.move")).to_have_count(2)
    on_computer = panel.get_by_role("button", name="Play Speed Limit on Computer 2 (Club)")
    expect(on_computer).to_have_text("On Computer 2 (Club)")
    expect(panel.get_by_role("button", name="Discard Speed Limit")).to_be_visible()
    play(page, on_computer)
    expect(page.locator(".events")).to_contain_text(
        "Ann has played Speed Limit on Computer 2 (Club)"
    )


def test_a_hazard_offers_each_opponent_by_name(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 122)
    deal(page, live_server, THREE_SIDES, table="Hazard")
    panel = tap_card(page, page.locator(".hand-card[data-card=flat_tire]"))
    for name in ("Computer 2 (Club)", "Computer 3 (Club)"):
        expect(panel.get_by_role("button", name=f"Play Flat Tire on {name}")).to_be_visible()
    # Each opponent's tableau lights up as a target too, never the own one.
    expect(page.locator(".tableau.target")).to_have_count(2)
    expect(page.locator(".tableau.own.target")).to_have_count(0)
    # A tap on an opponent's tableau plays the hazard there.
    number = page.locator(NEXT_MOVE).first.input_value()
    page.locator(".tableau.target[data-side='2']").click()
    expect(page.locator(NEXT_MOVE).first).not_to_have_value(number)
    expect(page.locator(".events")).to_contain_text("Ann has played Flat Tire on Computer 3")


def test_a_card_for_the_own_side_lands_on_a_tap_of_the_own_tableau(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Own")
    tap_card(page, page.locator(".hand-card[data-card=roll]"))
    expect(page.locator(".tableau.target")).to_have_count(1)
    number = page.locator(NEXT_MOVE).first.input_value()
    page.locator(".tableau.own.target").click()
    expect(page.locator(NEXT_MOVE).first).not_to_have_value(number)
    expect(page.locator(".events")).to_contain_text("Ann has played Roll")


def test_cancel_or_a_second_tap_unchooses_the_card(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Cancel")
    number = page.locator(NEXT_MOVE).first.input_value()
    roll = page.locator(".hand-card[data-card=roll] .card-pick")
    panel = tap_card(page, page.locator(".hand-card[data-card=roll]"))
    expect(panel.get_by_role("button", name="Play Roll")).to_be_visible()  # one move, confirmed
    panel.get_by_role("button", name="Cancel").click()
    expect(roll).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".card-panel")).to_have_count(0)
    tap_card(page, page.locator(".hand-card[data-card=roll]"))
    roll.click()  # the same card again
    expect(roll).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".card-panel")).to_have_count(0)
    # Another card replaces the choice: one card chosen at a time.
    tap_card(page, page.locator(".hand-card[data-card=roll]"))
    tap_card(page, page.locator(".hand-card[data-card=repairs]"))
    expect(page.locator(".card-pick[aria-pressed=true]")).to_have_count(1)
    expect(page.locator(".card-panel")).to_have_count(1)
    expect(page.locator(NEXT_MOVE).first).to_have_value(number)  # nothing was played


@pytest.mark.parametrize(
    ("seats", "seed"), [(ANN_AND_A_COMPUTER, 1), (SIX_SEATS, 69)], ids=["2 seats", "6 seats"]
)
def test_own_piles_and_hand_fit_the_first_screen(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch, seats: list[str], seed: int
) -> None:
    seeded(monkeypatch, seed)
    deal(page, live_server, seats, table="Fold")
    own = page.locator(".tableau.own")
    expect(page.locator(".hand .card")).to_have_count(7)
    expect(page.locator(".prompt")).to_be_in_viewport(ratio=1)
    expect(own.locator(".km")).to_be_in_viewport(ratio=1)
    expect(own.locator(".piles dd")).to_have_count(2)  # battle and speed; no safety yet
    for pile in own.locator(".piles dd").all():
        expect(pile).to_be_in_viewport(ratio=1)
    for card in page.locator(".hand .card").all():
        expect(card).to_be_in_viewport(ratio=1)


def test_six_seats_fit_the_phone(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 69)
    deal(page, live_server, SIX_SEATS, table="Six")
    expect(page.locator(".tableau")).to_have_count(3)  # partners share a side
    expect(page.locator(".tableau.own")).to_contain_text("Ann & Computer 4 (Club)")
    no_horizontal_scroll(page)
    panel = tap_card(page, page.locator(".hand-card[data-card=out_of_gas]"))
    expect(panel.locator("form.move")).to_have_count(3)
    expect(
        panel.get_by_role("button", name="Play Out of Gas on Computer 3 (Club) & Computer 6 (Club)")
    ).to_be_visible()
    no_horizontal_scroll(page)
    for button in panel.get_by_role("button").all():
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44


def test_an_attacked_side_says_so(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Attacked")
    other = page.locator(".tableau:not(.own)")
    expect(other).not_to_have_class(re.compile("attacked"))
    panel = tap_card(page, page.locator(".hand-card[data-card=speed_limit]"))
    play(page, panel.get_by_role("button", name="Play Speed Limit on Computer 2 (Club)"))
    # On this deal the computer cannot answer at once: its side shows the limit, attacked.
    speed = other.locator(".piles > div").filter(has_text="Speed")
    expect(speed.locator(".chip.k-hazard")).to_have_text("Speed Limit")
    expect(other).to_have_class(re.compile("attacked"))
    expect(other.locator(".attacked-tag")).to_have_text("attacked")


def test_a_phone_without_scripts_plays_through_buttons(
    phone: Callable[..., Page], live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, 1)
    page = phone(javascript=False)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="No scripts")
    expect(page.locator(".card-pick")).to_have_count(0)
    limit = page.locator(".hand-card[data-card=speed_limit]")
    expect(limit.get_by_role("button")).to_have_count(2)  # every move of the card, at once
    play(page, limit.get_by_role("button", name="Play Speed Limit on Computer 2 (Club)"))
    expect(page.locator(".events")).to_contain_text("Ann has played Speed Limit on Computer 2")


def test_a_redraw_keeps_the_chosen_card(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page follows the game: a fresh copy (here, in the language chosen meanwhile, asked for
    when the phone is back online) replaces it while a card is chosen; the card stays chosen,
    with the fresh page's forms, and still plays."""
    seeded(monkeypatch, 1)
    deal(page, live_server, ANN_AND_A_COMPUTER, table="Redraw")
    tap_card(page, page.locator(".hand-card[data-card=repairs]"))
    page.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server}])
    page.context.set_offline(True)
    page.context.set_offline(False)
    expect(page.get_by_role("heading", name="Votre main")).to_be_visible()
    chosen = page.locator(".hand-card[data-card=repairs] .card-pick")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(chosen).to_have_accessible_name("Réparations, parade")
    expect(page.locator(".card-panel")).to_have_count(1)
    play(page, page.locator(".card-panel").get_by_role("button", name="Défausser"))
    expect(page.locator(".events")).to_contain_text("Ann défausse «\u202fRéparations\u202f».")


def test_the_scoreboard_leads_back_to_the_seat(
    phone: Callable[..., Page], live_server: str
) -> None:
    page = phone()
    deal(page, live_server, ["Ann", "Bob"], table="Way back")
    ann = page.locator(".seat-links input").first.input_value()
    page.goto(live_server + "/")
    page.get_by_role("link", name="Way back").click()
    page.locator("a.row-link").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ann")
    expect(page.get_by_role("link", name="Back to your seat")).to_have_count(0)  # none held yet
    page.goto(ann)
    page.get_by_role("link", name="Scoreboard").click()
    back = page.get_by_role("link", name="Back to your seat")
    expect(back).to_have_attribute("href", ann.removeprefix(live_server))
    page.get_by_role("link", name="Abandon the game").click()  # a page the scoreboard links to
    expect(page.get_by_role("link", name="Back to your seat")).to_be_visible()
    page.get_by_role("link", name="Back to your seat").click()
    expect(page.locator("#play .hand")).to_be_visible()
    assert page.url == ann
