"""Enter a hand (with a live preview), correct one, undo the last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound

from engine import InvalidReport, Problem
from engine.sentences import N_
from scorekeeper.domain.refusals import (
    GameClosed,
    InvalidRequest,
    Missing,
    NotTheLastHand,
    NotTheNextHand,
    StaleVersion,
    VersionRequired,
)
from scorekeeper.pages.forms import (
    CLAIMS,
    card_limits,
    chosen_answers,
    form_from_report,
    nothing_entered,
    problems_by_side,
    report_from_form,
    stepped,
    whole_number,
)
from scorekeeper.pages.games import page_game
from scorekeeper.results.standings import game_view
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import HandEntrySchema
from scorekeeper.services import operations
from scorekeeper.web.http import versions_read
from scorekeeper.web.i18n import gettext, say, use_language
from scorekeeper.web.idempotency import idempotent_form
from scorekeeper.web.transactions import reads_only, unwritten

if TYPE_CHECKING:
    from scorekeeper.storage.models import Game, Hand, Table

bp = Blueprint("hands", __name__)
entry_schema = HandEntrySchema()
CHANGED_ELSEWHERE = N_("This hand was changed on another phone; here is the current version.")
RECORDED_ELSEWHERE = N_("Another phone recorded a hand meanwhile: check the scoreboard first.")


def _document(game: Game, form: Mapping[str, str]) -> tuple[dict[str, Any], list[Problem]]:
    """The hand form's ``form`` as a v1 hand report, through the same schema as the API."""
    report, problems = report_from_form(form, len(game.sides))
    if problems:
        return report, problems
    try:
        return load(entry_schema, report), []
    except InvalidRequest as invalid:
        return report, list(invalid.problems)


def _form_page(
    table: Table,
    game: Game,
    values: Mapping[str, str],
    problems: list[Problem],
    hand: Hand | None = None,
    notice: str | None = None,
    empty: bool = False,
    refused: bool = True,
) -> str:
    """The hand form (a new hand's, or ``hand``'s correction) filled with ``values``, each of
    ``problems`` beside what it is about; ``refused``: they are why Save recorded nothing (else
    the form is only shown again, as it scores now); ``empty``: refused as a hand where nothing
    was entered, with the box that records it all the same."""
    general, per_side = problems_by_side(problems, len(game.sides))
    return render_template(
        "pages/hand_form.html",
        table=table,
        game=game,
        rules=game.rules,
        values=values,
        general=general,
        per_side=per_side,
        hand=hand,
        action=url_for(
            "pages.hands.correct_hand", table_id=table.id, game_id=game.id, number=hand.number
        )
        if hand
        else url_for("pages.hands.new_hand", table_id=table.id, game_id=game.id),
        notice=notice,
        empty=empty,
        refused=refused and bool(problems or empty),
        claims=CLAIMS,
        chosen=chosen_answers(values, len(game.sides)),
        card_limits=card_limits(game.rules),
    )


@bp.route("/t/<id:table_id>/games/<id:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(table_id: int, game_id: int) -> Any:
    """The hand-entry form; posting it records the hand or shows every refusal in place.

    The form says which hand it records (its number), so a double tap records it once and a
    hand recorded meanwhile by another phone is not followed blindly by this one. A phone's
    queue of hands sends an ``Idempotency-Key``: a retry of a hand recorded is answered, not
    recorded again.
    """
    table, game = page_game(table_id, game_id)
    if request.method == "GET":
        return _form_page(table, game, {}, [])
    if _shown_again():
        return _form_again(table, game)
    scoreboard = url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id)
    return idempotent_form(
        table, game.id, scoreboard, lambda locked: _record_hand(table, game, locked, scoreboard)
    )


def _record_hand(table: Table, game: Game, locked: Game, scoreboard: str) -> Any:
    """Record the posted hand in ``locked`` (``game``, its row locked), or the form again with
    why it was not."""
    document, problems = _document(game, request.form)
    if problems:
        return _form_page(table, game, request.form, problems), 422
    if nothing_entered(document) and not request.form.get("empty"):
        # Save tapped on the form as it opens: a hand where nobody scored is recorded only when
        # the person says so.
        return _form_page(table, game, request.form, [], empty=True), 422
    number = whole_number(request.form.get("number"))
    try:
        operations.add_hand(locked, document, number)
    except NotTheNextHand:
        last = locked.hands[-1] if locked.hands else None
        if last is not None and last.number == number and last.report == document:
            # The same form sent twice: recorded once. Nothing is recorded now, so the key's
            # claim is rolled back with the refusal, and this answer stays a redirect.
            unwritten(redirect(scoreboard))
        return _form_page(table, locked, request.form, [], notice=RECORDED_ELSEWHERE), 409
    except InvalidReport as refused:
        return _form_page(table, game, request.form, list(refused.problems)), 422
    except GameClosed as over:
        return _form_page(table, game, request.form, [], notice=say(over.sentence)), 409
    return redirect(scoreboard)


