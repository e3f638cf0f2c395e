"""Export, import and backup: a table moved between servers and databases unchanged, a bad
document refused with pointers and nothing written, a backup taken under writes that holds every
acknowledged hand."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Hand
from tests.conftest import _empty_postgres_app
from tests.contract import ContractClient
from tests.full_database import Filled, fill


@pytest.fixture
def postgres_app(postgres_server: str) -> Iterator[Flask]:
    app = _empty_postgres_app(postgres_server)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def filled(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> Filled:
    """The database of the migration walk, on SQLite."""
    return fill(sqlite_app, monkeypatch)


def export(app: Flask, table_id: int) -> str:
    result = app.test_cli_runner().invoke(args=["export", str(table_id)])
    assert result.exit_code == 0, result.output
    return result.output


def import_(app: Flask, document: str, *options: str) -> Any:
    return app.test_cli_runner().invoke(args=["import", "-", *options], input=document)


def rows(app: Flask) -> dict[str, int]:
    """How many rows of each table the database holds."""
    with app.app_context():
        return {
            table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables
        }


def test_a_table_moves_from_sqlite_to_postgresql_byte_for_byte(
    sqlite_app: Flask, postgres_app: Flask, filled: Filled
) -> None:
    for table_id in filled.tokens:
        document = export(sqlite_app, table_id)
        result = import_(postgres_app, document)
        assert result.exit_code == 0, result.output
        assert export(postgres_app, table_id) == document
    with postgres_app.app_context():
        verified = postgres_app.test_cli_runner().invoke(args=["db", "verify"])
    assert verified.exit_code == 0, verified.output


def renumbered(document: dict[str, Any], like: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its ids and token hashes mapped onto those of ``like``, entry by entry
    (the same table imported with fresh ones)."""
    players = {
        new["id"]: old["id"] for new, old in zip(document["players"], like["players"], strict=True)
    }
    games = {
        new["id"]: old["id"] for new, old in zip(document["games"], like["games"], strict=True)
    }
    mapped = copy.deepcopy(document)
    mapped["table"].update(id=like["table"]["id"], token_hash=like["table"]["token_hash"])
    for player in mapped["players"]:
        player["id"] = players[player["id"]]
    for game, old in zip(mapped["games"], like["games"], strict=True):
        game["id"] = games[game["id"]]
        for side, old_side in zip(game["sides"], old["sides"], strict=True):
            for seat, old_seat in zip(side["seats"], old_side["seats"], strict=True):
                seat["player"] = players.get(seat["player"])
                if seat["token_hash"] is not None:
                    seat["token_hash"] = old_seat["token_hash"]
    for entry in mapped["hands"] + mapped["moves"]:
        entry["game"] = games[entry["game"]]
    return mapped


def test_imported_as_new_beside_itself_the_table_has_fresh_ids_and_tokens(
    sqlite_app: Flask, filled: Filled
) -> None:
    club = next(iter(filled.tokens))
    document = export(sqlite_app, club)
    assert import_(sqlite_app, document).exit_code == 1  # its ids are taken
    result = import_(sqlite_app, document, "--as-new")
    assert result.exit_code == 0, result.output
    token = result.output.split("(shown this once): ")[1].strip()
    new_id = int(result.output.split()[1])
    again = json.loads(export(sqlite_app, new_id))
    original = json.loads(document)
    assert again["table"]["id"] != original["table"]["id"]
    assert {p["id"] for p in again["players"]}.isdisjoint(p["id"] for p in original["players"])
    assert json.dumps(renumbered(again, original), indent=1, ensure_ascii=False) + "\n" == document
    client = sqlite_app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/api/v1/tables/{new_id}/games", headers=headers).status_code == 200


def test_the_api_gives_the_cli_document_to_the_tables_token(
    sqlite_app: Flask, filled: Filled
) -> None:
    sqlite_app.test_client_class = ContractClient  # the answer checked against openapi.yaml
    client = sqlite_app.test_client()
    family = list(filled.tokens)[1]
    headers = {"Authorization": f"Bearer {filled.tokens[family]}"}
    response = client.get(f"/api/v1/tables/{family}/export", headers=headers)
    assert response.status_code == 200
    assert response.get_json() == json.loads(export(sqlite_app, family))
    other = {"Authorization": f"Bearer {filled.tokens[list(filled.tokens)[0]]}"}
    assert client.get(f"/api/v1/tables/{family}/export", headers=other).status_code == 404


