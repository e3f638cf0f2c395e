"""A table's document (:mod:`scorekeeper.documents.export`) read back into the database, or refused.

Nothing in the document is believed: its shape is checked by a schema, every reference (a seat's
player, a hand's game, a move's game) must name something it holds, and the engine scores every
hand's report again and replays every virtual game from its seed; a breakdown or a kept total
that is not what the hands add up to refuses the document. Every problem is reported, each with
a JSON pointer into the document, and nothing is written unless there is none. Then the table is
written in one transaction, with its own ids and tokens, or with ``as_new`` fresh ones.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, text, update

from engine import Problem, ProblemCode
from engine.errors import EngineError, InvalidReport
from engine.moves import move_from_dict
from engine.report import variant_problem
from engine.rules import Rules, UnknownVariant
from engine.sentences import N_, Fact, quoted
from engine.sheet import ScoreSheet
from engine.virtual_game import VirtualGame
from scorekeeper.documents.export import FORMAT, VERSION
from scorekeeper.domain.credentials import new_token, token_hash
from scorekeeper.domain.refusals import InvalidRequest
from scorekeeper.jsonio import parse_json
from scorekeeper.names import name_key
from scorekeeper.schemas.loading import load
from scorekeeper.schemas.transfer import TableDocumentSchema
from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Hand, Player, Seat, Side, Table, VirtualMove

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""A table with a hundred long virtual games exports to a few MiB; far more is not a table."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A table written: the table, and its token when it was given a fresh one (``as_new``)."""

    table: Table
    token: str | None
    players: int
    games: int
    hands: int
    moves: int


def refusal(path: str, template: str, **facts: Fact) -> InvalidRequest:
    """A document refused for one reason, at ``path``."""
    return InvalidRequest([Problem.of(ProblemCode.INVALID_FIELD, path, template, **facts)])


