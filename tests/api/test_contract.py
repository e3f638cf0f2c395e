"""openapi.yaml is a valid OpenAPI 3.1 document, and the server keeps to it under fuzzing."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
import schemathesis
import yaml
from flask import Flask, Response
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scorekeeper import create_app
from tests.contract import SPEC_PATH, ContractError, check_response, header_problems

SCHEMA = schemathesis.openapi.from_path(str(SPEC_PATH))
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))


def _fuzzing_app() -> tuple[Flask, int, str]:
    """An app on its own migrated SQLite file, with a table, players, a game with hands and a
    virtual game, so
    the fuzzer reaches real resources and not only 404s. Built once per module: schemathesis
    and Hypothesis do not go with function-scoped fixtures."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-fuzz-"))
    database = f"sqlite:///{folder / 'fuzz.sqlite3'}"
    # A generated `Prefer: wait` on a quiet feed waits at most a second: the contract is what is
    # fuzzed here, not how long a wait lasts (tests/api/test_live.py, test_feed.py).
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database, "LIVE_WAIT": 1})
    with app.app_context():
        upgrade()
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"name": "Fuzz"}).get_json()
    url, auth = f"/api/v1/tables/{created['id']}", {"Authorization": f"Bearer {created['token']}"}
    ids = [
        client.post(url + "/players", json={"name": n}, headers=auth).get_json()["id"]
        for n in ("Ann", "Bob")
    ]
    game = client.post(
        url + "/games",
        json={"players": 2, "sides": [{"players": [ids[0]]}, {"players": [ids[1]]}]},
        headers=auth,
    ).get_json()
    client.post(
        f"{url}/games/{game['id']}/hands",
        json={"sides": [{"distance": 300}, {"distance": 450}]},
        headers=auth,
    )
    client.post(
        url + "/virtual-games",
        json={"players": 2, "seats": [{"player": ids[0]}, {"computer": "greedy"}]},
        headers=auth,
    )
    return app, created["id"], created["token"]


APP, TABLE_ID, TOKEN = _fuzzing_app()
SCHEMA.app = APP  # every request, the checks' own extra ones included, goes to the app in-process
# A schema-violating body can also be too large for the server: 413 (documented) refuses it too.
SCHEMA.config.checks.negative_data_rejection.expected_statuses.append("413")


def test_spec_is_valid_openapi_31() -> None:
    document = yaml.safe_load(SPEC_PATH.read_text())
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_spec_uses_no_30_nullable() -> None:
    assert "nullable:" not in SPEC_PATH.read_text()


REFERENCE = {"/api/openapi.yaml", "/api/docs", "/api/docs/<path:filename>"}
"""The API's reference (``scorekeeper/api/reference.py``): the contract itself, and a page and its
files to read it. They are served under ``/api/`` but are no operation of the API (HTML, YAML and
Swagger UI's files for a reader, no token, no change), so the spec does not list them."""


def test_every_route_of_the_api_is_in_the_spec() -> None:
    documented = {
        (path, method.upper())
        for path, operations in yaml.safe_load(SPEC_PATH.read_text())["paths"].items()
        for method in operations
        if method != "parameters"
    }
    served = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method)
        for rule in APP.url_map.iter_rules()
        if rule.rule.startswith("/api/") and rule.rule not in REFERENCE
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == documented


def test_every_operation_has_one_declared_tag_and_its_own_id() -> None:
    """The reference groups the operations by tag, and a client generator names its modules and
    functions after the tags and the operationIds."""
    spec = yaml.safe_load(SPEC_PATH.read_text())
    declared = [tag["name"] for tag in spec["tags"]]
    operations = [
        operation
        for item in spec["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "responses" in operation
    ]
    assert all(len(operation.get("tags", [])) == 1 for operation in operations)
    used = {operation["tags"][0] for operation in operations}
    assert used == set(declared)
    ids = [operation["operationId"] for operation in operations]
    assert len(ids) == len(set(ids))


def test_the_routes_left_out_of_the_spec_are_the_references_and_only_read() -> None:
    """Nothing else under ``/api/`` escapes the check above, and what does changes nothing."""
    left_out = sorted(
        (
            rule.rule,
            rule.endpoint.split(".")[0],
            sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}),
        )
        for rule in APP.url_map.iter_rules()
        if rule.rule in REFERENCE or rule.endpoint.startswith("reference.")
    )
    assert left_out == [(path, "reference", ["GET"]) for path in sorted(REFERENCE)]


