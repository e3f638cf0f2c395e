"""A database holding one of everything the app stores, filled through the API.

Two tables (so a table's export is seen to hold its own games only), players, tabletop games of
2, 3, 4 and 6 players with hands, a correction and an undo, an abandoned game, a won game,
virtual games finished (a computer stood in for the player to the end) and in progress,
idempotency records, issued tokens (one revoked) and the tables' feeds. Virtual games are dealt
from fixed seeds (as large as real ones), so every run stores the same rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import virtual

WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
SMALL = {"sides": [{"distance": 300}, {"distance": 450}]}


@dataclass
class Filled:
    """The tables filled, by id, with the token that opens each."""

    tokens: dict[int, str]


class _Table:
    def __init__(self, client: FlaskClient, name: str) -> None:
        response = client.post("/api/v1/tables", json={"name": name})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.client, self.id, self.token = client, body["id"], body["token"]

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        response = self.client.open(
            f"/api/v1/tables/{self.id}{path}",
            method=method,
            json=body,
            headers={"Authorization": f"Bearer {self.token}", **headers},
        )
        assert response.status_code < 300, (path, response.get_json())
        return response

    def players(self, *names: str) -> list[int]:
        return [self.call("POST", "/players", {"name": name}).get_json()["id"] for name in names]

    def game(self, players: int, sides: list[list[int]], **fields: Any) -> str:
        body = {"players": players, "sides": [{"players": ids} for ids in sides], **fields}
        return f"/games/{self.call('POST', '/games', body).get_json()['id']}"


def _hands(sides: int, *distances: int) -> Iterator[dict[str, Any]]:
    """Reports of hands nobody wins, one per distance, the first side travelling it."""
    for distance in distances:
        yield {"sides": [{"distance": distance}] + [{"distance": 100}] * (sides - 1)}


def fill(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Filled:
    """Store one of everything; the tokens of the tables made."""
    seeds = count(2**62 + 11)  # as large as the secret seeds are
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: next(seeds))
    client = app.test_client()
    club = _Table(client, "Club")
    family = _Table(client, "Family")
    ann, bob, cat, dan, eve, fay = club.players("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    two = club.game(2, [[ann], [bob]])
    for number, report in enumerate([SMALL, WIN, SMALL, WIN, WIN]):
        club.call("POST", two + "/hands", report, **{"Idempotency-Key": f"two-{number}"})
    three = club.game(3, [[ann], [bob], [cat]], variants={"shutout": "capot"})
    for report in _hands(3, 250, 400, 175):
        club.call("POST", three + "/hands", report)
    etag = club.call("GET", three + "/hands/2").headers["ETag"]
    club.call("PUT", three + "/hands/2", next(_hands(3, 525)), **{"If-Match": etag})
    etag = club.call("GET", three + "/hands/3").headers["ETag"]
    club.call("DELETE", three + "/hands/3", **{"If-Match": etag})
    four = club.game(4, [[ann, cat], [bob, dan]])
    for report in _hands(2, 600, 725):
        club.call("POST", four + "/hands", report)
    six = club.game(6, [[ann, dan], [bob, eve], [cat, fay]])
    for report in _hands(3, 450):
        club.call("POST", six + "/hands", report, **{"Idempotency-Key": "six-0"})
    abandoned = club.game(2, [[eve], [fay]])
    club.call("POST", abandoned + "/hands", SMALL)
    club.call("POST", abandoned + "/abandon")
    _virtual_games(club, ann, bob)
    club.call("POST", "/tokens", {"name": "Wall screen", "scope": "read"})
    bot = club.call("POST", "/tokens", {"name": "Club bot", "scope": "record"}).get_json()
    club.call("POST", "/tokens", {"name": "Old bot", "scope": "record"})
    club.call("DELETE", f"/tokens/{bot['id']}")
    gus, hal = family.players("Gus", "Hal")
    family.call("POST", family.game(2, [[gus], [hal]]) + "/hands", SMALL)
    return Filled({club.id: club.token, family.id: family.token})


def _virtual_games(table: _Table, ann: int, bob: int) -> None:
    """A virtual game a computer played to the end in Ann's place, and one in progress."""
    seats = [{"player": ann}, {"computer": "greedy"}]
    finished = table.call("POST", "/virtual-games", {"players": 2, "seats": seats})
    url = finished.headers["Location"].split(f"/tables/{table.id}", 1)[1]
    table.call("PUT", url + "/seats/0/stand-in", {"computer": "strong"})
    seats = [{"player": ann}, {"player": bob}, {"computer": "random"}]
    table.call("POST", "/virtual-games", {"players": 3, "seats": seats})
