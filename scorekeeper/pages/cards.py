"""How a card looks on a virtual game's page: its family's colour, its symbol or value, its name.

The page draws each card from these facts (``templates/pages/_cards.html``) rather than from a
picture per card, so a card reads the same in the hand and on a tableau, in either language, and
every drawing is served by the app itself (no image from elsewhere: the phones may be offline).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, CardKind
from engine.sentences import N_
from scorekeeper.web.i18n import card_label, gettext

KIND_WORDS: dict[CardKind, str] = {
    CardKind.DISTANCE: N_("distance"),
    CardKind.HAZARD: N_("hazard"),
    CardKind.REMEDY: N_("remedy"),
    CardKind.SAFETY: N_("safety"),
}
"""The family a card's accessible name ends with ("Stop, hazard"): the colour, said in words."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardFace:
    """What the page shows of one card."""

    card: str
    """The card's wire id, which the move forms send."""
    kind: str
    """Its family, which picks the colour of its band."""
    name: str
    """Its printed name in the page's language."""
    km: int
    """The big number of a distance card; 0 for the others, which show a symbol instead."""
    unit: str
    """What follows the number on a distance card ("km", "bornes"); empty for the others."""

    @property
    def symbol(self) -> str:
        """The id of its drawing in the page's symbol sheet (``_card_symbols.html``)."""
        return f"sym-{self.card}"

    @property
    def label(self) -> str:
        """Its accessible name: the name and the family, e.g. "Driving Ace, safety"."""
        return f"{self.name}, {gettext(KIND_WORDS[CardKind(self.kind)])}"


def card_face(card: str) -> CardFace:
    """The face of ``card`` in the request's language."""
    face = Card(card)
    name = card_label(card)
    unit = name.removeprefix(str(face.value_km)).strip() if face.value_km else ""
    return CardFace(card=str(face), kind=str(face.kind), name=name, km=face.value_km, unit=unit)
