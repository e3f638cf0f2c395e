"""Every screen of the app, built once through the pages themselves, as a list to walk.

The accessibility test and the page-weight benchmark both walk :data:`SCREENS`: a screen added
later to the app is one line here, and both check it. :func:`build` plays a short evening at one
table through the pages (fixed names, fixed hands, virtual games dealt from fixed seeds by the
caller), so each screen shows real data; the screens only look, and change nothing, so they can
be visited in any order and any number of times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Page, expect

from tests.pages.test_pages import enter_hand, open_claims

SAFE_WIN = {"100": "7"}  # 700 km with no 200: trip and safe trip


@dataclass(frozen=True, slots=True)
class Evening:
    """Addresses (paths) of what :func:`build` made: one table and its games."""

    table: str
    running: str
    finished: str
    three_sides: str
    undone: str
    """A team game whose last hand was undone: the scoreboard as the undo leaves it."""
    virtual_board: str
    virtual_links: str
    seat: str
    """A human seat's page of the virtual game (an absolute URL: the seat's secret link)."""
    wall: str
    """The table's wall screen (an absolute URL: a read token is in it)."""


@dataclass(frozen=True, slots=True)
class Screen:
    """One screen: how to reach it from the evening's data, and what marks it as loaded."""

    name: str
    path: Callable[[Evening], str]
    ready: str = "main"
    """A selector that is visible once the screen is fully shown."""
    then: Callable[[Page], None] | None = None
    """What to do on the page once loaded to reach the screen (open a section, send a form)."""
    xfail: str | None = None
    """Why this screen is known to fail the checks (named so the fix knows where to look)."""
    sent: bool = False
    """Whether ``then`` sends a form: the screen is the server's answer, not the page before."""

    def visit(
        self,
        page: Page,
        server: str,
        evening: Evening,
        sending: Callable[[], None] | None = None,
    ) -> None:
        """Go to the screen and wait until it is all there, style sheet included; ``sending`` is
        called once the page a form is sent from has loaded, just before it is sent."""
        path = self.path(evening)
        page.goto(path if path.startswith("http") else server + path)
        if self.then is not None:
            if self.sent and sending is not None:
                page.wait_for_load_state("networkidle")
                sending()
            self.then(page)
        expect(page.locator(self.ready).first).to_be_visible()
        page.wait_for_load_state("load")


def _open_player(page: Page) -> None:
    """The first player's page, from the leaderboard (ids differ between runs)."""
    page.locator("table.leaderboard a.button").first.click()
    page.locator("details.figures summary").click()


def _open_erase(page: Page) -> None:
    """The first player's erase confirmation, from the leaderboard and their page."""
    page.locator("table.leaderboard a.button").first.click()
    page.locator("main a.button.danger").click()


def _open_share(page: Page) -> None:
    page.locator("details.share summary").click()


def _open_wall_section(page: Page) -> None:
    page.locator("details.wall-screen summary").click()


def _open_folds(page: Page) -> None:
    """Both folds of the first side open: its card counts and its claims."""
    for fold in ("details.more", "details.claims"):
        page.locator(f"#side-0 {fold} summary").click()
    expect(page.locator("#side-0 details.claims input").first).to_be_visible()


def _refuse_a_hand(page: Page) -> None:
    """A shutout claimed while the other side travelled: the rules refuse it, the page says why."""
    page.locator("input[name='s1-km']").fill("100")
    open_claims(page, 0)
    claim = page.locator("input[name='s0-claim-shutout']")
    claim.check()
    with page.expect_navigation():
        claim.evaluate("field => field.form.requestSubmit()")  # its button, in any language