def test_the_served_document_is_openapi_yaml_byte_for_byte() -> None:
    """What the reference page and any client read at ``/api/openapi.yaml`` is this contract,
    the very file every test here checks the server against."""
    with APP.test_client().get("/api/openapi.yaml") as response:
        assert response.status_code == 200
        assert response.mimetype == "application/yaml"
        served = response.data
    assert served == SPEC_PATH.read_bytes()
    assert yaml.safe_load(served) == yaml.safe_load(SPEC_PATH.read_text())


@SCHEMA.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_keeps_to_the_spec_under_fuzzing(case: schemathesis.Case) -> None:
    headers = None
    positive = case.meta is None or case.meta.generation.mode.is_positive
    if positive:
        # Well-formed requests go to the table built above, with its token; malformed ones are
        # sent as generated, so they must be refused for what is wrong with them.
        if case.path_parameters and "table_id" in case.path_parameters:
            case.path_parameters["table_id"] = TABLE_ID
        headers = {"Authorization": f"Bearer {TOKEN}"}
    # A report can fit the schema and still break the rules (a shutout claimed against a side
    # with km): that is a 422 by design, so "valid data is accepted" cannot hold here. Nor can
    # it for the ids of games or hands that do not exist (404).
    response = case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
    # Each header once, as tests/contract.py holds every API test's answers.
    where = f"{case.method} {case.path} → {response.status_code}"
    sent = [name for name, values in response.headers.items() for _ in values]
    assert header_problems(where, sent) == []


def answered(path: str, method: str, response: Response) -> Response:
    """``response`` as the test client gives it for ``method path``: with its request."""
    with APP.test_request_context(path, method=method) as context:
        response.request = context.request  # type: ignore[attr-defined]
    return response


@pytest.mark.parametrize(
    ("path", "method", "response", "said"),
    [
        (
            "/api/v1/score",
            "POST",
            Response('{"target": 700}', status=200, mimetype="application/json"),
            '"sides" is a required property',
        ),
        (
            "/api/v1/score",
            "POST",
            Response("{}", status=418, mimetype="application/json"),
            "declares no such answer",
        ),
        (
            "/api/v1/tables/1/games/2",
            "GET",
            Response("<p>game</p>", status=200, mimetype="text/html"),
            "content type 'text/html'",
        ),
        (
            "/api/v1/tables/1/virtual-games/2",
            "GET",
            Response(
                "{}", status=200, mimetype="application/json", headers={"Preference-Applied": "x"}
            ),
            "the header Preference-Applied",
        ),
        (
            "/api/v1/tables/1/games/2",
            "GET",
            Response("not json", status=200, mimetype="application/json"),
            "not JSON",
        ),
        (
            "/api/v1/tables/1/players",
            "GET",
            Response(
                '{"items": []}',
                mimetype="application/json",
                headers=[("Cache-Control", "no-cache"), ("Cache-Control", "private")],
            ),
            "the header cache-control is sent more than once",
        ),
        (
            "/api/v1/tables/1/players",
            "GET",
            Response(
                '{"items": []}',
                mimetype="application/json",
                headers={"Date": "Wed, 02 Dec 2026 03:49:15 GMT"},
            ),
            "the app sends date, which the server sends too",
        ),
    ],
)
def test_the_contract_check_catches_a_response_off_the_spec(
    path: str, method: str, response: Response, said: str
) -> None:
    with pytest.raises(ContractError, match=re.escape(said)):
        check_response(answered(path, method, response))


def test_the_contract_check_passes_a_path_the_spec_does_not_name() -> None:
    """Unknown paths and methods are the API tests' own to check (their 404 and 405)."""
    check_response(answered("/api/v1/nowhere", "GET", Response("x", status=404)))
