"""Deleting a table and erasing a player from the pages, without JavaScript: each after a
confirmation page, which is sent with the form's token; a table's confirmation carries its
version, so a confirmation shown before the table changed deletes nothing."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.api.conftest import create_table
from tests.hand_forms import CSRF, joined_game

ETAG_FIELD = re.compile(r'name="etag" value="([^"]+)"')


def _confirmation(client: FlaskClient, path: str) -> dict[str, str]:
    """The fields of the confirmation's form at ``path``."""
    page = client.get(path)
    assert page.status_code == 200, page.text
    fields = {"csrf_token": CSRF.search(page.text).group(1)}  # type: ignore[union-attr]
    version = ETAG_FIELD.search(page.text)
    if version:
        fields["etag"] = version.group(1)
    return fields


def test_the_table_is_deleted_after_its_confirmation(client: FlaskClient) -> None:
    table, _ = joined_game(client)
    page = client.get(f"/t/{table.id}")
    assert f'href="/t/{table.id}/delete"' in page.text
    confirmation = client.get(f"/t/{table.id}/delete")
    assert "2 players" in confirmation.text and "1 game " in confirmation.text
    form = _confirmation(client, f"/t/{table.id}/delete")

    sent = client.post(f"/t/{table.id}/delete", data=form)

    assert sent.status_code == 303 and sent.headers["Location"] == "/deleted"
    assert f"table_{table.id}=;" in sent.headers["Set-Cookie"]  # this phone forgets it
    assert "The table is deleted" in client.get("/deleted").text
    assert table.get("").status_code == 401


def test_a_confirmation_shown_before_the_table_changed_deletes_nothing(
    client: FlaskClient,
) -> None:
    table, _ = joined_game(client)
    form = _confirmation(client, f"/t/{table.id}/delete")
    table.add_players("Cat")  # another phone adds a player meanwhile

    stale = client.post(f"/t/{table.id}/delete", data=form)

    assert stale.status_code == 412
    assert table.get("").status_code == 200
    without = client.post(f"/t/{table.id}/delete", data={"csrf_token": form["csrf_token"]})
    assert without.status_code == 428
    assert client.post(f"/t/{table.id}/delete", data={"etag": form["etag"]}).status_code == 400
    assert table.get("").status_code == 200


def test_another_phone_cannot_delete_the_table(client: FlaskClient) -> None:
    table = create_table(client)  # made through the API: this phone holds no cookie of it
    assert client.get(f"/t/{table.id}/delete").status_code == 404
    assert client.post(f"/t/{table.id}/delete", data={}).status_code in (400, 404)
    assert table.get("").status_code == 200


def test_a_player_is_erased_after_a_confirmation(client: FlaskClient) -> None:
    table, game = joined_game(client)
    ann = table.get("/players").get_json()["items"][0]["id"]
    player_page = f"/t/{table.id}/players/{ann}"
    assert f'href="{player_page}/erase"' in client.get(player_page).text
    form = _confirmation(client, f"{player_page}/erase")

    sent = client.post(f"{player_page}/erase", data=form)

    assert sent.status_code == 303 and sent.headers["Location"] == player_page
    for path in (player_page, f"/t/{table.id}", game, f"/t/{table.id}/history"):
        shown = client.get(path).text
        assert "Ann" not in shown, path
    assert "Erased player 1" in client.get(player_page).text