def read(raw: bytes) -> dict[str, Any]:
    """The document in ``raw``, its shape checked; :class:`InvalidRequest` otherwise."""
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise refusal(
            "",
            N_("The document is %(size)s bytes; a table's document is at most %(limit)s."),
            size=len(raw),
            limit=MAX_DOCUMENT_BYTES,
        )
    try:
        document = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        reason = "it is not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)
        raise refusal(
            "", N_("The document is not valid JSON (%(reason)s)."), reason=reason
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise refusal(
            "/format",
            N_("This is not a table's document: its format is not %(format)s."),
            format=FORMAT,
        )
    if document.get("version") != VERSION:
        raise refusal(
            "/version",
            N_("This document is of version %(given)s; this server reads version %(version)s."),
            given=quoted(document.get("version")),
            version=VERSION,
        )
    return load(TableDocumentSchema(), document)


def check(document: dict[str, Any]) -> None:
    """Every problem with what the document says, or nothing: :class:`InvalidRequest`."""
    problems = list(_problems(document))
    if problems:
        raise InvalidRequest(problems)


def _problem(path: str, template: str, **facts: Fact) -> Problem:
    return Problem.of(ProblemCode.INVALID_FIELD, path, template, **facts)


def _duplicates(path: str, keys: list[Any], field: str) -> Iterator[Problem]:
    """A problem for each entry repeating the ``field`` of an earlier one."""
    seen: set[Any] = set()
    for index, key in enumerate(keys):
        if key in seen:
            yield _problem(
                f"{path}/{index}/{field}",
                N_("An earlier entry has the same %(field)s: each is unique."),
                field=field,
            )
        seen.add(key)


def _problems(document: dict[str, Any]) -> Iterator[Problem]:
    players, games = document["players"], document["games"]
    yield from _duplicates("/players", [p["id"] for p in players], "id")
    yield from _duplicates("/players", [name_key(p["name"]) for p in players], "name")
    yield from _duplicates("/games", [g["id"] for g in games], "id")
    hands, moves = document["hands"], document["moves"]
    yield from _duplicates("/hands", [(h["game"], h["number"]) for h in hands], "number")
    yield from _duplicates("/moves", [(m["game"], m["number"]) for m in moves], "number")
    known = {player["id"] for player in players}
    by_id = {game["id"]: index for index, game in enumerate(games)}
    for name, entries in (("hands", hands), ("moves", moves)):
        for index, entry in enumerate(entries):
            game = by_id.get(entry["game"])
            if game is None or (name == "moves" and games[game]["virtual"] is None):
                yield _problem(
                    f"/{name}/{index}/game",
                    N_("The document has no game %(game)s for this to belong to.")
                    if game is None
                    else N_("Game %(game)s is played at a table: it has no moves."),
                    game=entry["game"],
                )
    for index, game in enumerate(games):
        own_hands = [(i, hand) for i, hand in enumerate(hands) if hand["game"] == game["id"]]
        own_moves = [move for move in moves if move["game"] == game["id"]]
        yield from _game_problems(f"/games/{index}", game, known, own_hands, own_moves)


def _game_problems(
    path: str,
    game: dict[str, Any],
    known: set[int],
    hands: list[tuple[int, dict[str, Any]]],
    moves: list[dict[str, Any]],
) -> Iterator[Problem]:
    """What is wrong with one game: its seats, its hands' numbers and scores, its kept totals."""
    try:
        rules = Rules.for_players(game["players"], game["variants"])
    except UnknownVariant as unknown:
        yield variant_problem(unknown, path)
        return
    yield from _seat_problems(path, game, rules, known)
    if len(game["sides"]) != rules.sides:
        return
    hands.sort(key=lambda pair: pair[1]["number"])
    for expected, (index, hand) in enumerate(hands, start=1):
        if hand["number"] != expected:
            yield _problem(
                f"/hands/{index}/number",
                N_("Game %(game)s's hands run 1, 2, 3… in turn: this one should be %(expected)s."),
                game=game["id"],
                expected=expected,
            )
            return
    sheet = ScoreSheet(rules, [side["name"] for side in game["sides"]])
    for index, hand in hands:
        at = f"/hands/{index}"
        try:
            score = sheet.record_hand(hand["report"], at + "/report")
        except InvalidReport as refused:
            yield from refused.problems
            return
        if score.to_dict() != hand["breakdown"]:
            yield _problem(
                at + "/breakdown",
                N_("Hand %(number)s does not score this breakdown by the rules."),
                number=hand["number"],
            )
    yield from _kept_problems(path, game, sheet)
    if game["virtual"] is not None:
        yield from _replay_problems(path, game, rules, [hand for _, hand in hands], moves)


def _seat_problems(
    path: str, game: dict[str, Any], rules: Rules, known: set[int]
) -> Iterator[Problem]:
    if len(game["sides"]) != rules.sides:
        yield _problem(
            f"{path}/sides",
            N_("With %(players)s seated players there are %(sides)s sides, not %(given)s."),
            players=rules.players,
            sides=rules.sides,
            given=len(game["sides"]),
        )
        return
    for index, side in enumerate(game["sides"]):
        at = f"{path}/sides/{index}"
        if side["index"] != index or [s["seat"] for s in side["seats"]] != list(
            rules.seats_of(index)
        ):
            yield _problem(at, N_("This side does not have the seats the rules give it."))
        for number, seat in enumerate(side["seats"]):
            if seat["player"] is not None and seat["player"] not in known:
                yield _problem(
                    f"{at}/seats/{number}/player",
                    N_("The document has no player %(player)s."),
                    player=seat["player"],
                )
            if (seat["player"] is None) == (seat["computer"] is None) or (
                game["virtual"] is None and seat["player"] is None
            ):
                yield _problem(
                    f"{at}/seats/{number}",
                    N_("A seat is either a player of the table or a computer."),
                )


def _kept_problems(path: str, game: dict[str, Any], sheet: ScoreSheet) -> Iterator[Problem]:
    """The kept totals and status must be what the hands add up to (RULES.md §10)."""
    transient = Game(players=game["players"], variants=game["variants"], status=game["status"])
    kept = running_totals.game_totals(transient, sheet.totals, len(sheet.hands))
    for field, value in vars_of(kept).items():
        stored = game["status"] if field == "status" else game["kept"][field]
        if stored != value:
            where = f"{path}/status" if field == "status" else f"{path}/kept/{field}"
            yield _problem(
                where,
                N_("The game's hands add up to %(rebuilt)s here, not %(stored)s."),
                rebuilt=quoted(value),
                stored=quoted(stored),
            )


def vars_of(kept: running_totals.GameTotals) -> dict[str, Any]:
    return {field: getattr(kept, field) for field in running_totals.TOTALS_COLUMNS}


def _replay_problems(
    path: str,
    game: dict[str, Any],
    rules: Rules,
    hands: list[dict[str, Any]],
    moves: list[dict[str, Any]],
) -> Iterator[Problem]:
    """A virtual game's moves, replayed from its seed by the engine, must deal and play out to
    its hands, each of them."""
    moves = sorted(moves, key=lambda move: move["number"])
    if [move["number"] for move in moves] != list(range(len(moves))):
        yield _problem(f"{path}/virtual", N_("The game's moves are not numbered 0, 1, 2… in turn."))
        return
    try:
        played = VirtualGame.resume(
            rules,
            game["virtual"]["seed"],
            [side["name"] for side in game["sides"]],
            ((move["seat"], move_from_dict(move["move"])) for move in moves),
            private_chances=game["virtual"]["private_chances"],
        )
    except (EngineError, ValueError, KeyError, TypeError) as error:
        yield _problem(
            f"{path}/virtual", N_("The game's moves do not replay: %(reason)s."), reason=str(error)
        )
        return
    if [report.to_dict() for report in played.reports] != [hand["report"] for hand in hands]:
        yield _problem(
            f"{path}/virtual", N_("The game's moves, replayed, do not play out to its hands.")
        )


def clashes(document: dict[str, Any]) -> None:
    """Refuse a document whose own ids or tokens are already on this server."""
    taken = [
        ("/table/id", Table.id, [document["table"]["id"]]),
        ("/table/token_hash", Table.token_hash, [document["table"]["token_hash"]]),
        ("/players", Player.id, [player["id"] for player in document["players"]]),
        ("/games", Game.id, [game["id"] for game in document["games"]]),
        ("/games", Seat.token_hash, list(_seat_hashes(document))),
    ]
    for path, column, values in taken:
        if values and db.session.scalar(select(column).where(column.in_(values)).limit(1)):
            raise refusal(
                path,
                N_(
                    "This server already has some of this table's ids or tokens: import it "
                    "with --as-new to give it fresh ones."
                ),
            )


def _seat_hashes(document: dict[str, Any]) -> Iterator[str]:
    for game in document["games"]:
        for side in game["sides"]:
            yield from (seat["token_hash"] for seat in side["seats"] if seat["token_hash"])


def import_table(document: dict[str, Any], as_new: bool = False) -> Imported:
    """Write the checked ``document``: its ids and tokens, or (``as_new``) fresh ones."""
    check(document)
    if not as_new:
        clashes(document)
    token = new_token() if as_new else None
    entry = document["table"]
    table = Table(
        id=None if as_new else entry["id"],
        name=entry["name"],
        token_hash=token_hash(token) if token else entry["token_hash"],
        created_at=entry["created_at"],
    )
    db.session.add(table)
    db.session.flush()
    players = {}
    for player in document["players"]:
        players[player["id"]] = Player(
            id=None if as_new else player["id"],
            table_id=table.id,
            name=player["name"],
            created_at=player["created_at"],
        )
    db.session.add_all(players.values())
    games = {entry["id"]: _game(entry, table, players, as_new) for entry in document["games"]}
    db.session.add_all(games.values())
    db.session.flush()
    for hand in document["hands"]:
        db.session.add(Hand(game_id=games[hand["game"]].id, **_fields(hand, "game", "version")))
    for move in document["moves"]:
        db.session.add(VirtualMove(game_id=games[move["game"]].id, **_fields(move, "game")))
    db.session.flush()
    _keep_versions(document, games)
    if not as_new:
        _advance_sequences()
    db.session.flush()
    return Imported(
        table,
        token,
        len(players),
        len(games),
        len(document["hands"]),
        len(document["moves"]),
    )


def _fields(entry: dict[str, Any], *left_out: str) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key not in left_out}


