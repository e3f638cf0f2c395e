"""One set of conventions on every endpoint, walked from openapi.yaml so that an operation added
later is held to them without being named here: every GET answers with an ETag and 304 to a
request that holds it; every list takes ``limit`` and a cursor and, page by page, gives every
item once; every operation refuses a query parameter it does not take."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests.api.conftest import TableAccess
from tests.api.walk import TABLE_OPERATIONS, concrete
from tests.contract import SPEC, resolved

GETS = [path for method, path in TABLE_OPERATIONS if method == "GET"]

SEAT_ONLY_GETS = {"/virtual-games/{game_id}/hint"}
"""A seat's own read: the table's token is refused it (tests/api/test_virtual_hint.py reads it
with the seat's, ETag and 304 included)."""


def list_paths() -> list[str]:
    """The GETs whose answer is a list: an ``items`` array."""
    found = []
    for path in GETS:
        answer = SPEC["paths"]["/api/v1/tables/{table_id}" + path]["get"]["responses"]["200"]
        for media in answer.get("content", {}).values():
            if "items" in resolved(media["schema"]).get("properties", {}):
                found.append(path)
    return found


LISTS = list_paths()


def test_the_walk_finds_every_kind_of_read() -> None:
    assert len(GETS) >= 17
    assert {"/games", "/players", "/tokens", "/history", "/ratings", "/events"} <= set(LISTS)


def test_every_get_answers_an_etag_and_304_to_a_request_that_holds_it(
    table: TableAccess, filled: dict[str, int]
) -> None:
    checked = 0
    for path in GETS:
        url = concrete(path, filled)
        first = table.get(url)
        if path in SEAT_ONLY_GETS:
            assert first.status_code == 403, path
            continue
        assert first.status_code == 200, (path, first.get_data(as_text=True))
        etag = first.headers.get("ETag")
        assert etag, f"{path} answers no ETag"
        again = table.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304, path
        assert again.headers["ETag"] == etag and not again.get_data()
        checked += 1
    assert checked == len(GETS) - len(SEAT_ONLY_GETS)


def test_an_etag_changes_when_what_it_tags_does(table: TableAccess, filled: dict[str, int]) -> None:
    """A tag made from the answer's bytes moves with them: a player added changes the list's."""
    before = table.get("/players").headers["ETag"]
    table.add_players("Dan")
    changed = table.get("/players", headers={"If-None-Match": before})
    assert changed.status_code == 200 and changed.headers["ETag"] != before


def every_page(table: TableAccess, url: str, limit: int) -> tuple[list[Any], int]:
    """The items of every page of ``url``, ``limit`` at a time, and how many pages."""
    items: list[Any] = []
    pages, query = 0, {"limit": limit}
    while True:
        page = table.get(url, query_string=query)
        assert page.status_code == 200, (url, page.get_json())
        body = page.get_json()
        # The history's page holds ``limit`` games, each with a row per player.
        counted = {row["game_id"] for row in body["items"]} if "/history" in url else body["items"]
        assert len(counted) <= limit
        items += body["items"]
        pages += 1
        if url.endswith("/events"):  # a feed: followed from the last event, not a cursor
            if not body["more"]:
                return items, pages
            query = {"limit": limit, "after": body["last"]}
        else:
            if body["next_cursor"] is None:
                return items, pages
            query = {"limit": limit, "cursor": body["next_cursor"]}
        assert pages < 100


@pytest.mark.parametrize("path", LISTS)
def test_every_list_gives_every_item_once_a_page_at_a_time(
    table: TableAccess, filled: dict[str, int], path: str
) -> None:
    url = concrete(path, filled)
    whole = table.get(url, query_string={"limit": 100}).get_json()["items"]
    assert len(whole) >= 2, f"{path}: the walk's table needs two items in it"
    paged, pages = every_page(table, url, 1)
    assert paged == whole
    assert pages >= len(whole) if path != "/history" else pages >= 2  # a game's rows go together


@pytest.mark.parametrize("path", [p for p in LISTS if not p.endswith("/events")])
def test_a_cursor_this_server_never_gave_is_refused(
    table: TableAccess, filled: dict[str, int], path: str
) -> None:
    made_up = [
        "not-a-cursor",
        "é",
        "Zw\u00e9",
        *(
            base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
            for letter in "gpthr"
            for text in (f"{letter}²", f"{letter}{'9' * 30}", f"{letter}1.2.3", f"{letter}-1")
        ),
    ]
    for cursor in made_up:
        answer = table.get(concrete(path, filled), query_string={"cursor": cursor})
        assert answer.status_code == 422, (path, cursor)
        assert [error["path"] for error in answer.get_json()["errors"]] == ["/cursor"]


OPERATIONS = [
    (method.upper(), path)
    for path, operations in SPEC["paths"].items()
    for method in operations
    if method in {"get", "post", "put", "patch", "delete"}
]


def test_every_operation_refuses_a_parameter_it_does_not_take(
    table: TableAccess, filled: dict[str, int]
) -> None:
    """Nothing is done: the query is checked before the token, the body and the resource."""
    before = table.get("/events").get_json()["last"]
    for method, path in OPERATIONS:
        url = concrete(path.replace("{table_id}", str(table.id)), filled)
        answer = table.client.open(
            url, method=method, query_string={"bogus": "1"}, json={}, headers=table.headers
        )
        assert answer.status_code == 422, (method, path, answer.get_data(as_text=True))
        assert [error["path"] for error in answer.get_json()["errors"]] == ["/bogus"], path
    assert table.get("/events").get_json()["last"] == before
    assert len(OPERATIONS) >= 36
