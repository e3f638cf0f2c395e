"""The hand form never changes what the person chose: "Nobody" stays "Nobody" across a refusal, a
correction, a language switch and the offline queue's copy; and without JavaScript every button
shown does something.

The hand form suggests who completed the trip, who called the extension and the 200s of the side
that completed it, following the distances, until a person chooses (docs/table.md). Each test
makes a choice, has the form refused by the rules, and checks the choice once the form's script has
run on the page that comes back: the bar beside Save leads to the first refusal only after the
script has scored the form, so waiting for that link is waiting for the script.

Refusals are checked by where they stand and by their codes, from the rules (RULES.md §2: a
4-player game goes to exactly 1,000 km, no extension; §7: a 2-player game to 700, or 1,000 once
an extension is called; §8: a trip completed at the target is reported as completed).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.pages.test_hand_entry import NAMES, button, radio, start_game
from tests.pages.test_offline import RETRY, recorded_hands, waiting
from tests.pages.test_pages import add_players, create_table, expect_totals


def nobody(page: Page) -> Locator:
    """ "Nobody" under who completed the trip, in whatever language the page is (the radio: the
    offline queue's plain form, posted after a refusal, holds a hidden field of that name until
    the page it brings replaces this one)."""
    return page.locator("input[type=radio][name=completed][value='']")


def nobody_called(page: Page) -> Locator:
    return page.locator("input[type=radio][name=extension][value='']")


def save(page: Page) -> None:
    page.locator("form.hand-form .save-bar [type=submit]").click()


def expect_scored_by_the_script(page: Page) -> None:
    """Wait until the form's script has scored the form as it stands and found it refused: it has
    then followed the distances, wherever it was free to."""
    expect(page.locator("[data-bar-summary] a.problem")).to_be_visible()


def expect_refused_beside(page: Page, side: int) -> None:
    expect(page.locator(f"#side-{side} .problem").first).to_be_visible()


def four_player_hand_with_nobody(page: Page, server: str, name: str) -> str:
    """A 4-player game whose first hand's form has Team A at 1,000 km (its chip), Team B at
    1,100 km (typed) and "Nobody" chosen for the trip; the scoreboard's URL."""
    start_game(page, server, name, players=4)
    scoreboard = page.url.rsplit("/hands/", 1)[0]
    button(page, "Team A: 1,000 km in all").tap()
    expect(radio(page, "Trip completed by Team A")).to_be_checked()  # suggested
    page.get_by_label("Team B: Distance (km)").fill("1100")
    nobody(page).check()
    return scoreboard


def expect_both_refusals_and_nobody(page: Page) -> None:
    """Team A at the target but not reported completed, Team B beyond it: both refused beside their
    sides, and "Nobody" still chosen once the script has run."""
    expect_scored_by_the_script(page)
    expect(nobody(page)).to_be_checked()
    expect_refused_beside(page, 0)
    expect_refused_beside(page, 1)
    expect(page.locator("#side-0 .problem[data-code=target_reached_not_completed]")).to_have_count(
        1
    )
    expect(page.locator("#side-1 .problem[data-code=distance_over_target]")).to_have_count(1)
    expect(page.locator("[data-bar-suggest]")).not_to_contain_text("Team A")


def test_a_refused_form_keeps_nobody_and_both_refusals(page: Page, live_server: str) -> None:
    scoreboard = four_player_hand_with_nobody(page, live_server, "Nobody stays")
    save(page)
    expect(page.get_by_role("alert").first).to_have_text("The hand was refused")
    expect_both_refusals_and_nobody(page)
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("1100")
    # A second Save is refused again, never recorded as a completed trip.
    save(page)
    expect(page.get_by_role("alert").first).to_have_text("The hand was refused")
    expect_both_refusals_and_nobody(page)
    assert recorded_hands(page, scoreboard) == []


def test_what_the_script_suggested_is_still_a_suggestion_after_a_refusal(
    page: Page, live_server: str
) -> None:
    """Only a person's choices are kept as choices: after a refusal, what the script had suggested
    (the trip, the 0 × 200 km of the side that completed it) still follows the distances."""
    start_game(page, live_server, "Suggestions stay suggestions", players=4)
    button(page, "Team A: 1,000 km in all").tap()
    page.get_by_label("Team B: Distance (km)").fill("1100")
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    expect(radio(page, "Team A: 0 × 200 km")).to_be_checked()
    save(page)
    expect_scored_by_the_script(page)
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    # Team B put right at 1,000 too: two sides at the target, so the form no longer guesses.
    page.get_by_label("Team B: Distance (km)").fill("1000")
    expect(nobody(page)).to_be_checked()
    expect(page.locator("input[name='s0-two_hundreds']:checked")).to_have_count(0)
    # A 200s choice made by hand is the person's, whoever completes the trip.
    radio(page, "Team B: 0 × 200 km").check()
    radio(page, "Trip completed by Team A").check()
    expect(radio(page, "Team B: 0 × 200 km")).to_be_checked()
    # So is a tap on the 0 the form suggested: it stays when another side completes the trip.
    expect(radio(page, "Team A: 0 × 200 km")).to_be_checked()
    radio(page, "Team A: 0 × 200 km").click()
    radio(page, "Trip completed by Team B").check()
    expect(radio(page, "Team A: 0 × 200 km")).to_be_checked()


