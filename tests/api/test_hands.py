"""Hands: add, refuse, correct and undo safely from several phones, and replay retried POSTs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import jsonschema
import pytest
import yaml
from flask import Flask
from sqlalchemy import select

from scorekeeper.storage import idempotency
from scorekeeper.storage.extensions import db
from scorekeeper.storage.idempotency import IDEMPOTENCY_TTL
from scorekeeper.storage.models import IdempotencyRecord
from tests.api.conftest import TableAccess
from tests.contract import SPEC_PATH

WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
SMALL = {"sides": [{"distance": 300}, {"distance": 450}]}


def hands(table: TableAccess, game_url: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = table.get(game_url).get_json()["hands"]
    return result


def test_adding_a_hand_stores_the_report_and_breakdown(table: TableAccess, game_url: str) -> None:
    response = table.post(game_url + "/hands", WIN)
    assert response.status_code == 201
    assert response.headers["Location"].endswith(game_url + "/hands/1")
    body = response.get_json()
    assert body["report"] == WIN
    assert [side["name"] for side in body["sides"]] == ["Ann", "Bob"]
    assert [side["total"] for side in body["sides"]] == [1900, 0]
    assert body["totals"] == [1900, 0]


def test_refused_hand_names_the_sides_and_stores_nothing(table: TableAccess, game_url: str) -> None:
    report = {
        "sides": [
            {"distance": 75},
            {"distance": 700, "two_hundreds": 0, "completed_trip": True, "claims": ["shutout"]},
        ]
    }
    response = table.post(game_url + "/hands", report)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "path": "/sides/1/claims/0",
            "code": "claim_not_earned",
            "detail": "A shutout is claimed for Bob, but Ann travelled 75 km.",
        }
    ]
    assert hands(table, game_url) == []


def test_hand_reports_are_checked_against_the_game_rules(table: TableAccess) -> None:
    a, b, c, d = table.add_players("A", "B", "C", "D")
    url = f"/games/{table.start_game(4, [[a, c], [b, d]])['id']}/hands"
    response = table.post(
        url,
        {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]},
    )
    assert [e["code"] for e in response.get_json()["errors"]] == ["trip_not_at_target"]
    extension = {
        "extension_called_by": 0,
        "sides": [{"distance": 1000, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}],
    }
    assert table.post(url, extension).get_json()["errors"][0]["code"] == "extension_not_allowed"


def test_hand_after_the_end_of_the_game_is_409(table: TableAccess, game_url: str) -> None:
    for _ in range(3):
        assert table.post(game_url + "/hands", WIN).status_code == 201
    response = table.post(game_url + "/hands", SMALL)
    assert response.status_code == 409
    assert response.mimetype == "application/problem+json"
    assert len(hands(table, game_url)) == 3


def test_idempotent_replay_records_nothing_twice(table: TableAccess, game_url: str) -> None:
    key = {"Idempotency-Key": "phone-1-hand-1"}
    first = table.post(game_url + "/hands", WIN, headers=key)
    again = table.post(game_url + "/hands", WIN, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert len(hands(table, game_url)) == 1


def test_same_key_with_another_body_is_422(table: TableAccess, game_url: str) -> None:
    key = {"Idempotency-Key": "k"}
    table.post(game_url + "/hands", WIN, headers=key)
    response = table.post(game_url + "/hands", SMALL, headers=key)
    assert response.status_code == 422
    (problem,) = response.get_json()["errors"]
    assert (problem["code"], problem["path"]) == ("idempotency_key_reused", "")
    assert len(hands(table, game_url)) == 1


def test_a_distance_beyond_any_table_says_how_far_a_number_may_go(
    table: TableAccess, game_url: str
) -> None:
    response = table.post(game_url + "/hands", {"sides": [{"distance": 10**12}, {"distance": 0}]})
    assert response.status_code == 422
    (problem,) = response.get_json()["errors"]
    assert problem["path"] == "/sides/0/distance"
    assert "within ±1,000,000,000" in problem["detail"]


def test_refused_hand_does_not_burn_its_key(table: TableAccess, game_url: str) -> None:
    key = {"Idempotency-Key": "k"}
    assert (
        table.post(
            game_url + "/hands", {"sides": [{"distance": 30}, {"distance": 0}]}, headers=key
        ).status_code
        == 422
    )
    assert table.post(game_url + "/hands", WIN, headers=key).status_code == 201


def test_read_a_hand_with_etag_and_304(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    response = table.get(game_url + "/hands/1")
    assert response.status_code == 200
    assert response.get_json()["totals"] == [300, 450]
    etag = response.headers["ETag"]
    assert table.get(game_url + "/hands/1", headers={"If-None-Match": etag}).status_code == 304
    assert table.get(game_url + "/hands/2").status_code == 404


def test_correction_needs_if_match(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    response = table.put(game_url + "/hands/1", WIN)
    assert response.status_code == 428
    assert hands(table, game_url)[0]["report"] == SMALL


def test_correction_recomputes_the_totals_after_it(table: TableAccess, game_url: str) -> None:
    for report in (SMALL, SMALL, WIN):
        table.post(game_url + "/hands", report)
    etag = table.get(game_url + "/hands/2").headers["ETag"]
    corrected = {"sides": [{"distance": 600}, {"distance": 25}]}
    response = table.put(game_url + "/hands/2", corrected, headers={"If-Match": etag})
    assert response.status_code == 200
    assert response.headers["ETag"] != etag
    assert [hand["totals"] for hand in hands(table, game_url)] == [
        [300, 450],
        [900, 475],
        [2800, 475],
    ]


def test_stale_if_match_is_412_and_changes_nothing(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    etag = table.get(game_url + "/hands/1").headers["ETag"]
    first = {"sides": [{"distance": 350}, {"distance": 450}]}
    assert table.put(game_url + "/hands/1", first, headers={"If-Match": etag}).status_code == 200
    second = {"sides": [{"distance": 100}, {"distance": 100}]}
    stale = table.put(game_url + "/hands/1", second, headers={"If-Match": etag})
    assert stale.status_code == 412
    assert hands(table, game_url)[0]["report"] == first


def test_refused_correction_changes_nothing(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    etag = table.get(game_url + "/hands/1").headers["ETag"]
    bad = {"sides": [{"distance": 310}, {"distance": 450}]}
    response = table.put(game_url + "/hands/1", bad, headers={"If-Match": etag})
    assert response.status_code == 422
    assert table.get(game_url + "/hands/1").headers["ETag"] == etag


def test_correction_that_would_end_the_game_early_is_refused(
    table: TableAccess, game_url: str
) -> None:
    for report in (WIN, WIN, SMALL, SMALL):  # 3,800 + 600: in progress
        table.post(game_url + "/hands", report)
    etag = table.get(game_url + "/hands/3").headers["ETag"]
    response = table.put(game_url + "/hands/3", WIN, headers={"If-Match": etag})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "hand_after_game_over"


def test_correcting_the_last_hand_can_finish_or_reopen_the_game(
    table: TableAccess, game_url: str
) -> None:
    for report in (WIN, WIN, WIN):
        table.post(game_url + "/hands", report)
    assert table.get(game_url).get_json()["status"] == "finished"
    etag = table.get(game_url + "/hands/3").headers["ETag"]
    table.put(game_url + "/hands/3", SMALL, headers={"If-Match": etag})
    assert table.get(game_url).get_json()["status"] == "in_progress"


def test_undo_the_last_hand(table: TableAccess, game_url: str) -> None:
    for report in (SMALL, WIN):
        table.post(game_url + "/hands", report)
    first = table.get(game_url + "/hands/1").headers["ETag"]
    assert table.delete(game_url + "/hands/1", headers={"If-Match": first}).status_code == 409
    assert table.delete(game_url + "/hands/2").status_code == 428
    last = table.get(game_url + "/hands/2").headers["ETag"]
    assert table.delete(game_url + "/hands/2", headers={"If-Match": '"nope"'}).status_code == 412
    assert table.delete(game_url + "/hands/2", headers={"If-Match": last}).status_code == 204
    assert [h["number"] for h in hands(table, game_url)] == [1]
    assert table.get(game_url).get_json()["totals"] == [300, 450]


def test_undo_reopens_a_finished_game(table: TableAccess, game_url: str) -> None:
    for _ in range(3):
        table.post(game_url + "/hands", WIN)
    etag = table.get(game_url + "/hands/3").headers["ETag"]
    table.delete(game_url + "/hands/3", headers={"If-Match": etag})
    body = table.get(game_url).get_json()
    assert (body["status"], body["winner"], body["finished_at"]) == ("in_progress", None, None)


def test_oversized_hand_is_413(table: TableAccess, game_url: str) -> None:
    response = table.client.post(
        table.url + game_url + "/hands",
        data="{" + " " * 300_000 + "}",
        content_type="application/json",
        headers=table.headers,
    )
    assert response.status_code == 413


def test_the_games_current_etag_also_allows_a_change(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    game_etag = table.get(game_url).headers["ETag"]
    response = table.put(game_url + "/hands/1", WIN, headers={"If-Match": game_etag})
    assert response.status_code == 200
    stale = table.put(game_url + "/hands/1", SMALL, headers={"If-Match": game_etag})
    assert stale.status_code == 412


def test_undo_answers_204_without_a_body(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    etag = table.get(game_url + "/hands/1").headers["ETag"]
    response = table.delete(game_url + "/hands/1", headers={"If-Match": etag})
    assert response.status_code == 204
    assert response.data == b""
    assert "Content-Type" not in response.headers


def test_an_etag_from_before_an_undo_never_matches_the_new_hand(
    table: TableAccess, game_url: str
) -> None:
    table.post(game_url + "/hands", SMALL)
    table.post(game_url + "/hands", SMALL)
    stale = table.get(game_url + "/hands/2").headers["ETag"]
    assert table.delete(game_url + "/hands/2", headers={"If-Match": stale}).status_code == 204
    table.post(game_url + "/hands", WIN)  # hand 2 again (SQLite may even reuse its row id)
    response = table.put(game_url + "/hands/2", SMALL, headers={"If-Match": stale})
    assert response.status_code == 412
    assert hands(table, game_url)[1]["report"] == WIN


def test_if_match_star_is_not_enough(table: TableAccess, game_url: str) -> None:
    table.post(game_url + "/hands", SMALL)
    assert table.put(game_url + "/hands/1", WIN, headers={"If-Match": "*"}).status_code == 428


def test_a_hands_etag_changes_when_an_earlier_hand_is_corrected(
    table: TableAccess, game_url: str
) -> None:
    table.post(game_url + "/hands", SMALL)
    table.post(game_url + "/hands", SMALL)
    second = table.get(game_url + "/hands/2").headers["ETag"]
    first = table.get(game_url + "/hands/1").headers["ETag"]
    table.put(game_url + "/hands/1", WIN, headers={"If-Match": first})
    response = table.get(game_url + "/hands/2", headers={"If-None-Match": second})
    assert response.status_code == 200
    assert response.get_json()["totals"] == [2200, 450]


def test_a_replayed_hand_carries_the_first_answers_etag(table: TableAccess, game_url: str) -> None:
    key = {"Idempotency-Key": "phone-1-hand-1"}
    first = table.post(game_url + "/hands", SMALL, headers=key)
    again = table.post(game_url + "/hands", SMALL, headers=key)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]
    assert table.get(game_url + "/hands/1").headers["ETag"] == first.headers["ETag"]


def test_the_contract_refuses_if_match_star_as_the_server_does(
    table: TableAccess, game_url: str
) -> None:
    table.post(game_url + "/hands", SMALL)
    parameter = yaml.safe_load(SPEC_PATH.read_text())["components"]["parameters"]["IfMatch"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("*", parameter["schema"])
    etag = table.get(game_url + "/hands/1").headers["ETag"]
    jsonschema.validate(etag, parameter["schema"])
    assert "428" in parameter["description"]
    response = table.delete(game_url + "/hands/1", headers={"If-Match": "*"})
    assert response.status_code == 428
    assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize("key", ["a\x00b", "caf\xe9", "tab\tkey", "x" * 256])
def test_an_idempotency_key_that_is_not_printable_ascii_is_400(
    table: TableAccess, game_url: str, key: str
) -> None:
    response = table.post(game_url + "/hands", SMALL, headers={"Idempotency-Key": key})
    assert response.status_code == 400
    assert "Idempotency-Key" in response.get_json()["detail"]
    assert hands(table, game_url) == []


def age_keys(app: Flask, by: timedelta) -> None:
    """Move every stored idempotency record ``by`` into the past."""
    with app.app_context():
        for record in db.session.execute(select(IdempotencyRecord)).scalars():
            record.created_at -= by
        db.session.commit()


def stored_keys(app: Flask) -> list[str]:
    with app.app_context():
        return sorted(db.session.execute(select(IdempotencyRecord.key)).scalars())


def test_an_expired_key_answers_nothing(app: Flask, table: TableAccess, game_url: str) -> None:
    """Past its time a key is a new key: a reused one records its request, never replays (or
    refuses) with the old answer."""
    key = {"Idempotency-Key": "reused"}
    table.post(game_url + "/hands", SMALL, headers=key)
    age_keys(app, IDEMPOTENCY_TTL + timedelta(minutes=1))
    response = table.post(game_url + "/hands", WIN, headers=key)
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response.headers
    assert [hand["report"] for hand in hands(table, game_url)] == [SMALL, WIN]
    assert table.post(game_url + "/hands", WIN, headers=key).headers["Idempotent-Replayed"]


def test_expired_keys_are_swept_once_in_a_while(
    app: Flask, table: TableAccess, game_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keyed write sweeps its table's expired records if this process has not done so for
    :data:`SWEEP_EVERY` seconds; in between, they stay (and answer nothing)."""
    now = 1000.0
    monkeypatch.setattr(idempotency, "monotonic", lambda: now)
    table.post(game_url + "/hands", SMALL, headers={"Idempotency-Key": "old"})
    age_keys(app, IDEMPOTENCY_TTL + timedelta(minutes=1))
    now += idempotency.SWEEP_EVERY - 1
    table.post(game_url + "/hands", SMALL, headers={"Idempotency-Key": "a"})
    assert stored_keys(app) == ["a", "old"]
    now += 1
    table.post(game_url + "/hands", SMALL, headers={"Idempotency-Key": "b"})
    assert stored_keys(app) == ["a", "b"]


