"""Every operation of openapi.yaml on a table's resources, each path filled with the ids of a
table that has something behind every one (the ``filled`` fixture): for the tests that walk
every operation (tokens, conventions)."""

from __future__ import annotations

import re
from typing import Any

from tests.api.conftest import TableAccess
from tests.contract import SPEC

TABLE_OPERATIONS = [
    (method.upper(), path.removeprefix("/api/v1/tables/{table_id}"))
    for path, operations in SPEC["paths"].items()
    if path.startswith("/api/v1/tables/{table_id}")
    for method in operations
    if method in {"get", "post", "put", "patch", "delete"}
]
"""Every operation on a table's resources, as (method, path under the table)."""


def issue(table: TableAccess, scope: str, name: str = "Wall screen") -> dict[str, Any]:
    response = table.post("/tokens", {"name": name, "scope": scope})
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    body: dict[str, Any] = response.get_json()
    return body


def shown(response: Any) -> Any:
    """What an answer shows, but the id of its request (a refusal names it)."""
    if response.is_json:
        return {**response.get_json(), "instance": None}
    return response.get_data()


def concrete(path: str, ids: dict[str, int]) -> str:
    """``path`` with its parameters filled; a virtual game's paths name the virtual game."""
    if path.startswith("/virtual-games/"):
        ids = {**ids, "game_id": ids["virtual"]}
    return re.sub(r"\{(\w+)\}", lambda found: str(ids[found.group(1)]), path)