def test_a_refused_extension_keeps_nobody_called(page: Page, live_server: str) -> None:
    """A 2-player game: Ann at 1,000 km, which the form reads as an extension she called. The
    table says nobody called one: refused (beyond 700 with no extension), and "Nobody" stays."""
    start_game(page, live_server, "No extension", players=2)
    scoreboard = page.url.rsplit("/hands/", 1)[0]
    button(page, "Ann: 1,000 km in all").tap()
    expect(radio(page, "Extension called by Ann")).to_be_checked()  # suggested
    nobody_called(page).check()
    expect(nobody(page)).to_be_checked()  # 1,000 is not the 700 in force without an extension
    save(page)
    expect_scored_by_the_script(page)
    expect(nobody_called(page)).to_be_checked()
    expect(nobody(page)).to_be_checked()
    expect_refused_beside(page, 0)
    save(page)
    expect_scored_by_the_script(page)
    expect(nobody_called(page)).to_be_checked()
    assert recorded_hands(page, scoreboard) == []


def test_a_refused_correction_keeps_nobody(page: Page, live_server: str) -> None:
    scoreboard = four_player_hand_with_nobody(page, live_server, "Correction")
    page.get_by_label("Team B: Distance (km)").fill("300")
    radio(page, "Trip completed by Team A").check()
    save(page)
    # Team A: 1,000 + 400 (trip) + 300 (safe trip: no 200 said) = 1,700; Team B: 300.
    expect_totals(page, "1,700", "300")
    page.get_by_role("link", name="Correct hand 1").click()
    # The hand's answers were recorded: they are the person's, and the distances never move them.
    page.get_by_label("Team A: Distance (km)").fill("900")
    expect_scored_by_the_script(page)
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    nobody(page).check()
    page.get_by_label("Team A: Distance (km)").fill("1000")
    save(page)
    expect_scored_by_the_script(page)
    expect(nobody(page)).to_be_checked()
    expect_refused_beside(page, 0)
    expect(page.locator("#side-0 .problem[data-code=target_reached_not_completed]")).to_have_count(
        1
    )
    assert recorded_hands(page, scoreboard) == [(1, [1000, 300])]
    page.goto(scoreboard)
    expect_totals(page, "1,700", "300")


def test_switching_language_keeps_the_form_and_its_choices(page: Page, live_server: str) -> None:
    scoreboard = four_player_hand_with_nobody(page, live_server, "Bilingual")
    page.locator(".lang").get_by_role("button", name="FR").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("input[name='s1-km']")).to_have_value("1100")
    expect(nobody(page)).to_be_checked()
    save(page)
    expect(page.get_by_role("alert").first).to_have_text("La manche a été refusée")
    expect_both_refusals_and_nobody(page)
    # Switched back on the refused form: everything kept, the refusals said in English.
    page.locator(".lang").get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect_both_refusals_and_nobody(page)
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("1100")
    expect(page.locator("#side-0 .problem").first).to_contain_text("1,000")
    assert recorded_hands(page, scoreboard) == []


def test_the_offline_queues_copy_keeps_nobody(page: Page, live_server: str) -> None:
    scoreboard = four_player_hand_with_nobody(page, live_server, "Queued")
    # Shown again by the server (there and back between the languages), the form's page is the
    # hand as it stood: the next hand's form must still start blank.
    page.locator(".lang").get_by_role("button", name="FR").click()
    page.locator(".lang").get_by_role("button", name="EN").click()
    expect(nobody(page)).to_be_checked()
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    save(page)
    expect(waiting(page)).to_contain_text("1 hand waiting")
    expect(page.get_by_label("Team A: Distance (km)")).to_have_value("")
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("")
    # The form, blank for the next hand, has nothing chosen: it follows the distances again.
    button(page, "Team A: 1,000 km in all").tap()
    expect(radio(page, "Trip completed by Team A")).to_be_checked()
    button(page, "Team A: Clear the distance").tap()
    expect(nobody(page)).to_be_checked()
    page.context.set_offline(False)
    # Sent once back in reach, refused: the form comes back from the queue's copy.
    expect(page.get_by_role("alert").first).to_have_text("The hand was refused", timeout=RETRY)
    expect_both_refusals_and_nobody(page)
    expect(page.get_by_label("Team B: Distance (km)")).to_have_value("1100")
    assert recorded_hands(page, scoreboard) == []


