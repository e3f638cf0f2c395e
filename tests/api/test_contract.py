"""openapi.yaml is a valid OpenAPI 3.1 document, and the server keeps to it under fuzzing."""

from __future__ import annotations

import os

import pytest
import schemathesis
import yaml
from flask import Response
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scorekeeper import create_app
from tests.contract import SPEC_PATH, check_response

SCHEMA = schemathesis.openapi.from_path(str(SPEC_PATH))
APP = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))


def test_spec_is_valid_openapi_31() -> None:
    document = yaml.safe_load(SPEC_PATH.read_text())
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_spec_uses_no_30_nullable() -> None:
    assert "nullable:" not in SPEC_PATH.read_text()


def test_every_route_of_the_api_is_in_the_spec() -> None:
    documented = {
        (path, method.upper())
        for path, operations in yaml.safe_load(SPEC_PATH.read_text())["paths"].items()
        for method in operations
    }
    served = {
        (rule.rule, method)
        for rule in APP.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == documented


@SCHEMA.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_keeps_to_the_spec_under_fuzzing(case: schemathesis.Case) -> None:
    # A report can fit the schema and still break the rules (a shutout claimed against a side
    # with km): that is a 422 by design, so "valid data is accepted" cannot hold here.
    case.call_and_validate(app=APP, excluded_checks=[positive_data_acceptance])


def test_the_contract_check_catches_a_response_off_the_spec() -> None:
    with APP.test_request_context("/api/v1/score", method="POST") as context:
        response = Response('{"target": 700}', status=200, mimetype="application/json")
        response.request = context.request  # type: ignore[attr-defined]
        with pytest.raises(Exception, match="sides"):
            check_response(response)
