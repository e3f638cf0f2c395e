"""API fixtures: a client that checks every response against openapi.yaml, and a table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.contract import ContractClient


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    app.test_client_class = ContractClient
    return app.test_client()


@dataclass
class TableAccess:
    """A table created through the API, with what a phone needs to use it."""

    client: FlaskClient
    id: int
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def url(self) -> str:
        return f"/api/v1/tables/{self.id}"

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(
            self.url + path, headers={**self.headers, **kwargs.pop("headers", {})}, **kwargs
        )

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.post(self.url + path, json=body, headers=headers, **kwargs)

    def put(self, path: str, body: Any, **kwargs: Any) -> Any:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.put(self.url + path, json=body, headers=headers, **kwargs)

    def patch(self, path: str, body: Any, **kwargs: Any) -> Any:
        return self.client.patch(self.url + path, json=body, headers=self.headers, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.delete(self.url + path, headers=headers, **kwargs)

    def add_players(self, *names: str) -> list[int]:
        return [self.post("/players", {"name": name}).get_json()["id"] for name in names]

    def start_game(self, players: int, sides: list[list[int]], **fields: Any) -> dict[str, Any]:
        body = {"players": players, "sides": [{"players": ids} for ids in sides], **fields}
        response = self.post("/games", body)
        assert response.status_code == 201, response.get_json()
        game: dict[str, Any] = response.get_json()
        return game


def create_table(client: FlaskClient, name: str = "Club") -> TableAccess:
    response = client.post("/api/v1/tables", json={"name": name})
    assert response.status_code == 201
    body = response.get_json()
    return TableAccess(client, body["id"], body["token"])


@pytest.fixture
def table(client: FlaskClient) -> TableAccess:
    return create_table(client)


@pytest.fixture
def game_url(table: TableAccess) -> str:
    """A two-player game of Ann and Bob at ``table``, by its path under the table."""
    ann, bob = table.add_players("Ann", "Bob")
    return f"/games/{table.start_game(2, [[ann], [bob]])['id']}"


@pytest.fixture
def new_table(client: FlaskClient) -> Callable[[str], TableAccess]:
    return lambda name: create_table(client, name)


@pytest.fixture
def filled(table: TableAccess) -> dict[str, int]:
    """A table with something behind every GET, and more than one item in every list: three
    players, two finished games and one in progress with a hand, a virtual game that ended,
    two issued tokens; the ids to put in the operations' paths."""
    ann, bob, cleo = table.add_players("Ann", "Bob", "Cleo")
    win = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
    for sides in ([[ann], [bob]], [[bob], [cleo]]):
        finished = table.start_game(2, sides)["id"]
        for _ in range(3):  # 5,700 points: the game is won (RULES.md §10)
            assert table.post(f"/games/{finished}/hands", win).status_code == 201
    game = table.start_game(2, [[ann], [bob]])
    hand = {"sides": [{"distance": 300}, {"distance": 200}]}
    assert table.post(f"/games/{game['id']}/hands", hand).status_code == 201
    seats = [{"player": ann}, {"computer": "club"}]
    virtual = table.post("/virtual-games", {"players": 2, "seats": seats}).get_json()
    assert table.post(f"/games/{virtual['game']['id']}/abandon").status_code == 200
    tokens = [
        table.post("/tokens", {"name": name, "scope": "read"}).get_json()["id"]
        for name in ("Spare", "Screen")
    ]
    return {
        "game_id": game["id"],
        "number": 1,
        "player_id": ann,
        "other_id": bob,
        "token_id": tokens[0],
        "virtual": virtual["game"]["id"],
        "seat": 0,
    }
