"""The web layer's plumbing: services that speak the domain, one table from refusal to status,
one transaction per request that commits a write or leaves nothing of it."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from engine.errors import EngineError, IllegalMove, InvalidRecord
from engine.moves import CALL
from scorekeeper.domain.refusals import Refusal
from scorekeeper.services import virtual
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Hand, IdempotencyRecord
from scorekeeper.web.errors import REFUSAL_STATUS
from scorekeeper.web.transactions import WRITES, TransactionalFlask
from tests import contract
from tests.api.conftest import TableAccess
from tests.api.test_hands import SMALL, WIN
from tests.api.test_virtual import seeds, start, started  # noqa: F401  (seeds: a fixture)
from tests.web.test_security import form_token, open_table

SERVICES = Path(__file__).resolve().parents[2] / "scorekeeper" / "services"
HTTP_MODULES = (
    "werkzeug",
    "scorekeeper.web.http",
    "scorekeeper.web.idempotency",
    "scorekeeper.web.errors",
)
HTTP_NAMES = {"request", "Response", "abort", "make_response", "redirect", "jsonify"}
"""What speaks HTTP: Werkzeug's exceptions and headers, the app's HTTP plumbing, and Flask's
request and responses (Flask's ``current_app``, for a setting, is not HTTP)."""


def http_imports(module: Path) -> list[str]:
    """What of HTTP ``module`` imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith(HTTP_MODULES)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(HTTP_MODULES):
                found.append(node.module)
            elif node.module == "flask":
                found += [alias.name for alias in node.names if alias.name in HTTP_NAMES]
    return found


@pytest.mark.parametrize(
    "module", sorted(SERVICES.rglob("*.py")), ids=lambda path: str(path.relative_to(SERVICES))
)
def test_the_services_speak_the_domain_not_http(module: Path) -> None:
    assert http_imports(module) == []


def test_the_http_detector_finds_http() -> None:
    pages = SERVICES.parent / "pages" / "hands.py"
    assert {"werkzeug.exceptions", "request"} <= set(http_imports(pages))


def test_every_refusal_has_its_status_in_the_one_table() -> None:
    def descendants(kind: type[Exception]) -> set[type[Exception]]:
        found = set(kind.__subclasses__())
        return found.union(*(descendants(sub) for sub in found))

    refusals = descendants(Refusal) | descendants(EngineError) - {InvalidRecord}
    assert refusals - set(REFUSAL_STATUS) == set()
    assert REFUSAL_STATUS[IllegalMove] == 422  # openapi.yaml: an illegal move is 422 illegal_move
    assert all(400 <= status < 500 for status in REFUSAL_STATUS.values())


def test_every_view_runs_in_the_request_transaction(app: Flask) -> None:
    """The app itself runs every view in the request's transaction
    (tests/web/test_transactions.py adds views and checks what they store)."""
    assert isinstance(app, TransactionalFlask)
    assert any(rule.methods and rule.methods & WRITES for rule in app.url_map.iter_rules())


def count(model: type) -> int:
    return db.session.scalar(select(func.count()).select_from(model)) or 0


def test_a_refused_keyed_write_leaves_nothing(
    table: TableAccess, game_url: str, app: Flask
) -> None:
    """A hand refused (the game abandoned) keeps neither the hand nor its key: a retry of the
    same key is checked afresh, and refused again for the same reason."""
    assert table.post(game_url + "/abandon").status_code == 200
    for _ in range(2):
        response = table.post(game_url + "/hands", WIN, headers={"Idempotency-Key": "k-1"})
        assert response.status_code == 409
        assert "abandoned" in response.get_json()["detail"]
    with app.app_context():
        assert (count(Hand), count(IdempotencyRecord)) == (0, 0)


def test_a_stale_correction_changes_nothing(table: TableAccess, game_url: str) -> None:
    """RFC 9110 If-Match: a correction read at an older version is 412, one without a version
    428, and the hand stays as it was."""
    old = table.post(game_url + "/hands", WIN).headers["ETag"]
    assert table.put(game_url + "/hands/1", SMALL, headers={"If-Match": old}).status_code == 200
    assert table.put(game_url + "/hands/1", WIN, headers={"If-Match": old}).status_code == 412
    weak = {"If-Match": "W/" + table.get(game_url + "/hands/1").headers["ETag"]}
    assert table.put(game_url + "/hands/1", WIN, headers=weak).status_code == 412  # never weak
    assert table.put(game_url + "/hands/1", WIN, headers={"If-Match": "*"}).status_code == 428
    assert table.put(game_url + "/hands/1", WIN).status_code == 428
    assert table.get(game_url + "/hands/1").get_json()["report"]["sides"][0]["distance"] == 300


def test_an_illegal_move_from_the_seat_page_comes_back_as_its_notice(table: TableAccess) -> None:
    """The page's form is refused with the rule (RULES.md §4), shown on the seat's page, and the
    game does not move."""
    _, seats = started(table, [None, None])
    seat = seats[seats[0].read()["state"]["to_act"]]
    before = seat.read()["next_move"]
    page = table.client.get(f"/play/{seat.token}")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf is not None
    form = {"move": "call_extension", "number": str(before), "csrf_token": csrf.group(1)}
    answer = table.client.post(f"/play/{seat.token}/move", data=form)
    assert answer.status_code == 302
    shown = table.client.get(answer.headers["Location"]).text
    assert "must play or discard a card (rules §4)" in html.unescape(shown)
    assert seat.read()["next_move"] == before


@pytest.mark.usefixtures("seeds")  # dealt from seed 1: the computer plays first
def test_a_computer_move_the_rules_refuse_is_the_apps_fault(
    table: TableAccess, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A refused move the app chose is a fault of the app (a 500, its trace in the log), never
    answered as the request's illegal move (422)."""

    class Wrong:
        def choose(self, view: object) -> object:
            return CALL  # no extension is called before the trip is complete (RULES.md §7)

    monkeypatch.setattr(virtual.moves, "make_player", lambda kind, rng: Wrong())
    monkeypatch.setattr(contract, "check_response", lambda response: None)  # a 500: no contract
    (ann,) = table.add_players("Ann")
    answer = start(table, [{"player": ann}, {"computer": "strong"}])
    assert answer.status_code == 500
    assert "the app chose a move the rules refuse" in caplog.text


def test_an_unknown_variant_on_the_new_game_page_is_said_on_the_form(app: Flask) -> None:
    phone = app.test_client()
    table_id = open_table(phone)
    for name in ("Ann", "Bob"):
        form = {"name": name, "csrf_token": form_token(phone, f"/t/{table_id}")}
        assert phone.post(f"/t/{table_id}/players", data=form).status_code == 302
    page = f"/t/{table_id}/games/new"
    ids = sorted(set(re.findall(r'<option value="(\d+)"', phone.get(page).text)))
    form = {
        "players": "2",
        "start": "1",
        "side0": ids[0],
        "side1": ids[1],
        "game_tie": "bogus",
        "csrf_token": form_token(phone, page),
    }
    answer = phone.post(page, data=form)
    assert answer.status_code == 422
    assert 'name="start"' in answer.text  # the form again, not an error page
    assert "Variant game_tie has no value" in html.unescape(answer.text)


def test_a_seat_token_on_the_tables_endpoints_is_403_and_changes_nothing(
    table: TableAccess,
) -> None:
    """A seat's token is valid, and plays its own seat only: on what needs the table's token it
    is refused as a token that may not do this (403), not as an invalid one (401), in the
    reader's language; a token nobody holds stays 401."""
    _, seats = started(table, [None, "strong"])
    seat = {"Authorization": f"Bearer {seats[0].token}"}
    players_before = table.get("/players").get_json()["items"]
    asked = [
        table.client.get(table.url, headers=seat),
        table.client.get(table.url + "/games", headers=seat),
        table.client.post(table.url + "/players", json={"name": "Zoé"}, headers=seat),
        table.client.post(table.url + "/token", headers=seat),
        table.client.get(seats[0].url + "/record", headers=seat),
    ]
    assert [answer.status_code for answer in asked] == [403] * len(asked)
    assert "this needs the table's token" in asked[0].get_json()["detail"]
    french = table.client.get(table.url, headers={**seat, "Accept-Language": "fr"})
    assert french.status_code == 403
    assert "jeton de la table" in french.get_json()["detail"]
    assert table.get("/players").get_json()["items"] == players_before
    assert table.get("").status_code == 200  # the table's token was not rotated
    junk = {"Authorization": "Bearer mbs_nobody"}
    assert table.client.get(table.url, headers=junk).status_code == 401
    assert seats[0].read()["seat"] == 0  # the seat's own endpoint still takes it
