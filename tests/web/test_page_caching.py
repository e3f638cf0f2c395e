"""What a phone keeps of a page: nothing of a page carrying the table's key, never a copy whose
form token its session no longer knows, and a session that outlives the closed browser."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.api.conftest import TableAccess, create_table


def phone(app: Flask, table: TableAccess) -> FlaskClient:
    client = app.test_client()
    client.set_cookie(f"table_{table.id}", table.token)
    return client


def test_the_table_page_with_its_share_link_is_never_kept(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    page = phone(sqlite_app, table).get(f"/t/{table.id}")
    assert page.status_code == 200 and table.token in page.text  # the share link
    assert page.cache_control.no_store


def test_a_phone_never_revalidates_a_copy_made_for_another_session(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    path = f"/t/{table.id}/games/{game['id']}"
    first, second = phone(sqlite_app, table), phone(sqlite_app, table)
    etag = first.get(path).headers["ETag"]
    assert first.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert second.get(path, headers={"If-None-Match": etag}).status_code == 200


def test_the_pages_session_outlives_the_browser(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    client.get("/")
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SEAT_LINK = re.compile(r"/play/(mbs_[A-Za-z0-9_-]+)")
LAST = ("/link", "/token", "/leave")
"""Routes that take a key away (a seat's new link, a rotated token, leaving): walked last."""


@dataclass
class Evening:
    """A table with a game at the table and a virtual game dealt from its phone, whose phone
    plays a seat of it: every key a response could carry, and the values to fill routes with."""

    phone: FlaskClient
    table: TableAccess
    keys: list[str]
    values: dict[str, list[Any]]


def an_evening(app: Flask) -> Evening:
    table = create_table(app.test_client())
    ann, bob = table.add_players("Ann", "Bob")
    tabletop = table.start_game(2, [[ann], [bob]])["id"]
    assert table.post(f"/games/{tabletop}/hands", {"sides": [{"distance": 300}, {}]}).status_code
    client = phone(app, table)
    deal_form = client.get(f"/t/{table.id}/virtual/new").text
    dealt = client.post(
        f"/t/{table.id}/virtual/new",
        data={
            "csrf_token": CSRF.findall(deal_form)[0],
            "players": "2",
            "seat0": f"p{ann}",
            "seat1": f"p{bob}",
            "start": "1",
        },
        follow_redirects=True,
    )
    seats = SEAT_LINK.findall(dealt.text)
    assert len(set(seats)) == 2, dealt.text
    virtual_game = int(dealt.request.path.split("/")[-2])
    assert client.get(f"/play/{seats[0]}").status_code == 200  # this phone now holds seat 0
    issued = table.post("/tokens", {"name": "Wall screen", "scope": "read"}).get_json()
    return Evening(
        phone=client,
        table=table,
        keys=[table.token, *seats, issued["token"]],
        values={
            "table_id": [table.id],
            "game_id": [tabletop, virtual_game],
            "number": [1],
            "seat": [0],
            "token": [seats[0]],
            "code": ["fr"],
            "filename": ["app.js"],
            "player_id": [ann],
            "other_id": [bob],
            "token_id": [issued["id"]],
        },
    )


def addresses(app: Flask, values: dict[str, list[Any]]) -> list[tuple[str, str]]:
    """(method, path) of every route of the app, each of its parameters given each value known
    for it; GETs first, and the routes that take a key away last."""
    walked: list[tuple[str, str]] = []
    for rule in app.url_map.iter_rules():
        names = sorted(rule.arguments)
        if any(name not in values for name in names):
            raise AssertionError(f"no value to walk {rule.rule} with {names}: add it to an_evening")
        for combination in itertools.product(*(values[name] for name in names)):
            path = rule.build(dict(zip(names, combination, strict=True)), append_unknown=False)
            assert path is not None
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                walked.append((method, path[1]))
    return sorted(walked, key=lambda a: (a[1].endswith(LAST), a[0] != "GET", a[1], a[0]))


def holds_key(response: TestResponse, path: str, keys: list[str]) -> bool:
    """Whether the response, its address or where it leads holds a key or a seat's page."""
    carried = [path, response.headers.get("Location", ""), response.get_data(as_text=True)]
    return any(key in text or "/play/mbs_" in text for key in keys for text in carried)


def test_no_response_holding_a_key_may_be_kept(sqlite_app: Flask) -> None:
    """Every route, walked as the phone that dealt a virtual game and plays one of its seats:
    every response carrying the table's key, a seat's token or a link holding one (pages,
    redirects, fragments, the API's answers) is ``no-store``."""
    evening = an_evening(sqlite_app)
    token = CSRF.findall(evening.phone.get(f"/t/{evening.table.id}").text)[0]
    holding: list[str] = []
    kept: list[str] = []
    for method, path in addresses(sqlite_app, evening.values):
        if path.startswith("/api/"):
            response = evening.phone.open(
                path, method=method, json={}, headers=evening.table.headers
            )
        else:
            response = evening.phone.open(path, method=method, data={"csrf_token": token})
        with response:
            if holds_key(response, path, evening.keys):
                holding.append(f"{method} {path}")
                if not response.cache_control.no_store:
                    kept.append(f"{method} {path} {response.status_code}")
    assert kept == []
    # The walk met the keys where the issue found them kept, so it could have failed.
    table, virtual_game = evening.table.id, evening.values["game_id"][1]
    for met in (
        f"GET /t/{table}",
        f"GET /t/{table}/games/{virtual_game}",
        f"GET /t/{table}/games/{virtual_game}/abandon",
        f"GET /t/{table}/virtual/{virtual_game}/links",
        f"GET /play/{evening.values['token'][0]}",
        f"POST /play/{evening.values['token'][0]}/move",
    ):
        assert met in holding


def test_a_page_without_a_key_says_it_may_be_kept(sqlite_app: Flask) -> None:
    """The service worker keeps only a page with a Cache-Control of its own that is not
    no-store: the scoreboard, the hand form and the history of a game nobody plays on this
    phone are such pages."""
    client = sqlite_app.test_client()
    table = create_table(client)
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    kept = phone(sqlite_app, table)
    for path in (
        f"/t/{table.id}/games/{game}",
        f"/t/{table.id}/games/{game}/hands/new",
        f"/t/{table.id}/history",
        "/",
    ):
        answer = kept.get(path)
        assert answer.status_code == 200 and answer.cache_control.no_cache, path
        assert not answer.cache_control.no_store, path


FOLLOWED = re.compile(r'data-poll="([^"]*)" data-etag="&#34;([^"]*)&#34;"')


@pytest.mark.parametrize("asked", ["", "?lang=fr"])
def test_a_followed_page_carries_the_tag_and_the_address_it_is_followed_by(
    sqlite_app: Flask, asked: str
) -> None:
    """The scoreboards and a seat's page follow the game by their ETag: each carries its own, so
    the first answer its script gets is news only if the game moved since the page was sent,
    however late that answer comes (a phone gone offline before it came). The address it asks
    answers in the page's language, even one chosen by ``?lang=`` alone: nothing is news yet."""
    evening = an_evening(sqlite_app)
    table, seat = evening.table.id, evening.values["token"][0]
    scoreboards = [f"/t/{table}/games/{game}" for game in evening.values["game_id"]]
    for path in [*scoreboards, f"/play/{seat}"]:
        answer = evening.phone.get(path + asked)
        [(followed, tag)] = FOLLOWED.findall(answer.text)
        assert tag == answer.get_etag()[0], path
        again = evening.phone.get(
            followed.replace("&amp;", "&"), headers={"If-None-Match": answer.headers["ETag"]}
        )
        assert again.status_code == 304, (path, followed)


def test_the_start_page_names_the_tables_this_phone_may_open(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    first, second = create_table(client, "One"), create_table(client, "Two")
    kept = phone(sqlite_app, first)
    kept.set_cookie(f"table_{second.id}", "mb_" + "x" * 43)  # a token rotated since
    assert kept.get("/").headers["Tables-Joined"] == str(first.id)
    assert sqlite_app.test_client().get("/").headers["Tables-Joined"] == ""


def test_leaving_a_table_takes_its_key_off_the_phone(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    kept = phone(sqlite_app, table)
    token = CSRF.findall(kept.get(f"/t/{table.id}").text)[0]
    left = kept.post(f"/t/{table.id}/leave", data={"csrf_token": token})
    assert left.status_code == 303 and left.headers["Location"] == "/"
    assert left.cache_control.no_store
    assert kept.get_cookie(f"table_{table.id}") is None
    assert kept.get(f"/t/{table.id}").status_code == 404
    assert kept.get("/").headers["Tables-Joined"] == ""
