"""Every word the pages show has its French; the language follows the switch or the browser."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from scorekeeper.i18n import FRENCH

TEMPLATES = Path(__file__).resolve().parent.parent / "scorekeeper" / "templates"


def test_every_phrase_of_the_templates_has_a_french_translation() -> None:
    phrases = {
        phrase
        for template in TEMPLATES.rglob("*.html")
        for phrase in re.findall(r'_\("([^"]+)"\)', template.read_text())
    }
    assert phrases, "the templates use _() for their words"
    assert sorted(phrases - FRENCH.keys()) == []


def test_language_from_accept_language_and_switch(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    assert "Créer une table" in client.get("/", headers={"Accept-Language": "fr-FR"}).text
    assert "Create a table" in client.get("/", headers={"Accept-Language": "en"}).text
    client.get("/language/fr")
    assert "Créer une table" in client.get("/", headers={"Accept-Language": "en"}).text


def test_page_forms_need_their_csrf_token(sqlite_app: Flask) -> None:
    response = sqlite_app.test_client().post("/tables", data={"name": "No token"})
    assert response.status_code == 400
    assert response.mimetype == "text/html"
