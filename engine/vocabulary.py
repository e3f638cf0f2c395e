"""English and French names of the cards and of the score categories (data only).

The French names are those printed on the Dujardin cards (RULES.md §1), so a French table reads the
words it sees on its own cards.
"""

from __future__ import annotations

from enum import StrEnum

from engine.cards import Card
from engine.categories import Category


class Language(StrEnum):
    """The languages names are kept in."""

    EN = "en"
    FR = "fr"


CARD_NAMES: dict[Card, dict[Language, str]] = {
    Card.DISTANCE_25: {Language.EN: "25 km", Language.FR: "25 bornes"},
    Card.DISTANCE_50: {Language.EN: "50 km", Language.FR: "50 bornes"},
    Card.DISTANCE_75: {Language.EN: "75 km", Language.FR: "75 bornes"},
    Card.DISTANCE_100: {Language.EN: "100 km", Language.FR: "100 bornes"},
    Card.DISTANCE_200: {Language.EN: "200 km", Language.FR: "200 bornes"},
    Card.ACCIDENT: {Language.EN: "Accident", Language.FR: "Accident"},
    Card.OUT_OF_GAS: {Language.EN: "Out of Gas", Language.FR: "Panne d'essence"},
    Card.FLAT_TIRE: {Language.EN: "Flat Tire", Language.FR: "Crevaison"},
    Card.STOP: {Language.EN: "Stop", Language.FR: "Feu rouge"},
    Card.SPEED_LIMIT: {Language.EN: "Speed Limit", Language.FR: "Limitation de vitesse"},
    Card.REPAIRS: {Language.EN: "Repairs", Language.FR: "Réparations"},
    Card.GASOLINE: {Language.EN: "Gasoline", Language.FR: "Essence"},
    Card.SPARE_TIRE: {Language.EN: "Spare Tire", Language.FR: "Roue de secours"},
    Card.ROLL: {Language.EN: "Roll", Language.FR: "Feu vert"},
    Card.END_OF_LIMIT: {Language.EN: "End of Limit", Language.FR: "Fin de limitation"},
    Card.DRIVING_ACE: {Language.EN: "Driving Ace", Language.FR: "As du volant"},
    Card.EXTRA_TANK: {Language.EN: "Extra Tank", Language.FR: "Citerne d'essence"},
    Card.PUNCTURE_PROOF: {Language.EN: "Puncture Proof", Language.FR: "Increvable"},
    Card.RIGHT_OF_WAY: {Language.EN: "Right of Way", Language.FR: "Véhicule prioritaire"},
}

CATEGORY_NAMES: dict[Category, dict[Language, str]] = {
    Category.DISTANCE: {Language.EN: "Distance", Language.FR: "Distance"},
    Category.SAFETIES: {Language.EN: "Safeties", Language.FR: "Bottes"},
    Category.ALL_SAFETIES: {Language.EN: "All four safeties", Language.FR: "Les quatre bottes"},
    Category.COUP_FOURRES: {Language.EN: "Coups-fourrés", Language.FR: "Coups fourrés"},
    Category.TRIP: {Language.EN: "Trip completed", Language.FR: "Manche gagnée"},
    Category.DELAYED_ACTION: {Language.EN: "Delayed action", Language.FR: "Couronnement"},
    Category.SAFE_TRIP: {Language.EN: "Safe trip", Language.FR: "Sans 200"},
    Category.EXTENSION: {Language.EN: "Extension", Language.FR: "Allonge"},
    Category.SHUTOUT: {Language.EN: "Shutout", Language.FR: "Capot"},
}


def card_name(card: Card, language: Language = Language.EN) -> str:
    """The printed name of ``card``.

    >>> card_name(Card.RIGHT_OF_WAY, Language.FR)
    'Véhicule prioritaire'
    """
    return CARD_NAMES[card][language]


def category_name(category: Category, language: Language = Language.EN) -> str:
    """The score sheet's name of ``category``.

    >>> category_name(Category.SHUTOUT, Language.FR)
    'Capot'
    """
    return CATEGORY_NAMES[category][language]