def test_the_api_keeps_the_seed_of_a_virtual_game_in_progress_secret(
    sqlite_app: Flask, filled: Filled
) -> None:
    club, token = next(iter(filled.tokens.items()))
    response = sqlite_app.test_client().get(
        f"/api/v1/tables/{club}/export", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 409
    assert "seed" in response.get_json()["detail"]


def _family(app: Flask) -> dict[str, Any]:
    """The document of a small table (two players, a game of three hands), the table then
    deleted from the database."""
    client = app.test_client()
    body = client.post("/api/v1/tables", json={"name": "Family"}).get_json()
    table = f"/api/v1/tables/{body['id']}"
    headers = {"Authorization": f"Bearer {body['token']}"}
    ids = [
        client.post(f"{table}/players", json={"name": name}, headers=headers).get_json()["id"]
        for name in ("Gus", "Hal")
    ]
    sides = [{"players": [ids[0]]}, {"players": [ids[1]]}]
    game = client.post(f"{table}/games", json={"players": 2, "sides": sides}, headers=headers)
    for distance in (300, 525, 650):
        report = {"sides": [{"distance": distance}, {"distance": 100}]}
        hand = client.post(f"{game.headers['Location']}/hands", json=report, headers=headers)
        assert hand.status_code == 201, hand.get_json()
    document: dict[str, Any] = json.loads(export(app, body["id"]))
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    return document


def _truncated(document: dict[str, Any]) -> str:
    text = json.dumps(document)
    return text[: len(text) // 2]


def _version(document: dict[str, Any]) -> str:
    return json.dumps({**document, "version": 2})


def _duplicate_player(document: dict[str, Any]) -> str:
    document["players"].append({**document["players"][0], "name": "Zed"})
    return json.dumps(document)


def _hand_of_no_game(document: dict[str, Any]) -> str:
    document["hands"][0]["game"] = 999
    return json.dumps(document)


def _breakdown(document: dict[str, Any]) -> str:
    document["hands"][0]["breakdown"]["sides"][0]["total"] += 100
    return json.dumps(document)


def _kept_totals(document: dict[str, Any]) -> str:
    document["games"][0]["kept"]["totals"][0] += 100
    return json.dumps(document)


def _fifty_megabytes(document: dict[str, Any]) -> str:
    document["table"]["name"] = "x" * 50_000_000
    return json.dumps(document)


@pytest.mark.parametrize(
    ("spoil", "path", "words"),
    [
        (_truncated, "", "not valid JSON"),
        (_version, "/version", "version 2"),
        (_duplicate_player, "/players/2/id", "same id"),
        (_hand_of_no_game, "/hands/0/game", "no game 999"),
        (_breakdown, "/hands/0/breakdown", "does not score"),
        (_kept_totals, "/games/0/kept/totals", "add up to"),
        (_fifty_megabytes, "", "at most 33,554,432"),
    ],
)
def test_a_bad_document_is_refused_at_its_pointer_and_nothing_is_written(
    app: Flask, spoil: Any, path: str, words: str
) -> None:
    document = _family(app)
    before = rows(app)
    result = import_(app, spoil(copy.deepcopy(document)))
    assert result.exit_code == 1
    refusal = json.loads(result.output)
    assert refusal["errors"][0]["path"] == path  # the first problem; others may follow from it
    assert words in refusal["errors"][0]["detail"]
    assert rows(app) == before
    assert import_(app, json.dumps(document)).exit_code == 0  # the document itself is fine


def test_the_hands_of_a_game_are_all_imported(app: Flask) -> None:
    document = _family(app)
    assert import_(app, json.dumps(document)).exit_code == 0
    with app.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        assert game.totals == document["games"][0]["kept"]["totals"]
        assert db.session.scalar(select(func.count()).select_from(Hand)) == len(document["hands"])


def test_a_backup_is_refused_on_postgresql(postgres_app: Flask, tmp_path: Path) -> None:
    result = postgres_app.test_cli_runner().invoke(args=["db", "backup", str(tmp_path / "b")])
    assert result.exit_code == 1
    assert "pg_dump" in result.output
