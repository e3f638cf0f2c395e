"""The season filter on the pages: the history's statistics and games, and the leaderboard, for
the days asked; a bad day is refused on the page, not a 500."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.storage.extensions import db
from tests.api.conftest import create_table
from tests.finished_games import add_finished_game


@pytest.fixture
def club(sqlite_app: Flask) -> tuple[FlaskClient, int]:
    """A table whose Ann won a game on New Year's Eve and one at midnight after it."""
    client = sqlite_app.test_client()
    table = create_table(client, "Club")
    ann, bob = table.add_players("Ann", "Bob")
    with sqlite_app.app_context():
        add_finished_game(table.id, [[ann], [bob]], [5000, 0], finished_at=datetime(2026, 1, 1))
        add_finished_game(
            table.id, [[ann], [bob]], [5000, 0], finished_at=datetime(2025, 12, 31, 23, 59)
        )
        db.session.commit()
    client.set_cookie(f"table_{table.id}", table.token)
    return client, table.id


def finished_by_ann(html: str) -> str:
    """The "finished" cell of Ann's statistics row on the history page."""
    found = re.search(r"<tr><td>Ann</td><td>(\d+)</td>", html)
    assert found is not None, html
    return found[1]


@pytest.mark.parametrize(
    ("query", "finished"), [("", "2"), ("?from=2026-01-01", "1"), ("?to=2025-12-31", "1")]
)
def test_the_history_page_keeps_to_the_season(
    club: tuple[FlaskClient, int], query: str, finished: str
) -> None:
    client, table_id = club
    html = client.get(f"/t/{table_id}/history{query}").text
    assert finished_by_ann(html) == finished
    assert html.count('aria-label="Game ') == 2 * int(finished)  # a link per seat of each game


def test_this_year_is_one_tap_away(club: tuple[FlaskClient, int]) -> None:
    client, table_id = club
    html = client.get(f"/t/{table_id}/ratings").text
    this_year = re.search(r'<a class="button" href="([^"]+)">This year</a>', html)
    assert this_year is not None
    assert re.fullmatch(
        rf"/t/{table_id}/ratings\?from=\d{{4}}-01-01&amp;to=\d{{4}}-12-31", this_year[1]
    )


def test_a_bad_day_is_refused_on_the_page(club: tuple[FlaskClient, int]) -> None:
    client, table_id = club
    response = client.get(f"/t/{table_id}/ratings?from=2026-02-30")
    assert response.status_code == 422
    assert response.mimetype == "text/html"
