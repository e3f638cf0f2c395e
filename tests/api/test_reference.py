"""The API's reference as the server answers it: a page that loads only this app's files under a
policy that allows no inline script, Swagger UI's files from the package, and the contract shipped
with the package (the browser's side is in ``tests/pages/test_api_reference.py``; the served
document's identity with ``openapi.yaml`` is in ``test_contract.py``)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from scorekeeper.api.reference import SWAGGER_UI, SWAGGER_UI_FILES, SWAGGER_UI_VERSION
from scorekeeper.web.security import PAGE_POLICY, REFERENCE_POLICY
from tests.api.conftest import TableAccess
from tests.contract import SPEC_PATH

ROOT = Path(__file__).resolve().parents[2]


class Loads(HTMLParser):
    """What a page makes the browser fetch or run: each script's ``src`` (``None`` for an inline
    one) and each stylesheet's or icon's ``href``."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str | None] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts.append(found.get("src"))
        elif tag == "link" and found.get("href"):
            self.links.append(str(found["href"]))


def test_the_reference_page_loads_only_the_apps_own_files(client: FlaskClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    loads = Loads()
    loads.feed(response.text)
    assert None not in loads.scripts  # no inline script: the page's policy would refuse it
    addresses = [*loads.scripts, *loads.links]
    assert len(addresses) == 5
    assert all(
        str(address).startswith("/") and not str(address).startswith("//") for address in addresses
    )
    for address in addresses:
        with client.get(str(address)) as asset:
            assert asset.status_code == 200, address
    assert 'data-spec="/api/openapi.yaml"' in response.text


def test_the_reference_page_relaxes_the_pages_policy_for_data_images_only(
    client: FlaskClient,
) -> None:
    policy = client.get("/api/docs").headers["Content-Security-Policy"]
    assert policy == REFERENCE_POLICY
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    pages = dict(part.split(" ", 1) for part in PAGE_POLICY.split("; "))
    assert directives.pop("img-src") == "'self' data:"
    pages.pop("img-src")
    assert directives == pages  # scripts and styles: this app's own, nothing inline
    assert "unsafe" not in policy


def test_the_reference_page_speaks_the_requests_language(client: FlaskClient) -> None:
    page = client.get("/api/docs", headers={"Accept-Language": "fr"}).text
    assert '<html lang="fr">' in page


@pytest.mark.parametrize("name", sorted(SWAGGER_UI_FILES))
def test_swagger_uis_files_under_their_version_are_kept_a_year(
    client: FlaskClient, name: str
) -> None:
    with client.get(f"/api/docs/{name}?v={SWAGGER_UI_VERSION}") as response:
        assert response.status_code == 200
        assert response.get_data() == (SWAGGER_UI / name).read_bytes()
        assert response.cache_control.max_age == 365 * 24 * 3600
        assert response.cache_control.immutable and response.cache_control.public


def test_swagger_uis_files_under_another_version_are_revalidated(client: FlaskClient) -> None:
    with client.get("/api/docs/swagger-ui.css?v=0.0.1") as response:
        assert response.status_code == 200
        assert not response.cache_control.immutable
        etag = response.headers["ETag"]
    with client.get("/api/docs/swagger-ui.css", headers={"If-None-Match": etag}) as again:
        assert again.status_code == 304


@pytest.mark.parametrize(
    "name", ["index.css", "swagger-initializer.js", "../openapi.yaml", "../../app.py", "nothing"]
)
def test_nothing_else_of_swagger_uis_folder_or_beyond_is_served(
    client: FlaskClient, name: str
) -> None:
    response = client.get(f"/api/docs/{name}")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_the_package_carries_the_swagger_ui_its_version_names() -> None:
    """The version in the files' addresses (the package's) is the Swagger UI they are; 5 and
    later read OpenAPI 3.1, which the contract is written in."""
    assert (SWAGGER_UI / "VERSION").read_text().strip() == f"v{SWAGGER_UI_VERSION}"
    assert int(SWAGGER_UI_VERSION.split(".")[0]) >= 5
    assert re.search(r"^openapi: 3\.1\.", SPEC_PATH.read_text(), re.MULTILINE)


def test_the_contract_ships_with_the_package() -> None:
    """``scorekeeper/openapi.yaml`` is the project's ``openapi.yaml`` (a link), and the package
    data takes it into a wheel, where the project's root is not."""
    package_copy = ROOT / "scorekeeper" / "openapi.yaml"
    assert package_copy.samefile(SPEC_PATH)
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "openapi.yaml" in settings["tool"]["setuptools"]["package-data"]["scorekeeper"]


def test_the_document_is_revalidated_by_its_etag(client: FlaskClient) -> None:
    with client.get("/api/openapi.yaml") as response:
        etag = response.headers["ETag"]
    with client.get("/api/openapi.yaml", headers={"If-None-Match": etag}) as again:
        assert again.status_code == 304


def test_the_start_page_leads_to_the_reference(client: FlaskClient) -> None:
    assert 'href="/api/docs"' in client.get("/").text


SPEC = yaml.safe_load(SPEC_PATH.read_text())
SPEC_URI = "urn:openapi"


def examples() -> Iterator[Any]:
    """Every example of the contract: where it is (a JSON pointer to its media type), its
    schema's address, and its value."""

    def walk(node: Any, pointer: str) -> Iterator[Any]:
        if isinstance(node, dict):
            if "schema" in node and "examples" in node:
                for name, example in node["examples"].items():
                    yield pytest.param(
                        f"{pointer}/schema", example["value"], id=f"{pointer}/{name}"
                    )
            for key, value in node.items():
                yield from walk(
                    value, f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
                )
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, f"{pointer}/{index}")

    yield from walk(SPEC, "")


