"""The API's reference (``/api/docs``) in chromium, as an API user on a table's Wi-Fi with no
internet opens it: the app reached by a name of the Wi-Fi (not localhost, for which Swagger UI
skips some of what it would fetch elsewhere), every request to any other host cut off, and the
page must show every operation of ``openapi.yaml`` (read here, never counted by hand), each with
its answers, errors included, and fit a 360 px phone as well as a laptop."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import (
    Browser,
    BrowserType,
    ConsoleMessage,
    Page,
    Route,
    WebSocket,
    expect,
)

from tests.contract import SPEC_PATH
from tests.pages.conftest import PHONE

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SPEC = yaml.safe_load(SPEC_PATH.read_text())
OPERATIONS = {
    operation["operationId"]: (method.upper(), path, operation)
    for path, item in SPEC["paths"].items()
    for method, operation in item.items()
    if method in METHODS
}
"""Every operation of the contract by its operationId: its method, its path and what it says."""
LAPTOP = {"width": 1280, "height": 800}
WIFI_NAME = "table.lan"
"""The name the browser reaches the app by: it resolves to the loopback address, and nothing else
does (``--host-resolver-rules``), so no request can reach a host of the outside world."""


@pytest.fixture(scope="module")
def wifi(browser_type: BrowserType, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """A browser that reaches the app as ``http://table.lan:<port>``, as a phone on the table's
    Wi-Fi reaches the laptop serving it."""
    args = [*browser_type_launch_args["args"], f"--host-resolver-rules=MAP {WIFI_NAME} 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


@dataclass
class Reader:
    """A phone on the Wi-Fi with the reference's server, what it tried to reach beyond that
    server, and what went wrong in its pages (script errors, the policy's refusals)."""

    page: Page
    server: str
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def reader(wifi: Browser, live_server: str) -> Iterator[Reader]:
    """A phone whose every request to any host but the app's is aborted, and recorded."""
    context = wifi.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    port = urlsplit(live_server).port
    reader = Reader(context.new_page(), f"http://{WIFI_NAME}:{port}")

    def the_app_only(route: Route) -> None:
        if urlsplit(route.request.url).netloc == f"{WIFI_NAME}:{port}":
            route.continue_()
        else:
            reader.outside.append(route.request.url)
            route.abort("internetdisconnected")

    def socket(opened: WebSocket) -> None:
        reader.outside.append(opened.url)

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            reader.errors.append(message.text)

    context.route("**/*", the_app_only)
    reader.page.on("websocket", socket)
    reader.page.on("pageerror", lambda error: reader.errors.append(str(error)))
    reader.page.on("console", console)
    reader.page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (event) => console.error("
        "'refused by the policy: ' + event.violatedDirective + ' ' + event.blockedURI))"
    )
    yield reader
    context.close()


def open_reference(page: Page, server: str) -> None:
    page.goto(f"{server}/api/docs")
    expect(page.locator(".opblock")).to_have_count(len(OPERATIONS))


def summaries(page: Page) -> dict[str, tuple[str, str]]:
    """Each operation the page lists, in its order: its operationId, method and path, as shown."""
    shown = page.locator(".opblock").evaluate_all(
        """blocks => blocks.map(block => [
            block.querySelector('.opblock-summary-operation-id').textContent.trim(),
            block.querySelector('.opblock-summary-method').textContent.trim(),
            block.querySelector('.opblock-summary-path').dataset.path,
        ])"""
    )
    return {operation_id: (method, path) for operation_id, method, path in shown}


def test_every_operation_is_shown_with_no_outside_network(reader: Reader) -> None:
    page = reader.page
    open_reference(page, reader.server)
    expected = {name: (method, path) for name, (method, path, _) in OPERATIONS.items()}
    assert summaries(page) == expected
    expect(page.locator(".info .title")).to_contain_text(SPEC["info"]["title"])
    assert reader.outside == []
    assert reader.errors == []


def check_operation(page: Page, number: int, operation_id: str) -> None:
    """Open the page's ``number``-th operation, which must be ``operation_id``: its request
    body with an example, every status it may answer (each refusal with its problem's example),
    nothing wider than the screen; then close it."""
    operation = OPERATIONS[operation_id][2]
    block = page.locator(".opblock").nth(number)
    expect(block.locator(".opblock-summary-operation-id")).to_have_text(operation_id)
    block.locator(".opblock-summary-control").click()
    answers = block.locator("tr.response")
    expect(answers).to_have_count(len(operation["responses"]))
    shown = answers.evaluate_all(
        """rows => rows.map(row => [
            row.dataset.code, row.querySelector('.highlight-code')?.textContent ?? ''
        ])"""
    )
    assert sorted(code for code, _ in shown) == sorted(operation["responses"])
    assert all('"title"' in example for code, example in shown if int(code) >= 400)
    if "requestBody" in operation:
        expect(block.locator(".opblock-section-request-body .highlight-code")).to_be_visible()
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{operation_id} widens the page to {width[0]} px"
    block.locator(".opblock-summary-control").click()
    expect(answers).to_have_count(0)


@pytest.mark.slow(23)
def test_each_operation_opens_on_its_answers_and_errors_on_a_phone(reader: Reader) -> None:
    page = reader.page
    open_reference(page, reader.server)
    assert page.viewport_size == PHONE
    for number, operation_id in enumerate(summaries(page)):
        check_operation(page, number, operation_id)
    assert reader.outside == []
    assert reader.errors == []


def test_the_longest_and_the_fullest_operations_fit_a_laptop(reader: Reader) -> None:
    page = reader.page
    page.set_viewport_size(LAPTOP)
    open_reference(page, reader.server)
    listed = list(summaries(page))
    longest = max(OPERATIONS, key=lambda name: len(OPERATIONS[name][1]))
    fullest = max(OPERATIONS, key=lambda name: len(OPERATIONS[name][2]["responses"]))
    for operation_id in (longest, fullest):
        check_operation(page, listed.index(operation_id), operation_id)
    assert reader.outside == []
    assert reader.errors == []


def test_the_operations_are_grouped_by_their_tags(reader: Reader) -> None:
    """The reference lists the operations under openapi.yaml's tags, in its order (a reader
    looks for "Hands", not through one list of every operation)."""
    page = reader.page
    open_reference(page, reader.server)
    tags = [tag["name"] for tag in SPEC["tags"]]
    expect(page.locator(".opblock-tag")).to_have_count(len(tags))
    assert [
        page.locator(".opblock-tag").nth(index).get_attribute("data-tag")
        for index in range(len(tags))
    ] == tags
    for tag in tags:
        section = page.locator(".opblock-tag-section").filter(
            has=page.locator(f".opblock-tag[data-tag='{tag}']")
        )
        shown = section.locator(".opblock-summary-operation-id").all_inner_texts()
        tagged = [
            operation["operationId"]
            for item in SPEC["paths"].values()
            for operation in item.values()
            if isinstance(operation, dict) and tag in operation.get("tags", [])
        ]
        assert sorted(shown) == sorted(tagged), tag
    assert reader.outside == []


def test_an_operations_address_opens_it(reader: Reader) -> None:
    """Each operation has an address to share (Swagger UI's deep links): opened, it is open."""
    page = reader.page
    page.goto(f"{reader.server}/api/docs#/Hands/addHand")
    block = page.locator(".opblock:has(.opblock-summary-operation-id:text-is('addHand'))")
    expect(block).to_have_class("opblock opblock-post is-open")
    expect(block.locator("tr.response[data-code='422']")).to_be_visible()
    assert reader.outside == []


def test_a_reader_tries_the_api_from_the_reference(reader: Reader) -> None:
    """ "Try it out" sends the example to this server: a table created, its token given to
    "Authorize", and the table read back with it."""
    page = reader.page
    page.goto(f"{reader.server}/api/docs#/Tables/createTable")
    create = page.locator("#operations-Tables-createTable")
    create.get_by_role("button", name="Try it out").click()
    create.get_by_role("button", name="Execute").click()
    answer = create.locator(".live-responses-table tbody tr").first
    expect(answer.locator(".response-col_status")).to_have_text("201")
    table = json.loads(
        answer.locator(".response-col_description pre.microlight").first.inner_text()
    )
    assert table["name"] == "Thursday club"  # the example of openapi.yaml
    page.get_by_role("button", name="Authorize").first.click()
    credentials = page.locator(".modal-ux form", has_text="tableToken")
    credentials.locator("input").fill(table["token"])
    credentials.get_by_role("button", name="Apply credentials").click()
    credentials.get_by_role("button", name="Close").click()
    read = page.locator("#operations-Tables-readTable")
    read.locator(".opblock-summary-control").click()
    read.get_by_role("button", name="Try it out").click()
    read.get_by_placeholder("table_id").fill(str(table["id"]))
    read.get_by_role("button", name="Execute").click()
    answer = read.locator(".live-responses-table tbody tr").first
    expect(answer.locator(".response-col_status")).to_have_text("200")
    assert (
        json.loads(answer.locator(".response-col_description pre.microlight").first.inner_text())[
            "id"
        ]
        == table["id"]
    )
    assert reader.outside == []
    assert reader.errors == []


SWAGGER_UIS_OWN = {"nested-interactive"}
"""What axe finds in Swagger UI itself and the page cannot mend: each operation's summary is a
button holding a link to the operation's address (the link is taken out of the tab order)."""


def test_an_open_operation_reads_well_with_a_screen_reader(reader: Reader) -> None:
    """No serious or critical finding of axe but Swagger UI's own: colours at 4.5:1, every
    drop-down named, every example that scrolls reachable by the keyboard."""
    page = reader.page
    page.goto(f"{reader.server}/api/docs#/Scoring/scoreHand")
    expect(page.locator(".opblock.is-open tr.response[data-code='422']")).to_be_visible()
    expect(page.locator("select:not([aria-label])")).to_have_count(0)
    found = [
        f"axe {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:3]}"
        for v in Axe().run(page).response["violations"]
        if v["impact"] in {"serious", "critical"} and v["id"] not in SWAGGER_UIS_OWN
    ]
    assert found == []
    assert reader.outside == []


def test_without_javascript_the_page_leads_to_the_contract(phone: Page, live_server: str) -> None:
    page = phone(javascript=False)
    page.goto(f"{live_server}/api/docs")
    link = page.get_by_role("link", name="openapi.yaml")
    expect(link).to_be_visible()
    answer = page.request.get(live_server + str(link.get_attribute("href")))
    assert answer.body() == SPEC_PATH.read_bytes()
