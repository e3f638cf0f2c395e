"""Virtual games on the phone: choose the seats, then play from a seat's own page.

A seat's page lives at its token's address, so a reload, or the same link opened on a second
device, resumes the game where it stands. Every move is a small form (it works without
JavaScript) carrying the move number the page showed, so a double tap is played once and a stale
page is told the game has moved on instead of playing into the wrong position.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import select
from werkzeug.exceptions import NotFound

from engine.errors import IllegalMove
from engine.moves import CoupFourre
from engine.rules import SUPPORTED_PLAYERS, Rules
from engine.sentences import N_
from scorekeeper.pages.access import cookie_name, form_key, page_table
from scorekeeper.pages.cards import card_face
from scorekeeper.pages.forms import whole_number
from scorekeeper.pages.pickers import seat_picks
from scorekeeper.pages.seats import hold_seat
from scorekeeper.pages.seats import seat_names as seat_names_of
from scorekeeper.pages.tables import qr_svg
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import MoveSchema, StandInSchema, VirtualGameCreateSchema
from scorekeeper.services import virtual
from scorekeeper.services.credentials import token_hash
from scorekeeper.services.levels import DEFAULT_LEVEL, LEVELS
from scorekeeper.services.refusals import InvalidRequest, Refusal
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Seat, Table
from scorekeeper.web import live
from scorekeeper.web.i18n import gettext, language, language_asked, say, use_language
from scorekeeper.web.move_words import MoveWords
from scorekeeper.web.transactions import start_over
from scorekeeper.web.words import in_language, level_name, strength_words

bp = Blueprint("virtual", __name__)

DEFAULT_COMPUTER = DEFAULT_LEVEL.key
SEAT_LINKS = "seat_links"
"""Where the phone that dealt keeps the seats' links of its last deal (its session)."""
RECENT_EVENTS = 8


@bp.route("/t/<id:table_id>/virtual/new", methods=["GET", "POST"])
def new_virtual_game(table_id: int) -> Any:
    """Seat players of the table and computer players; then deal."""
    table = page_table(table_id)
    players = whole_number(request.values.get("players")) or 2
    players = players if players in SUPPORTED_PLAYERS else 2
    errors: list[str] = []
    use_language(request.form.get("language", ""))  # the switch, with the form's choices kept
    if request.method == "POST" and "start" in request.form:
        seats = [_seat_choice(request.form.get(f"seat{seat}", "")) for seat in range(players)]
        try:
            body = load(VirtualGameCreateSchema(), {"players": players, "seats": seats})
            dealt, tokens = virtual.start(table, body["players"], {}, body["seats"])
        except InvalidRequest as invalid:
            errors = [say(problem) for problem in invalid.problems]
        else:
            links = {
                seat: url_for(".play", token=token, _external=True)
                for seat, token in tokens.items()
            }
            return _after_deal(table.id, dealt.game.id, links)
    return render_template(
        "pages/new_virtual_game.html",
        table=table,
        players=players,
        rules=Rules.for_players(players),
        supported=SUPPORTED_PLAYERS,
        levels=LEVELS,
        strength_words=strength_words,
        picks=seat_picks(request.form, table.players, players, DEFAULT_COMPUTER),
        errors=errors,
    ), 422 if errors else 200


REMATCHED = "rematched"
"""Where a phone keeps the last game it dealt again and the game dealt: a second tap goes there."""


@bp.post("/t/<id:table_id>/virtual/<id:game_id>/rematch")
def rematch(table_id: int, game_id: int) -> Any:
    """Deal an ended game again, in one tap: same seats, same computers, same variants. The
    players' new links follow, as after a deal; a second tap (or Back and the button again)
    leads to the same links instead of dealing a third game."""
    table = page_table(table_id)
    kept = session.get(SEAT_LINKS)
    again = session.get(REMATCHED)
    if again and again[0] == game_id and kept and kept["game"] == again[1]:
        return _after_deal(table.id, again[1], dict(kept["links"]))
    dealt, tokens = virtual.rematch(table, game_id)
    links = {seat: url_for(".play", token=token, _external=True) for seat, token in tokens.items()}
    session[REMATCHED] = [game_id, dealt.game.id]
    return _after_deal(table.id, dealt.game.id, links)


