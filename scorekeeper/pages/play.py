"""A seat's own page of a virtual game: its cards, every tableau, its prompt, and its moves.

The page lives at the seat's token's address, so a reload, or the same link opened on a second
device, resumes the game where it stands. Every move is a small form (it works without
JavaScript) carrying the move number the page showed, so a double tap is played once and a stale
page is told the game has moved on instead of playing into the wrong position.

A move the game refuses is raised, never caught here: the request's transaction rolls back
whatever it wrote, and this blueprint's one handler (:func:`refused`) answers with the seat's
page again and why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound

from engine.errors import IllegalMove
from engine.sentences import N_
from scorekeeper.domain.refusals import InvalidRequest, Refusal
from scorekeeper.pages.access import cookie_name, form_key
from scorekeeper.pages.cards import card_face
from scorekeeper.pages.forms import whole_number
from scorekeeper.pages.seats import hold_seat, seat_names
from scorekeeper.results.queries import seat_and_table_by_token
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import MoveSchema
from scorekeeper.services import virtual
from scorekeeper.web import live
from scorekeeper.web.errors import refusal_response
from scorekeeper.web.i18n import gettext, language, language_asked, say
from scorekeeper.web.move_words import MoveWords
from scorekeeper.web.words import in_language, level_name

if TYPE_CHECKING:
    from scorekeeper.storage.models import Seat

bp = Blueprint("play", __name__)

RECENT_EVENTS = 8
MOVED_ON = N_("The game has moved on since this page was shown.")


@bp.errorhandler(Refusal)
@bp.errorhandler(IllegalMove)
@bp.errorhandler(InvalidRequest)
def refused(error: Exception) -> Any:
    """A move or a take-back refused: the seat's page again, saying why. What the request
    wrote before the refusal was rolled back as it was raised. A page that cannot be shown
    (its game gone) is answered as the app answers any refusal."""
    token = (request.view_args or {}).get("token")
    if request.method != "POST" or token is None:
        return refusal_response(error)
    if isinstance(error, InvalidRequest):
        notice = " ".join(say(problem) for problem in error.problems)
    elif isinstance(error, IllegalMove):
        notice = say(error.sentence)
    else:
        notice = gettext(MOVED_ON)
    return redirect(url_for(".play", token=token, notice=notice))


def _seat_of(token: str) -> tuple[Seat, int]:
    """The seat whose page this is, and its game's table id."""
    found = seat_and_table_by_token(token)
    if found is None:
        raise NotFound(N_("This seat's link is not valid: ask for the game's links again."))
    return found


@bp.get("/play/<token>")
@live.waits
def play(token: str) -> Response:
    """The seat's page: its cards, every tableau, what the others just did, its prompt.

    Conditional: a page waiting for the other seats asks with If-None-Match and gets 304 until
    the game moves; with ``Prefer: wait`` the answer waits for the move
    (:mod:`~scorekeeper.web.live`), or for the coup-fourré window's close, which this read makes.
    """
    seat, table_id = _seat_of(token)
    game = virtual.up_to_date(virtual.virtual_game(table_id, seat.side.game_id))
    hold_seat(game.id, seat.seat, url_for(".play", token=token))
    etag = f"{game.etag}-seat{seat.seat}-{language()}-{form_key()}"  # its move forms' token
    live.watched(game.id, game.version, virtual.window_left(game))
    if request.if_none_match.contains(etag):
        response = Response(status=304)
        response.set_etag(etag)
        return response
    shown = virtual.seen_by(game, seat.seat, 0, last=RECENT_EVENTS)
    response = make_response(_page(shown, seat, token, etag, request.args.get("notice")))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "same-origin"  # the address is the seat's secret
    return response


@bp.post("/play/<token>/move")
def move(token: str) -> Any:
    """Play the move of the form pressed; the computers answer before the page comes back."""
    seat, table_id = _seat_of(token)
    fields: dict[str, Any] = {
        key: request.form[key] for key in ("move", "card") if request.form.get(key)
    }
    for key in ("number", "target"):
        if (value := whole_number(request.form.get(key))) is not None:
            fields[key] = value
    body = load(MoveSchema(), fields)
    number = body.pop("number")
    virtual.play_move(table_id, seat.side.game_id, seat.seat, number, body)
    return redirect(url_for(".play", token=token))


@bp.post("/play/<token>/take-back")
def take_back(token: str) -> Any:
    """The player, back at the table, takes the seat back from the computer on their phone."""
    seat, table_id = _seat_of(token)
    virtual.take_back(table_id, seat.side.game_id, seat.seat)
    return redirect(url_for(".play", token=token))


def _page(shown: virtual.GameAsSeen, seat: Seat, token: str, etag: str, notice: str | None) -> str:
    game = shown.game
    view = in_language(game_view(game))
    names = [side["name"] for side in view["sides"]]
    choices = shown.seat_choices
    state = None if choices is None else choices.view
    window = choices is not None and choices.in_window
    moves = [legal.to_dict() for legal in (() if choices is None else choices.offered)]
    options: dict[str, list[dict[str, Any]]] = {}
    for wire in moves:
        if wire["move"] in ("play", "discard", "coup_fourre"):
            options.setdefault(wire["card"], []).append(wire)
    words = MoveWords(names=names) if state is None else MoveWords.of(state, names)
    hand_just_ended = bool(view["hands"]) and (shown.over or shown.moves_this_hand < game.players)
    return render_template(
        "pages/play.html",
        etag=etag,
        table=game.table,
        game=game,
        view=view,
        names=names,
        seat=seat,
        seat_names=seat_names(view),
        state=state,
        your_turn=choices is not None and choices.to_play,
        window=window,
        pending=None if choices is None else choices.pending_hazard,
        moves=moves,
        options=options,
        number=shown.next_move,
        has_table=cookie_name(game.table_id) in request.cookies,
        hand_number=shown.hand_number,
        recent=reversed(shown.events),
        last_hand=view["hands"][-1] if hand_just_ended else None,
        notice=notice,
        poll=url_for(".play", token=token, **language_asked()),
        action=url_for(".move", token=token),
        take_back=url_for(".take_back", token=token),
        hint=url_for("api.virtual.read_hint", table_id=game.table_id, game_id=game.id),
        token=token,
        card_face=card_face,
        holds_safety=bool(moves) if window else words.holds_safety,
        level_name=level_name,
        move_label=words.label,
        move_name=words.name,
    )
