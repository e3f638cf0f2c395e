"""Start a game, follow its scoreboard, abandon it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for

from engine.report import variant_problem
from engine.rules import GAME_TARGET, SUPPORTED_PLAYERS, VARIANT_ENUMS, Rules, UnknownVariant
from engine.sentences import N_
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.pages.access import form_key, page_table
from scorekeeper.pages.charts import score_chart
from scorekeeper.pages.forms import whole_number
from scorekeeper.pages.pickers import side_picks
from scorekeeper.pages.seats import held_seats, seat_names
from scorekeeper.pages.variants import VARIANT_WORDS
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import GameCreateSchema
from scorekeeper.services import operations, virtual
from scorekeeper.web import live
from scorekeeper.web.auth import table_game
from scorekeeper.web.i18n import language, language_asked, say, use_language
from scorekeeper.web.words import in_language, level_name

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game, Table

bp = Blueprint("games", __name__)


def page_game(table_id: int, game_id: int) -> tuple[Table, Game]:
    table = page_table(table_id)
    return table, table_game(table, game_id)


@bp.route("/t/<id:table_id>/games/new", methods=["GET", "POST"])
def new_game(table_id: int) -> Any:
    """Choose the seats, the sides' players and the variants; then start."""
    table = page_table(table_id)
    players = whole_number(request.values.get("players")) or 2
    players = players if players in SUPPORTED_PLAYERS else 2
    rules = Rules.for_players(players)
    errors: list[str] = []
    use_language(request.form.get("language", ""))  # the switch, with the form's choices kept
    if request.method == "POST" and "start" in request.form:
        sides: list[dict[str, Any]] = [
            {
                "players": [
                    n
                    for p in request.form.getlist(f"side{index}")
                    if (n := whole_number(p)) is not None
                ]
            }
            for index in range(rules.sides)
        ]
        for index, side in enumerate(sides):
            name = request.form.get(f"side{index}-name", "").strip()
            if name:
                side["name"] = name
        variants = {key: request.form[key] for key in VARIANT_ENUMS if request.form.get(key)}
        try:
            body = load(
                GameCreateSchema(), {"players": players, "variants": variants, "sides": sides}
            )
            game = operations.start_game(table, body["players"], body["variants"], body["sides"])
        except InvalidRequest as invalid:
            errors = [say(problem) for problem in invalid.problems]
        except UnknownVariant as unknown:
            errors = [say(variant_problem(unknown))]
        else:
            return redirect(url_for("pages.games.scoreboard", table_id=table_id, game_id=game.id))
    return render_template(
        "pages/new_game.html",
        table=table,
        players=players,
        rules=rules,
        picks=side_picks(request.form, table.players, players, rules.sides),
        supported=SUPPORTED_PLAYERS,
        variants=VARIANT_ENUMS,
        variant_words=VARIANT_WORDS,
        errors=errors,
    ), 422 if errors else 200


@bp.get("/t/<id:table_id>/games/<id:game_id>")
@live.waits
def scoreboard(table_id: int, game_id: int) -> Response:
    """Totals, progress toward 5,000, every hand with its bonuses, the chart, the winner.

    Conditional: a phone polling with If-None-Match gets 304 until the game changes; with
    ``Prefer: wait`` the answer waits for the change (:mod:`~scorekeeper.web.live`).
    """
    table, game = page_game(table_id, game_id)
    live.watched(game.id, game.version)
    held = held_seats(game.id)
    # The way back to this phone's seats is part of the page: a phone that opens a seat after
    # caching the scoreboard must not be answered 304 without it. So are the forms' CSRF token
    # (the rematch's) and, with a seat's link on the page, the rule that no copy is kept.
    etag = f"{game.etag}-{language()}-seats{'.'.join(str(seat) for seat, _ in held)}-{form_key()}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
        response.set_etag(etag)
        return response
    view = in_language(game_view(game))
    names = [side["name"] for side in view["sides"]]
    page = render_template(
        "pages/scoreboard.html",
        etag=etag,
        poll=url_for(".scoreboard", table_id=table_id, game_id=game_id, **language_asked()),
        table=table,
        game=game,
        view=view,
        names=names,
        chart=score_chart(names, [hand["totals"] for hand in view["hands"]]),
        target=GAME_TARGET,
        rules=game.rules,
        held_seats=held,
        seat_names=seat_names(view),
        stand_ins=_stand_ins_by_hand(game),
        level_name=level_name,
    )
    response = make_response(page)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-store" if held else "no-cache"
    return response


def _stand_ins_by_hand(game: Game) -> dict[int, list[dict[str, Any]]]:
    """A virtual game's history of who played in a player's place, by hand number."""
    by_hand: dict[int, list[dict[str, Any]]] = {}
    if game.virtual:
        for entry in virtual.stand_in_hands(game):
            by_hand.setdefault(entry["hand"], []).append(entry)
    return by_hand


@bp.post("/t/<id:table_id>/games/<id:game_id>/rematch")
def rematch(table_id: int, game_id: int) -> Any:
    """A new game with the same sides, the same players in the same seats and the same variants,
    in one tap from the winner screen (a tabletop game: a virtual one is dealt anew instead)."""
    table, _ = page_game(table_id, game_id)
    again = operations.rematch_game(table, game_id)
    return redirect(url_for("pages.games.scoreboard", table_id=table_id, game_id=again.id), 303)


@bp.route("/t/<id:table_id>/games/<id:game_id>/abandon", methods=["GET", "POST"])
def abandon(table_id: int, game_id: int) -> Any:
    """Abandon the game, after a confirmation."""
    table, game = page_game(table_id, game_id)
    back = url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id)
    if request.method == "GET":
        held = held_seats(game.id)
        return render_template(
            "pages/confirm.html",
            table=table,
            question=N_("Abandon the game"),
            action=request.path,
            back=back,
            button=N_("Abandon"),
            held_seats=held,
            seat_names=seat_names(in_language(game_view(game))) if held else {},
        )
    locked = operations.locked_game(table, game_id)
    if locked.status != GameStatus.FINISHED:  # a finished game stays finished, as it shows
        operations.abandon_game(locked)
    return redirect(back)