EXAMPLES = list(examples())


def test_the_reference_has_examples_of_bodies_answers_and_refusals() -> None:
    places = " ".join(param.id for param in EXAMPLES)
    assert "requestBody" in places and "responses/200" in places
    assert "components/responses/ReportRefused" in places


@pytest.mark.parametrize(("schema", "value"), EXAMPLES)
def test_every_example_fits_its_schema(schema: str, value: Any) -> None:
    """An example the reference shows is one the contract allows (OpenAPI 3.1's schemas are
    JSON Schema 2020-12)."""
    registry = Registry().with_resource(
        SPEC_URI, Resource.from_contents(SPEC, default_specification=DRAFT202012)
    )
    validator = Draft202012Validator({"$ref": f"{SPEC_URI}#{schema}"}, registry=registry)
    assert [error.message for error in validator.iter_errors(value)] == []


@pytest.mark.parametrize(
    ("path", "method", "file"),
    [
        ("/api/v1/score", "post", "hand.json"),
        ("/api/v1/score/sheet", "post", "sheet.json"),
        ("/api/v1/tables/{table_id}/games/{game_id}/hands", "post", "hand-1.json"),
        (
            "/api/v1/tables/{table_id}/games/{game_id}/hands/{number}",
            "put",
            "hand-1-corrected.json",
        ),
    ],
)
def test_the_request_examples_are_the_projects_example_files(
    path: str, method: str, file: str
) -> None:
    """The bodies the reference shows are the ones the API guide and the command line use."""
    media = SPEC["paths"][path][method]["requestBody"]["content"]["application/json"]
    (shown,) = media["examples"].values()
    assert shown["value"] == json.loads((ROOT / "examples" / file).read_text())
    assert f"(examples/{file})" in shown["summary"]


def test_the_score_examples_are_the_servers_answers(client: FlaskClient) -> None:
    operation = SPEC["paths"]["/api/v1/score"]["post"]
    (request,) = operation["requestBody"]["content"]["application/json"]["examples"].values()
    (answer,) = operation["responses"]["200"]["content"]["application/json"]["examples"].values()
    response = client.post("/api/v1/score", json=request["value"])
    assert response.status_code == 200
    assert response.get_json() == answer["value"]


def without_sentences(problem: dict[str, Any]) -> dict[str, Any]:
    """A problem with its sentences and its request's id blanked, once it is seen to have
    them."""
    assert problem["detail"] and all(error["detail"] for error in problem.get("errors", []))
    assert problem["instance"].startswith("urn:request:")
    blanked: dict[str, Any] = {**problem, "detail": "", "instance": ""}
    if "errors" in problem:
        blanked["errors"] = [{**error, "detail": ""} for error in problem["errors"]]
    return blanked


def provoke(refusal: str, table: TableAccess) -> Any:
    """The request each refusal's example shows, sent."""
    client = table.client
    if refusal == "ReportRefused":
        report = json.loads((ROOT / "examples" / "hand-refused.json").read_text())
        return client.post("/api/v1/score", json={"players": 2, **report})
    if refusal == "InvalidRequest":
        return client.post("/api/v1/tables", json={"name": "", "colour": "red"})
    if refusal == "Unauthorized":
        return client.get(table.url)
    assert refusal == "NotFound"
    return table.get("/games/999")


@pytest.mark.parametrize("refusal", ["ReportRefused", "InvalidRequest", "Unauthorized", "NotFound"])
def test_the_refusal_examples_are_the_servers_answers_but_for_their_sentences(
    table: TableAccess, refusal: str
) -> None:
    """The type, title, status, codes and paths are the contract; the sentences are the
    catalogs' to word (the refusals' own tests check them), so only their presence is compared."""
    media = SPEC["components"]["responses"][refusal]["content"]["application/problem+json"]
    (shown,) = media["examples"].values()
    response = provoke(refusal, table)
    assert response.status_code == shown["value"]["status"]
    assert without_sentences(response.get_json()) == without_sentences(shown["value"])
