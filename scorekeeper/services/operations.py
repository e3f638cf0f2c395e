"""Every write of a table: the engine decides, these functions stage its decision.

They take plain values (never the request) and speak the domain, never HTTP: a refusal is one of
:mod:`scorekeeper.domain.refusals` or the engine's, and a change to a hand names the versions
it was read at. So the API, the pages and the command line share them. They flush and never
commit: the request's transaction (:mod:`scorekeeper.web.transactions`) or the command
commits the whole write at once, or nothing of it. A change to a game works on the game's row
locked (:func:`locked_game`; on SQLite the write transaction is already exclusive), so checks and
writes cannot interleave between phones.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from engine import Problem, ProblemCode, Rules
from engine.scoring import HandScore
from engine.sentences import N_, Fact
from engine.sheet import ScoreSheet
from scorekeeper.domain.credentials import Scope, new_token, token_hash
from scorekeeper.domain.games import GameStatus, hand_itself
from scorekeeper.domain.refusals import (
    GameClosed,
    InvalidRequest,
    Missing,
    NameTaken,
    NotNow,
    NotTheLastHand,
    NotTheNextHand,
    StaleVersion,
    VersionRequired,
)
from scorekeeper.names import first_repeat, team_name
from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.locks import LockedGame, lock_game
from scorekeeper.storage.models import AccessToken, Game, Hand, Player, Seat, Side, Table, utcnow


def create_table(name: str) -> tuple[Table, str]:
    """A new table and its token (the only time the token is known)."""
    token = new_token()
    table = Table(name=name, token_hash=token_hash(token))
    db.session.add(table)
    db.session.flush()
    return table, token


def rotate_token(table: Table) -> str:
    """Replace the table's token; the old one stops working at once."""
    token = new_token()
    table.token_hash = token_hash(token)
    db.session.flush()
    return token


def issue_token(table: Table, name: str, scope: str) -> tuple[AccessToken, str]:
    """A new token of ``scope`` for ``table``, named for who holds it, and the token itself
    (the only time it is known)."""
    token = new_token(Scope(scope).prefix)
    issued = AccessToken(table_id=table.id, name=name, scope=scope, token_hash=token_hash(token))
    db.session.add(issued)
    db.session.flush()
    return issued, token


def revoke_token(issued: AccessToken) -> None:
    """Revoke an issued token: it stops working at once."""
    db.session.delete(issued)
    db.session.flush()


def create_player(table: Table, name: str) -> Player:
    """A new player at ``table``; no two players of a table have names that read alike."""
    player = Player(table_id=table.id, name=name)
    _with_unique_name(name, lambda: db.session.add(player))
    return player


def rename_player(player: Player, name: str) -> Player:
    """Rename a player. The games they sat in show the new name, so their ETags change too."""
    # Named first: a query's autoflush would write the name outside the check.
    _with_unique_name(name, lambda: setattr(player, "name", name))
    for game in db.session.execute(select(Game).where(Game.played_by(player.id))).scalars():
        game.updated_at = utcnow()
    db.session.flush()
    return player


def _with_unique_name(name: str, change: Callable[[], object]) -> None:
    """Make ``change`` (a player added or renamed) and write it in a savepoint; the database's
    unique constraint decides, so two phones adding the same name at once cannot both succeed.
    A refusal undoes the savepoint, this change and nothing else of the request."""
    try:
        with db.session.begin_nested():
            change()
            db.session.flush()
    except IntegrityError:
        raise NameTaken(
            N_(
                "This table already has a player called “%(name)s”, or a name that reads the "
                "same (names are compared ignoring case, repeated spaces and look-alike forms)."
            ),
            name=name,
        ) from None


def start_game(
    table: Table, players: int, variants: Mapping[str, Any], sides: Sequence[Mapping[str, Any]]
) -> Game:
    """A new game: the rules from the engine, each side's players seated opposite their partner."""
    rules = Rules.for_players(players, variants)  # an unknown variant is refused as it is
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
    db.session.flush()
    return game


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
            if (problem := seating_problem(path, player_id, known, seen)) is not None:
                problems.append(problem)
    return problems


def locked_game(table: Table, game_id: int) -> Game:
    """The table's game ``game_id``, its row locked for the rest of the transaction."""
    return locked_for_key(table, game_id, None).game


