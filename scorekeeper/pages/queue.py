"""What a phone's queue of hands (``static/queue.js``) needs from the server besides the hand
form itself: its texts, in the page's language, and the hand a game now holds under a number,
shown beside the queued one when another phone recorded or changed that hand meanwhile."""

from __future__ import annotations

from flask import Blueprint, render_template

from scorekeeper.i18n import translate
from scorekeeper.pages.games import page_game

bp = Blueprint("queue", __name__)

TEXTS = {
    "waiting_one": "1 hand waiting",
    "waiting_many": "{n} hands waiting",
    "waiting_why": "Saved on this phone; sent as soon as the scorekeeper can be reached.",
    "recorded_elsewhere": "Another phone recorded hand {n} meanwhile.",
    "changed_elsewhere": "Hand {n} was changed on another phone meanwhile.",
    "yours": "Yours",
    "theirs": "On the scorekeeper now",
    "record_next": "Record mine as hand {n}",
    "keep_correction": "Keep my correction",
    "drop": "Drop mine",
}
"""What only the script shows, keyed by the script's names; ``{n}`` is a number it fills in."""


@bp.app_context_processor
def queue_texts() -> dict[str, object]:
    """``queue_texts()`` for the queue's template: :data:`TEXTS` in the request's language."""
    return {"queue_texts": lambda: {name: translate(text) for name, text in TEXTS.items()}}


@bp.get("/t/<id:table_id>/games/<id:game_id>/hands/<id:number>/recorded")
def recorded(table_id: int, game_id: int, number: int) -> str:
    """Hand ``number`` as the game holds it now (every side's breakdown, as the preview shows a
    hand being entered), with the number the next hand would get and the hand's ETag."""
    _, game = page_game(table_id, game_id)
    hand = next((h for h in game.hands if h.number == number), None)
    return render_template(
        "pages/_recorded.html",
        sides=hand.breakdown["sides"] if hand else [],
        problems=[],
        etag=hand.etag if hand else "",
        next_number=len(game.hands) + 1,
    )
