"""The pages in headless chromium at a 360×640 phone viewport, as players use them."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from tests.pages.conftest import PHONE

SAFE_WIN = {"100": "7"}  # 700 km with no 200: trip, safe trip


def create_table(page: Page, server: str, name: str = "Chez Zoé") -> str:
    page.goto(server + "/")
    page.get_by_label("Table name").fill(name)
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    return page.url


def add_players(page: Page, *names: str) -> None:
    for name in names:
        page.get_by_label("Add a player").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(player_named(page, name)).to_be_attached()  # the page came back with the player


def player_named(page: Page, name: str) -> Locator:
    """Where a table's page lists ``name``, or a new-game page offers it for a seat."""
    exactly = re.compile(f"^{re.escape(name)}$")
    return page.locator(".chips li, select option").filter(has_text=exactly).first


def start_two_player_game(page: Page, first: str, second: str) -> None:
    page.get_by_role("link", name="New game").click()
    selects = page.locator("select[name^=side]")
    selects.nth(0).select_option(label=first)
    selects.nth(1).select_option(label=second)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".totals")).to_be_visible()


def open_cards(page: Page, side: int) -> None:
    """Unfold a side's cards by value (folded away under the km total)."""
    more = page.locator(f"#side-{side} details.more")
    if more.get_attribute("open") is None:
        more.locator("summary").click()


def open_claims(page: Page, side: int) -> None:
    """Unfold a side's claims (folded apart from its cards by value)."""
    claims = page.locator(f"#side-{side} details.claims")
    if claims.get_attribute("open") is None:
        claims.locator("summary").click()


def enter_hand(
    page: Page,
    cards: list[dict[str, str]],
    completed: int | None = None,
    claims: dict[int, str] | None = None,
) -> None:
    page.get_by_role("link", name="Enter a hand").click()
    for side, counts in enumerate(cards):
        if counts:
            open_cards(page, side)
        for value, count in counts.items():
            page.locator(f"input[name='s{side}-d{value}']").fill(count)
    if completed is not None:
        page.locator(f"input[name=completed][value='{completed}']").check()
    for side, claim in (claims or {}).items():
        open_claims(page, side)
        page.locator(f"input[name='s{side}-claim-{claim}']").check()
    page.get_by_role("button", name="Save the hand").click()


def expect_totals(page: Page, *values: str) -> None:
    """Wait for the scoreboard to show these totals, as a reload or a poll brings them."""
    expect(page.locator(".totals .total")).to_have_text(list(values))


def test_a_game_from_table_to_game_over(page: Page, live_server: str) -> None:
    create_table(page, live_server)
    add_players(page, "Ann", "<b>Bob</b>")
    expect(page.locator(".chips")).to_contain_text("<b>Bob</b>")  # shown as text, not markup
    expect(page.locator(".chips b")).to_have_count(0)
    start_two_player_game(page, "Ann", "<b>Bob</b>")

    # A refused claim: Ann claims a shutout while Bob travelled 75 km; nothing is saved.
    enter_hand(page, [SAFE_WIN, {"75": "1"}], completed=0, claims={0: "shutout"})
    refusal = page.locator("#side-0 .problem")
    expect(refusal).to_have_attribute("data-code", "claim_not_earned")
    expect(refusal).to_have_attribute("data-path", "/sides/0/claims/0")
    expect(refusal).to_contain_text("<b>Bob</b>")  # a name is text, never markup
    page.get_by_role("link", name="Back to the game").click()
    expect_totals(page, "0", "0")

    # Ann completes with no 200 and Bob at 0 km: 700 + 400 + 300 + 500 = 1,900.
    enter_hand(page, [SAFE_WIN, {}], completed=0, claims={0: "shutout"})
    expect_totals(page, "1,900", "0")
    enter_hand(page, [{"100": "3"}, {"50": "2"}])
    expect_totals(page, "2,200", "100")

    # Correct hand 2: Bob had 150 km, not 100.
    page.locator("table.hands tbody").nth(1).get_by_role("link", name="Correct").click()
    page.locator("input[name='s1-d50']").fill("3")
    page.get_by_role("button", name="Save the correction").click()
    expect_totals(page, "2,200", "150")

    # Undo it, with a confirmation.
    page.get_by_role("link", name="Undo the last hand").click()
    page.get_by_role("button", name="Undo").click()
    expect_totals(page, "1,900", "0")

    enter_hand(page, [SAFE_WIN, {}], completed=0)
    expect_totals(page, "3,800", "0")
    enter_hand(page, [SAFE_WIN, {}], completed=0)
    expect(page.locator(".banner.win")).to_contain_text("victory for Ann with 5,700 points")
    expect(page.get_by_role("link", name="Enter a hand")).to_have_count(0)