def locked_for_key(
    table: Table, game_id: int, key: str | None, *, hands: bool = True
) -> LockedGame:
    """:func:`locked_game` (without its hands unless ``hands``), and in the same query the
    record of the idempotency ``key``: the game before the key, the one lock order of every
    write of a hand (:mod:`scorekeeper.storage.locks`)."""
    locked = lock_game(table.id, game_id, key=key, hands=hands)
    if locked is None:
        raise Missing(N_("There is no such game at this table."))
    return locked


def add_hand(
    game: Game,
    document: Mapping[str, Any],
    number: int | None = None,
    versions_read: Collection[str] | None = None,
) -> Hand:
    """Check the hand, score it, store it with its breakdown and add it to the game's kept
    totals. ``game`` is locked; its sides are all this reads of it, never its hands. With a
    ``number``, the hand is recorded only as that hand of the game: a phone that says which
    hand it records never records one after another phone's without seeing it. With
    ``versions_read`` (an ``If-Match``), only if the game is still as it was read."""
    _require_open(game)
    if versions_read is not None and game.etag not in versions_read:
        raise StaleVersion(
            N_(
                "The game changed since you read it (it has %(hands)s hands now): read it "
                "again before recording this hand."
            ),
            hands=game.hand_count,
        )
    if game.status == GameStatus.FINISHED:
        raise GameClosed(
            N_("The game is over: no hand can be added. Correct or undo a hand instead.")
        )
    next_number = game.hand_count + 1
    if number is not None and number != next_number:
        raise NotTheNextHand(
            N_(
                "The game's next hand is hand %(next)s, not hand %(number)s: another phone may "
                "have recorded a hand meanwhile. Read the game again before recording this one."
            ),
            next=next_number,
            number=number,
        )
    # A hand is checked on its own (RULES.md §11); what came before matters only through the
    # game's end, which its kept status already says.
    score = ScoreSheet(game.rules, [side.name for side in game.sides]).record_hand(document)
    number = running_totals.add(game, score)
    hand = Hand(game_id=game.id, number=number, report=dict(document), breakdown=score.to_dict())
    db.session.add(hand)
    db.session.flush()
    return hand


def correct_hand(
    game: Game, number: int, document: Mapping[str, Any], versions_read: Collection[str] | None
) -> Hand:
    """Replace hand ``number``'s report, provided ``versions_read`` names its current version
    (or the game's); the totals after it follow. The sheet refuses a correction after which the game
    would end before a later hand (:meth:`engine.sheet.ScoreSheet.correct`)."""
    _require_open(game)
    hand = _current_hand(game, number, versions_read)
    sheet = game.sheet()
    score = sheet.correct(number, document)
    hand.report = dict(document)
    hand.breakdown = score.to_dict()
    totals = running_totals.game_totals(game, sheet.totals, len(sheet.hands))
    running_totals.write_totals(game, totals)
    db.session.flush()
    return hand


def undo_hand(game: Game, number: int, versions_read: Collection[str] | None) -> None:
    """Delete the last hand (only the last: the ones before it stay as they were), provided
    ``versions_read`` names its current version (or the game's)."""
    _require_open(game)
    hand = _current_hand(game, number, versions_read)
    if number != len(game.hands):
        raise NotTheLastHand(
            N_("Only the last hand (%(number)s) can be undone."), number=len(game.hands)
        )
    game.hands.remove(hand)
    running_totals.remove(game, HandScore.from_dict(hand.breakdown))
    db.session.flush()


def abandon_game(game: Game) -> Game:
    """Stop a game before its end; it stays in the history of games played, never as won."""
    if game.status == GameStatus.FINISHED:
        raise GameClosed(N_("The game is over: a finished game cannot be abandoned."))
    if game.status != GameStatus.ABANDONED:
        game.status = GameStatus.ABANDONED
        game.finished_at = utcnow()
        db.session.flush()
    return game


def game_count(table: Table) -> int:
    """How many games the table has started."""
    return db.session.scalar(select(func.count()).where(Game.table_id == table.id)) or 0


def _require_open(game: Game) -> None:
    """Hands are reported only for a tabletop game that was not abandoned."""
    if game.virtual:
        raise GameClosed(N_("This game is played in the app: its hands come from its moves."))
    if game.status == GameStatus.ABANDONED:
        raise GameClosed(N_("The game was abandoned: its hands can no longer change."))