def test_a_hand_that_names_its_number_is_recorded_only_as_that_hand(
    table: TableAccess, game_url: str
) -> None:
    """Two clients that read the game at 0 hands both send hand 1 without a shared key: the first
    records it, the second is answered 409 (openapi.yaml, addHand) and records no hand 2. A hand
    that names the next number is recorded; a body without ``number`` is as before."""
    assert table.post(game_url + "/hands", {**SMALL, "number": 1}).status_code == 201
    stale = table.post(game_url + "/hands", {**WIN, "number": 1})
    assert stale.status_code == 409
    assert stale.mimetype == "application/problem+json"
    assert "next hand is hand 2, not hand 1" in stale.get_json()["detail"]
    ahead = table.post(game_url + "/hands", {**WIN, "number": 3})
    assert ahead.status_code == 409
    assert [hand["report"] for hand in hands(table, game_url)] == [SMALL]
    second = table.post(game_url + "/hands", {**SMALL, "number": 2})
    assert second.status_code == 201
    assert second.get_json()["number"] == 2
    assert "number" not in second.get_json()["report"]  # the report stored is the hand alone
    assert table.post(game_url + "/hands", SMALL).get_json()["number"] == 3


@pytest.mark.parametrize("number", [0, "2", 2.5, True, 2**31])
def test_a_hand_number_that_is_not_a_hand_is_422(
    table: TableAccess, game_url: str, number: object
) -> None:
    answer = table.post(game_url + "/hands", {**SMALL, "number": number})
    assert answer.status_code == 422
    assert [problem["path"] for problem in answer.get_json()["errors"]] == ["/number"]
    assert hands(table, game_url) == []