def _after_deal(table_id: int, game_id: int, links: dict[Any, str]) -> Any:
    """The page after a deal: a single player's seat, else every player's link (kept in this
    phone's session, so a reload shows them again)."""
    session[SEAT_LINKS] = {"game": game_id, "links": list(links.items())}
    if len(links) == 1:
        return redirect(next(iter(links.values())), 303)
    return redirect(url_for(".seat_links", table_id=table_id, game_id=game_id), 303)


@bp.get("/t/<id:table_id>/virtual/<id:game_id>/links")
def seat_links(table_id: int, game_id: int) -> str:
    """Each human seat's link, for the phone that dealt. The deal redirects here, so a reload
    shows the same links again instead of dealing a second game; they stay in that phone's
    session only, until it deals again."""
    table = page_table(table_id)
    kept = session.get(SEAT_LINKS)
    game = db.session.get(Game, game_id)
    if not kept or kept["game"] != game_id or game is None or game.table_id != table.id:
        raise NotFound(
            N_("The seats' links are shown only to the phone that dealt, after the deal.")
        )
    links = sorted((int(seat), link) for seat, link in kept["links"])
    return render_template(
        "pages/virtual_links.html",
        table=table,
        game=game,
        links=[(seat, link, qr_svg(link)) for seat, link in links],
    )


@bp.get("/t/<id:table_id>/virtual/<id:game_id>/seats")
def seats(table_id: int, game_id: int) -> str:
    """The game's seats, for a phone of the table: a player's seat may get a new link here
    (a lost phone, a lost link)."""
    table = page_table(table_id)
    game = virtual.virtual_game(table.id, game_id)
    return render_template(
        "pages/virtual_seats.html",
        table=table,
        game=game,
        seats=sorted((seat for side in game.sides for seat in side.seats), key=_seat_number),
        names=seat_names_of(in_language(game_view(game))),
        levels=LEVELS,
        default_level=DEFAULT_COMPUTER,
        level_name=level_name,
    )


@bp.post("/t/<id:table_id>/virtual/<id:game_id>/seats/<int:number>/link")
def new_seat_link(table_id: int, game_id: int, number: int) -> Any:
    """A new link for a player's seat: the old one stops working at once. The new link joins
    the links this phone shows (its session), and the links page shows it with its QR code."""
    page_table(table_id)
    link = url_for(".play", token=virtual.reissue(table_id, game_id, number), _external=True)
    kept = session.get(SEAT_LINKS)
    links = dict(kept["links"]) if kept and kept["game"] == game_id else {}
    links = {int(seat): kept_link for seat, kept_link in links.items()} | {number: link}
    session[SEAT_LINKS] = {"game": game_id, "links": list(links.items())}
    return redirect(url_for(".seat_links", table_id=table_id, game_id=game_id), 303)


@bp.post("/t/<id:table_id>/virtual/<id:game_id>/seats/<int:number>/computer")
def hand_seat_to_computer(table_id: int, game_id: int, number: int) -> Any:
    """A computer of the level chosen plays an absent player's seat until it is taken back."""
    page_table(table_id)
    level = request.form.get("computer") or DEFAULT_COMPUTER
    body = load(StandInSchema(), {"computer": level})
    virtual.hand_to_computer(table_id, game_id, number, body["computer"])
    return redirect(url_for(".seats", table_id=table_id, game_id=game_id), 303)


@bp.post("/t/<id:table_id>/virtual/<id:game_id>/seats/<int:number>/player")
def take_seat_back(table_id: int, game_id: int, number: int) -> Any:
    """The seat's player plays it again, from the table's phone."""
    page_table(table_id)
    virtual.take_back(table_id, game_id, number)
    return redirect(url_for(".seats", table_id=table_id, game_id=game_id), 303)


@bp.post("/play/<token>/take-back")
def take_back(token: str) -> Any:
    """The player, back at the table, takes the seat back from the computer on their phone."""
    seat = _seat_of(token)
    notice = None
    try:
        virtual.take_back(seat.side.game.table_id, seat.side.game_id, seat.seat)
    except Refusal:
        start_over()  # refused, though the answer is a redirect with the notice
        notice = gettext("The game has moved on since this page was shown.")
    return redirect(url_for(".play", token=token, notice=notice))


def _seat_number(seat: Seat) -> int:
    return seat.seat


