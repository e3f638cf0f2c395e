"""Every write: the engine decides, these functions store its decision in one transaction.

They take plain values (never the request), so the API, the pages and the command line share them.
Each one that changes a game locks the game's row first (``SELECT ... FOR UPDATE``; on SQLite the
write transaction is already exclusive), so checks and writes cannot interleave between phones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import Conflict, NotFound, PreconditionFailed, PreconditionRequired
from werkzeug.http import parse_etags

from engine import InvalidReport, Problem, ProblemCode, Rules
from engine.problems import pointer
from engine.report import variant_refusal
from engine.rules import UnknownVariant
from engine.scoring import HandScore
from engine.sentences import Fact
from engine.sheet import Outcome, ScoreSheet
from scorekeeper import running_totals
from scorekeeper.auth import new_token, token_hash
from scorekeeper.extensions import db
from scorekeeper.http import KEY_PARAMETER, Locked, keyed
from scorekeeper.i18n import N_, gettext
from scorekeeper.models import Game, GameStatus, Hand, Player, Seat, Side, Table, utcnow
from scorekeeper.names import first_repeat, team_name
from scorekeeper.problems import InvalidRequest
from scorekeeper.standings import rules_of, sheet_of


def create_table(name: str) -> tuple[Table, str]:
    """A new table and its token (the only time the token is known)."""
    token = new_token()
    table = Table(name=name, token_hash=token_hash(token))
    db.session.add(table)
    db.session.commit()
    return table, token


def rotate_token(table: Table) -> str:
    """Replace the table's token; the old one stops working at once."""
    token = new_token()
    table.token_hash = token_hash(token)
    db.session.commit()
    return token


def create_player(table: Table, name: str) -> Player:
    """A new player at ``table``; no two players of a table have names that read alike."""
    player = Player(table_id=table.id, name=name)
    db.session.add(player)
    _flush_unique_name(name)
    db.session.commit()
    return player


def rename_player(player: Player, name: str) -> Player:
    """Rename a player. The games they sat in show the new name, so their ETags change too."""
    player.name = name
    _flush_unique_name(name)  # before any query: its autoflush would raise outside the check
    for game in db.session.execute(select(Game).where(Game.played_by(player.id))).scalars():
        game.updated_at = utcnow()
    db.session.commit()
    return player


def _flush_unique_name(name: str) -> None:
    """Write the pending name; the database's unique constraint decides (so two phones adding
    the same name at once cannot both succeed), and a refusal is 409 with nothing changed."""
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(
            gettext(
                "This table already has a player called “%(name)s”, or a name that reads the "
                "same (names are compared ignoring case, repeated spaces and look-alike forms).",
                name=name,
            )
        ) from None


def start_game(
    table: Table, players: int, variants: Mapping[str, Any], sides: Sequence[Mapping[str, Any]]
) -> Game:
    """A new game: the rules from the engine, each side's players seated opposite their partner."""
    rules = rules_for(players, variants)
    problems = _seating_problems(table, rules, sides)
    if problems:
        raise InvalidRequest(problems)
    roster = {player.id: player for player in table.players}
    names = [
        side.get("name") or team_name(roster[player_id].name for player_id in side["players"])
        for side in sides
    ]
    repeat = first_repeat(names)
    if repeat is not None:
        index = repeat[0]
        raise invalid_request(
            f"/sides/{index}/name",
            ProblemCode.INVALID_FIELD,
            N_(
                "Two sides cannot both be called “%(name)s” (names are compared as they read: "
                "case, repeated spaces and look-alike forms aside): the scores would be ambiguous."
            ),
            name=names[index],
        )
    game = Game(table_id=table.id, players=players, variants=dict(variants))
    for index, (side, name) in enumerate(zip(sides, names, strict=True)):
        seated = [roster[player_id] for player_id in side["players"]]
        game.sides.append(
            Side(
                index=index,
                name=name,
                seats=[
                    Seat(seat=seat, player_id=player.id)
                    for seat, player in zip(rules.seats_of(index), seated, strict=True)
                ],
            )
        )
    running_totals.start(game, len(sides))
    db.session.add(game)
    db.session.commit()
    return game


