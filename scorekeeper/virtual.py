"""Virtual games: played in the app, move by move, against computer players or each other.

A stored virtual game is its seed and its numbered moves; each request brings the engine's game
back by replaying them (:meth:`engine.game.Game.resume`), so any worker can serve any request.
A move is stored under the next number only while the game's row is locked, and the number is
unique, so two phones can never fork a game. Computer seats move inside the request that gave
them the turn. A finished hand is stored like a tabletop hand: its report and its breakdown.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from werkzeug.exceptions import Conflict

from engine import Problem, ProblemCode, Rules
from engine.errors import IllegalMove, InvalidRecord
from engine.game import Game as EngineGame
from engine.moves import Move, PassCoupFourre, move_from_dict
from engine.players import make_player
from engine.view import seat_view
from scorekeeper.auth import token_hash
from scorekeeper.extensions import db
from scorekeeper.models import (
    Game,
    GameStatus,
    Hand,
    Seat,
    Side,
    Table,
    VirtualMove,
    computer_name,
    utcnow,
)
from scorekeeper.operations import invalid_request, rules_for, team_name
from scorekeeper.problems import InvalidRequest
from scorekeeper.standings import rules_of

COMPUTERS = ("random", "greedy", "strong", "search")
"""The computer players a seat may be given, weakest first."""

SEAT_TOKEN_PREFIX = "mbs_"


def start(
    table: Table, players: int, variants: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
) -> tuple[Game, EngineGame, dict[int, str]]:
    """A new virtual game, the computers' first moves played; each human seat's token (the
    only time it is known)."""
    rules = rules_for(players, variants)
    _check_seats(table, rules, seats)
    roster = {player.id: player for player in table.players}
    names = [
        roster[seat["player"]].name if "player" in seat else computer_name(number, seat["computer"])
        for number, seat in enumerate(seats)
    ]
    game = Game(
        table_id=table.id,
        players=players,
        variants=dict(variants),
        seed=new_seed(),
        private_chances=True,
    )
    tokens: dict[int, str] = {}
    for side in range(rules.sides):
        chairs = rules.seats_of(side)
        stored = []
        for number in chairs:
            seat = seats[number]
            if "player" in seat:
                tokens[number] = SEAT_TOKEN_PREFIX + secrets.token_urlsafe(32)
                digest = token_hash(tokens[number])
                stored.append(Seat(seat=number, player_id=seat["player"], token_hash=digest))
            else:
                stored.append(Seat(seat=number, computer=seat["computer"]))
        game.sides.append(
            Side(index=side, name=team_name(names[number] for number in chairs), seats=stored)
        )
    db.session.add(game)
    db.session.flush()
    played = engine_game(game)
    _let_computers_play(game, played)
    db.session.commit()
    return game, played, tokens


def new_seed() -> int:
    """A fresh secret seed for a game's deals (tests fix it to replay a known game)."""
    return secrets.randbits(63)


def _check_seats(table: Table, rules: Rules, seats: Sequence[Mapping[str, Any]]) -> None:
    problems: list[Problem] = []

    def refuse(path: str, detail: str) -> None:
        problems.append(Problem(code=ProblemCode.INVALID_FIELD, path=path, detail=detail))

    if len(seats) != rules.players:
        refuse("/seats", f"There are {rules.players} seats in this game, not {len(seats)}.")
    known = {player.id for player in table.players}
    seated: set[int] = set()
    for number, seat in enumerate(seats):
        player, computer = seat.get("player"), seat.get("computer")
        if (player is None) == (computer is None):
            refuse(f"/seats/{number}", "A seat is either a player of the table or a computer.")
        elif computer is not None and computer not in COMPUTERS:
            refuse(
                f"/seats/{number}/computer",
                f"There is no computer player {computer!r}; there are {', '.join(COMPUTERS)}.",
            )
        elif player is not None and player not in known:
            refuse(f"/seats/{number}/player", f"This table has no player {player}.")
        elif player is not None and player in seated:
            refuse(f"/seats/{number}/player", f"Player {player} cannot sit twice.")
        elif player is not None:
            seated.add(player)
    if not problems and not seated:
        refuse("/seats", "At least one seat must be a player of the table.")
    if problems:
        raise InvalidRequest(problems)


