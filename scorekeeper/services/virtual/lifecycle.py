"""A virtual game's life and its seats: dealing it, dealing it again, the seats' links, and a
computer standing in for a player who is away. Nothing here commits."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from engine import Problem, ProblemCode, Rules
from engine.sentences import N_, Fact
from engine.virtual_game import VirtualGame
from scorekeeper.domain.credentials import SEAT_TOKEN_PREFIX, new_token, token_hash
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.levels import LEVELS, computer_name
from scorekeeper.domain.refusals import GameClosed, InvalidRequest, Missing, NotNow
from scorekeeper.names import team_name
from scorekeeper.services.operations import seating_problem
from scorekeeper.services.virtual.moves import let_computers_play
from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Seat, Side, Table, utcnow

COMPUTERS = tuple(level.computer for level in LEVELS)
"""The computer players a seat may be given, weakest first: one per level
(:data:`scorekeeper.domain.levels.LEVELS`)."""


def deal(
    table: Table, players: int, variants: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
) -> tuple[Game, dict[int, str]]:
    """A new virtual game, dealt (the computers have not moved yet); each human seat's token
    (the only time it is known)."""
    rules = Rules.for_players(players, variants)
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
                tokens[number], digest = new_seat_token()
                stored.append(Seat(seat=number, player_id=seat["player"], token_hash=digest))
            else:
                stored.append(Seat(seat=number, computer=seat["computer"]))
        game.sides.append(
            Side(index=side, name=team_name(names[number] for number in chairs), seats=stored)
        )
    running_totals.start(game, rules.sides)
    db.session.add(game)
    db.session.flush()
    return game, tokens


def rematch(table: Table, game: Game) -> tuple[Game, dict[int, str]]:
    """A new virtual game dealt (:func:`deal`) from an ended one (its row locked): the same
    players and computers in the same seats, the same variants; each player's new token (the
    only time it is known). A seat a computer stood in for goes back to its player."""
    if game.status == GameStatus.IN_PROGRESS:
        raise NotNow(N_("The game is in progress: a rematch is dealt once it has ended."))
    chairs = sorted((seat for side in game.sides for seat in side.seats), key=lambda s: s.seat)
    seats = [
        {"player": seat.player_id} if seat.player_id is not None else {"computer": seat.computer}
        for seat in chairs
    ]
    return deal(table, game.players, game.variants, seats)


def new_seat_token() -> tuple[str, str]:
    """A new seat token and the digest stored in its place (the token itself is never kept)."""
    token = new_token(SEAT_TOKEN_PREFIX)
    return token, token_hash(token)


def human_seat(game: Game, number: int) -> Seat:
    """Seat ``number`` of ``game``, a seat of a player of the table: refused if the game has no
    such seat, if a computer sits there (it has no link) or if the game has ended."""
    seat = next((seat for side in game.sides for seat in side.seats if seat.seat == number), None)
    if seat is None:
        raise Missing(N_("This game has no seat %(number)s."), number=number)
    if seat.player_id is None:
        raise NotNow(N_("Seat %(number)s is a computer player's: it has no link."), number=number)
    if game.status != GameStatus.IN_PROGRESS:
        raise GameClosed(N_("The game has ended: its seats are kept as they are."))
    return seat


def reissue(game: Game, number: int) -> str:
    """A new link for human seat ``number`` of ``game`` (its row locked), when the old one is
    lost: the new token is returned, the only time it is known, and the old one stops opening
    the seat as soon as the transaction commits, so a lost phone cannot play on."""
    seat = human_seat(game, number)
    token, seat.token_hash = new_seat_token()
    game.updated_at = utcnow()
    db.session.flush()
    return token


def hand_to_computer(game: Game, played: VirtualGame, number: int, computer: str) -> None:
    """Let ``computer`` play player seat ``number`` of ``game`` (its row locked; ``played``
    its engine's game) while its player is away: it moves at once if the game waits for that
    seat, and on every turn of the seat until the seat is taken back. Its moves are stored as its
    own (:func:`scorekeeper.services.virtual.seen.stand_in_hands`)."""
    seat = human_seat(game, number)
    assert computer in COMPUTERS, computer  # the request's schema loaded it
    if seat.stand_in is not None:
        raise NotNow(
            N_("A computer already plays seat %(number)s: take it back first."), number=number
        )
    seat.stand_in = computer
    let_computers_play(game, played)
    game.updated_at = utcnow()


def take_back(game: Game, number: int) -> None:
    """Give player seat ``number`` of ``game`` (its row locked) back to its player: the
    computer playing it stops, and the player moves from the seat's next turn."""
    seat = human_seat(game, number)
    if seat.stand_in is None:
        raise NotNow(
            N_("Seat %(number)s is played by its player: there is nothing to take back."),
            number=number,
        )
    seat.stand_in = None
    game.updated_at = utcnow()
    db.session.flush()


def new_seed() -> int:
    """A fresh secret seed for a game's deals (tests fix it to replay a known game)."""
    return secrets.randbits(63)


def _check_seats(table: Table, rules: Rules, seats: Sequence[Mapping[str, Any]]) -> None:
    problems: list[Problem] = []

    def refuse(path: str, template: str, **facts: Fact) -> None:
        problems.append(Problem.of(ProblemCode.INVALID_FIELD, path, template, **facts))

    if len(seats) != rules.players:
        refuse(
            "/seats",
            N_("There are %(players)s seats in this game, not %(given)s."),
            players=rules.players,
            given=len(seats),
        )
    known = {player.id: player.name for player in table.players}
    seated: set[int] = set()
    for number, seat in enumerate(seats):
        player, computer = seat.get("player"), seat.get("computer")
        if (player is None) == (computer is None):
            refuse(f"/seats/{number}", N_("A seat is either a player of the table or a computer."))
        elif computer is not None and computer not in COMPUTERS:
            refuse(
                f"/seats/{number}/computer",
                N_("There is no computer player %(computer)s; there are %(known)s."),
                computer=repr(computer),
                known=", ".join(COMPUTERS),
            )
        elif player is not None:
            problem = seating_problem(f"/seats/{number}/player", player, known, seated)
            problems.extend(() if problem is None else (problem,))
    if not problems and not seated:
        refuse("/seats", N_("At least one seat must be a player of the table."))
    if problems:
        raise InvalidRequest(problems)
