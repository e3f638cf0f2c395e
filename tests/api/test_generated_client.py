"""openapi.yaml as a generator reads it: a typed Python client generated from the document alone
(by openapi-python-client) plays the guide's walk-through (docs/api.md) and a whole virtual game
against the app.

The other API tests hold each answer to openapi.yaml (tests/contract.py). These hold the other
side of the contract: a program that knows only the document can make every request and read
every answer. A part of the document the generator cannot read is no error to it: it prints a
warning, and leaves the part out of the client (an answer it cannot read comes back unparsed) or
generates it as something else (a schema read as another one, its own fields lost). So a warning
fails these tests, naming the part, and the client is built with ``raise_on_unexpected_status``:
a status an operation does not declare raises.

The client is generated once a session (a second or two) into a temporary folder, never kept in
the repository, and talks to the app in-process: its httpx client sends each request to the
app's WSGI callable, on the suite's databases (the ``app`` fixture).
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

import httpx
import pytest
from flask import Flask

from scorekeeper.services import virtual
from tests.contract import METHODS, SPEC, SPEC_PATH

PACKAGE = "mille_bornes_client"
"""The generated package's name (any name: its modules import each other relatively)."""

SETTINGS = Path(__file__).with_name("openapi-python-client.yaml")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BASE_URL = "http://localhost"
MOST_MOVES = 5000
"""More moves of one seat than any game takes (these take under 200, of all their seats)."""


def example(name: str) -> dict[str, Any]:
    """A file of examples/, which the guide's curl blocks send."""
    document: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return document


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package openapi-python-client generates from openapi.yaml, through its command
    line, every module of it imported; gone from ``sys.path`` and ``sys.modules`` afterwards."""
    folder = tmp_path_factory.mktemp("generated")
    command = [
        sys.executable,
        "-m",
        "openapi_python_client",
        "generate",
        "--path",
        str(SPEC_PATH),
        "--output-path",
        str(folder / PACKAGE),
        "--meta",
        "none",
        "--config",
        str(SETTINGS),
        "--fail-on-warning",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    said = (run.stdout + run.stderr).strip()
    # Its warnings name each operation or schema it left out or read as something else.
    assert run.returncode == 0 and "Warning" not in said and "Error" not in said, (
        f"openapi-python-client could not read all of openapi.yaml:\n{said}"
    )
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module(PACKAGE)
        for file in sorted((folder / PACKAGE).rglob("*.py")):
            parts = file.relative_to(folder).with_suffix("").parts
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        yield package
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE]:
            del sys.modules[name]


@dataclass
class Server:
    """The app, served in-process to the generated client."""

    app: Flask
    package: ModuleType
    opened: ExitStack

    def client(self, token: str | None = None) -> Any:
        """A generated client (``Client``, or ``AuthenticatedClient`` with a token) whose
        requests go to the app's WSGI callable; a status its operation does not declare raises."""
        settings: dict[str, Any] = {
            "base_url": BASE_URL,
            "httpx_args": {"transport": httpx.WSGITransport(app=self.app)},
            "raise_on_unexpected_status": True,
        }
        if token is None:
            client = self.package.Client(**settings)
        else:
            client = self.package.AuthenticatedClient(token=token, **settings)
        return self.opened.enter_context(client)


