"""Each answer names its request: the client's X-Request-Id when it is a sane one, a new UUID
otherwise; a problem document names the same id as its instance, and the app's log lines too."""

from __future__ import annotations

import logging
import uuid

import pytest
from flask import Flask
from flask.testing import FlaskClient


def test_a_new_id_is_made_for_each_request(client: FlaskClient) -> None:
    first = client.get("/api/v1/tables/1")
    second = client.get("/api/v1/tables/1")
    ids = [first.headers["X-Request-Id"], second.headers["X-Request-Id"]]
    assert ids[0] != ids[1]
    assert all(uuid.UUID(found) for found in ids)
    assert first.get_json()["instance"] == f"urn:request:{ids[0]}"


def test_the_clients_own_id_is_kept(client: FlaskClient) -> None:
    sent = "bot-7:run.42"
    answer = client.post("/api/v1/tables", json={"name": ""}, headers={"X-Request-Id": sent})
    assert answer.status_code == 422
    assert answer.headers["X-Request-Id"] == sent
    assert answer.get_json()["instance"] == f"urn:request:{sent}"
    assert client.get("/", headers={"X-Request-Id": sent}).headers["X-Request-Id"] == sent


@pytest.mark.parametrize(
    "sent", ["", "two words", "x" * 129, "a\tb", "%(secret)s", "-starts-with-a-dash", "é"]
)
def test_an_id_that_could_split_a_log_line_is_replaced(client: FlaskClient, sent: str) -> None:
    answer = client.get("/api/v1/tables/1", headers={"X-Request-Id": sent})
    assert answer.headers["X-Request-Id"] != sent
    assert uuid.UUID(answer.headers["X-Request-Id"])


def test_the_apps_log_line_names_the_request(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        answer = client.get("/boom", headers={"X-Request-Id": "quote-me"})
    assert answer.status_code == 500
    assert any("[request quote-me]" in record.getMessage() for record in caplog.records)