def rules_for(players: int, variants: Mapping[str, Any]) -> Rules:
    """The engine's rules for a new game; an unknown variant is 422 naming it."""
    try:
        return Rules.for_players(players, variants)
    except UnknownVariant as unknown:
        problem = Problem(
            code=ProblemCode.UNKNOWN_VARIANT,
            path=pointer("variants", unknown.key),
            sentence=variant_refusal(unknown),
        )
        raise InvalidRequest([problem]) from None


def _seating_problems(
    table: Table, rules: Rules, sides: Sequence[Mapping[str, Any]]
) -> list[Problem]:
    problems: list[Problem] = []
    if len(sides) != rules.sides:
        problems.append(
            Problem.of(
                ProblemCode.SIDES_COUNT_MISMATCH,
                "/sides",
                N_("With %(players)s seated players there are %(sides)s sides, not %(given)s."),
                players=rules.players,
                sides=rules.sides,
                given=len(sides),
            )
        )
    known = {player.id: player.name for player in table.players}
    seen: set[int] = set()
    for index, side in enumerate(sides):
        if len(side["players"]) != rules.players_per_side:
            problems.append(
                Problem.of(
                    ProblemCode.INVALID_FIELD,
                    f"/sides/{index}/players",
                    N_("Each side of a 2- or 3-player game has one player, not %(given)s.")
                    if rules.players_per_side == 1
                    else N_("Each side of a 4- or 6-player game has two players, not %(given)s."),
                    given=len(side["players"]),
                )
            )
        for position, player_id in enumerate(side["players"]):
            path = f"/sides/{index}/players/{position}"
            if player_id not in known:
                problems.append(
                    seat_problem(path, N_("This table has no player %(player)s."), player_id)
                )
            elif player_id in seen:
                problems.append(
                    seat_problem(path, N_("%(player)s cannot sit twice."), known[player_id])
                )
            else:
                seen.add(player_id)
    return problems


_LOCKED = (
    select(Game)
    .where(Game.id == bindparam("game_id"), Game.table_id == bindparam("table_id"))
    .options(*Game.everything())
    .with_for_update(of=Game)
    .execution_options(populate_existing=True)  # the locked row, not what was read before
)
_LOCKED_KEYED = keyed(_LOCKED)
"""Both built once: building a statement costs as much as running it."""


def locked_game(table: Table, game_id: int) -> Game:
    """The table's game ``game_id``, its row locked for the rest of the transaction."""
    game: Game = _locked(_LOCKED, table, game_id, {})[0]
    return game


def locked_game_keyed(table: Table, game_id: int, key: str | None) -> Locked:
    """:func:`locked_game`, and in the same query the record of the idempotency ``key`` (the
    game before the key: the one lock order of every write of a hand, :mod:`scorekeeper.http`)."""
    row = _locked(_LOCKED_KEYED, table, game_id, {KEY_PARAMETER: key})
    return row[0], row[1]


def _locked(
    statement: Select[Any], table: Table, game_id: int, parameters: Mapping[str, Any]
) -> tuple[Any, ...]:
    row = db.session.execute(
        statement, {"game_id": game_id, "table_id": table.id, **parameters}
    ).one_or_none()
    if row is None:
        raise NotFound(N_("There is no such game at this table."))
    return tuple(row)


def add_hand(game: Game, document: Mapping[str, Any]) -> Hand:
    """Check the hand, score it, store it with its breakdown and add it to the game's kept
    totals (flushed, not committed: the caller commits it together with its idempotency
    record). ``game`` is locked; its sides are all this reads of it, never its hands."""
    _require_open(game)
    if game.status == GameStatus.FINISHED:
        raise Conflict(
            N_("The game is over: no hand can be added. Correct or undo a hand instead.")
        )
    # A hand is checked on its own (RULES.md §11); what came before matters only through the
    # game's end, which its status already says.
    score = _record(ScoreSheet(rules_of(game), [side.name for side in game.sides]), document)
    number = running_totals.add(game, score)
    hand = Hand(game_id=game.id, number=number, report=dict(document), breakdown=score.to_dict())
    db.session.add(hand)
    db.session.flush()
    return hand


