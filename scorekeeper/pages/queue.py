"""What a phone's queue of hands (``static/queue.js``) needs from the server besides the hand
form itself (and its texts, in ``pages/_queue.html``): the hand a game now holds under a number,
shown beside the queued one when another phone recorded or changed that hand meanwhile."""

from __future__ import annotations

from flask import Blueprint, render_template

from scorekeeper.pages.games import page_game

bp = Blueprint("queue", __name__)


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
        etag=hand.etag(game.totals_after(number)) if hand else "",
        next_number=len(game.hands) + 1,
    )