def test_a_stale_hand_number_keeps_no_key(table: TableAccess, game_url: str) -> None:
    """A hand refused for its number does not burn its Idempotency-Key: the same key with the
    right number, a new request, is then recorded."""
    table.post(game_url + "/hands", SMALL)
    key = {"Idempotency-Key": "stale-number"}
    assert table.post(game_url + "/hands", {**SMALL, "number": 1}, headers=key).status_code == 409
    again = table.post(game_url + "/hands", {**SMALL, "number": 2}, headers=key)
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers


def test_a_hand_read_before_later_hands_were_added_is_still_current(
    table: TableAccess, game_url: str
) -> None:
    """A hand's tag names the hand and the totals after it, nothing later: recording hand 2
    leaves hand 1's tag, so a correction of hand 1 read before it is not refused."""
    first = table.post(game_url + "/hands", SMALL)
    read = table.get(game_url + "/hands/1")
    assert read.headers["ETag"] == first.headers["ETag"]
    assert table.post(game_url + "/hands", SMALL).status_code == 201
    assert table.get(game_url + "/hands/1").headers["ETag"] == read.headers["ETag"]
    corrected = table.put(game_url + "/hands/1", WIN, headers={"If-Match": read.headers["ETag"]})
    assert corrected.status_code == 200, corrected.get_json()