def correct_hand(
    game: Game, number: int, document: Mapping[str, Any], if_match: str | None
) -> Hand:
    """Replace hand ``number``'s report; the totals after it follow. Refused if any later hand
    would then come after the end of the game."""
    _require_open(game)
    hand = _hand(game, number, if_match)
    sheet = sheet_of(game, [h for h in game.hands if h.number < number])
    score = _record(sheet, document)
    for later in (h for h in game.hands if h.number > number):
        if sheet.status is not Outcome.IN_PROGRESS:
            raise InvalidReport(
                [
                    Problem.of(
                        ProblemCode.HAND_AFTER_GAME_OVER,
                        "",
                        N_(
                            "With this correction the game would end after hand %(end)s, but "
                            "hand %(later)s follows it. Undo the later hands first."
                        ),
                        end=len(sheet.hands),
                        later=later.number,
                    )
                ]
            )
        sheet.append(HandScore.from_dict(later.breakdown))
    hand.report = dict(document)
    hand.breakdown = score.to_dict()
    running_totals.keep(game, running_totals.standing(game, sheet.totals, len(sheet.hands)))
    db.session.commit()
    return hand


def undo_hand(game: Game, number: int, if_match: str | None) -> None:
    """Delete the last hand (only the last: the ones before it stay as they were)."""
    _require_open(game)
    hand = _hand(game, number, if_match)
    if number != len(game.hands):
        raise Conflict(
            gettext("Only the last hand (%(number)s) can be undone.", number=len(game.hands))
        )
    game.hands.remove(hand)
    running_totals.remove(game, HandScore.from_dict(hand.breakdown))
    db.session.commit()


def abandon_game(game: Game) -> Game:
    """Stop a game before its end; it stays in the history of games played, never as won."""
    if game.status == GameStatus.FINISHED:
        raise Conflict(N_("The game is over: a finished game cannot be abandoned."))
    if game.status != GameStatus.ABANDONED:
        game.status = GameStatus.ABANDONED
        game.finished_at = utcnow()
        db.session.commit()
    return game


def game_count(table: Table) -> int:
    """How many games the table has started."""
    return db.session.scalar(select(func.count()).where(Game.table_id == table.id)) or 0


def _require_open(game: Game) -> None:
    """Hands are reported only for a tabletop game that was not abandoned."""
    if game.virtual:
        raise Conflict(N_("This game is played in the app: its hands come from its moves."))
    if game.status == GameStatus.ABANDONED:
        raise Conflict(N_("The game was abandoned: its hands can no longer change."))


def _hand(game: Game, number: int, if_match: str | None) -> Hand:
    """Hand ``number``, provided ``if_match`` names its current version (RFC 9110 If-Match)."""
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        raise NotFound(
            gettext("The game has no hand %(number)s.", number=number)
            if number
            else gettext("No such hand.")
        )
    if not if_match or if_match.strip() == "*":
        raise PreconditionRequired(
            N_(
                "This change needs an If-Match header with the ETag of the hand (or the game) "
                "as you read it; '*' is not enough."
            )
        )
    # The hand's own ETag, or the game's: every change to a hand changes the game's ETag too,
    # so a phone that read the whole game may change a hand as safely as one that read the hand.
    expected = parse_etags(if_match)
    if not (expected.contains(hand.etag) or expected.contains(game.etag)):
        raise PreconditionFailed(
            f"If-Match names a version that is no longer current (hand {number} is now "
            f'"{hand.etag}", the game "{game.etag}"): read again, then apply your change to '
            "the current version."
        )
    return hand


def _record(sheet: ScoreSheet, document: Mapping[str, Any]) -> HandScore:
    """Score ``document`` as the sheet's next hand, or raise every problem with it at once."""
    report, problems = sheet.read_hand(document)
    problems += sheet.problems_with(report)
    if problems:
        raise InvalidReport(problems)
    return sheet.record(report)


def invalid_request(path: str, code: ProblemCode, template: str, **facts: Fact) -> InvalidRequest:
    """A request refused for one reason: ``template`` (a msgid) filled with ``facts``."""
    return InvalidRequest([Problem.of(code, path, template, **facts)])


def seat_problem(path: str, template: str, player: str | int) -> Problem:
    """A seat refused because of the player in it, named in ``template``'s ``%(player)s``."""
    return Problem.of(ProblemCode.INVALID_FIELD, path, template, player=player)


__all__ = [
    "abandon_game",
    "add_hand",
    "correct_hand",
    "create_player",
    "create_table",
    "game_count",
    "invalid_request",
    "locked_game",
    "locked_game_keyed",
    "rename_player",
    "rotate_token",
    "rules_for",
    "start_game",
    "team_name",
    "undo_hand",
]
