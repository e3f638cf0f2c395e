"""The API's reference as the server answers it: a page that loads only this app's files under a
policy that allows no inline script, Swagger UI's files from the package, and the contract shipped
with the package (the browser's side is in ``tests/pages/test_api_reference.py``; the served
document's identity with ``openapi.yaml`` is in ``test_contract.py``)."""

from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.api.reference import SWAGGER_UI, SWAGGER_UI_FILES, SWAGGER_UI_VERSION
from scorekeeper.web.security import PAGE_POLICY, REFERENCE_POLICY
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