def test_a_412_says_whether_the_hand_or_one_before_it_changed(
    table: TableAccess, game_url: str
) -> None:
    table.post(game_url + "/hands", SMALL)
    table.post(game_url + "/hands", SMALL)
    one, two = (table.get(game_url + f"/hands/{n}").headers["ETag"] for n in (1, 2))
    assert table.put(game_url + "/hands/1", WIN, headers={"If-Match": one}).status_code == 200
    before = table.put(game_url + "/hands/2", WIN, headers={"If-Match": two})
    assert before.status_code == 412
    assert "A hand before hand 2 was corrected" in before.get_json()["detail"]
    itself = table.put(game_url + "/hands/1", SMALL, headers={"If-Match": one})
    assert itself.status_code == 412
    assert itself.get_json()["detail"].startswith("Hand 1 changed since you read it")


def test_a_hand_is_recorded_only_on_the_game_read_when_if_match_names_it(
    table: TableAccess, game_url: str
) -> None:
    """Two phones that read the game at one version and record a hand each with If-Match: the
    second is refused, and the game holds one hand, not two."""
    read = table.get(game_url).headers["ETag"]
    assert table.post(game_url + "/hands", SMALL, headers={"If-Match": read}).status_code == 201
    second = table.post(game_url + "/hands", SMALL, headers={"If-Match": read})
    assert second.status_code == 412
    assert "The game changed since you read it (it has 1 hands now)" in second.get_json()["detail"]
    assert len(hands(table, game_url)) == 1
    current = table.get(game_url).headers["ETag"]
    assert table.post(game_url + "/hands", SMALL, headers={"If-Match": current}).status_code == 201
    assert table.post(game_url + "/hands", SMALL, headers={"If-Match": "*"}).status_code == 201