SCREENS: tuple[Screen, ...] = (
    Screen("home", lambda e: "/"),
    Screen("table", lambda e: e.table),
    Screen("table, share section open", lambda e: e.table, ".qr svg", _open_share),
    Screen(
        "table, wall screen section open",
        lambda e: e.table,
        ".issued-tokens",
        _open_wall_section,
    ),
    Screen("wall screen", lambda e: e.wall, "#wall .wall-game"),
    Screen("new game", lambda e: e.table + "/games/new", "#new-game"),
    Screen("new game, 4 seats", lambda e: e.table + "/games/new?players=4", "#new-game"),
    Screen("new virtual game", lambda e: e.table + "/virtual/new", "#new-virtual-game"),
    Screen("scoreboard", lambda e: e.running, ".totals"),
    Screen("scoreboard, three sides", lambda e: e.three_sides, ".totals"),
    Screen("scoreboard after an undo", lambda e: e.undone, ".totals"),
    Screen("winner screen", lambda e: e.finished, ".banner.win"),
    Screen("hand form", lambda e: e.running + "/hands/new", "form.hand-form"),
    Screen("hand form, three sides", lambda e: e.three_sides + "/hands/new", "form.hand-form"),
    Screen(
        "hand form, folds open",
        lambda e: e.running + "/hands/new",
        "#side-0 .stepper",
        _open_folds,
    ),
    Screen("correction form", lambda e: e.running + "/hands/1", "form.hand-form"),
    Screen(
        "refused hand", lambda e: e.running + "/hands/new", ".problem", _refuse_a_hand, sent=True
    ),
    Screen("undo confirmation", lambda e: e.running + "/undo", "form button.danger"),
    Screen("abandon confirmation", lambda e: e.running + "/abandon", "form button.danger"),
    Screen("delete table confirmation", lambda e: e.table + "/delete", "form button.danger"),
    Screen("table deleted", lambda e: "/deleted", "h1"),
    Screen("erase confirmation", lambda e: e.table + "/ratings", "form button.danger", _open_erase),
    Screen("history and statistics", lambda e: e.table + "/history", "table.stats"),
    Screen("leaderboard", lambda e: e.table + "/ratings", "table.leaderboard"),
    Screen("player's page", lambda e: e.table + "/ratings", "table.head-to-head", _open_player),
    Screen("join page", lambda e: e.table.replace("/t/", "/join/"), "form[data-join]"),
    Screen("error page (404)", lambda e: e.table + "/games/999999", "h1"),
    Screen("virtual seat links", lambda e: e.virtual_links, ".seat-links"),
    Screen("virtual play page", lambda e: e.seat, "#play"),
    Screen("virtual scoreboard", lambda e: e.virtual_board, ".totals"),
)


def _add_players(page: Page, *names: str) -> None:
    for name in names:
        page.get_by_label("Add a player").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".chips li, select option").filter(has_text=name)).not_to_have_count(0)


def _start(page: Page, table: str, seated: list[str]) -> str:
    page.goto(table + f"/games/new?players={len(seated)}")
    for index, name in enumerate(seated):
        page.locator("select[name^=side]").nth(index).select_option(label=name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".totals")).to_be_visible()
    return page.url


def _hand(page: Page, board: str, counts: list[dict[str, str]], completed: int | None) -> None:
    page.goto(board)
    enter_hand(page, counts, completed)
    expect(page.locator(".totals")).to_be_visible()


def build(page: Page, server: str) -> Evening:
    """An evening at the table "Chez Zoé", played through the pages; returns where it all is."""
    page.goto(server + "/")
    page.get_by_label("Table name").fill("Chez Zoé")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Chez Zoé")
    table = page.url
    _add_players(page, "Ann", "Bob", "Cat", "Dan")

    running = _start(page, table, ["Ann", "Bob"])
    _hand(page, running, [{"100": "3", "75": "1"}, {"50": "2"}], None)
    _hand(page, running, [SAFE_WIN, {"25": "2"}], 0)

    finished = _start(page, table, ["Cat", "Dan"])
    for _ in range(3):  # 1,900 a hand (trip, safe trip, shutout): 5,700 after three
        _hand(page, finished, [SAFE_WIN, {}], 0)
    expect(page.locator(".banner.win")).to_contain_text("5,700")

    three_sides = _start(page, table, ["Ann", "Bob", "Cat"])
    _hand(page, three_sides, [{"200": "2", "100": "2"}, {"100": "7"}, {"50": "4"}], 1)

    undone = _start(page, table, ["Ann", "Bob", "Cat", "Dan"])
    _hand(page, undone, [{"200": "2", "100": "3", "50": "1"}, {"25": "3"}], None)
    _hand(page, undone, [{"75": "2"}, {"100": "4"}], None)
    page.get_by_role("link", name="Undo the last hand").click()
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("table.hands tbody")).to_have_count(1)

    page.goto(table + "/virtual/new")
    page.locator("select[name=seat0]").select_option(label="Ann")
    page.locator("select[name=seat1]").select_option(label="Bob")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".seat-links")).to_be_visible()
    virtual_links = page.url
    seat = page.locator(".seat-links input").first.input_value()
    game = virtual_links.removesuffix("/links").rsplit("/", 1)[1]

    page.goto(table)
    _open_wall_section(page)
    page.get_by_role("button", name="Make a read-only link").click()
    wall = page.get_by_label("Wall screen link").input_value()
    return Evening(
        table=table.removeprefix(server),
        running=running.removeprefix(server),
        finished=finished.removeprefix(server),
        three_sides=three_sides.removeprefix(server),
        undone=undone.removeprefix(server),
        virtual_board=table.removeprefix(server) + f"/games/{game}",
        virtual_links=virtual_links.removeprefix(server),
        seat=seat,
        wall=wall,
    )
