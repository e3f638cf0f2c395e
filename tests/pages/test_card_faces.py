"""How cards are drawn: every card's face has its drawing, its family and its name in both
languages; the seats a phone plays are remembered, but only a few."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask, render_template_string, session

from engine.cards import Card, CardKind
from engine.codes import CODE, NO_CARD
from engine.rules import Rules
from engine.tableau import Tableau
from engine.view import TableauView
from scorekeeper import create_app
from scorekeeper.pages.cards import card_face
from scorekeeper.pages.seats import SEATS_REMEMBERED, held_seats, hold_seat

SYMBOLS = Path(__file__).parents[2] / "scorekeeper/templates/pages/_card_symbols.html"


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


@pytest.mark.parametrize("card", [card for card in Card if card.kind is not CardKind.DISTANCE])
def test_every_card_but_distance_has_its_drawing(app: Flask, card: Card) -> None:
    with app.test_request_context("/"):
        face = card_face(card)
    assert face.km == 0
    assert f'<symbol id="{face.symbol}"' in SYMBOLS.read_text()


@pytest.mark.parametrize(
    ("card", "english", "french"),
    [
        (Card.DRIVING_ACE, "Driving Ace, safety", "As du volant, botte"),
        (Card.STOP, "Stop, hazard", "Feu rouge, attaque"),
        (Card.ROLL, "Roll, remedy", "Feu vert, parade"),
        (Card.DISTANCE_200, "200 km, distance", "200 bornes, distance"),
    ],
)
def test_a_card_is_named_with_its_family(app: Flask, card: Card, english: str, french: str) -> None:
    for language, label in (("en", english), ("fr", french)):
        with app.test_request_context(f"/?lang={language}"):
            assert card_face(card).label == label


def test_a_distance_card_shows_its_km_and_unit(app: Flask) -> None:
    with app.test_request_context("/?lang=fr"):
        face = card_face(Card.DISTANCE_75)
    assert (face.km, face.unit) == (75, "bornes")


def test_a_phone_remembers_its_latest_seats_only(app: Flask) -> None:
    with app.test_request_context("/"):
        for game in range(SEATS_REMEMBERED + 2):
            hold_seat(game, 0, f"/play/{game}")
        hold_seat(SEATS_REMEMBERED + 1, 2, "/play/partner")
        assert held_seats(0) == held_seats(1) == []  # the oldest are let go
        last = SEATS_REMEMBERED + 1
        assert held_seats(last) == [(0, f"/play/{last}"), (2, "/play/partner")]
        session.modified = False
        hold_seat(SEATS_REMEMBERED + 1, 2, "/play/partner")  # a poll of a seat already held
        assert not session.modified


TABLEAU = (
    "{% import \"pages/_cards.html\" as cards with context %}{{ cards.tableau(t, 1, 'Bob', 1000) }}"
)


def tableau_html(
    app: Flask,
    battle: tuple[Card | None, ...] = (),
    speed: tuple[Card, ...] = (),
    safeties: tuple[Card, ...] = (),
    coup_fourres: tuple[Card, ...] = (),
    distance: int = 0,
) -> str:
    """One side's tableau as the play page draws it (None on the battle pile: corrected)."""
    tableau = Tableau(Rules.for_players(4), 1000)
    tableau.battle = [NO_CARD if card is None else CODE[card] for card in battle]
    tableau.speed = [CODE[card] for card in speed]
    tableau.safeties = [CODE[card] for card in safeties]
    tableau.coup_fourres = [CODE[card] for card in coup_fourres]
    tableau.distance = distance
    tableau.refresh()
    with app.test_request_context("/"):
        return render_template_string(TABLEAU, t=TableauView(tableau), card_face=card_face)


def test_a_coup_fourre_is_marked_on_the_tableau(app: Flask) -> None:
    html = tableau_html(
        app,
        battle=(Card.ROLL,),
        safeties=(Card.DRIVING_ACE, Card.EXTRA_TANK),
        coup_fourres=(Card.EXTRA_TANK,),
        distance=250,
    )
    assert html.count("(coup-fourré)") == 1
    assert 'class="chip k-safety cf"' in html and 'class="chip k-safety"' in html
    assert "<strong>250</strong> / 1,000&#8239;km" in html  # the English way, held to its unit
    assert "attacked" not in html


@pytest.mark.parametrize(
    ("piles", "attacked"),
    [
        ({"battle": (Card.ROLL, Card.STOP)}, True),
        ({"battle": (Card.ROLL,), "speed": (Card.SPEED_LIMIT,)}, True),
        ({"battle": (Card.ROLL,), "speed": (Card.SPEED_LIMIT, Card.END_OF_LIMIT)}, False),
        ({"battle": (Card.FLAT_TIRE, None)}, False),  # corrected by a coup-fourré
    ],
)
def test_an_attacked_side_says_so(app: Flask, piles: dict[str, Any], attacked: bool) -> None:
    html = tableau_html(app, **piles)
    assert ('<span class="attacked-tag">attacked</span>' in html) is attacked
