"""Forgetting through the API: a table deleted leaves no row of its own in any table of the
schema, on SQLite and PostgreSQL; an erased player's name is nowhere the table shows or keeps,
and their games keep their scores."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask, request
from sqlalchemy.exc import IntegrityError

from scorekeeper.domain.refusals import Missing
from scorekeeper.storage import feed, removal
from scorekeeper.storage.extensions import db
from scorekeeper.web import errors
from tests.api.conftest import TableAccess
from tests.api.walk import issue
from tests.full_database import fill
from tests.storage.test_migration_walk import EMPTY, Dump, canonical_dump


def _rows(app: Flask) -> Dump:
    """Every row of every table the database's schema has (reflected, not listed here)."""
    with app.app_context(), db.engine.connect() as connection:
        return {
            name: [row for row in rows if row.get("id") != EMPTY]
            for name, rows in canonical_dump(connection).items()
        }


def _as_text(rows: list[dict[str, Any]]) -> set[str]:
    return {json.dumps(row, sort_keys=True, default=str) for row in rows}


def _delete(client: Any, table_id: int, token: str) -> Any:
    url = f"/api/v1/tables/{table_id}"
    headers = {"Authorization": f"Bearer {token}"}
    etag = client.get(url, headers=headers).headers["ETag"]
    return client.delete(url, headers={**headers, "If-Match": etag})


def test_a_deleted_table_leaves_no_row_in_any_table(
    app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled = fill(app, monkeypatch)
    (club, club_token), (family, family_token) = sorted(filled.tokens.items())
    before = _rows(app)
    empty = sorted(name for name, rows in before.items() if not rows)
    assert empty == [], f"the full database leaves {empty} empty: this test would see nothing"
    family_document = client.get(
        f"/api/v1/tables/{family}/export", headers={"Authorization": f"Bearer {family_token}"}
    ).get_json()

    assert _delete(client, club, club_token).status_code == 204

    after = _rows(app)
    for name, rows in after.items():  # the other table's rows, untouched
        assert _as_text(rows) <= _as_text(before[name]), name
    assert [row["id"] for row in after["tables"]] == [family]
    gone = client.get(f"/api/v1/tables/{club}", headers={"Authorization": f"Bearer {club_token}"})
    assert gone.status_code == 401
    kept = client.get(
        f"/api/v1/tables/{family}/export", headers={"Authorization": f"Bearer {family_token}"}
    )
    assert kept.get_json() == family_document

    assert _delete(client, family, family_token).status_code == 204
    left = {name: len(rows) for name, rows in _rows(app).items() if rows}
    assert left == {}, f"rows left behind once both tables were deleted: {left}"


def test_deleting_a_table_needs_its_current_etag(table: TableAccess) -> None:
    (ann,) = table.add_players("Ann")
    etag = table.get("").headers["ETag"]
    missing = table.delete("")
    assert missing.status_code == 428
    table.add_players("Bob")  # the table changed since it was read
    stale = table.delete("", headers={"If-Match": etag})
    assert stale.status_code == 412
    assert table.delete("", headers={"If-Match": "*"}).status_code == 428
    assert table.get(f"/players/{ann}").status_code == 200
    assert table.delete("", headers={"If-Match": table.get("").headers["ETag"]}).status_code == 204
    assert table.get("").status_code == 401


def test_a_tables_etag_moves_with_a_hand_recorded(table: TableAccess, game_url: str) -> None:
    etag = table.get("").headers["ETag"]
    assert table.get("", headers={"If-None-Match": etag}).status_code == 304
    table.post(game_url + "/hands", {"sides": [{"distance": 300}, {"distance": 200}]})
    assert table.get("").headers["ETag"] != etag


@pytest.mark.parametrize("scope", ["read", "record"])
def test_only_the_tables_own_token_deletes_it(table: TableAccess, scope: str) -> None:
    token = issue(table, scope)["token"]
    etag = table.get("").headers["ETag"]
    response = table.client.delete(
        table.url, headers={"Authorization": f"Bearer {token}", "If-Match": etag}
    )
    assert response.status_code == 403
    assert table.get("").status_code == 200


def test_a_wrong_token_or_another_tables_deletes_nothing(
    table: TableAccess, new_table: Any
) -> None:
    other = new_table("Other club")
    etag = table.get("").headers["ETag"]
    wrong = table.client.delete(table.url, headers={"Authorization": "Bearer mb_nope"})
    assert wrong.status_code == 401
    assert table.client.delete(table.url, headers={"If-Match": etag}).status_code == 401
    elsewhere = table.client.delete(table.url, headers={**other.headers, "If-Match": etag})
    assert elsewhere.status_code == 404
    assert table.get("").status_code == 200 and other.get("").status_code == 200


def test_a_follower_of_a_deleted_tables_feed_is_answered(table: TableAccess) -> None:
    """Nothing is written to the feed of a table that is going: the delete commits."""
    table.add_players("Ann")
    assert table.get("/events").get_json()["last"] == 1
    etag = table.get("").headers["ETag"]
    assert table.delete("", headers={"If-Match": etag}).status_code == 204
    assert table.get("/events").status_code == 401


WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}