def test_a_delayed_action_stays_with_the_side_it_was_ticked_for(
    page: Page, live_server: str
) -> None:
    """Ticking the delayed action says how the shown side completed the trip: that side stays
    chosen as the distances change, and after a refusal."""
    start_game(page, live_server, "Delayed", players=2)
    button(page, "Ann: 700 km in all").tap()
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    page.get_by_label("Delayed action (completed after the draw pile ran out)").check()
    button(page, "Ann: add 25 km").tap()  # 725 km: beyond the 700 with no extension
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    save(page)
    expect_scored_by_the_script(page)
    expect(radio(page, "Trip completed by Ann")).to_be_checked()
    expect(
        page.get_by_label("Delayed action (completed after the draw pile ran out)")
    ).to_be_checked()
    button(page, "Bob: 700 km in all").tap()
    expect(radio(page, "Trip completed by Ann")).to_be_checked()


@pytest.mark.slow(21)
def test_without_script_every_button_shown_changes_something(
    phone: Callable[..., Page], live_server: str
) -> None:
    """Each visible, enabled button of the hand form (a new hand's, and a correction's whose every
    count of cards is 1, so each − and + can move) is tapped on the form as it opens: the page
    that follows differs. A button that could change nothing is disabled."""
    page = phone(javascript=False)
    create_table(page, live_server, "No script buttons")
    add_players(page, *NAMES[:2])
    page.get_by_role("link", name="New game").click()
    page.locator("select[name=side0]").select_option(label=NAMES[0])
    page.locator("select[name=side1]").select_option(label=NAMES[1])
    page.get_by_role("button", name="Start the game").click()
    scoreboard = page.url
    page.get_by_role("link", name="Enter a hand").click()
    new_hand = page.url
    # Without script, − and + post the form to be shown again with their count moved.
    page.locator("#side-0 details.more summary").click()
    button(page, "Ann: 50 km, one more").click()
    button(page, "Ann: 50 km, one more").click()
    expect(page.get_by_label("Ann: cards of 50 km")).to_have_value("2")
    button(page, "Ann: 50 km, one fewer").click()
    expect(page.get_by_label("Ann: cards of 50 km")).to_have_value("1")
    expect(page.get_by_role("alert")).to_have_count(0)  # shown again, not refused
    assert recorded_hands(page, scoreboard) == []
    for value in ("25", "75", "100", "200"):
        page.get_by_label(f"Ann: cards of {value} km").fill("1")
    page.locator("#side-1 details.more summary").click()
    for value in ("25", "50", "75", "100", "200"):
        page.get_by_label(f"Bob: cards of {value} km").fill("1")
    save(page)
    expect_totals(page, "450", "450")
    correction = scoreboard + "/hands/1"
    # The other language and Save; each side's five + (a new hand: every count at 0, so every −
    # disabled), or its five − and five + (the correction: every count at 1).
    assert each_button_changes_something(page, new_hand) == 2 + 2 * 5
    assert each_button_changes_something(page, correction) == 2 + 2 * 5 * 2


def each_button_changes_something(page: Page, form: str) -> int:
    """Tap each visible, enabled button of ``form`` (opened afresh in English each time, its folds
    open) and check that the page after it differs from the page before; the buttons tapped."""

    def opened() -> Locator:
        page.context.add_cookies([{"name": "lang", "value": "en", "url": form}])
        page.goto(form)
        folded = page.locator("details:not([open]) > summary:visible")
        while folded.count():
            folded.first.click()
        return page.locator("button:visible:enabled")

    def state() -> tuple[str, str | None, list[str], list[str]]:
        fields = page.locator("form.hand-form input:not([type=hidden])").evaluate_all(
            "inputs => inputs.map((i) => `${i.name}=${i.value}:${i.checked}`)"
        )
        return (
            page.url.split("#")[0],  # a stepper's own anchor is no change
            page.locator("html").get_attribute("lang"),
            fields,
            page.locator(".problem, .banner").all_inner_texts(),
        )

    count = opened().count()
    assert count > 0
    for index in range(count):
        target = opened().nth(index)
        name = target.get_attribute("aria-label") or target.inner_text()
        before = state()
        target.click()
        page.wait_for_load_state()
        assert state() != before, f"{name} changed nothing on {form}"
    return count


def test_enter_in_a_field_saves_the_hand(phone: Callable[..., Page], live_server: str) -> None:
    """Enter (a phone's Go key) submits a form with its first submit button in the page: on the
    hand form that is Save's stand-in, never the language switch or a stepper, with or without
    script."""
    for javascript in (True, False):
        page = phone(javascript=javascript)
        start_game(page, live_server, f"Enter {javascript}", players=2)
        page.get_by_label("Ann: Distance (km)").fill("300")
        page.get_by_label("Bob: Distance (km)").fill("75")
        page.get_by_label("Bob: Distance (km)").press("Enter")
        expect_totals(page, "300", "75")
        expect(page.locator("html")).to_have_attribute("lang", "en")
