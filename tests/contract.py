"""openapi.yaml as a test oracle: every response an API test receives is checked against it.

A response is held to its operation in the spec: its status must be one the operation declares
(or a ``2XX``-style range, or ``default``), its content type one that answer declares, its body
valid against that content's schema (JSON Schema 2020-12, OpenAPI 3.1's dialect, formats
included), and each header the answer declares present if required and valid against its schema.
The schemas are validated by jsonschema-rs, the validator schemathesis itself uses: openapi-core
took 12 ms a response, half of all the time the API tests spent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import orjson
import yaml
from flask.testing import FlaskClient

SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
SPEC: dict[str, Any] = yaml.safe_load(SPEC_PATH.read_text())
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class ContractError(AssertionError):
    """A response that does not keep to openapi.yaml."""


@dataclass(frozen=True)
class Route:
    """An operation of the spec: the paths it answers, by its method."""

    template: str
    pattern: re.Pattern[str]
    method: str

    @property
    def operation(self) -> dict[str, Any]:
        operation: dict[str, Any] = SPEC["paths"][self.template][self.method]
        return operation


def _pattern(template: str) -> re.Pattern[str]:
    """The paths a template such as ``/tables/{table_id}`` stands for."""
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")


ROUTES = sorted(
    (
        Route(template, _pattern(template), method)
        for template, item in SPEC["paths"].items()
        for method in item
        if method in METHODS
    ),
    key=lambda route: route.template.count("{"),
)
"""Every operation, a path with fewer parameters first: ``/games/export`` is matched before
``/games/{game_id}``, as OpenAPI says a concrete path wins."""


def resolved(node: dict[str, Any]) -> dict[str, Any]:
    """``node``, or what its ``$ref`` (within the spec) points to."""
    while "$ref" in node:
        pointer = node["$ref"].removeprefix("#/").split("/")
        node = SPEC
        for part in pointer:
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def schema_validator(schema: dict[str, Any]) -> Any:
    """``schema`` as a validator, the spec's components beside it so that its
    ``#/components/...`` references resolve."""
    return jsonschema_rs.validator_for(
        {**schema, "components": SPEC["components"]}, validate_formats=True
    )


@cache
def body_validator(route: Route, status: str, media: str) -> Any:
    """The schema of ``route``'s answer ``status`` in ``media``."""
    answer = resolved(route.operation["responses"][status])
    return schema_validator(answer["content"][media]["schema"])


@cache
def header_validator(route: Route, status: str, name: str) -> Any:
    """The schema of the header ``name`` of ``route``'s answer ``status``."""
    header = resolved(resolved(route.operation["responses"][status])["headers"][name])
    return schema_validator(header.get("schema", {}))


def declared_status(responses: dict[str, Any], status: int) -> str | None:
    """The key of ``responses`` that answers ``status``: itself, its range, or ``default``."""
    for key in (str(status), f"{str(status)[0]}XX", "default"):
        if key in responses:
            return key
    return None


def header_value(schema: dict[str, Any], value: str) -> Any:
    """A header's text as the type its schema names (a header is always sent as text)."""
    if schema.get("type") == "integer" and re.fullmatch(r"-?[0-9]+", value):
        return int(value)
    return value


def problems(method: str, path: str, response: Any) -> list[str]:
    """What in ``response`` to ``method path`` breaks the spec (nothing for a path or method the
    spec does not name: the API tests check those 404 and 405 answers themselves)."""
    route = next((r for r in ROUTES if r.method == method.lower() and r.pattern.match(path)), None)
    if route is None:
        return []
    where = f"{method} {route.template} → {response.status_code}"
    responses = route.operation["responses"]
    status = declared_status(responses, response.status_code)
    if status is None:
        return [f"{where}: the spec declares no such answer (it has {', '.join(responses)})"]
    answer = resolved(responses[status])
    found = []
    content = answer.get("content", {})
    body = response.get_data()
    if not content:
        if body and method.upper() != "HEAD":
            found.append(f"{where}: a body where the spec declares none")
    elif response.mimetype not in content:
        found.append(f"{where}: content type {response.mimetype!r}, not one of {list(content)}")
    elif response.mimetype.endswith("json"):
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError as error:
            return [*found, f"{where}: the body is not JSON ({error})"]
        for error in body_validator(route, status, response.mimetype).iter_errors(document):
            pointer = "/" + "/".join(map(str, error.instance_path))
            found.append(f"{where}: at {pointer}: {error.message}")
    found += header_problems(where, [name for name, _ in response.headers])
    for name, declared in answer.get("headers", {}).items():
        header = resolved(declared)
        value = response.headers.get(name)
        if value is None:
            if header.get("required"):
                found.append(f"{where}: the header {name} is missing")
            continue
        typed = header_value(header.get("schema", {}), value)
        for error in header_validator(route, status, name).iter_errors(typed):
            found.append(f"{where}: the header {name}: {error.message}")
    return found


REPEATABLE = frozenset({"set-cookie"})
"""The one header an answer may carry more than once (RFC 9110 §5.3: its values cannot be
joined into one line)."""
SERVER_HEADERS = frozenset({"date", "server", "connection", "transfer-encoding"})
"""Headers the server writes on every answer: one the app sent too would reach the client twice
(gunicorn does not look for the app's)."""


def header_problems(where: str, names: list[str], *, on_the_wire: bool = False) -> list[str]:
    """Why the headers named ``names`` (in order, as sent) are not each sent once: a header
    repeated, or, in an answer as the app makes it (not ``on_the_wire``, where the server has
    added its own), one the server will add again."""
    lowered = [name.lower() for name in names]
    repeated = sorted({name for name in lowered if lowered.count(name) > 1} - REPEATABLE)
    found = [f"{where}: the header {name} is sent more than once" for name in repeated]
    if on_the_wire:
        return found
    found += [
        f"{where}: the app sends {name}, which the server sends too"
        for name in sorted(SERVER_HEADERS & set(lowered))
    ]
    return found


def check_response(response: Any) -> None:
    """Raise if ``response`` (to a request the spec describes) does not match the spec."""
    found = problems(response.request.method, response.request.path, response)
    if found:
        raise ContractError("\n".join(found))


class ContractClient(FlaskClient):
    """A test client that checks every response it receives against openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        check_response(response)
        return response
