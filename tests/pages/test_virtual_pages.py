"""A virtual game from the phone pages, in headless chromium at 360×640: deal against computer
players and play a whole hand by tapping cards. The app serves from a thread of this process,
so each test deals its games from the seeds 1, 2, 3... and plays the same hands on every run."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.services import virtual
from tests.pages.conftest import PHONE
from tests.pages.test_pages import add_players, create_table

MOVES_IN_A_HAND = 200
"""More taps than one seat can make in a hand: the loop below always ends on the hand's end."""

NEXT_MOVE = "form.move input[name=number]"
"""The number a seat's page will play its move under: it changes whenever a move is played."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal this test's virtual games from the seeds 1, 2, 3..., not from the system's entropy."""
    numbers = itertools.count(1)
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: next(numbers))


def deal(page: Page, server: str, seats: list[str], table: str = "Virtual") -> None:
    create_table(page, server, table)
    add_players(page, *(label for label in seats if not label.startswith("Computer")))
    page.get_by_role("link", name="Play in the app").click()
    if len(seats) != 2:
        page.get_by_role("button", name=str(len(seats)), exact=True).click()
        expect(page.locator("select[name^=seat]")).to_have_count(len(seats))
    for seat, label in enumerate(seats):
        page.locator(f"select[name=seat{seat}]").select_option(label=label)
    page.get_by_role("button", name="Deal").click()
    # One player: that seat's page; several: the page of their links.
    expect(page.locator("#play").or_(page.locator(".seat-links"))).to_be_visible()


def play(page: Page, button: Locator) -> None:
    """Tap a move's button and wait for the page that follows it (the move number moves on)."""
    number = page.locator(NEXT_MOVE).first.input_value()
    button.click()
    expect(page.locator(NEXT_MOVE).first).not_to_have_value(number)
    expect(page.locator(".events")).to_be_attached()  # the page is there down to its end


def tap_card(page: Page, card: Locator) -> Locator:
    """Tap a card of the hand (a ``.hand-card``) to choose it; its moves, offered under the
    hand."""
    card.locator(".card-pick").click()
    expect(card.locator(".card-pick")).to_have_attribute("aria-pressed", "true")
    return page.locator(".card-panel")


def take_a_turn(page: Page) -> None:
    """What a cautious player does: lay a coup-fourré, stop at 700, draw when a hazard it cannot
    answer was played on it, else play the first card that can be played, else discard the
    first card (a card is tapped, then its move)."""
    for name in ("Coup-fourré!", "Stop at 700", "Draw", "Go on", "Let it go"):
        button = page.locator(".prompt").get_by_role("button", name=name)
        if button.count():
            play(page, button.first)
            return
    playable = page.locator(".hand-card").filter(has=page.locator(".card-moves button.primary"))
    if playable.count():
        play(page, tap_card(page, playable.first).locator("button.primary").first)
    else:
        panel = tap_card(page, page.locator(".hand-card[data-moves]").first)
        play(page, panel.get_by_role("button", name="Discard"))


@pytest.mark.slow(29)
def test_a_whole_hand_against_a_computer(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: 3)
    deal(page, live_server, ["Ann", "Computer (Club)"])
    expect(page.locator(".hand .card")).to_have_count(7)  # its draw made, seat 1 having played
    assert page.locator(".hand .card .name").first.text_content()
    expect(page.get_by_text("Your move")).to_be_visible()
    expect(page.locator(".events li").first).to_contain_text("Computer 2 (Club)")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    for _ in range(MOVES_IN_A_HAND):
        if page.locator("#hand-over").count():
            break
        take_a_turn(page)
    expect(page.locator("#hand-over")).to_contain_text("Hand 1")
    totals = page.locator(".hand-over .total td").all_inner_texts()
    assert len(totals) == 2 and any(total != "0" for total in totals)
    expect(page.locator(".totals .total")).to_have_text(totals)  # the first hand's, so far
    # The next hand is dealt: its own piles and cards come first, the last hand's breakdown after.
    expect(page.locator(".tableau.own")).to_be_in_viewport()
    expect(page.locator(".hand .card").last).to_be_in_viewport()


