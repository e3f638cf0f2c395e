"""Issued tokens: a read token reads what the table's own token reads, every GET of the table,
and may write nothing; a record token records the table's play and may not manage the table;
a revoked token is refused at once. Each operation of openapi.yaml is walked, so an operation
added later is checked without being named here."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper.domain.credentials import token_hash
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import AccessToken
from tests.api.conftest import TableAccess, create_table
from tests.api.walk import TABLE_OPERATIONS, concrete, issue, shown

OWNER_ONLY = {
    ("GET", "/tokens"),
    ("POST", "/tokens"),
    ("GET", "/tokens/{token_id}"),
    ("DELETE", "/tokens/{token_id}"),
    ("POST", "/token"),
    ("POST", "/games/{game_id}/abandon"),
    ("DELETE", ""),
    ("POST", "/players/{player_id}/erase"),
    ("POST", "/virtual-games/{game_id}/seats/{seat}/token"),
}
"""What only the table's own token may do: the API's documentation of the scopes (docs/api.md,
"Tokens"): manage tokens, replace the table's token, give a seat a new link, abandon a game,
delete the table, erase a player."""

SEAT_ONLY = {("POST", "/virtual-games/{game_id}/moves"), ("GET", "/virtual-games/{game_id}/hint")}
"""What only a seat's token may do: no table token, whatever its scope."""


def holding(table: TableAccess, token: str) -> TableAccess:
    """The same table as a phone holding ``token`` sees it."""
    return TableAccess(table.client, table.id, token)


def test_a_read_token_reads_every_get_as_the_table_token_does(
    table: TableAccess, filled: dict[str, int]
) -> None:
    reader = holding(table, issue(table, "read")["token"])
    gets = [path for method, path in TABLE_OPERATIONS if method == "GET"]
    assert len(gets) >= 12
    for path in gets:
        url = concrete(path, filled)
        owners = table.get(url)
        readers = reader.get(url)
        if (("GET", path)) in OWNER_ONLY:
            assert owners.status_code == 200, (path, owners.get_json())
            assert readers.status_code == 403, (path, readers.get_json())
            continue
        assert readers.status_code == owners.status_code, (path, readers.get_data(as_text=True))
        assert shown(readers) == shown(owners), path
        assert owners.status_code != 401


def test_a_read_token_writes_nothing(table: TableAccess, filled: dict[str, int]) -> None:
    reader = holding(table, issue(table, "read")["token"])
    writes = [(method, path) for method, path in TABLE_OPERATIONS if method != "GET"]
    assert len(writes) >= 14
    before = table.get("").get_json(), table.get(f"/games/{filled['game_id']}").get_json()
    for method, path in writes:
        response = reader.client.open(
            reader.url + concrete(path, filled), method=method, json={}, headers=reader.headers
        )
        assert response.status_code == 403, (method, path, response.get_json())
        problem = response.get_json()
        assert "reads the table" in problem["detail"] or "table's own token" in problem["detail"]
    after = table.get("").get_json(), table.get(f"/games/{filled['game_id']}").get_json()
    assert after == before


def test_a_record_token_records_play_but_does_not_manage_the_table(
    table: TableAccess, filled: dict[str, int]
) -> None:
    recorder = holding(table, issue(table, "record", "Club bot")["token"])
    for method, path in TABLE_OPERATIONS:
        if method == "GET":
            continue
        response = recorder.client.open(
            recorder.url + concrete(path, filled),
            method=method,
            json={},
            headers=recorder.headers,
        )
        if (method, path) in OWNER_ONLY:
            assert response.status_code == 403, (method, path, response.get_json())
            assert "table's own token" in response.get_json()["detail"]
        elif (method, path) in SEAT_ONLY:
            assert response.status_code == 403, (method, path, response.get_json())
            assert "seat's token" in response.get_json()["detail"]
        else:
            assert response.status_code not in {401, 403}, (method, path, response.get_json())
    carl = recorder.post("/players", {"name": "Carl"})
    assert carl.status_code == 201
    game = recorder.start_game(2, [[filled["player_id"]], [carl.get_json()["id"]]])
    hand = {"sides": [{"distance": 300}, {"distance": 200}]}
    assert recorder.post(f"/games/{game['id']}/hands", hand).status_code == 201


def test_a_revoked_token_is_refused_at_once(table: TableAccess) -> None:
    issued = issue(table, "record", "Old bot")
    bot = holding(table, issued["token"])
    assert bot.get("/players").status_code == 200
    assert table.delete(f"/tokens/{issued['id']}").status_code == 204
    for response in (bot.get("/players"), bot.post("/players", {"name": "Dan"})):
        assert response.status_code == 401
        assert "revoked" in response.get_json()["detail"]
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert table.get(f"/tokens/{issued['id']}").status_code == 404
    assert table.delete(f"/tokens/{issued['id']}").status_code == 404
    assert table.get("/players").get_json()["items"] == []


def test_tokens_are_listed_without_their_secret_and_stored_as_a_digest(
    app: Flask, table: TableAccess
) -> None:
    read = issue(table, "read", "Wall screen")
    record = issue(table, "record", "Club bot")
    assert read["token"].startswith("mbr_") and record["token"].startswith("mbw_")
    listed = table.get("/tokens").get_json()["items"]
    assert [(t["name"], t["scope"]) for t in listed] == [
        ("Wall screen", "read"),
        ("Club bot", "record"),
    ]
    assert all("token" not in entry for entry in listed)
    with app.app_context():
        stored = {row.token_hash for row in db.session.query(AccessToken)}
    assert stored == {token_hash(read["token"]), token_hash(record["token"])}


def test_a_token_opens_its_own_table_only(table: TableAccess, new_table: Any) -> None:
    other = new_table("Other club")
    reader = holding(other, issue(other, "read")["token"])
    assert reader.get("").status_code == 200
    elsewhere = holding(table, reader.token)
    assert elsewhere.get("").status_code == 404
    assert elsewhere.get("/players").status_code == 404


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"name": "Bot", "scope": "owner"}, "/scope"),
        ({"name": "Bot", "scope": "admin"}, "/scope"),
        ({"name": "Bot"}, "/scope"),
        ({"scope": "read"}, "/name"),
        ({"name": "", "scope": "read"}, "/name"),
        ({"name": "Bot", "scope": "read", "expires": 3}, "/expires"),
    ],
)
def test_a_token_asked_for_badly_is_refused_naming_the_field(
    table: TableAccess, body: dict[str, Any], path: str
) -> None:
    response = table.post("/tokens", body)
    assert response.status_code == 422
    assert [error["path"] for error in response.get_json()["errors"]] == [path]
    assert table.get("/tokens").get_json()["items"] == []


def test_an_issued_token_cannot_issue_tokens(table: TableAccess) -> None:
    recorder = holding(table, issue(table, "record")["token"])
    response = recorder.post("/tokens", {"name": "Mine", "scope": "record"})
    assert response.status_code == 403
    assert len(table.get("/tokens").get_json()["items"]) == 1


def test_creating_a_table_stays_open(client: Any) -> None:
    """Issuing tokens changes nothing for a new table: its own token does everything."""
    table = create_table(client, "Fresh")
    assert table.get("/tokens").get_json() == {"items": [], "next_cursor": None}