def _everything_shown(table: TableAccess, ids: dict[str, int]) -> str:
    """What the table's API shows, every read that names players, as one text."""
    paths = [
        "",
        "/players",
        f"/players/{ids['ann']}",
        f"/players/{ids['bob']}",
        f"/players/{ids['ann']}/head-to-head/{ids['bob']}",
        "/games",
        f"/games/{ids['game']}",
        f"/games/{ids['team_game']}",
        f"/games/{ids['game']}/hands/1",
        f"/virtual-games/{ids['virtual']}",
        "/history",
        "/history.csv",
        "/ratings",
        "/events",
        "/export",
    ]
    shown = []
    for path in paths:
        response = table.get(path)
        assert response.status_code == 200, (path, response.get_data(as_text=True))
        shown.append(response.get_data(as_text=True))
    return "\n".join(shown)


def test_an_erased_players_name_is_nowhere_and_their_scores_stay(table: TableAccess) -> None:
    ann, bob, cat, dan = table.add_players("Annabel", "Bob", "Cat", "Dan")
    game = table.start_game(2, [[ann], [bob]])["id"]
    for number in range(3):
        table.post(f"/games/{game}/hands", WIN, headers={"Idempotency-Key": f"win-{number}"})
    team_game = table.start_game(4, [[ann, cat], [bob, dan]])["id"]
    table.post(f"/games/{team_game}/hands", {"sides": [{"distance": 300}, {"distance": 200}]})
    seats = [{"player": ann}, {"computer": "club"}]
    virtual = table.post("/virtual-games", {"players": 2, "seats": seats}).get_json()
    assert table.post(f"/games/{virtual['game']['id']}/abandon").status_code == 200
    ids = {
        "ann": ann,
        "bob": bob,
        "game": game,
        "team_game": team_game,
        "virtual": virtual["game"]["id"],
    }
    before = _everything_shown(table, ids)
    assert "Annabel" in before
    totals = table.get(f"/games/{game}").get_json()["totals"]
    stats = table.get(f"/players/{ann}").get_json()["statistics"]

    erased = table.post(f"/players/{ann}/erase")

    assert erased.status_code == 200
    assert erased.get_json()["name"] == "Erased player 1"
    after = _everything_shown(table, ids)
    assert "annabel" not in after.casefold()
    assert "Erased player 1 & Cat" in after
    assert table.get(f"/games/{game}").get_json()["totals"] == totals
    assert table.get(f"/players/{ann}").get_json()["statistics"] == stats
    again = table.post(f"/games/{game}/hands", WIN, headers={"Idempotency-Key": "win-0"})
    assert "annabel" not in again.get_data(as_text=True).casefold()


def test_erased_players_take_the_first_free_number(table: TableAccess) -> None:
    ann, bob, _ = table.add_players("Ann", "Bob", "Erased player 2")
    assert table.post(f"/players/{ann}/erase").get_json()["name"] == "Erased player 1"
    assert table.post(f"/players/{bob}/erase").get_json()["name"] == "Erased player 3"
    names = [player["name"] for player in table.get("/players").get_json()["items"]]
    assert names == ["Erased player 1", "Erased player 3", "Erased player 2"]


def test_erasing_a_player_leaves_their_games_versions_moved(
    table: TableAccess, game_url: str
) -> None:
    etag = table.get(game_url).headers["ETag"]
    player = table.get("/players").get_json()["items"][0]["id"]
    assert table.post(f"/players/{player}/erase").status_code == 200
    assert table.get(game_url, headers={"If-None-Match": etag}).status_code == 200


@pytest.mark.parametrize("scope", ["read", "record"])
def test_only_the_tables_own_token_erases(table: TableAccess, scope: str) -> None:
    (ann,) = table.add_players("Ann")
    token = issue(table, scope)["token"]
    response = table.client.post(
        f"{table.url}/players/{ann}/erase", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 403
    assert table.get(f"/players/{ann}").get_json()["name"] == "Ann"


def test_erasing_another_tables_player_is_404(table: TableAccess, new_table: Any) -> None:
    other = new_table("Other club")
    (ann,) = other.add_players("Ann")
    assert table.post(f"/players/{ann}/erase").status_code == 404
    assert other.get(f"/players/{ann}").get_json()["name"] == "Ann"


def test_a_write_whose_table_went_meanwhile_is_404_not_500(table: TableAccess, app: Flask) -> None:
    """A write under way when the table's owner deleted it (on PostgreSQL they run side by side)
    learns it at its commit: counting its event finds no table row, or a row it added names a
    table that is gone. Either way the answer is the table's 404, and nothing is kept."""
    with app.app_context():
        removal.delete_tables([table.id])
        db.session.commit()
        with pytest.raises(Missing):
            feed.write_events(db.session(), [feed.Fact(feed.EventKind.PLAYER_ADDED, table.id)])
        db.session.rollback()
        url = f"/api/v1/tables/{table.id}/players"
        with app.test_request_context(url, method="POST"):
            request.view_args = {"table_id": table.id}
            response = errors.handle_integrity(IntegrityError("INSERT", {}, Exception("fk")))
        assert response.status_code == 404
        assert response.get_json()["detail"] == "There is no such table."