def test_two_phones_play_their_own_seats(phone: Callable[..., Page], live_server: str) -> None:
    page = phone()
    deal(page, live_server, ["Ann", "Bob"], table="Two phones")
    expect(page.locator(".seat-links input")).to_have_count(2)
    expect(page.locator(".seat-links summary")).to_have_text(["Seat 1: Ann", "Seat 2: Bob"])
    links = page.locator(".seat-links input").evaluate_all("inputs => inputs.map(i => i.value)")
    bob = phone()
    bob.goto(links[1])
    page.goto(links[0])
    # Seat 1, Bob, left of the dealer, plays first: he has drawn, Ann has her six cards.
    expect(bob.locator(".hand .card")).to_have_count(7)
    expect(page.locator(".hand .card")).to_have_count(6)
    expect(page.get_by_text("Waiting for")).to_be_visible()
    tap_card(bob, bob.locator(".hand-card").first).get_by_role("button", name="Discard").click()
    expect(bob.get_by_text("Waiting for")).to_be_visible()
    expect(page.get_by_text("Your move")).to_be_visible(timeout=10_000)  # polled, no reload
    expect(page.locator(".events li").first).to_contain_text("discarded")


def test_a_stale_page_plays_nothing(phone: Callable[..., Page], live_server: str) -> None:
    first = phone()
    deal(first, live_server, ["Ann", "Computer (Beginner)"], table="Stale")
    # The same seat on a second device, without scripts: its page does not refresh itself.
    second = phone(javascript=False)
    second.goto(first.url)
    discards = "form.move:has(input[name=move][value=discard])"
    played = first.locator(".hand-card").first.get_attribute("data-card")
    panel = tap_card(first, first.locator(".hand-card").first)
    play(first, panel.get_by_role("button", name="Discard"))
    expect(first.get_by_text("Your move")).to_be_visible()
    number = first.locator(NEXT_MOVE).first.input_value()
    events = first.locator(".events li").all_inner_texts()
    other = second.locator(discards).filter(has_not=second.locator(f"input[value={played}]"))
    other.first.get_by_role("button").click()  # another move under the same, now old, number
    expect(second.get_by_role("alert")).to_contain_text("moved on")
    first.reload()
    expect(first.locator(NEXT_MOVE).first).to_have_value(number)  # nothing was played since
    expect(first.locator(".events li")).to_have_text(events)


def test_a_lost_seat_link_is_issued_again_and_the_old_one_is_refused_at_once(
    phone: Callable[..., Page], live_server: str
) -> None:
    """Two browser contexts: the table's phone, which dealt, and Bob's lost phone, still open
    on his seat. The table's phone issues seat 2's link again: the old phone's page says its
    link is no longer valid without a reload, and the new link opens the seat where it stands."""
    table = phone()
    deal(table, live_server, ["Ann", "Bob"], table="Lost link")
    links = table.locator(".seat-links input").evaluate_all("inputs => inputs.map(i => i.value)")
    lost = phone()
    lost.goto(links[1])
    expect(lost.get_by_text("Your move")).to_be_visible()
    number = lost.locator(NEXT_MOVE).first.input_value()
    table.goto(re.sub(r"/virtual/(\d+)/links$", r"/games/\1", table.url))
    table.get_by_role("link", name="Seats and links").click()
    table.get_by_role("button", name="New link for seat 2").click()
    fresh = table.locator(".seat-links input")
    expect(fresh).to_have_count(2)  # the deal's two links, seat 2's replaced
    new_links = fresh.evaluate_all("inputs => inputs.map(i => i.value)")
    assert new_links[0] == links[0] and new_links[1] != links[1]
    expect(lost.get_by_text("This seat's link is not valid")).to_be_visible(timeout=10_000)
    lost.goto(links[1])
    expect(lost.get_by_text("This seat's link is not valid")).to_be_visible()
    table.goto(new_links[1])
    expect(table.get_by_text("Your move")).to_be_visible()
    expect(table.locator(NEXT_MOVE).first).to_have_value(number)  # the game stood still
    table.go_back()
    table.goto(table.url.replace("/links", "/seats") + "?lang=fr")
    expect(table.get_by_role("button", name="Nouveau lien pour la place 2")).to_be_visible()
    assert table.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.slow(32)