def _seat_choice(value: str) -> dict[str, Any]:
    """A seat from the form: ``p<id>`` a player of the table, ``c<level>`` a computer."""
    if value.startswith("p") and (player := whole_number(value[1:])) is not None:
        return {"player": player}
    return {"computer": value[1:] or DEFAULT_COMPUTER}


def _seat_of(token: str) -> Seat:
    seat = db.session.execute(
        select(Seat).where(Seat.token_hash == token_hash(token))
    ).scalar_one_or_none()
    if seat is None:
        raise NotFound(N_("This seat's link is not valid: ask for the game's links again."))
    return seat


@bp.get("/play/<token>")
@live.waits
def play(token: str) -> Response:
    """The seat's page: its cards, every tableau, what the others just did, its prompt.

    Conditional: a page waiting for the other seats asks with If-None-Match and gets 304 until
    the game moves; with ``Prefer: wait`` the answer waits for the move
    (:mod:`~scorekeeper.web.live`), or for the coup-fourré window's close, which this read makes.
    """
    seat = _seat_of(token)
    game = virtual.up_to_date(virtual.virtual_game(seat.side.game.table_id, seat.side.game_id))
    hold_seat(game.id, seat.seat, url_for(".play", token=token))
    etag = f"{game.etag}-seat{seat.seat}-{language()}-{form_key()}"  # its move forms' token
    live.watched(game.id, game.version, virtual.window_left(game))
    if request.if_none_match.contains(etag):
        response = Response(status=304)
        response.set_etag(etag)
        return response
    sight = virtual.sight_of(game, seat.seat, 0, last=RECENT_EVENTS)
    response = make_response(_page(sight, seat, token, etag, request.args.get("notice")))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "same-origin"  # the address is the seat's secret
    return response


@bp.post("/play/<token>/move")
def move(token: str) -> Any:
    """Play the move of the form pressed; the computers answer before the page comes back."""
    seat = _seat_of(token)
    fields: dict[str, Any] = {
        key: request.form[key] for key in ("move", "card") if request.form.get(key)
    }
    for key in ("number", "target"):
        if (value := whole_number(request.form.get(key))) is not None:
            fields[key] = value
    notice = None
    try:
        body = load(MoveSchema(), fields)
        number = body.pop("number")
        virtual.play_move(seat.side.game.table_id, seat.side.game_id, seat.seat, number, body)
    except InvalidRequest as invalid:
        start_over()
        notice = " ".join(say(problem) for problem in invalid.problems)
    except IllegalMove as illegal:
        start_over()
        notice = say(illegal.sentence)
    except Refusal:
        start_over()  # refused, though the answer is a redirect with the notice
        notice = gettext("The game has moved on since this page was shown.")
    return redirect(url_for(".play", token=token, notice=notice))


def _page(sight: virtual.GameSight, seat: Seat, token: str, etag: str, notice: str | None) -> str:
    game = sight.game
    view = in_language(game_view(game))
    names = [side["name"] for side in view["sides"]]
    seen = sight.seat_sight
    state = None if seen is None else seen.view
    # In an open coup-fourré window every person asked sees the same prompt at once; a holder
    # may lay the safety, nobody can close it early (no pass button): it closes by itself.
    window = seen is not None and seen.in_window
    moves = [
        legal.to_dict()
        for legal in (() if seen is None else seen.legal_moves)
        if not window or isinstance(legal, CoupFourre)
    ]
    options: dict[str, list[dict[str, Any]]] = {}
    for wire in moves:
        if wire["move"] in ("play", "discard", "coup_fourre"):
            options.setdefault(wire["card"], []).append(wire)
    words = MoveWords(names=names) if state is None else MoveWords.of(state, names)
    hand_just_ended = bool(view["hands"]) and (sight.over or sight.moves_this_hand < game.players)
    return render_template(
        "pages/play.html",
        etag=etag,
        table=db.session.get(Table, game.table_id),
        game=game,
        view=view,
        names=names,
        seat=seat,
        seat_names=seat_names_of(view),
        state=state,
        your_turn=state is not None and state.to_act == seat.seat and not window,
        window=window,
        pending=None if seen is None else seen.pending_hazard,
        moves=moves,
        options=options,
        number=sight.next_move,
        has_table=cookie_name(game.table_id) in request.cookies,
        hand_number=sight.hand_number,
        recent=reversed(sight.events),
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