@pytest.fixture
def server(app: Flask, generated: ModuleType) -> Iterator[Server]:
    with ExitStack() as opened:
        yield Server(app, generated, opened)


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the virtual games from known seeds (1, 2, 3...), not from the system's entropy: the
    API takes no seed, the server draws a secret one."""
    drawn = iter(range(1, 1000))
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: next(drawn))


def answered(response: Any, status: int) -> Any:
    """The typed answer of a generated ``sync_detailed`` call, once its status is ``status``."""
    assert response.status_code == status, response.content.decode()
    return response.parsed


def refused(response: Any, status: int, title: str | None = None) -> Any:
    """The problem of an answer refused with ``status`` (and ``title``, where the guide names
    it), read as the generated ``Problem``."""
    problem = answered(response, status)
    assert type(problem).__name__ == "Problem" and problem.status == status
    assert title is None or problem.title == title
    return problem


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_every_operation_of_openapi_yaml_is_generated(generated: ModuleType) -> None:
    """Each operation of openapi.yaml is a module of the client, named by its operationId, with
    its four functions, and no module more (the generator's warnings, which fail the fixture,
    would name one left out; this holds it without them)."""
    operations = {
        snake_case(operation["operationId"])
        for item in SPEC["paths"].values()
        for method, operation in item.items()
        if method in METHODS
    }
    modules = {
        name.rpartition(".")[2]: module
        for name, module in sys.modules.items()
        if name.startswith(f"{PACKAGE}.api.") and name.count(".") == 3
    }
    assert operations and set(modules) == operations
    for module in modules.values():
        for function in ("sync", "sync_detailed", "asyncio", "asyncio_detailed"):
            assert callable(getattr(module, function)), (module.__name__, function)


def test_the_guides_walk_through(server: Server, generated: ModuleType) -> None:
    """The walk-through of docs/api.md, block by block, through the generated functions and
    models: the same requests (the bodies read from examples/ into the generated models), and
    the answers the guide prints (its `# ->` lines). Left out: the command line's blocks, and the
    held question (`Prefer: wait=1`, a second's wait; its If-None-Match is here). Then the
    table's operations the guide only lists: read, players, rename, a new token."""
    api, models = generated.api, generated.models
    anyone = server.client()

    # A table and its token.
    created = answered(
        api.tables.create_table.sync_detailed(client=anyone, body=models.TableCreate(name="Club")),
        201,
    )
    assert (created.id, created.name, created.players, created.games) == (1, "Club", 0, 0)
    assert created.token.startswith("mb_")
    table_id, table = created.id, server.client(created.token)
    ann, bob = (
        answered(
            api.players.create_player.sync_detailed(
                table_id, client=table, body=models.PlayerName(name=name)
            ),
            201,
        ).id
        for name in ("Ann", "Bob")
    )

    # A game.
    sides = [models.GameCreateSidesItem(players=[ann]), models.GameCreateSidesItem(players=[bob])]
    body = models.GameCreate(
        players=models.GameCreatePlayers(2), variants=models.Variants(), sides=sides
    )
    assert body.to_dict() == {
        "players": 2,
        "variants": {},
        "sides": [{"players": [ann]}, {"players": [bob]}],
    }
    game_id = answered(
        api.games.start_game.sync_detailed(table_id, client=table, body=body), 201
    ).id

    # A hand, sent twice: the example read into the generated model, and sent as it was.
    hand_1 = models.NewHand.from_dict(example("hand-1.json"))
    assert hand_1.to_dict() == example("hand-1.json")
    first = api.hands.add_hand.sync_detailed(
        table_id, game_id, client=table, body=hand_1, idempotency_key="club-hand-1"
    )
    stored = answered(first, 201)
    assert re.fullmatch(r'"hand-1-[0-9a-f]{10}-[0-9a-f]{6}"', first.headers["ETag"])
    assert (stored.number, stored.totals) == (1, [1200, 525])
    again = api.hands.add_hand.sync_detailed(
        table_id, game_id, client=table, body=hand_1, idempotency_key="club-hand-1"
    )
    assert answered(again, 201).totals == [1200, 525]
    assert again.headers["Idempotent-Replayed"] == "true" and again.content == first.content
    game = answered(api.games.read_game.sync_detailed(table_id, game_id, client=table), 200)
    assert (game.status, game.outcome, game.winner) == ("in_progress", None, None)
    assert (game.totals, game.leaders, len(game.hands)) == ([1200, 525], [0], 1)

    # A correction: If-Match with the hand's ETag; a stale one is 412, none at all 428.
    read = api.hands.read_hand.sync_detailed(table_id, game_id, 1, client=table)
    assert answered(read, 200).version == 1
    etag = read.headers["ETag"]
    corrected = models.Hand.from_dict(example("hand-1-corrected.json"))
    correction = api.hands.correct_hand.sync_detailed(
        table_id, game_id, 1, client=table, body=corrected, if_match=etag
    )
    hand = answered(correction, 200)
    assert correction.headers["ETag"] not in {etag, first.headers["ETag"]}
    assert (hand.number, hand.version, hand.totals) == (1, 2, [1200, 825])
    stale = api.hands.correct_hand.sync_detailed(
        table_id, game_id, 1, client=table, body=corrected, if_match=etag
    )
    refused(stale, 412, "Precondition Failed")
    missing = api.hands.correct_hand.sync_detailed(
        table_id, game_id, 1, client=table, body=corrected
    )
    refused(missing, 428, "Precondition Required")
    game = answered(api.games.read_game.sync_detailed(table_id, game_id, client=table), 200)
    assert (game.version, game.totals) == (3, [1200, 825])

    # A refused hand: 422 with every reason, nothing stored.
    refusal = api.hands.add_hand.sync_detailed(
        table_id, game_id, client=table, body=models.NewHand.from_dict(example("hand-refused.json"))
    )
    problem = refused(refusal, 422)
    assert problem.type_ == "/problems/report-refused"
    reasons = [(error.path, error.code) for error in problem.errors]
    assert ("/sides/0/claims/0", "claim_not_earned") in reasons and len(reasons) > 1
    game = answered(api.games.read_game.sync_detailed(table_id, game_id, client=table), 200)
    assert (game.version, len(game.hands)) == (3, 1)

    # The end of the game: Ann past 5,000 has won, and the game takes no more hands.
    hand_2 = models.NewHand.from_dict(example("hand-2.json"))
    stored = answered(
        api.hands.add_hand.sync_detailed(table_id, game_id, client=table, body=hand_2), 201
    )
    assert (stored.number, stored.totals) == (2, [5200, 825])
    game = answered(api.games.read_game.sync_detailed(table_id, game_id, client=table), 200)
    assert (game.status, game.outcome, game.winner, game.totals) == (
        "finished",
        "won",
        0,
        [5200, 825],
    )
    refused(
        api.hands.add_hand.sync_detailed(table_id, game_id, client=table, body=hand_2),
        409,
        "Conflict",
    )

    # History, statistics and lists.
    history = answered(
        api.history_and_ratings.read_history.sync_detailed(table_id, client=table), 200
    )
    rows = [(row.game_id, row.player, row.total, row.result) for row in history.items]
    assert rows == [(game_id, "Ann", 5200, "won"), (game_id, "Bob", 825, "lost")]
    sheet = answered(
        api.history_and_ratings.export_history.sync_detailed(table_id, client=table), 200
    )
    assert [
        (int(row["game_id"]), row["player"], int(row["total"]), row["result"])
        for row in csv.DictReader(io.StringIO(sheet))
    ] == rows
    page = answered(
        api.games.list_games.sync_detailed(
            table_id, client=table, status=models.ListGamesStatus.FINISHED, player=ann
        ),
        200,
    )
    assert [(item.id, item.status) for item in page.items] == [(game_id, "finished")]
    assert page.next_cursor is None
    player = answered(api.players.read_player.sync_detailed(table_id, ann, client=table), 200)
    statistics = player.statistics
    assert player.name == "Ann"
    assert (statistics.games_played, statistics.games_won, statistics.best_hand) == (1, 1, 4000)

    # Ratings: the figures the guide prints.
    ratings = answered(
        api.history_and_ratings.read_ratings.sync_detailed(table_id, client=table), 200
    )
    assert (ratings.season.from_, ratings.season.to, ratings.season.virtual) == (
        None,
        None,
        "include",
    )
    assert [
        (r.rank, r.player_id, r.level, r.name, r.provisional, r.games, r.wins)
        for r in ratings.items
    ] == [(1, ann, None, "Ann", True, 1, 1), (2, bob, None, "Bob", True, 1, 0)]
    assert [(r.rating, r.uncertainty, r.conservative) for r in ratings.items] == [
        (27.6354, 8.0659, 3.4377),
        (22.3646, 8.0659, -1.8331),
    ]

    # Head to head, and seasons.
    head_to_head = api.history_and_ratings.read_head_to_head
    record = answered(head_to_head.sync_detailed(table_id, ann, bob, client=table), 200)
    opponents, partners = record.opponents, record.partners
    assert (opponents.games, opponents.player_wins, opponents.other_wins, opponents.hands) == (
        1,
        1,
        0,
        2,
    )
    assert (partners.games, partners.wins) == (0, 0)
    season = api.history_and_ratings.read_ratings.sync_detailed(
        table_id, client=table, from_=date(2020, 1, 1), to=date(2020, 12, 31)
    )
    assert answered(season, 200).season.from_ == date(2020, 1, 1)
    assert answered(season, 200).items == []
    virtual_only = head_to_head.sync_detailed(
        table_id, ann, bob, client=table, virtual=models.ReadHeadToHeadVirtual.ONLY
    )
    assert answered(virtual_only, 200).opponents.games == 0
    backwards = api.history_and_ratings.read_ratings.sync_detailed(
        table_id, client=table, from_=date(2026, 5, 1), to=date(2026, 4, 30)
    )
    problem = refused(backwards, 422)
    assert (problem.errors[0].path, problem.errors[0].code) == ("/to", "invalid_field")

    # Undo, with the game's ETag: the game is open again.
    read = api.games.read_game.sync_detailed(table_id, game_id, client=table)
    undone = api.hands.undo_hand.sync_detailed(
        table_id, game_id, 2, client=table, if_match=read.headers["ETag"]
    )
    answered(undone, 204)
    game = answered(api.games.read_game.sync_detailed(table_id, game_id, client=table), 200)
    assert (game.status, game.outcome, game.totals) == ("in_progress", None, [1200, 825])

    # Scoring without a table: no token at all.
    report = models.HandReport.from_dict(example("hand.json"))
    score = answered(api.scoring.score_hand.sync_detailed(client=anyone, body=report), 200)
    assert score.target == 1000
    assert [(side.name, side.total) for side in score.sides] == [("Ann", 3100), ("Bob", 0)]
    scored = models.ScoreSheet.from_dict(example("sheet.json"))
    sheet_score = answered(api.scoring.score_sheet.sync_detailed(client=anyone, body=scored), 200)
    assert (sheet_score.totals, sheet_score.status, sheet_score.winner) == (
        [5650, 2775],
        "won",
        "Us",
    )

    # A virtual game: Ann in seat 1 against a Club computer, her seat token in this answer only.
    seats = [
        models.VirtualGameCreateSeatsItem(computer=models.VirtualGameCreateSeatsItemComputer.CLUB),
        models.VirtualGameCreateSeatsItem(player=ann),
    ]
    deal = models.VirtualGameCreate(players=models.VirtualGameCreatePlayers(2), seats=seats)
    dealt = answered(
        api.virtual_games.start_virtual_game.sync_detailed(table_id, client=table, body=deal), 201
    )
    assert (dealt.game.id, dealt.game.virtual, dealt.game.status) == (2, True, "in_progress")
    assert [token.seat for token in dealt.seat_tokens] == [1]
    assert dealt.seat_tokens[0].token.startswith("mbs_")
    virtual_id, seat = dealt.game.id, server.client(dealt.seat_tokens[0].token)
    read_virtual = api.virtual_games.read_virtual_game
    view = answered(read_virtual.sync_detailed(table_id, virtual_id, client=seat), 200)
    assert (view.seat, view.next_move, view.hand_number) == (1, 0, 1)
    assert len(view.state.hand) == 7 and view.state.legal_moves

    # A hint: the seat's, the same when asked again; none for the table's token.
    hint = answered(
        api.virtual_games.read_hint.sync_detailed(table_id, virtual_id, client=seat), 200
    )
    assert hint.number == 0 and hint.label
    assert hint.to_dict() in [
        {"number": 0, "label": hint.label, **move.to_dict()} for move in view.state.legal_moves
    ]
    assert (
        answered(api.virtual_games.read_hint.sync_detailed(table_id, virtual_id, client=seat), 200)
        == hint
    )
    refused(
        api.virtual_games.read_hint.sync_detailed(table_id, virtual_id, client=table),
        403,
        "Forbidden",
    )

    # Following the game: the ETag it holds answers 304 while nobody moves.
    read = read_virtual.sync_detailed(table_id, virtual_id, client=seat)
    unchanged = read_virtual.sync_detailed(
        table_id, virtual_id, client=seat, if_none_match=read.headers["ETag"]
    )
    assert unchanged.status_code == 304 and unchanged.content == b""

    # Moves, under the number read as next_move: an illegal one is 422, a double tap played once.
    play = api.virtual_games.play_move
    extension = models.MoveEntry(number=0, move=models.MoveEntryMove.CALL_EXTENSION)
    problem = refused(play.sync_detailed(table_id, virtual_id, client=seat, body=extension), 422)
    assert (problem.errors[0].path, problem.errors[0].code) == ("/move", "illegal_move")
    discard = models.MoveEntry(number=0, move=models.MoveEntryMove.DISCARD, card=view.state.hand[0])
    after = answered(play.sync_detailed(table_id, virtual_id, client=seat, body=discard), 200)
    event = after.events[0]  # the events from move 0 on: Ann's discard, then the computer's
    assert (event.number, event.hand, event.seat, event.move, event.card) == (
        0,
        1,
        1,
        "discard",
        view.state.hand[0],
    )
    assert after.next_move == len(after.events) > 1
    tapped = play.sync_detailed(table_id, virtual_id, client=seat, body=discard)
    assert answered(tapped, 200).next_move == after.next_move
    assert tapped.headers["Idempotent-Replayed"] == "true"

    # The record: not while the game is played; given once it is abandoned.
    read_record = api.virtual_games.read_virtual_record
    refused(read_record.sync_detailed(table_id, virtual_id, client=table), 409, "Conflict")
    abandoned = answered(
        api.games.abandon_game.sync_detailed(table_id, virtual_id, client=table), 200
    )
    assert abandoned.status == "abandoned"
    kept = answered(read_record.sync_detailed(table_id, virtual_id, client=table), 200)
    # Its status is the hands' (they never ended the game), its seed the one it was dealt from.
    assert (kept.status, kept.seed, kept.names) == ("in_progress", 1, ["Computer 1 (Club)", "Ann"])

    # A table's document, once no virtual game is in progress.
    document = answered(api.tables.export_table.sync_detailed(table_id, client=table), 200)
    assert (document.format_, document.table.name) == ("mille-bornes-table", "Club")
    assert sorted(game.id for game in document.games) == [game_id, virtual_id]

    # Beyond the guide: the table, its players, a rename, and a new token (the old one is 401).
    read_table = api.tables.read_table
    assert answered(read_table.sync_detailed(table_id, client=table), 200).games == 2
    renamed = api.players.rename_player.sync_detailed(
        table_id, bob, client=table, body=models.PlayerName(name="Robert")
    )
    assert answered(renamed, 200).name == "Robert"
    listed = answered(api.players.list_players.sync_detailed(table_id, client=table), 200)
    assert sorted(p.name for p in listed.items) == ["Ann", "Robert"]
    token = answered(api.tables.rotate_token.sync_detailed(table_id, client=table), 200).token
    refused(read_table.sync_detailed(table_id, client=table), 401, "Unauthorized")
    assert (
        answered(read_table.sync_detailed(table_id, client=server.client(token)), 200).id
        == table_id
    )


@pytest.mark.parametrize("computers", [["club"], ["novice", "beginner", "club"]])
def test_a_whole_virtual_game_through_the_seat_token(
    server: Server, generated: ModuleType, computers: list[str]
) -> None:
    """A player's seat against computers, played to the end as a phone plays it: read the game
    with the seat's token, post one of ``state.legal_moves`` under ``next_move``, again until
    the game is no longer in progress (the computers answer within each request). Then the
    watcher's view, the record, a rematch, and a computer standing in for the seat."""
    api, models = generated.api, generated.models
    anyone = server.client()
    created = answered(
        api.tables.create_table.sync_detailed(client=anyone, body=models.TableCreate(name="Club")),
        201,
    )
    table_id, table = created.id, server.client(created.token)
    ann = answered(
        api.players.create_player.sync_detailed(
            table_id, client=table, body=models.PlayerName(name="Ann")
        ),
        201,
    ).id
    seats = [models.VirtualGameCreateSeatsItem(player=ann)] + [
        models.VirtualGameCreateSeatsItem(computer=models.VirtualGameCreateSeatsItemComputer(level))
        for level in computers
    ]
    deal = models.VirtualGameCreate(
        players=models.VirtualGameCreatePlayers(len(seats)), seats=seats
    )
    dealt = answered(
        api.virtual_games.start_virtual_game.sync_detailed(table_id, client=table, body=deal), 201
    )
    game_id = dealt.game.id
    assert [token.seat for token in dealt.seat_tokens] == [0]

    # A lost link: a new token for the seat, and the old one stops working.
    lost = server.client(dealt.seat_tokens[0].token)
    reissued = answered(
        api.virtual_games.reissue_seat_token.sync_detailed(table_id, game_id, 0, client=table), 200
    )
    read_virtual = api.virtual_games.read_virtual_game
    refused(read_virtual.sync_detailed(table_id, game_id, client=lost), 401, "Unauthorized")
    seat = server.client(reissued.token)

    rng = Random(len(seats))
    for _ in range(MOST_MOVES):
        view = answered(read_virtual.sync_detailed(table_id, game_id, client=seat), 200)
        if view.game.status != "in_progress":
            break
        state = view.state
        # Only this seat is a person's: whenever the game goes on, it waits for this seat.
        assert view.seat == 0 and state.to_act == 0 and state.legal_moves
        assert len(state.hand) == state.hand_sizes[0]
        chosen = rng.choice(state.legal_moves)
        move = models.MoveEntry(
            number=view.next_move,
            move=models.MoveEntryMove(chosen.move),
            card=chosen.card,
            target=chosen.target,
        )
        played = answered(
            api.virtual_games.play_move.sync_detailed(table_id, game_id, client=seat, body=move),
            200,
        )
        assert played.next_move > view.next_move
    else:
        pytest.fail(f"the game was still in progress after {MOST_MOVES} moves of the seat")

    game = view.game
    assert view.state is None and game.status == "finished" and game.finished_at is not None
    assert game.hands and game.hands[-1].totals == game.totals
    assert [
        sum(hand.sides[side].total for hand in game.hands) for side in range(len(game.sides))
    ] == game.totals
    best = max(game.totals)
    assert best >= 5000 and game.leaders == [
        side for side, total in enumerate(game.totals) if total == best
    ]
    if game.outcome == "won":
        assert game.leaders == [game.winner]
    else:
        assert game.outcome == "tied" and game.winner is None and len(game.leaders) > 1

    # The table's token watches the ended game; the record adds up to the same totals.
    watched = answered(read_virtual.sync_detailed(table_id, game_id, client=table), 200)
    assert (watched.seat, watched.state, watched.game.totals) == (None, None, game.totals)
    record = answered(
        api.virtual_games.read_virtual_record.sync_detailed(table_id, game_id, client=table), 200
    )
    assert (record.status, record.totals, record.seed) == (game.outcome, game.totals, 1)
    # The last move sent again is answered again (a retry); a new one is refused.
    again = api.virtual_games.play_move.sync_detailed(table_id, game_id, client=seat, body=move)
    assert answered(again, 200).game.status == "finished"
    assert again.headers["Idempotent-Replayed"] == "true"
    late = models.MoveEntry(number=view.next_move, move=models.MoveEntryMove.PASS)
    refused(
        api.virtual_games.play_move.sync_detailed(table_id, game_id, client=seat, body=late),
        409,
        "Conflict",
    )

    # A rematch: the same seats, a new deal and a new token; a computer stands in for the seat
    # and plays it to the end, as every seat is a computer's then.
    rematch = answered(
        api.virtual_games.rematch_virtual_game.sync_detailed(table_id, game_id, client=table), 201
    )
    assert rematch.game.id != game_id and rematch.game.status == "in_progress"
    assert [token.seat for token in rematch.seat_tokens] == [0]
    stand_in = models.HandSeatToComputerBody(computer=models.HandSeatToComputerBodyComputer.NOVICE)
    away = answered(
        api.virtual_games.hand_seat_to_computer.sync_detailed(
            table_id, rematch.game.id, 0, client=table, body=stand_in
        ),
        200,
    )
    assert away.game.status == "finished" and away.stand_in_hands
    back = api.virtual_games.take_seat_back.sync_detailed(
        table_id, rematch.game.id, 0, client=table
    )
    refused(back, 409, "Conflict")
