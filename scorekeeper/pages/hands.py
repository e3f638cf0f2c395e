"""Enter a hand (with a live preview), correct one, undo the last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.exceptions import Conflict, NotFound, PreconditionFailed

from engine import InvalidReport, Problem
from engine.sheet import ScoreSheet
from scorekeeper import operations
from scorekeeper.extensions import db
from scorekeeper.models import Game, Hand, Table
from scorekeeper.pages.forms import CLAIMS, form_from_report, problems_by_side, report_from_form
from scorekeeper.pages.games import page_game
from scorekeeper.problems import InvalidRequest
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import HandEntrySchema
from scorekeeper.standings import rules_of, sheet_of

bp = Blueprint("hands", __name__)
entry_schema = HandEntrySchema()


def _document(game: Game) -> tuple[dict[str, Any], list[Problem]]:
    """The submitted form as a v1 hand report, through the same schema as the API."""
    report, problems = report_from_form(request.form, len(game.sides))
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
) -> str:
    general, per_side = problems_by_side(problems, len(game.sides))
    return render_template(
        "pages/hand_form.html",
        table=table,
        game=game,
        rules=rules_of(game),
        values=values,
        general=general,
        per_side=per_side,
        hand=hand,
        notice=notice,
        claims=CLAIMS,
        preview=None,
    )


@bp.route("/t/<id:table_id>/games/<id:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(table_id: int, game_id: int) -> Any:
    """The hand-entry form; posting it records the hand or shows every refusal in place."""
    table, game = page_game(table_id, game_id)
    if request.method == "GET":
        return _form_page(table, game, {}, [])
    document, problems = _document(game)
    if not problems:
        try:
            locked = operations.locked_game(table, game_id)
            operations.add_hand(locked, document)
            db.session.commit()
        except InvalidReport as refused:
            db.session.rollback()
            problems = list(refused.problems)
        except Conflict as over:
            db.session.rollback()
            return _form_page(table, game, request.form, [], notice=over.description), 409
        else:
            return redirect(url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id))
    return _form_page(table, game, request.form, problems), 422


@bp.post("/t/<id:table_id>/games/<id:game_id>/preview")
def preview(table_id: int, game_id: int) -> str:
    """Every side's breakdown for the form as filled so far, or the refusals: nothing is saved."""
    _, game = page_game(table_id, game_id)
    number = request.form.get("number", "")
    document, problems = _document(game)
    score = None
    if not problems:
        earlier = [h for h in game.hands if not number.isdigit() or h.number < int(number)]
        sheet: ScoreSheet = sheet_of(game, earlier)
        report, problems = sheet.read_hand(document)
        problems += sheet.problems_with(report)
        if not problems:
            score = sheet.record(report)
    sides = [side.to_dict() for side in score.sides] if score else []
    return render_template("pages/_preview.html", sides=sides, problems=problems)


@bp.route("/t/<id:table_id>/games/<id:game_id>/hands/<id:number>", methods=["GET", "POST"])
def correct_hand(table_id: int, game_id: int, number: int) -> Any:
    """Correct a past hand. The form carries the version it was read at: if another phone
    changed the hand meanwhile, nothing is overwritten and the current version is shown."""
    table, game = page_game(table_id, game_id)
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        raise NotFound(f"The game has no hand {number}.")
    if request.method == "GET":
        return _form_page(table, game, form_from_report(hand.report), [], hand)
    document, problems = _document(game)
    if not problems:
        read_at = f'"{Hand.etag_of(hand.id, int(request.form.get("version", "0") or 0))}"'
        try:
            operations.correct_hand(
                operations.locked_game(table, game_id), number, document, read_at
            )
        except InvalidReport as refused:
            db.session.rollback()
            problems = list(refused.problems)
        except PreconditionFailed:
            db.session.rollback()
            db.session.refresh(hand)
            notice = "This hand was changed on another phone; here is the current version."
            return _form_page(table, game, form_from_report(hand.report), [], hand, notice), 409
        except Conflict as closed:
            db.session.rollback()
            return _form_page(table, game, request.form, [], hand, closed.description), 409
        else:
            return redirect(url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id))
    return _form_page(table, game, request.form, problems, hand), 422


@bp.route("/t/<id:table_id>/games/<id:game_id>/undo", methods=["GET", "POST"])
def undo(table_id: int, game_id: int) -> Any:
    """Undo the last hand, after a confirmation."""
    table, game = page_game(table_id, game_id)
    back = url_for("pages.games.scoreboard", table_id=table_id, game_id=game_id)
    if not game.hands:
        return redirect(back)
    last = game.hands[-1]
    if request.method == "GET":
        return render_template(
            "pages/confirm.html",
            table=table,
            question="Undo the last hand",
            action=request.path,
            back=back,
            button="Undo",
            hidden={"number": last.number, "version": last.version},
        )
    if request.form.get("number") == str(last.number):
        version = int(request.form.get("version", "0") or 0)
        try:
            operations.undo_hand(
                operations.locked_game(table, game_id),
                last.number,
                f'"{Hand.etag_of(last.id, version)}"',
            )
        except (PreconditionFailed, Conflict):
            db.session.rollback()  # changed meanwhile: the scoreboard shows how it is now
    return redirect(back)