def _game(entry: dict[str, Any], table: Table, players: dict[int, Player], as_new: bool) -> Game:
    virtual = entry["virtual"] or {"seed": None, "private_chances": False}
    game = Game(
        id=None if as_new else entry["id"],
        table_id=table.id,
        **_fields(entry, "id", "sides", "kept", "virtual", "version"),
        **entry["kept"],
        **virtual,
    )
    for side in entry["sides"]:
        seats = [
            Seat(
                seat=seat["seat"],
                player=None if seat["player"] is None else players[seat["player"]],
                computer=seat["computer"],
                stand_in=seat["stand_in"],
                token_hash=_seat_token(seat["token_hash"], as_new),
            )
            for seat in side["seats"]
        ]
        game.sides.append(Side(index=side["index"], name=side["name"], seats=seats))
    return game


def _seat_token(stored: str | None, as_new: bool) -> str | None:
    """A seat's token hash; with ``as_new`` the hash of a token nobody holds (the table's
    phones issue the seat's link again: POST .../seats/{seat}/token)."""
    if stored is None or not as_new:
        return stored
    return token_hash(secrets.token_urlsafe(32))


def _keep_versions(document: dict[str, Any], games: dict[int, Game]) -> None:
    """The versions (ETags) and change times as the document has them: the ORM sets a new
    row's version to 1 and its change time to now."""
    for entry in document["games"]:
        db.session.execute(
            update(Game)
            .where(Game.id == games[entry["id"]].id)
            .values(version=entry["version"], updated_at=entry["updated_at"])
            .execution_options(synchronize_session=False)
        )
    for hand in document["hands"]:
        db.session.execute(
            update(Hand)
            .where(Hand.game_id == games[hand["game"]].id, Hand.number == hand["number"])
            .values(version=hand["version"], updated_at=hand["updated_at"])
            .execution_options(synchronize_session=False)
        )


def _advance_sequences() -> None:
    """On PostgreSQL, rows written with their own ids leave the id sequences behind: move them
    past the largest id, or the next table, player or game would take an id already used."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for name in ("tables", "players", "games"):
        db.session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                f"(SELECT max(id) FROM {name}))"
            )
        )


def counts(imported: Imported) -> dict[str, int]:
    return {
        "players": imported.players,
        "games": imported.games,
        "hands": imported.hands,
        "moves": imported.moves,
    }