def engine_game(game: Game) -> EngineGame:
    """The engine's game after every stored move."""
    assert game.seed is not None
    return EngineGame.resume(
        rules_of(game),
        game.seed,
        [side.name for side in game.sides],
        ((stored.seat, move_from_dict(stored.move)) for stored in game.moves),
        private_chances=game.private_chances,
    )


def seat_of_token(game: Game, token: str) -> int | None:
    """The seat whose token ``token`` is, in ``game``."""
    digest = token_hash(token)
    for side in game.sides:
        for seat in side.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
    return None


def play(
    game: Game, seat: int, number: int, document: Mapping[str, Any]
) -> tuple[EngineGame, bool]:
    """Play ``document`` as move ``number`` for ``seat``, then let the computers play.

    A move already stored under ``number`` for this seat, the same, is a retry (a double tap,
    a reload): nothing is played and the second value is True. Any other number that is not the
    next one is a stale phone: 409, nothing changed.
    """
    try:
        move = move_from_dict(dict(document))
    except InvalidRecord as error:
        raise invalid_request("/move", ProblemCode.INVALID_FIELD, str(error)) from None
    played = engine_game(game)
    count = played.move_count
    if number < count:
        stored = game.moves[number]
        if stored.seat == seat and move_from_dict(stored.move) == move:
            return played, True
        raise Conflict(f"Move {number} was already played; the next move is number {count}.")
    if game.status != GameStatus.IN_PROGRESS:  # after the retry check: the last move may be one
        raise Conflict(f"The game is {game.status.replace('_', ' ')}: no move can be played.")
    if number > count:
        raise Conflict(f"The next move is number {count}, not {number}: read the game again.")
    if played.hand.to_act != seat:
        waiting = played.hand.to_act
        raise Conflict(f"It is not seat {seat}'s move: the game waits for seat {waiting}.")
    try:
        _apply(game, played, seat, move)
    except IllegalMove as illegal:
        raise invalid_request("/move", ProblemCode.ILLEGAL_MOVE, str(illegal)) from None
    _let_computers_play(game, played)
    db.session.commit()
    return played, False


def _let_computers_play(game: Game, played: EngineGame) -> None:
    """Computer seats move until a human seat is to act or the game ends. Each decision draws
    on its own random stream, named by the game's seed and the move number, so a replay of the
    stored moves never depends on which worker computed them."""
    computers = {seat.seat: seat.computer for side in game.sides for seat in side.seats}
    while not played.over and computers[played.hand.to_act] is not None:
        seat = played.hand.to_act
        kind = computers[seat]
        assert kind is not None
        player = make_player(kind, Random(f"{game.seed}/{played.move_count}"))
        _apply(game, played, seat, player.choose(seat_view(played.hand, seat)))


def _apply(game: Game, played: EngineGame, seat: int, move: Move) -> None:
    """Play ``move`` on the engine's game and store it; store the hand if it ended."""
    number = played.move_count
    score = played.apply(move, seat)
    game.moves.append(VirtualMove(number=number, seat=seat, move=move.to_dict()))
    if score is not None:
        report = played.reports[-1]
        game.hands.append(
            Hand(number=len(game.hands) + 1, report=report.to_dict(), breakdown=score.to_dict())
        )
    if played.over:
        game.status = GameStatus.FINISHED
        game.finished_at = utcnow()
    game.updated_at = utcnow()


def events(played: EngineGame, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The moves from number ``since`` on, as ``seat`` (None: a watcher) may see them.

    Under private chances every seat of an attacked side answers every chance, holder or not,
    so every answer is shown. A game stored before them asked only the holder: there a seat
    letting a coup-fourré go is seen by that seat only.
    """
    return [
        {"number": number, "hand": hand, "seat": by, **move.to_dict()}
        for number, hand, by, move in played.events(since)
        if played.private_chances or by == seat or not isinstance(move, PassCoupFourre)
    ]
