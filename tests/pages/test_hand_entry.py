"""Entering a hand on a phone: every tap counted, at 360×640, with and without JavaScript.

Expected scores are worked out here by hand from the scoring table of RULES.md §9 (1 per km,
100 per safety, 300 per coup-fourré, 300 for all four, 400 for the trip, 300 for a safe trip),
never from the engine's constants.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.pages.conftest import PHONE
from tests.pages.test_pages import add_players, create_table, expect_totals

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


class Taps:
    """A person's work on one page: every tap and every typed character counts one."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator, times: int = 1) -> None:
        for _ in range(times):
            target.tap()
            self.count += 1

    def type(self, field: Locator, text: str) -> None:
        """Tap the field, then one key press per character."""
        self.tap(field)
        for character in text:
            field.press(character)
            self.count += 1


def start_game(
    page: Page, server: str, name: str, players: int, variants: dict[str, str] | None = None
) -> None:
    """A game of ``players`` seats; teams are named "Team A", "Team B", "Team C"."""
    table_url = create_table(page, server, name)
    add_players(page, *NAMES[:players])
    page.goto(f"{table_url}/games/new?players={players}")
    sides = 2 if players in (2, 4) else 3
    for seat, player in enumerate(NAMES[:players]):
        page.locator(f"select[name=side{seat % sides}]").nth(seat // sides).select_option(
            label=player
        )
    if players > sides:
        for side in range(sides):
            page.locator(f"input[name=side{side}-name]").fill(f"Team {'ABC'[side]}")
    if variants:
        page.get_by_text("Rules variants").click()
        for key, value in variants.items():
            page.locator(f"select[name={key}]").select_option(value)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".totals")).to_be_visible()
    page.get_by_role("link", name="Enter a hand").click()
    expect(page.locator("form.hand-form")).to_be_visible()


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def radio(page: Page, name: str) -> Locator:
    return page.get_by_role("radio", name=name, exact=True)


def save_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Save the hand")


def expect_no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def expect_save_in_view(page: Page) -> None:
    """Save is on screen as things stand, without scrolling to it."""
    expect(save_button(page)).to_be_in_viewport(ratio=1)


