"""The hand form's pages driven without a browser, as a phone without script (or its queue of
hands) posts them: a game this phone has joined, the form's fields, the hands recorded."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from tests.api.conftest import TableAccess, create_table

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ETAG = re.compile(r'name="etag" value="([^"]+)"')


def joined_game(client: FlaskClient) -> tuple[TableAccess, str]:
    """A 2-player game (Ann and Bob) at a table this phone has joined (its cookie), and its
    pages' path."""
    table = create_table(client)
    ann, bob = table.add_players("Ann", "Bob")
    game_id = table.start_game(2, [[ann], [bob]])["id"]
    client.set_cookie(f"table_{table.id}", table.token)
    return table, f"/t/{table.id}/games/{game_id}"


def hand_form(client: FlaskClient, path: str, number: int, km: int = 300) -> dict[str, Any]:
    """The form at ``path`` filled in for hand ``number``: Ann at ``km``, Bob at 0."""
    match = CSRF.search(client.get(path).text)
    assert match
    return {"csrf_token": match.group(1), "number": str(number), "s0-km": str(km), "s1-km": "0"}


def hands(table: TableAccess, path: str) -> list[int]:
    """Side 0's distance in each recorded hand, in order (read through the API)."""
    game_id = path.rsplit("/", 1)[1]
    body = table.get(f"/games/{game_id}").get_json()
    return [hand["report"]["sides"][0]["distance"] for hand in body["hands"]]