def _scored(game: Game, form: Mapping[str, str]) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Every side's breakdown for the hand form's ``form`` as filled so far, after the hands
    before the one it records; or the refusals. Nothing is saved."""
    number = whole_number(form.get("number"))
    document, problems = _document(game, form)
    if problems:
        return [], problems
    sheet = game.sheet([h for h in game.hands if number is None or h.number < number])
    try:
        return [side.to_dict() for side in sheet.record_hand(document).sides], []
    except InvalidReport as refused:
        return [], list(refused.problems)


@bp.post("/t/<id:table_id>/games/<id:game_id>/preview")
@reads_only
def preview(table_id: int, game_id: int) -> str:
    """The live preview: the form as it scores now, or its refusals."""
    _, game = page_game(table_id, game_id)
    sides, problems = _scored(game, request.form)
    return render_template("pages/_preview.html", sides=sides, problems=problems)


def _shown_again() -> bool:
    """Whether the form was posted to be shown again rather than saved: a stepper tapped (the
    form without its script), or the language switched with the form's entries kept."""
    return "step" in request.form or "language" in request.form


def _form_again(table: Table, game: Game, hand: Hand | None = None) -> str:
    """The posted form shown again, nothing saved: with a stepper's count moved, or in the
    language chosen. What was entered stays, which answers a person chose included, and the
    refusals the form meets as it stands are beside what they concern, as the live preview
    shows them."""
    use_language(request.form.get("language", ""))
    values = stepped(request.form, request.form.get("step", ""), len(game.sides), game.rules)
    _, problems = _scored(game, values)
    return _form_page(table, game, values, problems, hand, refused=False)


@bp.route("/t/<id:table_id>/games/<id:game_id>/hands/<id:number>", methods=["GET", "POST"])
def correct_hand(table_id: int, game_id: int, number: int) -> Any:
    """Correct a past hand. The form carries the ETag it was read at: if another phone changed
    the game meanwhile, nothing is overwritten and the current version is shown. Like a new
    hand, a correction sent with an ``Idempotency-Key`` is applied once."""
    table, game = page_game(table_id, game_id)
    hand = operations.numbered_hand(game, number)
    if request.method == "GET":
        return _form_page(table, game, form_from_report(hand.report), [], hand)
    if _shown_again():
        return _form_again(table, game, hand)
    scoreboard = url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id)
    return idempotent_form(
        table, game.id, scoreboard, lambda locked: _record_correction(table, game, locked, hand)
    )


def _record_correction(table: Table, game: Game, locked: Game, hand: Hand) -> Any:
    """Apply the posted correction to ``locked`` (``game``, its row locked), or the form again
    with why it was not."""
    table_id, game_id, number = table.id, game.id, hand.number
    document, problems = _document(game, request.form)
    if problems:
        return _form_page(table, game, request.form, problems, hand), 422
    try:
        operations.correct_hand(locked, number, document, versions_read())
    except InvalidReport as refused:
        return _form_page(table, game, request.form, list(refused.problems), hand), 422
    except (StaleVersion, VersionRequired, Missing):
        return _current_version(table, locked, number)
    except GameClosed as closed:
        return _form_page(table, game, request.form, [], hand, say(closed.sentence)), 409
    return redirect(url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id))


def _current_version(table: Table, game: Game, number: int) -> Any:
    """The correction form again, filled with the hand as it is now in ``game`` (read locked,
    so as the last change left it), and why."""
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        raise NotFound(gettext("Hand %(number)s was undone on another phone.", number=number))
    return _form_page(table, game, form_from_report(hand.report), [], hand, CHANGED_ELSEWHERE), 409


@bp.route("/t/<id:table_id>/games/<id:game_id>/undo", methods=["GET", "POST"])
def undo(table_id: int, game_id: int) -> Any:
    """Undo the last hand, after a confirmation (of that very hand, as it was read)."""
    table, game = page_game(table_id, game_id)
    back = url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id)
    if not game.hands:
        return redirect(back)
    last = game.hands[-1]
    if request.method == "GET":
        view = game_view(game)
        scores = [
            (side["name"], scored["total"])
            for side, scored in zip(view["sides"], view["hands"][-1]["sides"], strict=True)
        ]
        return render_template(
            "pages/confirm.html",
            table=table,
            question=N_("Undo hand %(number)s?"),
            values={"number": last.number},
            scores=scores,
            action=request.path,
            back=back,
            button=N_("Undo"),
            hidden={"etag": last.etag(game.totals)},
        )
    try:
        operations.undo_hand(operations.locked_game(table, game_id), last.number, versions_read())
    except (StaleVersion, VersionRequired, NotTheLastHand, GameClosed):
        return render_template(
            "pages/error.html",
            table=table,
            problem={"title": N_("Not undone"), "status": 409, "detail": CHANGED_ELSEWHERE},
        ), 409
    return redirect(back)