def test_live_preview_scores_before_saving(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Preview")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="Enter a hand").click()
    open_cards(page, 0)
    stepper = page.locator("#side-0 .stepper").filter(has_text="100")
    more = stepper.get_by_role("button", name="one more")
    more.click()
    more.click()
    expect(page.locator("[data-preview-total='0']")).to_have_text("200")
    page.locator("input[name='s1-km']").fill("30")
    expect(page.locator("#side-1 .problem[data-code=distance_not_multiple_of_25]")).to_be_visible()


def test_a_second_phone_sees_the_hand_appear(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    table_url = create_table(page, live_server, "Two phones")
    add_players(page, "Ann", "Bob")
    share = page.locator("input.share-link").input_value()
    start_two_player_game(page, "Ann", "Bob")
    board = page.url
    second = phone()
    second.goto(share)
    expect(second).to_have_url(table_url)
    second.goto(board)
    expect_totals(second, "0", "0")
    enter_hand(page, [{"100": "4"}, {"25": "1"}])
    expect(second.locator(".totals .total").first).to_have_text("400", timeout=10_000)


def test_the_share_link_keeps_its_key_out_of_every_request(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    table_url = create_table(page, live_server, "Fragment")
    share = page.locator("input.share-link").input_value()
    key = share.rpartition("#")[2]
    assert key.startswith("mb_")
    second = phone()
    sent: list[tuple[str, str]] = []
    second.on("request", lambda request: sent.append((request.url, request.post_data or "")))
    second.goto(share)
    expect(second).to_have_url(table_url)
    assert [url for url, _ in sent if key in url] == []  # never in an address a log may keep
    assert [url for url, body in sent if key in body] == [share.partition("#")[0]]  # a POST


def test_a_share_link_pasted_without_javascript_joins_the_table(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    table_url = create_table(page, live_server, "Pasted")
    share = page.locator("input.share-link").input_value()
    second = phone(javascript=False)
    second.goto(share)
    second.get_by_label("Share link or table key").fill(share)
    second.get_by_role("button", name="Join").click()
    expect(second).to_have_url(table_url)


def test_french_switch(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Français")
    page.get_by_role("link", name="FR", exact=True).click()
    expect(page.get_by_role("link", name="Nouvelle partie")).to_be_visible()


def test_the_new_game_forms_keep_their_choices_in_the_other_language(
    page: Page, live_server: str
) -> None:
    """On a form being filled in, the switch shows it again in the other language with every
    choice kept; the language in use is said, not offered as a link."""
    create_table(page, live_server, "Bilingue")
    add_players(page, "Ann", "Bob", "Cat", "Dan")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="4", exact=True).click()
    for side, names in enumerate((("Ann", "Cat"), ("Bob", "Dan"))):
        for seat, name in enumerate(names):
            page.locator(f"select[name=side{side}]").nth(seat).select_option(label=name)
    page.locator("input[name=side0-name]").fill("Les As")
    page.get_by_text("Rules variants").click()
    page.locator("select[name=deck]").select_option("reduced")
    expect(page.locator(".lang [aria-current]")).to_have_text("EN")
    expect(page.locator(".lang").get_by_role("link")).to_have_count(0)
    page.locator(".lang").get_by_role("button", name="FR").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("button", name="4", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("select[name=side1]").nth(1).locator("option:checked")).to_have_text("Dan")
    expect(page.locator("input[name=side0-name]")).to_have_value("Les As")
    expect(page.locator("select[name=deck]")).to_have_value("reduced")
    # Enter in the team's name starts the game, as the form's own button does (the first button
    # of the form is the seat count's 2, which would otherwise have been pressed).
    page.locator("input[name=side0-name]").press("Enter")
    expect(page.locator(".totals")).to_contain_text("Les As")

    page.goto(page.url.rsplit("/games/", 1)[0] + "/virtual/new")
    page.locator("select[name=seat1]").select_option(label="Ordinateur (Club)")
    page.locator(".lang").get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("select[name=seat1] option:checked")).to_have_text("Computer (Club)")


def test_touch_targets_are_at_least_44_px(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Targets")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="Enter a hand").click()
    expect(page.locator("form.hand-form")).to_be_visible()
    page.wait_for_load_state()  # the style sheet too: sizes are measured with it
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a.button, input, select, label.toggle')]
              .filter(e => e.offsetParent !== null && !['checkbox', 'radio'].includes(e.type))
              .filter(e => e.getBoundingClientRect().height < 44)
              .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert small == []
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('input[type=checkbox], input[type=radio]')]
              .filter(e => e.closest('label').offsetParent !== null)
              .map(e => e.closest('label').getBoundingClientRect().height)"""
    )
    assert min(boxes) >= 44


def test_pages_work_without_javascript(phone: Callable[..., Page], live_server: str) -> None:
    page = phone(javascript=False)
    create_table(page, live_server, "No script")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    enter_hand(page, [SAFE_WIN, {"25": "2"}], completed=0)
    expect_totals(page, "1,400", "50")


def test_page_weight_and_no_request_leaves_the_host(page: Page, live_server: str) -> None:
    sizes: dict[str, int] = {}
    foreign: list[str] = []

    def seen(response):  # type: ignore[no-untyped-def]
        if not response.url.startswith(live_server):
            foreign.append(response.url)
        body = response.body() if response.status == 200 else b""
        sizes[response.url] = len(body)

    page.on("response", seen)
    create_table(page, live_server, "Weight")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    sizes.clear()
    page.get_by_role("link", name="Enter a hand").click()
    expect(page.locator("form.hand-form")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert foreign == []
    assert sum(sizes.values()) < 100_000, sizes
    assert re.search(r"/static/app\.css", " ".join(sizes))


def test_three_player_game_with_an_extension(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Three")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="3", exact=True).click()
    expect(page.get_by_role("button", name="3", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    add_players(page, "Ann", "Bob", "Cat")  # from the new-game page itself
    expect(page.locator("select[name^=side]")).to_have_count(3)
    selects = page.locator("select[name^=side]")
    for index, name in enumerate(("Ann", "Bob", "Cat")):
        selects.nth(index).select_option(label=name)
    page.get_by_role("button", name="Start the game").click()
    # Ann calls the extension at 700 and ends at 925; Bob completes 1,000 with one 200;
    # Cat 300 km (RULES.md §9): Ann 925; Bob 1,000 + 400 + 200 = 1,600; Cat 300 + 200 = 500.
    page.get_by_role("link", name="Enter a hand").click()
    hand = ({"200": "2", "100": "5", "25": "1"}, {"200": "1", "100": "5", "75": "4"}, {"50": "6"})
    for side, counts in enumerate(hand):
        open_cards(page, side)
        for value, count in counts.items():
            page.locator(f"input[name='s{side}-d{value}']").fill(count)
    page.locator("input[name=completed][value='1']").check()
    page.locator("input[name=extension][value='0']").check()
    page.get_by_role("button", name="Save the hand").click()
    expect_totals(page, "925", "1,600", "500")


def test_a_correction_from_a_stale_form_overwrites_nothing(
    page: Page, phone: Callable[..., Page], live_server: str
) -> None:
    create_table(page, live_server, "Stale")
    add_players(page, "Ann", "Bob")
    share = page.locator("input.share-link").input_value()
    start_two_player_game(page, "Ann", "Bob")
    enter_hand(page, [{"100": "2"}, {"100": "1"}])
    correct_url = (
        page.locator("table.hands").get_by_role("link", name="Correct").get_attribute("href")
    )
    second = phone()
    second.goto(share)
    expect(second).to_have_url(re.compile(r"/t/\d+$"))  # the join page posted the link's key
    second.goto(live_server + correct_url)
    page.goto(live_server + correct_url)
    page.locator("input[name='s0-d100']").fill("3")
    page.get_by_role("button", name="Save the correction").click()
    expect_totals(page, "300", "100")  # saved before the second phone tries
    second.locator("input[name='s0-d100']").fill("4")
    second.get_by_role("button", name="Save the correction").click()
    expect(second.locator(".banner.warn")).to_contain_text("changed on another phone")
    expect(second.locator("input[name='s0-d100']")).to_have_value("3")
    page.reload()
    expect_totals(page, "300", "100")


def test_a_double_tapped_save_records_the_hand_once(page: Page, live_server: str) -> None:
    create_table(page, live_server, "Double tap")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    board = page.url
    page.get_by_role("link", name="Enter a hand").click()
    page.locator("input[name='s0-km']").fill("200")
    form = page.locator("form.hand-form")
    data = {name: value for name, value in form.evaluate("f => [...new FormData(f).entries()]")}
    action = form.get_attribute("action")
    for _ in range(2):
        page.request.post(live_server + action, form=data)
    page.goto(board)
    expect(page.locator("table.hands tbody")).to_have_count(1)
    expect_totals(page, "200", "0")


def test_the_language_switch_only_goes_back_within_the_site(page: Page, live_server: str) -> None:
    response = page.request.get(
        live_server + "/language/fr",
        headers={"Referer": "https://example.org/x"},
        max_redirects=0,
    )
    assert response.headers["location"] == "/"


def test_odd_numbers_in_forms_are_refused_not_crashed(page: Page, live_server: str) -> None:
    table_url = create_table(page, live_server, "Odd")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="Enter a hand").click()
    form = page.locator("form.hand-form")
    data = {name: value for name, value in form.evaluate("f => [...new FormData(f).entries()]")}
    response = page.request.post(
        live_server + form.get_attribute("action"),
        form={**data, "s0-km": "²", "extension": "²", "number": "9" * 5000},
    )
    assert response.status == 422
    # A seat count that is no number falls back to two seats.
    page.goto(table_url + "/games/new?players=²")
    expect(page.locator("select[name^=side]")).to_have_count(2)


def test_every_page_keeps_to_the_content_security_policy(page: Page, live_server: str) -> None:
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    home = page.goto(live_server + "/")
    assert home is not None and "script-src 'self'" in home.headers["content-security-policy"]
    create_table(page, live_server, "Policy")
    page.locator("details.share summary").click()
    expect(page.locator(".qr svg")).to_be_visible()
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="Enter a hand").click()
    page.locator("input[name='s0-km']").fill("300")
    expect(page.locator("[data-preview-total='0']")).to_have_text("300")  # the script ran
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator(".chart svg polyline")).to_have_count(2)
    page.get_by_role("link", name="FR", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("link", name="EN", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(page.url.rsplit("/games/", 1)[0] + "/history")
    page.get_by_role("link", name="Policy").click()
    page.get_by_role("link", name="Play in the app").click()
    page.locator("select[name=seat1]").select_option(label="Computer (Club)")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".hand .card").first).to_be_visible()
    page.wait_for_load_state("load")
    assert refused == []


def test_going_back_after_saving_a_hand_does_not_bring_it_back(
    page: Page, live_server: str
) -> None:
    """Back from the scoreboard shows the next hand's empty form, not the hand just saved under
    the next number (which Save would record a second time)."""
    create_table(page, live_server, "Back")
    add_players(page, "Ann", "Bob")
    start_two_player_game(page, "Ann", "Bob")
    page.get_by_role("link", name="Enter a hand").click()
    page.locator("input[name='s0-km']").fill("300")
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator(".chart svg polyline")).to_have_count(2)
    page.go_back()
    expect(page.locator("form.hand-form input[name='number']")).to_have_value("2")
    expect(page.locator("input[name='s0-km']")).to_have_value("")


def test_a_long_name_wraps_instead_of_widening_the_page(page: Page, live_server: str) -> None:
    create_table(page, live_server, "W" * 80)
    add_players(page, "x" * 80)
    expect(page.get_by_text("x" * 80)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
