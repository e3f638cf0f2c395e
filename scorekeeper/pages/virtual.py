"""Virtual games on the phone: choose the seats and deal, share the seats' links, and let a
computer stand in for an absent player. Each seat then plays from its own page
(:mod:`scorekeeper.pages.play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.exceptions import NotFound

from engine.rules import SUPPORTED_PLAYERS, Rules
from engine.sentences import N_
from scorekeeper.domain.levels import DEFAULT_LEVEL, LEVELS
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.pages.access import page_table
from scorekeeper.pages.forms import whole_number
from scorekeeper.pages.pickers import seat_picks
from scorekeeper.pages.seats import seat_names as seat_names_of
from scorekeeper.pages.tables import qr_svg
from scorekeeper.results.queries import table_game
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import StandInSchema, VirtualGameCreateSchema
from scorekeeper.services import virtual
from scorekeeper.web.i18n import say, use_language
from scorekeeper.web.words import in_language, level_name, strength_words

if TYPE_CHECKING:
    from scorekeeper.storage.models import Seat

bp = Blueprint("virtual", __name__)

DEFAULT_COMPUTER = DEFAULT_LEVEL.key
SEAT_LINKS = "seat_links"
"""Where the phone that dealt keeps the seats' links of its last deal (its session)."""


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
            links = {seat: _seat_link(token) for seat, token in tokens.items()}
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
    links = {seat: _seat_link(token) for seat, token in tokens.items()}
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
    game = table_game(table, game_id)
    if not kept or kept["game"] != game_id or game is None:
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
    link = url_for(
        "pages.play.play", token=virtual.reissue(table_id, game_id, number), _external=True
    )
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


def _seat_link(token: str) -> str:
    """The address of the seat's own page, whose ``token`` it carries."""
    return url_for("pages.play.play", token=token, _external=True)


def _seat_number(seat: Seat) -> int:
    return seat.seat


def _seat_choice(value: str) -> dict[str, Any]:
    """A seat from the form: ``p<id>`` a player of the table, ``c<level>`` a computer."""
    if value.startswith("p") and (player := whole_number(value[1:])) is not None:
        return {"player": player}
    return {"computer": value[1:] or DEFAULT_COMPUTER}
