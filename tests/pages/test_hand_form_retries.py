"""The hand form's POSTs with an ``Idempotency-Key``, as a phone's queue of hands resends them:
a retry of a hand (or a correction) that was recorded is answered again, never recorded twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.storage.extensions import db
from scorekeeper.storage.idempotency import IDEMPOTENCY_TTL
from scorekeeper.storage.models import IdempotencyRecord
from tests.api.conftest import TableAccess
from tests.hand_forms import ETAG, hand_form, hands, joined_game


@pytest.fixture
def game(client: FlaskClient) -> tuple[TableAccess, str]:
    """A 2-player game at a table this phone has joined (its cookie), and its pages' path."""
    return joined_game(client)


def test_a_retried_hand_is_recorded_once(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    form = hand_form(client, path + "/hands/new", 1)
    key = {"Idempotency-Key": "phone-1-hand-1"}
    first = client.post(path + "/hands/new", data=form, headers=key)
    again = client.post(path + "/hands/new", data=form, headers=key)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"] == path
    assert again.headers["Idempotent-Replayed"] == "true"
    assert hands(table, path) == [300]


def test_a_retry_after_another_hand_is_answered_not_refused(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    """The answer was lost, and the phone sent its next hand meanwhile: the retry of hand 1 is
    still the answer to hand 1 (without its key it would be a 409, hand 1 being taken)."""
    table, path = game
    first = hand_form(client, path + "/hands/new", 1)
    client.post(path + "/hands/new", data=first, headers={"Idempotency-Key": "h1"})
    second = hand_form(client, path + "/hands/new", 2, km=100)
    assert client.post(path + "/hands/new", data=second).status_code == 302
    retry = client.post(path + "/hands/new", data=first, headers={"Idempotency-Key": "h1"})
    assert retry.status_code == 302
    assert hands(table, path) == [300, 100]


def test_the_csrf_token_is_not_part_of_the_request(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    form = hand_form(client, path + "/hands/new", 1)
    client.post(path + "/hands/new", data=form, headers={"Idempotency-Key": "k"})
    with client.session_transaction() as session:
        session.pop("csrf_token")  # a new session's token, the hand the same
    retry = {**form, "csrf_token": hand_form(client, path + "/hands/new", 2)["csrf_token"]}
    assert (
        client.post(path + "/hands/new", data=retry, headers={"Idempotency-Key": "k"}).status_code
        == 302
    )
    assert hands(table, path) == [300]


def test_the_same_key_for_another_hand_is_refused(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    client.post(
        path + "/hands/new",
        data=hand_form(client, path + "/hands/new", 1),
        headers={"Idempotency-Key": "k"},
    )
    other = hand_form(client, path + "/hands/new", 2, km=100)
    response = client.post(path + "/hands/new", data=other, headers={"Idempotency-Key": "k"})
    assert response.status_code == 422
    assert response.mimetype == "text/html"
    assert hands(table, path) == [300]


def test_a_refused_hand_keeps_no_key(client: FlaskClient, game: tuple[TableAccess, str]) -> None:
    """Hand 1 is taken when the phone sends its own hand 1: 409, and nothing stored under the
    key, so the same hand sent again as hand 2 with the same key is checked afresh... and
    refused as another request (its number differs); sent again unchanged, it is 409 again."""
    table, path = game
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1, km=100))
    late = hand_form(client, path + "/hands/new", 1)
    key = {"Idempotency-Key": "late"}
    assert client.post(path + "/hands/new", data=late, headers=key).status_code == 409
    assert client.post(path + "/hands/new", data=late, headers=key).status_code == 409
    assert (
        client.post(
            path + "/hands/new", data={**late, "number": "2"}, headers={"Idempotency-Key": "next"}
        ).status_code
        == 302
    )
    assert hands(table, path) == [100, 300]


def test_a_retried_correction_is_applied_once(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    """The correction's retry carries the ETag it was read at, which no longer matches once the
    first attempt went through: without the key it would be answered 409."""
    table, path = game
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1))
    page = client.get(path + "/hands/1").text
    etag = ETAG.search(page)
    assert etag
    form = {**hand_form(client, path + "/hands/1", 1, km=200), "etag": etag.group(1)}
    key = {"Idempotency-Key": "fix-1"}
    assert client.post(path + "/hands/1", data=form, headers=key).status_code == 302
    again = client.post(path + "/hands/1", data=form, headers=key)
    assert again.status_code == 302
    assert again.headers["Idempotent-Replayed"] == "true"
    assert hands(table, path) == [200]
    assert client.post(path + "/hands/1", data=form).status_code == 409  # without the key


def test_a_hand_where_nothing_was_entered_is_recorded_only_when_confirmed(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    """Save tapped on the form as it opens (nobody completing the trip is its default) is
    refused, the form shown again with a box that records the hand all the same; whatever
    anyone entered, even a claim alone, goes through at once."""
    table, path = game
    form = hand_form(client, path + "/hands/new", 1)
    blank = {"csrf_token": form["csrf_token"], "number": "1", "completed": ""}
    for nothing in (blank, {**blank, "s0-km": "0", "s1-d100": "0"}):
        refused = client.post(path + "/hands/new", data=nothing, headers={"Idempotency-Key": "a"})
        assert refused.status_code == 422
        assert refused.mimetype == "text/html"
        assert "Nothing was entered for this hand." in refused.text
        assert 'name="empty"' in refused.text
        assert "Record it anyway: nobody scored" in refused.text
        assert 'name="number" value="1"' in refused.text
    assert hands(table, path) == []
    confirmed = client.post(path + "/hands/new", data={**blank, "empty": "1"})
    assert confirmed.status_code == 302
    assert confirmed.headers["Location"] == path
    assert len(hands(table, path)) == 1
    recorded = client.get(path + "/hands/new").text
    assert 'name="number" value="2"' in recorded
    assert 'name="empty"' not in recorded  # the box shows only with the refusal
    safety = {**blank, "number": "2", "s1-safety-extra_tank": "on"}
    assert client.post(path + "/hands/new", data=safety).status_code == 302
    assert len(hands(table, path)) == 2


def test_an_expired_key_is_a_new_key(
    app: Flask, client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    """Past its time, the key of hand 1 sent with hand 2 records hand 2 (a key still current
    would refuse it as another request, 422)."""
    table, path = game
    key = {"Idempotency-Key": "k"}
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1), headers=key)
    with app.app_context():
        for record in db.session.execute(select(IdempotencyRecord)).scalars():
            record.created_at -= IDEMPOTENCY_TTL + timedelta(minutes=1)
        db.session.commit()
    other = hand_form(client, path + "/hands/new", 2, km=100)
    assert client.post(path + "/hands/new", data=other, headers=key).status_code == 302
    assert hands(table, path) == [300, 100]