def numbered_hand(game: Game, number: int) -> Hand:
    """Hand ``number`` of ``game`` (its hands loaded)."""
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        if number:
            raise Missing(N_("The game has no hand %(number)s."), number=number)
        raise Missing(N_("No such hand."))
    return hand


def _current_hand(game: Game, number: int, versions_read: Collection[str] | None) -> Hand:
    """Hand ``number``, provided ``versions_read`` names its current version or the game's:
    every change to a hand changes the game's version too, so a phone that read the whole game
    may change a hand as safely as one that read the hand."""
    hand = numbered_hand(game, number)
    itself = hand_itself(number, hand.identity)
    if versions_read is not None and any(tag.startswith(itself) for tag in versions_read):
        stale = StaleVersion(
            N_(
                "A hand before hand %(number)s was corrected since you read it, and the totals "
                "after it are no longer those you saw: read it again, then apply your change."
            ),
            number=number,
        )
    else:
        stale = StaleVersion(
            N_(
                "Hand %(number)s changed since you read it: read it again, then apply your "
                "change to the current version."
            ),
            number=number,
        )
    require_current(
        versions_read,
        (hand.etag(game.totals_after(number)), game.etag),
        required=VersionRequired(
            N_("This change must say which version of the hand (or the game) it was read at.")
        ),
        stale=stale,
    )
    return hand


def require_current(
    versions_read: Collection[str] | None,
    current: Collection[str],
    *,
    required: VersionRequired,
    stale: StaleVersion,
) -> None:
    """The one version check of a change to any resource: ``versions_read`` (the versions the
    change was read at, its ``If-Match``; None if it does not say) must name one of ``current``
    (the resource's version, or the version of what holds it). Raises ``required`` or
    ``stale``, each saying what of the resource, in its own words."""
    if versions_read is None:
        raise required
    if not any(version in versions_read for version in current):
        raise stale


def invalid_request(path: str, code: ProblemCode, template: str, **facts: Fact) -> InvalidRequest:
    """A request refused for one reason: ``template`` (a msgid) filled with ``facts``."""
    return InvalidRequest([Problem.of(code, path, template, **facts)])


def rematch_game(table: Table, game_id: int) -> Game:
    """A new game from ended tabletop game ``game_id``: the same sides, the same players in the
    same seats and the same variants. Its row is locked, so two taps at once start one rematch;
    a rematch already started and not yet played (a double tap, or Back and the button again) is
    answered instead of a second one. A virtual game is dealt anew instead
    (:func:`scorekeeper.services.virtual.rematch`)."""
    game = locked_game(table, game_id)
    if game.virtual or game.status == GameStatus.IN_PROGRESS:
        raise NotNow(N_("Only a game at the table that has ended can be played again."))
    return _fresh_rematch(game) or start_game(table, game.players, game.variants, _seating(game))


def _seating(game: Game) -> list[dict[str, Any]]:
    """The game's sides as a new game's request: names, and players seat by seat."""
    return [
        {"name": side.name, "players": [seat.player_id for seat in side.seats]}
        for side in game.sides
    ]


def _fresh_rematch(game: Game) -> Game | None:
    """The rematch already started from ``game``, not yet played; None if there is none."""
    later = db.session.execute(
        select(Game)
        .where(Game.table_id == game.table_id, Game.id > game.id)
        .order_by(Game.id.desc())
        .limit(1)
        .options(*Game.everything())
    ).scalar_one_or_none()
    if later is None or later.hands or later.status != GameStatus.IN_PROGRESS or later.virtual:
        return None
    same = (later.players, later.variants, _seating(later)) == (
        game.players,
        game.variants,
        _seating(game),
    )
    return later if same else None


def seating_problem(
    path: str, player_id: int, known: Mapping[int, str], seated: set[int]
) -> Problem | None:
    """Why player ``player_id`` cannot sit at ``path`` (not a player of the table, whose players
    are ``known``, or seated already); None if the player may sit, and is then ``seated``. The
    one check of a seat's player, for tabletop and virtual games alike."""
    player: str | int = player_id
    if player_id not in known:
        template = N_("This table has no player %(player)s.")
    elif player_id in seated:
        template, player = N_("%(player)s cannot sit twice."), known[player_id]
    else:
        seated.add(player_id)
        return None
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
    "locked_for_key",
    "rename_player",
    "require_current",
    "rotate_token",
    "start_game",
    "team_name",
    "undo_hand",
]
