"""What a game keeps of its hands (totals, leaders, outcome, winner, status, hand count) always
equals what its hands add up to; ``db verify`` finds and repairs a difference; a game's GET costs
two queries, a poll one."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, update
from sqlalchemy.engine import Engine

from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game
from tests.api.conftest import TableAccess, create_table
from tests.strategies import legal_hands

TWO = {"sides": [{"distance": 300, "safeties": ["extra_tank"]}, {"distance": 250}]}


def entry(report: dict[str, Any]) -> dict[str, Any]:
    """A hand report as a game takes it: the game gives the players, variants and names."""
    hand = {k: v for k, v in report.items() if k not in ("players", "variants")}
    hand["sides"] = [{k: v for k, v in side.items() if k != "name"} for side in report["sides"]]
    return hand


NAMES = itertools.count()


def new_game(table: TableAccess) -> str:
    """A new game of two new players (each example of a property test adds one to its table)."""
    ann, bob = table.add_players(f"Ann {next(NAMES)}", f"Bob {next(NAMES)}")
    return f"/games/{table.start_game(2, [[ann], [bob]])['id']}"


def kept_as_rebuilt(app: Flask, game_url: str) -> list[running_totals.Mismatch]:
    with app.app_context():
        game = db.session.get(Game, int(game_url.rsplit("/", 1)[1]))
        assert game is not None
        return running_totals.mismatches(game)


def game_etag(table: TableAccess, game_url: str) -> str:
    etag: str = table.get(game_url).headers["ETag"]
    return etag


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), legal_hands(players=2, defaults=True)),
        st.tuples(st.just("correct"), st.integers(1, 6), legal_hands(players=2, defaults=True)),
        st.tuples(st.just("undo")),
        st.tuples(st.just("abandon")),
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(OPERATIONS)
def test_a_game_keeps_what_its_hands_add_up_to_after_every_change(
    app: Flask, table: TableAccess, operations: list[tuple[Any, ...]]
) -> None:
    game = new_game(table)
    for operation in operations:
        kind = operation[0]
        hands = table.get(game).get_json()["hands"]
        if kind == "add":
            table.post(game + "/hands", entry(operation[1]))
        elif kind == "correct" and operation[1] <= len(hands):
            headers = {"If-Match": game_etag(table, game)}
            table.put(f"{game}/hands/{operation[1]}", entry(operation[2]), headers=headers)
        elif kind == "undo" and hands:
            headers = {"If-Match": game_etag(table, game)}
            table.delete(f"{game}/hands/{len(hands)}", headers=headers)
        elif kind == "abandon":
            table.post(game + "/abandon")
        assert kept_as_rebuilt(app, game) == []
        answer = table.get(game).get_json()
        last = answer["hands"][-1]["totals"] if answer["hands"] else [0, 0]
        assert answer["totals"] == last == [side["total"] for side in answer["sides"]]


def tamper(app: Flask, **values: Any) -> None:
    with app.app_context():
        db.session.execute(update(Game).values(**values))
        db.session.commit()


def test_db_verify_finds_nothing_to_say_about_games_kept_by_the_app(
    app: Flask, table: TableAccess
) -> None:
    game = new_game(table)
    table.post(game + "/hands", TWO)
    result = app.test_cli_runner().invoke(args=["db", "verify"])
    assert result.exit_code == 0, result.output
    assert "1 games checked: each keeps what its hands add up to." in result.output


def test_db_verify_reports_a_tampered_total_and_exits_1(app: Flask, table: TableAccess) -> None:
    game = new_game(table)
    table.post(game + "/hands", TWO)
    tamper(app, totals=[5400, 250], leaders=[0], outcome="won", winner=0)
    result = app.test_cli_runner().invoke(args=["db", "verify"])
    assert result.exit_code == 1, result.output
    assert "game 1: totals is [5400, 250], its hands make [400, 250]" in result.output
    assert "game 1: winner is 0, its hands make None" in result.output
    assert table.get(game).get_json()["totals"] == [5400, 250]  # reported, not changed


def test_db_verify_repairs_a_tampered_game(app: Flask, table: TableAccess) -> None:
    game = new_game(table)
    table.post(game + "/hands", TWO)
    before = game_etag(table, game)
    tamper(app, totals=[0, 0], hand_count=7)
    result = app.test_cli_runner().invoke(args=["db", "verify", "--repair"])
    assert result.exit_code == 0, result.output
    assert "1 games checked, 1 repaired." in result.output
    answer = table.get(game)
    assert answer.get_json()["totals"] == [400, 250]
    assert answer.headers["ETag"] != before  # phones read the repaired game again
    assert app.test_cli_runner().invoke(args=["db", "verify"]).exit_code == 0
    assert table.post(game + "/hands", TWO).get_json()["number"] == 2


def test_db_verify_reads_the_games_in_batches(app: Flask, table: TableAccess) -> None:
    """Five games read two at a time: every game is checked once, the differing one in the last
    batch is found and repaired."""
    urls = [new_game(table) for _ in range(5)]
    for url in urls:
        table.post(url + "/hands", TWO)
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == 5).values(totals=[1, 2]))
        db.session.commit()
        found = running_totals.verify(repair=True, batch=2)
        assert found.games == 5
        assert {(m.game_id, m.column) for m in found.mismatches} == {(5, "totals")}
        assert running_totals.verify(batch=2) == running_totals.Verified(5, [])


def test_db_verify_runs_beside_a_phone_writing_a_hand(app: Flask, table: TableAccess) -> None:
    """A phone is writing a hand to game 1 (its row locked, its transaction open): verify checks
    every game meanwhile, waiting for nothing, and finds game 2's difference."""
    for url in (new_game(table), new_game(table)):
        table.post(url + "/hands", TWO)
    verified: list[running_totals.Verified] = []

    def verify() -> None:
        with app.app_context():
            verified.append(running_totals.verify())

    with app.app_context():
        db.session.execute(update(Game).where(Game.id == 2).values(hand_count=9))
        db.session.commit()
        with db.engine.connect() as phone:
            phone.execute(update(Game).where(Game.id == 1).values(version=Game.version + 1))
            checking = threading.Thread(target=verify)
            checking.start()
            checking.join(timeout=30)
            waited = checking.is_alive()
            phone.rollback()
        checking.join()
    assert not waited, "db verify waited for the phone's transaction"
    assert [(v.games, [(m.game_id, m.column) for m in v.mismatches]) for v in verified] == [
        (2, [(2, "hand_count")])
    ]


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run inside the block (BEGIN and COMMIT are not counted)."""
    seen: list[str] = []

    def count(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            seen.append(statement)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", count)


@pytest.fixture
def game_of_12_hands(table: TableAccess) -> str:
    game = new_game(table)
    for _ in range(12):
        assert table.post(game + "/hands", TWO).status_code == 201
    return game


def test_a_game_is_read_in_two_queries(
    app: Flask, table: TableAccess, game_of_12_hands: str
) -> None:
    with statements(app) as seen:
        answer = table.get(game_of_12_hands)
    assert answer.status_code == 200
    assert len(answer.get_json()["hands"]) == 12
    assert len(seen) <= 2, seen


def test_a_poll_with_the_current_etag_is_304_from_the_version_alone(
    app: Flask, table: TableAccess, game_of_12_hands: str
) -> None:
    etag = game_etag(table, game_of_12_hands)
    with statements(app) as seen:
        answer = table.get(game_of_12_hands, headers={"If-None-Match": etag})
    assert answer.status_code == 304
    assert answer.headers["ETag"] == etag
    assert len(seen) == 1 and "hands" not in seen[0] and "sides" not in seen[0], seen


def test_a_poll_with_a_stale_etag_gets_the_game(table: TableAccess, game_of_12_hands: str) -> None:
    etag = game_etag(table, game_of_12_hands)
    table.post(game_of_12_hands + "/hands", TWO)
    answer = table.get(game_of_12_hands, headers={"If-None-Match": etag})
    assert answer.status_code == 200
    assert answer.headers["ETag"] != etag
    assert len(answer.get_json()["hands"]) == 13


def test_a_poll_answers_the_token_and_the_game_as_a_read_does(
    client: Any, table: TableAccess, game_of_12_hands: str
) -> None:
    etag = game_etag(table, game_of_12_hands)
    poll = {"If-None-Match": etag}
    url = table.url + game_of_12_hands
    assert client.get(url, headers=poll).status_code == 401
    assert client.get(url, headers={**poll, "Authorization": "Bearer nope"}).status_code == 401
    other = create_table(client, "Other")
    elsewhere = client.get(f"/api/v1/tables/{other.id}/games/1", headers={**poll, **table.headers})
    assert elsewhere.status_code == 404  # this token, another table
    assert other.get(game_of_12_hands, headers=poll).status_code == 404  # not its game
    assert table.get("/games/999", headers=poll).status_code == 404


def test_a_hand_is_added_without_reading_the_other_hands(
    app: Flask, table: TableAccess, game_of_12_hands: str
) -> None:
    with statements(app) as seen:
        answer = table.post(game_of_12_hands + "/hands", TWO, headers={"Idempotency-Key": "k-13"})
    assert answer.status_code == 201
    assert answer.get_json()["totals"] == [13 * 400, 13 * 250]
    assert not any(s.lstrip().startswith("SELECT") and "FROM hands" in s for s in seen), seen


def test_the_migration_fills_what_games_stored_before_it_keep(sqlite_app: Flask) -> None:
    table = create_table(sqlite_app.test_client())
    game = new_game(table)
    for _ in range(13):  # 13 × 400 = 5,200: the game is won
        table.post(game + "/hands", TWO)
    before = table.get(game).get_json()
    runner = sqlite_app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", "0006_private_chances"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    result = runner.invoke(args=["db", "verify"])
    assert result.exit_code == 0, result.output
    after = table.get(game).get_json()
    assert after["hands"] == before["hands"]  # nothing lost on the way down and up
    for field in ("totals", "leaders", "outcome", "winner", "status"):
        assert after[field] == before[field], field
    assert (after["outcome"], after["winner"], after["totals"]) == ("won", 0, [5200, 3250])