def test_the_typical_team_hand_takes_at_most_ten_taps(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Typical", players=4)
    taps = Taps(page)
    # Team A: 6 × 100 and 2 × 200 (1,000 km), Driving Ace, Right of Way as a coup-fourré.
    taps.tap(button(page, "Team A: 1,000 km in all"))
    taps.tap(radio(page, "Team A: 2 × 200 km"))
    taps.tap(button(page, "Team A: Driving Ace"))
    taps.tap(button(page, "Team A: Right of Way"), times=2)
    # Team B: 250 km and Extra Tank.
    taps.tap(button(page, "Team B: add 200 km"))
    taps.tap(button(page, "Team B: add 50 km"))
    taps.tap(button(page, "Team B: Extra Tank"))
    # The 4-player game is played to 1,000 with no extension (RULES.md §2): Team A completed.
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    # A: 1,000 + 2 × 100 + 300 + 400 (two 200s: no safe trip) = 1,900; B: 250 + 100 = 350.
    expect(page.locator("[data-bar-summary]")).to_contain_text("1,900")
    expect_save_in_view(page)
    taps.tap(save_button(page))
    expect_totals(page, "1,900", "350")
    print(f"typical team hand: {taps.count} taps")
    assert taps.count <= 10


def test_all_four_safeties(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Four safeties", players=4)
    taps = Taps(page)
    taps.tap(button(page, "Team A: 1,000 km in all"))
    taps.tap(radio(page, "Team A: 2 × 200 km"))
    for safety in ("Driving Ace", "Extra Tank", "Puncture Proof"):
        taps.tap(button(page, f"Team A: {safety}"))
    taps.tap(button(page, "Team A: Right of Way"), times=2)
    taps.tap(button(page, "Team B: add 200 km"))
    taps.tap(button(page, "Team B: add 50 km"))
    taps.tap(save_button(page))
    # A: 1,000 + 4 × 100 + 300 (all four) + 300 (coup-fourré) + 400 (trip) = 2,400; B: 250.
    expect_totals(page, "2,400", "250")
    print(f"all-four-safeties hand: {taps.count} taps")
    assert taps.count <= 11


def test_a_three_player_hand_typed_and_chipped(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Three", players=3)
    expect_no_horizontal_scroll(page)
    taps = Taps(page)
    # Ann 700 with no 200 and Bob at 0 km: a safe trip and no shutout (Cat travelled).
    taps.tap(button(page, "Ann: 700 km in all"))
    taps.tap(radio(page, "Ann: 0 × 200 km"))
    taps.type(page.get_by_role("spinbutton", name="Cat: Distance (km)"), "325")
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    expect(radio(page, "Extension called by Nobody")).to_be_checked()
    taps.tap(save_button(page))
    # Ann: 700 + 400 + 300 (safe trip) + 500 (Bob at 0 km) = 1,900; Bob 0; Cat 325.
    expect_totals(page, "1,900", "0", "325")
    print(f"three-player hand: {taps.count} taps")
    assert taps.count <= 8


def test_a_six_player_hand_with_three_teams(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Six", players=6)
    expect_no_horizontal_scroll(page)
    expect_save_in_view(page)
    taps = Taps(page)
    # Team C calls the extension at 700 and completes 1,000 with one 200 and a coup-fourré
    # (Puncture Proof); Team A 450 km; Team B 0 km.
    taps.tap(button(page, "Team C: 1,000 km in all"))
    taps.tap(radio(page, "Team C: 1 × 200 km"))
    taps.tap(button(page, "Team C: Puncture Proof"), times=2)
    taps.tap(button(page, "Team A: add 200 km"), times=2)
    taps.tap(button(page, "Team A: add 50 km"))
    expect(radio(page, "Extension called by Team C")).to_be_checked()
    expect(radio(page, "Trip completed by Team C")).to_be_checked()
    expect_save_in_view(page)
    expect_no_horizontal_scroll(page)
    taps.tap(save_button(page))
    # C: 1,000 + 100 + 300 + 400 (trip) + 200 (extension) + 500 (Team B at 0 km) = 2,500.
    expect_totals(page, "450", "0", "2,500")
    print(f"six-player hand: {taps.count} taps")
    assert taps.count <= 10


def test_the_second_tap_is_the_coup_fourre_and_the_third_clears(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, "Coup-fourré", players=2)
    ace = page.locator("#side-0 .safety-cycle").first
    expect(ace).to_have_accessible_name("Ann: Driving Ace")
    expect(ace).to_have_attribute("aria-pressed", "false")
    ace.tap()
    expect(ace).to_have_attribute("aria-pressed", "true")
    expect(ace).to_have_accessible_name("Ann: Driving Ace")
    expect(page.locator("[data-preview-total='0']")).to_have_text("100")
    ace.tap()
    expect(ace).to_have_accessible_name("Ann: Driving Ace, coup-fourré")
    expect(ace).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-preview-total='0']")).to_have_text("400")  # 100 + 300
    ace.tap()
    expect(ace).to_have_accessible_name("Ann: Driving Ace")
    expect(ace).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-preview-total='0']")).to_have_text("0")


def test_the_trip_follows_the_distances_until_chosen(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Trip", players=2)
    nobody = radio(page, "Nobody (deck exhausted)")
    expect(nobody).to_be_checked()
    button(page, "Bob: 700 km in all").tap()
    expect(radio(page, "Trip completed by Bob")).to_be_checked()
    button(page, "Bob: Clear the distance").tap()
    expect(nobody).to_be_checked()
    # Ann at 1,000: an extension was called, most likely by Ann, and she completed it.
    button(page, "Ann: 1,000 km in all").tap()
    expect(radio(page, "Extension called by Ann")).to_be_checked()
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    # The table says Bob called it at 700 and Ann overtook him: the choice sticks.
    radio(page, "Extension called by Bob").tap()
    button(page, "Bob: 700 km in all").tap()
    button(page, "Bob: add 100 km").tap()
    expect(radio(page, "Extension called by Bob")).to_be_checked()
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    # A trip chosen by hand sticks too, whatever the distances do next.
    nobody.tap()
    button(page, "Bob: add 50 km").tap()
    expect(nobody).to_be_checked()
    radio(page, "Trip completed by Ann").tap()
    radio(page, "Ann: 0 × 200 km").tap()
    save_button(page).tap()
    # Ann: 1,000 + 400 (trip) + 300 (safe trip) + 200 (Bob's extension failed) = 1,900;
    # Bob, who called and did not get there: 850 km and nothing more (RULES.md §7).
    expect_totals(page, "1,900", "850")


def test_the_form_records_a_hand_without_javascript(
    phone: Callable[..., Page], live_server: str
) -> None:
    page = phone(javascript=False)
    start_game(page, live_server, "No script", players=4)
    expect(page.get_by_role("button", name="Team A: add 100 km")).to_be_hidden()
    page.get_by_label("Team A: Distance (km)").fill("1000")
    radio(page, "Team A: 2 × 200 km").click()
    page.get_by_role("checkbox", name="Team A: Driving Ace", exact=True).check()
    # A coup-fourré ticked alone says its safety was laid.
    page.get_by_role("checkbox", name="Team A: Right of Way, coup-fourré").check()
    page.get_by_label("Team B: Distance (km)").fill("250")
    page.get_by_role("checkbox", name="Team B: Extra Tank", exact=True).check()
    radio(page, "Trip completed by Team A").click()
    expect_save_in_view(page)
    save_button(page).click()
    expect_totals(page, "1,900", "350")


def test_save_is_in_reach_at_once_and_after_entering(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Reach", players=4)
    expect_save_in_view(page)
    assert page.evaluate("window.scrollY") == 0
    button(page, "Team B: Right of Way").tap()  # far down the form
    button(page, "Team B: add 100 km").tap()
    expect(page.locator("[data-bar-summary]")).to_contain_text("200")
    expect_save_in_view(page)
    expect_no_horizontal_scroll(page)


def test_every_control_is_a_44_px_target_and_named_for_its_side(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, "Targets", players=6)
    page.locator("#side-0 details.more summary").click()
    page.wait_for_load_state()  # the style sheet too: sizes are measured with it
    small = page.evaluate(
        """() => [...document.querySelectorAll(`form.hand-form :is(button, select, summary,
                    input:not([type=checkbox], [type=radio]),
                    label:has(> input[type=checkbox], > input[type=radio]))`)]
              .filter(e => e.offsetParent !== null && e.checkVisibility())
              .map(e => [e.getBoundingClientRect(), e.outerHTML.slice(0, 80)])
              .filter(([r]) => r.height < 44 || r.width < 44)
              .map(([r, html]) => `${r.width}x${r.height} ${html}`)"""
    )
    assert small == []
    names = [
        button.evaluate("b => b.getAttribute('aria-label') || b.textContent")
        for button in page.locator("form.hand-form button[type=button]:visible").all()
    ]
    assert len(names) == len(set(names)), "two buttons share a name"
    expect(page.get_by_role("button", name="Team B: Driving Ace", exact=True)).to_have_count(1)


def test_the_200s_choice_keeps_to_the_rules_limit(page: Page, live_server: str) -> None:
    """Two 200s per side, partners sharing them (RULES.md §5); four for a team under
    ``two_hundreds_limit: player`` (§12)."""
    start_game(page, live_server, "Two 200s", players=4)
    expect(page.get_by_role("radiogroup").first.get_by_role("radio")).to_have_count(3)
    expect(radio(page, "Team A: 2 × 200 km")).to_be_visible()
    expect(radio(page, "Team A: 3 × 200 km")).to_have_count(0)
    page.locator("#side-0 details.more summary").tap()
    button(page, "Team A: 200 km, one more").tap()
    button(page, "Team A: 200 km, one more").tap()
    expect(radio(page, "Team A: 2 × 200 km")).to_be_checked()
    expect(button(page, "Team A: 200 km, one more")).to_be_disabled()  # a third would be refused
    expect(page.get_by_label("Team A: cards of 200 km")).to_have_value("2")
    start_game(page, live_server, "Four 200s", players=4, variants={"two_hundreds_limit": "player"})
    expect(radio(page, "Team B: 4 × 200 km")).to_be_visible()
    expect_no_horizontal_scroll(page)


def test_the_names_are_french_in_french(page: Page, live_server: str) -> None:
    create_table(page, live_server, "En français")
    add_players(page, "Ann", "Bob")
    page.get_by_role("link", name="FR", exact=True).click()
    page.get_by_role("link", name="Nouvelle partie").click()
    page.locator("select[name=side0]").select_option(label="Ann")
    page.locator("select[name=side1]").select_option(label="Bob")
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_role("link", name="Saisir une manche").click()
    ace = button(page, "Ann\u202f: As du volant")
    ace.tap()
    ace.tap()
    expect(button(page, "Ann\u202f: As du volant, coup fourré")).to_have_attribute(
        "aria-pressed", "true"
    )
    button(page, "Bob\u202f: ajouter 200\u202fkm").tap()
    expect(page.locator("[data-bar-summary]")).to_contain_text("Bob 200")
    expect_no_horizontal_scroll(page)


def test_cards_by_value_keep_a_running_total(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Steppers", players=2)
    page.locator("#side-0 details.more summary").tap()
    one_more_100 = button(page, "Ann: 100 km, one more")
    one_more_100.tap()
    one_more_100.tap()
    button(page, "Ann: 200 km, one more").tap()
    expect(page.locator("#side-0 [data-cards-total]")).to_have_attribute("data-km", "400")
    expect(radio(page, "Ann: 1 × 200 km")).to_be_checked()
    expect(page.locator("[data-preview-total='0']")).to_have_text("400")
    # A chip adds to what the cards make, and the km total takes over from them.
    button(page, "Ann: add 25 km").tap()
    expect(page.get_by_label("Ann: Distance (km)")).to_have_value("425")
    expect(page.get_by_label("Ann: cards of 100 km")).to_have_value("0")
    expect(radio(page, "Ann: 1 × 200 km")).to_be_checked()
    expect(page.locator("[data-preview-total='0']")).to_have_text("425")


def test_each_refusal_shows_beside_its_side_as_it_is_typed(page: Page, live_server: str) -> None:
    """A refusal of the rules appears in the fieldset of the side its path names while the hand
    is filled, and the bar leads to it; put right, it goes."""
    start_game(page, live_server, "Refusal", players=4)
    button(page, "Team A: 1,000 km in all").tap()
    page.locator("#side-1 details.claims summary").tap()
    page.get_by_role("checkbox", name="Team B: Shutout").check()
    beside_b = page.locator("#side-1 .side-problems .problem")
    expect(beside_b).to_have_attribute("data-path", re.compile(r"^/sides/1/claims"))
    expect(beside_b).to_have_attribute("data-code", "claim_not_earned")
    expect(page.locator("#side-0 .side-problems .problem")).to_have_count(0)
    link = page.locator("[data-bar-summary] a.problem")
    expect(link).to_have_text("Refused: see Team B")
    link.tap()
    expect(beside_b).to_be_in_viewport()
    page.get_by_role("checkbox", name="Team B: Shutout").uncheck()
    expect(beside_b).to_have_count(0)
    # 1,000 + 400 (trip) + 300 (safe trip: 0 × 200 km, chosen for the side that completed the
    # trip) + 500 (Team B at 0 km) = 2,200.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Team A 2,200")
    expect_save_in_view(page)


def test_correcting_a_hand_counted_by_cards_shows_its_200s(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Correct cards", players=2)
    page.locator("#side-0 details.more summary").tap()
    page.get_by_label("Ann: cards of 200 km").fill("1")
    page.get_by_label("Ann: cards of 100 km").fill("2")
    save_button(page).tap()
    expect_totals(page, "400", "0")
    page.locator("table.hands").get_by_role("link", name="Correct").tap()
    expect(page.locator("#side-0 [data-cards-total]")).to_have_attribute("data-km", "400")
    expect(radio(page, "Ann: 1 × 200 km")).to_be_checked()
    expect(page.get_by_label("Ann: Distance (km)")).to_have_attribute("placeholder", "400")


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no script"])
def test_save_on_the_form_as_it_opens_asks_before_recording_nothing(
    phone: Callable[..., Page], live_server: str, javascript: bool
) -> None:
    """The "Nobody (deck exhausted)" choice is made from the start, so the untouched form is a
    valid hand: one stray tap on Save would record 0–0. The page asks first."""
    page = phone(javascript=javascript)
    start_game(page, live_server, "Nothing entered", players=2)
    expect(radio(page, "Nobody (deck exhausted)")).to_be_checked()
    save_button(page).click()
    expect(page.locator(".banner.warn")).to_contain_text("The hand was refused")
    expect(page.locator(".problem")).to_have_text("Nothing was entered for this hand.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 1")
    confirm = page.get_by_role("checkbox", name="Record it anyway: nobody scored")
    expect(confirm).not_to_be_checked()
    page.get_by_role("link", name="Back to the game").click()
    expect(page.locator("table.hands tbody")).to_have_count(0)  # nothing recorded

    page.get_by_role("link", name="Enter a hand").click()
    save_button(page).click()
    confirm.check()
    save_button(page).click()
    expect_totals(page, "0", "0")
    expect(page.locator("table.hands tbody")).to_have_count(1)
    # The next hand, entered: recorded at once.
    page.get_by_role("link", name="Enter a hand").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hand 2")
    page.get_by_label("Bob: Distance (km)").fill("75")
    save_button(page).click()
    expect_totals(page, "0", "75")


def test_a_200_chip_is_a_200_km_card(page: Page, live_server: str) -> None:
    """Counting the hand by chips says its 200s too: 6 × 100 and 2 × 200 tapped make 1,000 km
    with two 200 km cards, and the hand is saved without touching the 200s choice."""
    start_game(page, live_server, "Chips", players=4)
    taps = Taps(page)
    taps.tap(button(page, "Team A: add 100 km"), times=6)
    taps.tap(button(page, "Team A: add 200 km"), times=2)
    taps.tap(button(page, "Team B: add 50 km"))
    expect(page.get_by_label("Team A: Distance (km)")).to_have_value("1000")
    expect(radio(page, "Team A: 2 × 200 km")).to_be_checked()
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    # A: 1,000 + 400 (trip; two 200s: no safe trip) = 1,400; B: 50.
    expect(page.locator("[data-bar-summary]")).to_contain_text("1,400")
    taps.tap(save_button(page))
    expect_totals(page, "1,400", "50")
    assert taps.count == 10


def test_the_200s_choice_counts_the_200_chips_up_to_its_limit(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Chips and limit", players=4)
    add_200 = button(page, "Team B: add 200 km")
    add_200.tap()
    expect(radio(page, "Team B: 1 × 200 km")).to_be_checked()
    radio(page, "Team B: 0 × 200 km").tap()  # the table says it was not a card: one fewer
    add_200.tap()
    expect(radio(page, "Team B: 1 × 200 km")).to_be_checked()
    add_200.tap()
    add_200.tap()  # never past the most the rules allow (two for a team)
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("800")
    expect(radio(page, "Team B: 2 × 200 km")).to_be_checked()
    # Cards by value carried into the km total keep their 200s, and a chip adds one.
    button(page, "Team A: Clear the distance").tap()
    page.locator("#side-0 details.more summary").tap()
    button(page, "Team A: 200 km, one more").tap()
    expect(radio(page, "Team A: 1 × 200 km")).to_be_checked()
    button(page, "Team A: add 200 km").tap()
    expect(page.get_by_label("Team A: Distance (km)")).to_have_value("400")
    expect(radio(page, "Team A: 2 × 200 km")).to_be_checked()
    # Cleared, the km total leaves the 200s unsaid.
    button(page, "Team B: Clear the distance").tap()
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("")
    expect(page.locator("#side-1 input[name$='-two_hundreds']:checked")).to_have_count(0)
    expect(radio(page, "Team A: 2 × 200 km")).to_be_checked()


def test_a_km_field_tapped_is_typed_afresh(page: Page, live_server: str) -> None:
    """A chip total tapped is selected whole: typing 5 after 300 gives 5, never 5300."""
    start_game(page, live_server, "Select", players=2)
    button(page, "Ann: add 100 km").tap()
    button(page, "Ann: add 200 km").tap()
    field = page.get_by_label("Ann: Distance (km)")
    expect(field).to_have_value("300")
    field.tap()
    field.press("5")
    expect(field).to_have_value("5")


def test_the_side_that_completed_the_trip_played_no_200_unless_told(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, "Zero 200s", players=2)
    button(page, "Ann: 700 km in all").tap()
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    expect(radio(page, "Ann: 0 × 200 km")).to_be_checked()
    # 700 + 400 (trip) + 300 (safe trip) + 500 (Bob at 0 km) = 1,900.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 1,900")
    # Nobody completed it after all: the 0 the form chose goes with the trip.
    radio(page, "Nobody (deck exhausted)").tap()
    expect(page.locator("#side-0 input[name$='-two_hundreds']:checked")).to_have_count(0)
    # Said by the person, it stays.
    radio(page, "Ann: 1 × 200 km").tap()
    radio(page, "Trip completed by Ann").tap()
    expect(radio(page, "Ann: 1 × 200 km")).to_be_checked()
    # 700 + 400 (trip) + 500 (Bob at 0 km) = 1,600: one 200, no safe trip.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 1,600")
    save_button(page).tap()
    expect_totals(page, "1,600", "0")


def test_without_script_the_200s_of_a_completed_trip_must_be_said(
    phone: Callable[..., Page], live_server: str
) -> None:
    """The rule's check stays on the server: a completed trip in km with its 200s unsaid is
    refused, beside its side, naming the field."""
    page = phone(javascript=False)
    start_game(page, live_server, "Unsaid 200s", players=2)
    page.get_by_label("Ann: Distance (km)").fill("700")
    radio(page, "Trip completed by Ann").click()
    save_button(page).click()
    refusal = page.locator("#side-0 .problem[data-path='/sides/0/two_hundreds']")
    expect(refusal).to_be_visible()


def test_one_delayed_action_control_and_a_contradiction_is_refused(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, "Delayed", players=2)
    expect(page.locator("input[name$='claim-delayed_action']")).to_have_count(0)
    delayed = page.get_by_role("checkbox", name=re.compile("^Delayed action"))
    expect(delayed).to_have_count(1)
    button(page, "Bob: add 100 km").tap()
    delayed.check()  # while "Nobody" is chosen: refused, saying why, beside the choice
    refusal = page.locator("#who .problem[data-code=delayed_action_without_trip]")
    expect(refusal).to_be_visible()
    expect(page.locator("[data-bar-summary] a.problem")).to_have_attribute("href", "#problem-0")
    save_button(page).tap()  # the server refuses it too, and records nothing
    expect(page.locator(".banner.warn")).to_be_visible()
    expect(refusal).to_be_visible()
    expect(page.locator("input[name=delayed]")).to_be_checked()
    button(page, "Ann: 700 km in all").tap()
    expect(refusal).to_have_count(0)
    # 700 + 400 (trip) + 300 (delayed action) + 300 (safe trip: 0 × 200 km) = 1,700.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 1,700")
    save_button(page).tap()
    expect_totals(page, "1,700", "100")


def test_card_counts_and_claims_fold_apart(page: Page, live_server: str) -> None:
    start_game(page, live_server, "Folds", players=4)
    claims = page.locator("#side-0 details.claims")
    cards = page.locator("#side-0 details.more")
    claims.locator("summary").tap()
    expect(page.get_by_role("checkbox", name="Team A: Shutout")).to_be_visible()
    expect(cards.locator(".stepper").first).to_be_hidden()
    button(page, "Team A: 1,000 km in all").tap()
    cards.locator("summary").tap()
    line = cards.locator(".cards-total")
    # A km total is typed: the counts are optional, and the line never says "0 km" under it.
    expect(line).to_have_class(re.compile(r"\boptional\b"))
    expect(line).not_to_contain_text("0 km")
    button(page, "Team A: Clear the distance").tap()
    button(page, "Team A: 100 km, one more").tap()
    expect(line).not_to_have_class(re.compile(r"\boptional\b"))
    expect(line).to_contain_text("100")


@pytest.mark.parametrize("players", [4, 6])
def test_what_the_form_suggests_is_in_the_bar(page: Page, live_server: str, players: int) -> None:
    """Who completed the trip (and, at six, who called the extension) sits below the fold: the
    bar says what the form chose, in two short lines beside Save whatever the number of sides."""
    start_game(page, live_server, f"Suggest {players}", players=players)
    last = "Team C" if players == 6 else "Team B"
    button(page, f"{last}: 1,000 km in all").tap()
    suggestion = page.locator("[data-bar-suggest]")
    expect(suggestion).to_be_in_viewport()
    expect(suggestion).to_contain_text(f"Trip: {last}")
    if players == 6:
        expect(suggestion).to_contain_text("Extension: Team C")
    expect(page.locator("[data-bar-summary] .side-total")).to_have_count(players // 2)
    bar = page.locator(".save-bar").bounding_box()
    assert bar is not None and bar["height"] <= 72, bar  # two short lines beside Save
    height = page.evaluate("document.documentElement.scrollHeight") / PHONE["height"]
    print(f"form with {players} players: {height:.2f} screens, bar {bar['height']:.0f} px")


def test_offline_the_bar_shows_no_score_the_hand_does_not_have(
    page: Page, live_server: str
) -> None:
    start_game(page, live_server, "No score offline", players=2)
    button(page, "Ann: add 100 km").tap()
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 100")
    page.context.set_offline(True)
    try:
        button(page, "Ann: 700 km in all").tap()
        page.get_by_label("Bob: Distance (km)").fill("325")
        summary = page.locator("[data-bar-summary]")
        expect(summary.locator(".unscored")).to_contain_text("No score without the scorekeeper")
        expect(summary.locator(".side-total")).to_have_count(0)
        expect(page.locator("#preview")).to_be_empty()
    finally:
        page.context.set_offline(False)
    page.get_by_label("Bob: Distance (km)").fill("350")
    # 700 + 400 + 300 (safe trip) = 1,400 for Ann; Bob 350.
    expect(page.locator("[data-bar-summary]")).to_contain_text("Ann 1,400")
