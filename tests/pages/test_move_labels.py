"""The words on a virtual game's move buttons: each says the move it sends, in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from engine.cards import Card
from engine.moves import CALL, DECLINE, PASS, CoupFourre, Discard, Play
from scorekeeper import create_app
from scorekeeper.web.move_words import move_label, move_name

NAMES = ["Ann", "Computer 2 (strong)"]


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


@pytest.mark.parametrize(
    ("move", "draws", "holds", "english", "french"),
    [
        (Play(Card.ROLL), False, False, "Play", "Jouer"),
        (Play(Card.STOP, 1), False, False, "On Computer 2 (strong)", "Sur Computer 2 (strong)"),
        (Discard(Card.STOP), False, False, "Discard", "Défausser"),
        (CoupFourre(Card.RIGHT_OF_WAY), False, True, "Coup-fourré!", "Coup fourré\u202f!"),
        (PASS, True, True, "Let it go", "Laisser passer"),
        (PASS, True, False, "Draw", "Piocher"),
        (PASS, False, True, "Let it go", "Laisser passer"),
        (PASS, False, False, "Go on", "Continuer"),
        (CALL, False, False, "Extend to 1,000", "Allonger à 1\u202f000"),
        (DECLINE, False, False, "Stop at 700", "S'arrêter à 700"),
    ],
)
def test_each_move_has_its_own_words(
    app: Flask, move: Any, draws: bool, holds: bool, english: str, french: str
) -> None:
    for language, words in (("en", english), ("fr", french)):
        with app.test_request_context(f"/?lang={language}"):
            assert move_label(move.to_dict(), NAMES, draws=draws, holds_safety=holds) == words


@pytest.mark.parametrize(
    ("move", "english", "french"),
    [
        (Play(Card.ROLL), "Play Roll", "Jouer Feu vert"),
        (
            Play(Card.STOP, 1),
            "Play Stop on Computer 2 (strong)",
            "Jouer Feu rouge sur Computer 2 (strong)",
        ),
        (Discard(Card.DISTANCE_75), "Discard 75 km", "Défausser 75 bornes"),
        (
            CoupFourre(Card.RIGHT_OF_WAY),
            "Coup-fourré! Right of Way",
            "Coup fourré\u202f! Véhicule prioritaire",
        ),
        (PASS, "Let it go", "Laisser passer"),
        (CALL, "Extend to 1,000", "Allonger à 1\u202f000"),
    ],
)
def test_each_move_has_a_name_of_its_own(app: Flask, move: Any, english: str, french: str) -> None:
    """A button's accessible name says the card and the side, and holds its visible words."""
    for language, words in (("en", english), ("fr", french)):
        with app.test_request_context(f"/?lang={language}"):
            wire = move.to_dict()
            name = move_name(wire, NAMES, draws=False, holds_safety=True)
            assert name == words
            assert move_label(wire, NAMES, draws=False, holds_safety=True).lower() in name.lower()