def test_an_absent_player_s_seat_goes_to_a_computer_and_back(
    phone: Callable[..., Page], live_server: str
) -> None:
    """Bob leaves: the table's phone hands his seat to a computer, which plays at once; Ann
    plays hand 1 against it and the scoreboard says who played Bob's seat in that hand. Bob,
    back, takes his seat back from his own link and plays it again."""
    table = phone()
    deal(table, live_server, ["Ann", "Bob"], table="Stand-in")
    links = table.locator(".seat-links input").evaluate_all("inputs => inputs.map(i => i.value)")
    scoreboard = re.sub(r"/virtual/(\d+)/links$", r"/games/\1", table.url)
    ann = phone()
    ann.goto(links[0])
    expect(ann.get_by_text("Waiting for Bob")).to_be_visible()
    table.goto(scoreboard)
    table.get_by_role("link", name="Seats and links").click()
    table.locator("li[data-seat='1'] select").select_option(label="Novice")
    table.get_by_role("button", name="Hand seat 2 to a computer").click()
    expect(table.get_by_text("A computer (Novice) plays for Bob.")).to_be_visible()
    expect(ann.get_by_text("Your move")).to_be_visible(timeout=10_000)  # it played for Bob
    for _ in range(MOVES_IN_A_HAND):
        if ann.locator("#hand-over").count():
            break
        take_a_turn(ann)
    expect(ann.locator("#hand-over")).to_contain_text("Hand 1")
    table.goto(scoreboard)
    expect(table.locator("tr.stand-in")).to_have_text("A computer (Novice) played for Bob.")
    bob = phone()
    bob.goto(links[1])
    expect(bob.get_by_text("A computer (Novice) is playing your seat")).to_be_visible()
    bob.get_by_role("button", name="Take my seat back").click()
    expect(bob.locator(".stand-in")).to_have_count(0)
    # Hand 2 opens on Ann's move; then the game waits for Bob himself, no computer in his place.
    expect(ann.get_by_text("Your move")).to_be_visible(timeout=10_000)
    panel = tap_card(ann, ann.locator(".hand-card[data-moves]").first)
    panel.get_by_role("button", name="Discard").click()
    expect(ann.get_by_text("Waiting for Bob")).to_be_visible()
    expect(bob.get_by_text("Your move")).to_be_visible(timeout=10_000)
    tap_card(bob, bob.locator(".hand-card[data-moves]").first).get_by_role(
        "button", name="Discard"
    ).click()
    expect(bob.get_by_text("Waiting for Ann")).to_be_visible()
    table.goto(scoreboard + "?lang=fr")
    expect(table.locator("tr.stand-in")).to_have_text("Un ordinateur (Novice) a joué pour Bob.")
    assert table.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_rematch_deals_the_same_seats_again(phone: Callable[..., Page], live_server: str) -> None:
    """Once a virtual game has ended (here abandoned), one tap deals it again: the same players
    and computers in the same seats, new links; a second tap leads to the same new game."""
    table = phone()
    deal(table, live_server, ["Ann", "Computer (Novice)", "Bob", "Computer (Beginner)"], "Again")
    old_links = table.locator(".seat-links input").evaluate_all(
        "inputs => inputs.map(i => i.value)"
    )
    table.goto(re.sub(r"/virtual/(\d+)/links$", r"/games/\1", table.url))
    title = table.locator("h1").inner_text()
    expect(table.get_by_role("button", name="Rematch")).to_have_count(0)  # not while in play
    table.get_by_role("link", name="Abandon the game").click()
    table.get_by_role("button", name="Abandon").click()
    expect(
        table.get_by_text("Same seats, same computers, same variants, a new deal.")
    ).to_be_visible()
    table.get_by_role("button", name="Rematch").click()
    links = table.locator(".seat-links input")
    expect(links).to_have_count(2)
    new_links = links.evaluate_all("inputs => inputs.map(i => i.value)")
    assert set(new_links).isdisjoint(old_links)
    rematch = table.url
    table.go_back()
    table.get_by_role("button", name="Rematch").click()
    expect(table).to_have_url(rematch)  # the same new game: no third one
    assert links.evaluate_all("inputs => inputs.map(i => i.value)") == new_links
    table.goto(re.sub(r"/virtual/(\d+)/links$", r"/games/\1", rematch))
    expect(table.locator("h1")).to_have_text(title)  # the same sides, seat by seat
    ann = phone()
    ann.goto(new_links[0])
    expect(ann.locator(".hand .card")).to_have_count(6)
    table.goto(re.sub(r"/games/.*$", "", table.url))
    expect(table.locator("a.row-link")).to_have_count(2)  # two games on the table


