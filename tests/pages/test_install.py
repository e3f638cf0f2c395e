"""The installable app, server side: the manifest, the service worker's script and what it keeps,
the page headers that let them run."""

from __future__ import annotations

import json

from flask import Flask

from tests.api.conftest import create_table


def test_the_manifest_speaks_the_phones_language(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    french = client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"})
    assert french.mimetype == "application/manifest+json"
    manifest = json.loads(french.text)
    assert manifest["name"] == "1000 Bornes – Feuille de marque"
    assert manifest["lang"] == "fr"


def test_the_service_worker_is_fresh_on_each_visit_and_names_what_it_keeps(
    sqlite_app: Flask,
) -> None:
    client = sqlite_app.test_client()
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    first_line = worker.text.split("\n", 1)[0]
    assert first_line.startswith("const CONFIG = ") and first_line.endswith(";")
    config = json.loads(first_line.removeprefix("const CONFIG = ").removesuffix(";"))
    assert config["start"] == "/" and config["offline"] == "/offline"
    for path in [*config["shell"], config["offline"]]:
        with client.get(path) as kept:
            assert kept.status_code == 200, path
    again = client.get("/sw.js", headers={"If-None-Match": worker.headers["ETag"]})
    assert again.status_code == 304  # unchanged: the browser keeps the worker it has


def test_pages_may_run_the_worker_and_read_the_manifest_and_nothing_else(
    sqlite_app: Flask,
) -> None:
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in sqlite_app.test_client()
        .get("/")
        .headers["Content-Security-Policy"]
        .split(";")
    )
    assert policy["worker-src"] == policy["manifest-src"] == policy["img-src"] == "'self'"


def test_the_offline_page_needs_no_table(sqlite_app: Flask) -> None:
    page = sqlite_app.test_client().get("/offline", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "Hors ligne" in page.text


def test_a_hand_as_recorded_needs_the_tables_cookie(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = create_table(client)
    ann, bob = table.add_players("Ann", "Bob")
    game_id = table.start_game(2, [[ann], [bob]])["id"]
    hand = {"sides": [{"distance": 300}, {"distance": 100}]}
    assert table.post(f"/games/{game_id}/hands", hand).status_code == 201
    path = f"/t/{table.id}/games/{game_id}/hands/1/recorded"
    assert client.get(path).status_code == 404
    client.set_cookie(f"table_{table.id}", table.token)
    recorded = client.get(path).text
    assert 'data-next="2"' in recorded
    assert 'data-preview-total="0" data-points="300">300<' in recorded
    assert 'data-preview-total="1" data-points="100">100<' in recorded