def test_the_coup_fourre_window_closes_by_itself(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a window (2 s here) a hazard on the player's side shows the same prompt whether or
    not the player holds the safety, with no button to let the chance go: the window closes by
    itself, and the page moves on without a tap."""
    monkeypatch.setattr(
        virtual.lifecycle, "new_seed", lambda: 7
    )  # the deal puts hazards on the player
    monkeypatch.setattr(virtual.moves, "chance_window", lambda: 2.0)
    deal(page, live_server, ["Ann", "Computer (Club)"], table="Window")
    window = page.locator(".prompt .window")
    for _ in range(MOVES_IN_A_HAND):
        if window.count() or page.locator("#hand-over").count():
            break
        holder = page.locator(".prompt").get_by_role("button", name="Coup-fourré!")
        playable = page.locator(".hand-card").filter(has=page.locator(".card-moves button.primary"))
        with page.expect_navigation():  # the move's answer: a window, or the next move
            if holder.count():
                holder.click()
            elif playable.count():
                tap_card(page, playable.first).locator("button.primary").first.click()
            else:
                panel = tap_card(page, page.locator(".hand-card[data-moves]").first)
                panel.get_by_role("button", name="Discard").click()
    expect(window).to_have_text("The chance closes by itself in a few seconds.")
    prompt = page.locator(".prompt")
    expect(prompt).to_contain_text("Attack on your side")
    expect(prompt.get_by_role("button", name=re.compile("Draw|Go on|Let it go"))).to_have_count(0)
    expect(page).not_to_have_title(re.compile("Your turn"))  # nothing to do: no buzz either
    expect(window).to_have_count(0, timeout=10_000)  # closed by itself, polled, no tap
    expect(page.locator(".events li").first).to_contain_text("Ann")


RECORD_VIBRATIONS = """
    navigator.vibrate = (pattern) => {
      (window.buzzes = window.buzzes || []).push(pattern);
      return true;
    };
"""
"""Chromium headless does not buzz: the page's calls to navigator.vibrate are kept instead."""


def test_your_turn_shows_in_the_title_and_buzzes(
    phone: Callable[..., Page], live_server: str
) -> None:
    """The tab's title says whose turn it is, so a phone showing another tab or app tells its
    player; the turn arriving (polled, no reload) buzzes once where navigator.vibrate exists."""
    page = phone()
    deal(page, live_server, ["Ann", "Bob"], table="Your turn")
    links = page.locator(".seat-links input").evaluate_all("inputs => inputs.map(i => i.value)")
    bob = phone()
    bob.goto(links[1])
    page.add_init_script(RECORD_VIBRATIONS)
    page.goto(links[0])
    expect(bob).to_have_title(re.compile(r"^Your turn"))
    expect(page.get_by_text("Waiting for")).to_be_visible()
    expect(page).not_to_have_title(re.compile("Your turn"))
    assert page.evaluate("window.buzzes || []") == []
    tap_card(bob, bob.locator(".hand-card").first).get_by_role("button", name="Discard").click()
    expect(bob.get_by_text("Waiting for")).to_be_visible()
    expect(bob).not_to_have_title(re.compile("Your turn"))
    expect(page).to_have_title(re.compile(r"^Your turn"), timeout=10_000)  # polled, no reload
    expect(page.get_by_text("Your move")).to_be_visible()
    assert page.evaluate("window.buzzes") == [[200, 100, 200]]
    page.goto(links[0] + "?lang=fr")
    expect(page).to_have_title(re.compile(r"^À vous de jouer"))


def test_a_phone_without_vibration_still_shows_the_turn_in_its_title(
    phone: Callable[..., Page], live_server: str
) -> None:
    page = phone()
    deal(page, live_server, ["Ann", "Bob"], table="No buzz")
    links = page.locator(".seat-links input").evaluate_all("inputs => inputs.map(i => i.value)")
    bob = phone()
    bob.goto(links[1])
    page.add_init_script("delete Navigator.prototype.vibrate;")
    page.goto(links[0])
    expect(page.get_by_text("Waiting for")).to_be_visible()
    tap_card(bob, bob.locator(".hand-card").first).get_by_role("button", name="Discard").click()
    expect(page).to_have_title(re.compile(r"^Your turn"), timeout=10_000)
    expect(page.locator(".hand-card .card-pick").first).to_be_visible()  # play.js still ran


def test_the_virtual_pages_in_french(page: Page, live_server: str) -> None:
    deal(page, live_server, ["Ann", "Computer (Novice)"], table="En français")
    page.get_by_role("link", name="FR", exact=True).click()
    expect(page.get_by_role("heading", name="Votre main")).to_be_visible()
    panel = tap_card(page, page.locator(".hand-card").first)
    expect(panel.get_by_role("button", name="Défausser")).to_be_visible()


LABELS = {
    "play": re.compile(r"^(Play|On .+)$"),
    "discard": re.compile(r"^Discard$"),
    "coup_fourre": re.compile(r"^Coup-fourré!$"),
    "pass": re.compile(r"^(Draw|Let it go|Go on)$"),
    "call_extension": re.compile(r"^Extend to 1,000$"),
    "decline_extension": re.compile(r"^Stop at 700$"),
}
"""What the button of each move may say (RULES.md's words for the move it sends)."""


def check_every_button_says_what_it_sends(page: Page) -> set[str]:
    """Each move form's button against the move its hidden fields send; the moves seen."""
    seen = set()
    forms = page.locator("form.move")
    for number in range(forms.count()):
        form = forms.nth(number)
        move = form.locator("input[name=move]").get_attribute("value")
        assert move in LABELS
        seen.add(move)
        button = form.locator("button")  # a card's own buttons are hidden until it is tapped
        expect(button).to_have_text(LABELS[move])
        if move == "play" and form.locator("input[name=target]").count():
            expect(button).to_have_text(re.compile(r"^On "))
    return seen


@pytest.mark.slow(25)
def test_every_button_says_what_it_sends(
    page: Page, live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole hand against a computer on a known deal, every button of every page checked;
    the deal puts hazards on the player, so the coup-fourré prompt is met too."""
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: 7)
    deal(page, live_server, ["Ann", "Computer (Club)"], table="Labels")
    seen: set[str] = set()
    chances = 0
    for _ in range(MOVES_IN_A_HAND):
        if page.locator("#hand-over").count():
            break
        expect(page.locator("form.move").first).to_be_attached()
        seen |= check_every_button_says_what_it_sends(page)
        chances += page.get_by_text("Attack on your side").count()
        take_a_turn(page)
    expect(page.locator("#hand-over")).to_be_visible()
    assert {"play", "discard", "pass"} <= seen
    assert chances > 0


def test_reloading_the_seat_links_deals_no_second_game(page: Page, live_server: str) -> None:
    deal(page, live_server, ["Ann", "Bob"], table="Reload")
    links = page.locator(".seat-links input")
    expect(links).to_have_count(2)
    first = links.evaluate_all("inputs => inputs.map(i => i.value)")
    page.reload()
    expect(links).to_have_count(2)
    assert links.evaluate_all("inputs => inputs.map(i => i.value)") == first
    page.goto(live_server + "/")
    page.get_by_role("link", name="Reload").click()
    expect(page.locator("a.row-link")).to_have_count(1)  # one game on the table


def api_hint(page: Page, server: str) -> dict[str, str]:
    """The API's hint for the seat whose page this is (its token is in the page's address), as
    the fields of a move form would hold it."""
    token = page.url.split("/play/")[1].split("?")[0]
    url = page.locator(".hint-ask").get_attribute("data-hint")
    response = page.request.get(server + str(url), headers={"Authorization": f"Bearer {token}"})
    assert response.status == 200
    return {key: str(value) for key, value in response.json().items()}


def form_fields(form: Locator) -> dict[str, str]:
    inputs = form.locator("input:not([name=csrf_token])")
    return {
        str(inputs.nth(n).get_attribute("name")): inputs.nth(n).input_value()
        for n in range(inputs.count())
    }


def test_a_hint_marks_the_move_the_api_suggests(page: Page, live_server: str) -> None:
    deal(page, live_server, ["Ann", "Computer (Club)"], table="Hint")
    expect(page.get_by_text("Your move")).to_be_visible()
    number = page.locator(NEXT_MOVE).first.input_value()
    page.get_by_role("button", name="Hint").click()
    suggested = page.locator("#play form.move").filter(has=page.locator("button.suggested"))
    expect(suggested).to_have_count(1)
    hint = api_hint(page, live_server)
    label = hint.pop("label")
    assert form_fields(suggested) == hint
    expect(page.locator("#hint-note")).to_have_text(f"Suggested move: {label}")
    expect(suggested.locator("button")).to_have_attribute("aria-describedby", "hint-note")
    expect(page.locator(NEXT_MOVE).first).to_have_value(number)  # nothing was played


def test_the_card_of_a_hint_is_marked_and_its_panel_too(page: Page, live_server: str) -> None:
    deal(page, live_server, ["Ann", "Computer (Club)"], table="Hinted card")
    page.get_by_role("button", name="Hint").click()
    card = page.locator(".hand-card.suggested-card")
    expect(card).to_have_count(1)  # the first seeded deal's hint plays a card (a Roll)
    panel = tap_card(page, card)
    expect(panel.locator("button.suggested")).to_have_count(1)
    expect(page.locator("#hint-note")).to_contain_text(
        str(panel.locator("button.suggested").get_attribute("aria-label"))
    )


def test_no_hint_button_without_javascript(phone: Callable[..., Page], live_server: str) -> None:
    page = phone(javascript=False)
    deal(page, live_server, ["Ann", "Computer (Club)"], table="No script")
    expect(page.get_by_text("Your move")).to_be_visible()
    expect(page.locator(".hint-ask")).to_be_hidden()
