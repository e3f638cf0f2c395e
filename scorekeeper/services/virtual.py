"""Virtual games: played in the app, move by move, against computer players or each other.

A stored virtual game is its seed and its numbered moves, so any worker can serve any request.
A request brings the engine's game back with :func:`restored`: from this worker's cache
(:mod:`scorekeeper.storage.game_cache`) when it holds the game at the stored move count, playing
only the moves another worker stored since, else by replaying every move from the seed
(:meth:`engine.virtual_game.VirtualGame.resume`). A move is stored under the next number only
while the game's row is locked, and the number is unique, so two phones can never fork a game.
Computer seats move inside the request that gave them the turn. A finished hand is stored like a
tabletop hand: its report and its breakdown.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from typing import Any

from flask import current_app
from sqlalchemy import select

from engine import Problem, ProblemCode, Rules
from engine.cards import Card
from engine.errors import IllegalMove, InvalidRecord
from engine.legality import answers
from engine.moves import PASS, CoupFourre, Move, PassCoupFourre, move_from_dict
from engine.phase import Phase
from engine.players import make_player
from engine.sentences import N_, Fact
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from scorekeeper.services.credentials import SEAT_TOKEN_PREFIX, new_token, token_hash
from scorekeeper.services.levels import LEVELS, computer_name
from scorekeeper.services.operations import invalid_request, locked_game, team_name
from scorekeeper.services.refusals import GameClosed, InvalidRequest, Missing, NotNow
from scorekeeper.storage import game_cache, running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.game_cache import Cached, Origin
from scorekeeper.storage.models import (
    Game,
    GameStatus,
    Hand,
    Seat,
    Side,
    Table,
    VirtualMove,
    utcnow,
)

COMPUTERS = tuple(level.computer for level in LEVELS)
"""The computer players a seat may be given, weakest first: one per level
(:data:`scorekeeper.services.levels.LEVELS`)."""
HINT_PLAYER = "strong"
"""The computer player whose choice a hint is: the strongest that decides at once."""


def start(
    table: Table, players: int, variants: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
) -> tuple[Game, dict[int, str]]:
    """A new virtual game, the computers' first moves played; each human seat's token (the
    only time it is known)."""
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
    with restored(game) as played:
        _let_computers_play(game, played)
        db.session.commit()
    return game, tokens


def rematch(table: Table, game: Game) -> tuple[Game, dict[int, str]]:
    """A new virtual game dealt anew from an ended one (its row locked): the same players and
    computers in the same seats, the same variants; each player's new token (the only time it is
    known). A seat a computer stood in for goes back to its player."""
    if game.status == GameStatus.IN_PROGRESS:
        raise NotNow(N_("The game is in progress: a rematch is dealt once it has ended."))
    chairs = sorted((seat for side in game.sides for seat in side.seats), key=lambda s: s.seat)
    seats = [
        {"player": seat.player_id} if seat.player_id is not None else {"computer": seat.computer}
        for seat in chairs
    ]
    return start(table, game.players, game.variants, seats)


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
    the seat as soon as the request commits, so a lost phone cannot play on."""
    seat = human_seat(game, number)
    token, seat.token_hash = new_seat_token()
    game.updated_at = utcnow()
    db.session.flush()
    return token


def hand_to_computer(game: Game, number: int, computer: str) -> None:
    """Let ``computer`` play player seat ``number`` of ``game`` (its row locked) while its
    player is away: it moves at once if the game waits for that seat, and on every turn of the
    seat until the seat is taken back. Its moves are stored as its own (:func:`stand_in_hands`).
    """
    seat = human_seat(game, number)
    assert computer in COMPUTERS, computer  # the request's schema loaded it
    if seat.stand_in is not None:
        raise NotNow(
            N_("A computer already plays seat %(number)s: take it back first."), number=number
        )
    seat.stand_in = computer
    with restored(game) as played:
        _let_computers_play(game, played)
        game.updated_at = utcnow()
        db.session.commit()


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


def stand_in_hands(game: Game, played: VirtualGame | None = None) -> list[dict[str, Any]]:
    """Who played which hands in a player's place: for each hand (numbered from 1) and seat,
    the computer that made at least one of the seat's moves in it, in order of hand and seat.
    A seat of a hand not listed was played by its own player (or is a computer's seat).

    ``played`` is the game :func:`restored`, if the caller holds it; else it is restored here,
    and only if a computer ever stood in (the moves do not say their hand)."""
    rows = db.session.execute(
        select(VirtualMove.number, VirtualMove.stand_in).where(
            VirtualMove.game_id == game.id, VirtualMove.stand_in.is_not(None)
        )
    )
    numbers = {number: computer for number, computer in rows if computer is not None}
    if not numbers:
        return []
    if played is None:
        with restored(game) as whole:
            events = whole.events(min(numbers))
    else:
        events = played.events(min(numbers))
    found = {(hand, seat, numbers[number]) for number, hand, seat, _ in events if number in numbers}
    return [
        {"hand": hand, "seat": seat, "computer": computer} for hand, seat, computer in sorted(found)
    ]


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
        elif player is not None and player not in known:
            refuse(
                f"/seats/{number}/player", N_("This table has no player %(player)s."), player=player
            )
        elif player is not None and player in seated:
            refuse(
                f"/seats/{number}/player", N_("%(player)s cannot sit twice."), player=known[player]
            )
        elif player is not None:
            seated.add(player)
    if not problems and not seated:
        refuse("/seats", N_("At least one seat must be a player of the table."))
    if problems:
        raise InvalidRequest(problems)


@contextmanager
def restored(game: Game) -> Iterator[VirtualGame]:
    """The engine's game after every stored move of ``game``, for use inside the block only.

    It comes from this worker's cache if the cache holds it, checked against the stored moves
    and brought up to date with the moves stored since (by another worker); otherwise every
    stored move is replayed from the seed. Nobody else uses it during the block: it is out of
    the cache. When the block ends normally it goes back: a block that changes the game commits
    before it ends, so the cache never holds a game ahead of the database (a block that leaves
    changes uncommitted drops it). If anything raises
    in the block (an illegal move, a failed commit) it is dropped, whatever it went through.
    """
    game_id, start = game.id, origin(game)
    played = _restore(game_id, start)
    yield played
    session = db.session
    if session.new or session.dirty or session.deleted:
        return  # changed and not committed: the game may be ahead of the database
    last = played.events(played.move_count - 1)
    game_cache.cache().put(
        game_id,
        Cached(
            played,
            start,
            played.move_count,
            (last[0][2], last[0][3].to_dict()) if last else None,
        ),
    )


def origin(game: Game) -> Origin:
    """What the engine's game is dealt from: two games from the same origin and the same moves
    are the same game."""
    variants = tuple(sorted(game.variants.items()))
    names = tuple(side.name for side in game.sides)
    return (game.seed, game.private_chances, game.players, variants, names)


def _restore(game_id: int, start: Origin) -> VirtualGame:
    cached = game_cache.cache().take(game_id)
    if cached is not None and cached.origin == start and _catch_up(game_id, cached):
        return cached.game
    seed, private_chances, players, variants, names = start
    return VirtualGame.resume(
        Rules.for_players(players, dict(variants)),
        seed,
        list(names),
        ((move.seat, move_from_dict(move.move)) for move in _stored_moves(game_id, 0)),
        private_chances=private_chances,
    )


def _catch_up(game_id: int, cached: Cached) -> bool:
    """Play on ``cached`` the moves stored after the last one it applied, if that last one is
    the move stored under its number; False if the stored moves are not the ones it was played
    from (another database, a game replaced), or if it is ahead of them."""
    since = max(cached.moves - 1, 0)
    stored = _stored_moves(game_id, since)
    if cached.moves > 0:
        first = stored[0] if stored else None
        if first is None or first.number != since or (first.seat, first.move) != cached.last:
            return False
        stored = stored[1:]
    if any(move.number != cached.moves + offset for offset, move in enumerate(stored)):
        return False
    try:
        for move in stored:
            cached.game.apply(move_from_dict(move.move), move.seat)
    except (IllegalMove, InvalidRecord):
        return False  # the game is dropped, whatever the failed move left of it
    return True


def _stored_moves(game_id: int, since: int) -> list[VirtualMove]:
    """The game's stored moves from number ``since`` on, in order."""
    return list(
        db.session.execute(
            select(VirtualMove)
            .where(VirtualMove.game_id == game_id, VirtualMove.number >= since)
            .order_by(VirtualMove.number)
        ).scalars()
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
    game: Game, played: VirtualGame, seat: int, number: int, document: Mapping[str, Any]
) -> bool:
    """Play ``document`` as move ``number`` for ``seat`` on ``played`` (the game
    :func:`restored`, its row locked), then let the computers play, and commit.

    A move already stored under ``number`` for this seat, the same, is a retry (a double tap,
    a reload): nothing is played and the answer is True. Any other number that is not the next
    one is a stale phone: refused, nothing changed.
    """
    try:
        move = move_from_dict(dict(document))
    except InvalidRecord as error:
        raise invalid_request(
            "/move", ProblemCode.INVALID_FIELD, "%(why)s", why=str(error)
        ) from None
    if close_window(game, played):
        db.session.commit()  # the window's time was up before this move came
        raise NotNow(N_("The coup-fourré window has closed: read the game again."))
    count = played.move_count
    if number < count:
        stored = db.session.execute(
            select(VirtualMove).where(VirtualMove.game_id == game.id, VirtualMove.number == number)
        ).scalar_one()
        if stored.seat == seat and move_from_dict(stored.move) == move:
            return True
        raise NotNow(
            N_("Move %(number)s was already played; the next move is number %(count)s."),
            number=number,
            count=count,
        )
    if game.status != GameStatus.IN_PROGRESS:  # after the retry check: the last move may be one
        raise GameClosed(
            N_("The game is abandoned: no move can be played.")
            if game.status == GameStatus.ABANDONED
            else N_("The game is finished: no move can be played.")
        )
    if number > count:
        raise NotNow(
            N_("The next move is number %(count)s, not %(number)s: read the game again."),
            count=count,
            number=number,
        )
    _into_window(game, played, seat, move)
    if played.hand.to_act != seat:
        waiting = played.hand.to_act
        raise NotNow(
            N_("It is not seat %(seat)s's move: the game waits for seat %(waiting)s."),
            seat=seat,
            waiting=waiting,
        )
    _apply(game, played, seat, move)  # a move the rules refuse is refused, naming the rule
    _let_computers_play(game, played)
    db.session.commit()
    return False


# -- the coup-fourré window ------------------------------------------------------------------------
#
# With people at a game every seat of an attacked side is asked about every hazard, holder of the
# safety or not (private chances, RULES.md §6), so nobody learns where a safety is. Asked one
# after another, each person had to tap to let the chance go, and most of those taps interrupted
# someone whose turn it was not. The window asks them all at once instead: for a fixed number of
# seconds, the same for every seat and every hazard, a holder may lay the safety; then the window
# closes by itself and every person asked lets the chance go, stored as the same passes, in the
# same order, as before. No page offers to close it early, so how long it stays open never
# depends on who holds what.


def chance_window() -> float:
    """How long, in seconds, a coup-fourré window stays open for the people asked (the app's
    ``VIRTUAL_CHANCE_WINDOW``); 0: no window, each person asked answers in turn."""
    return float(current_app.config.get("VIRTUAL_CHANCE_WINDOW", 0))


def clock() -> datetime:
    """Now, as the window and the stored moves tell time (tests set it)."""
    return utcnow()


def _players_of(game: Game) -> dict[int, str | None]:
    """Each seat's computer player (a computer's seat, or one standing in), None for a person."""
    return {seat.seat: seat.computer or seat.stand_in for side in game.sides for seat in side.seats}


def window_closes_at(game: Game, played: VirtualGame) -> datetime | None:
    """When the coup-fourré window open now closes: the time of the move that opened the chance
    (the last move that is not a pass) and the window's length; None if no window is open (no
    chance, a computer asked, or windows off)."""
    window = chance_window()
    hand = played.hand
    if window <= 0 or played.over or hand.phase is not Phase.COUP_FOURRE:
        return None
    if _players_of(game)[hand.to_act] is not None:
        return None
    opened = played.move_count - 1
    for _, move in reversed(played.moves[-1]):
        if not isinstance(move, PassCoupFourre):
            break
        opened -= 1
    stored = db.session.execute(
        select(VirtualMove.created_at).where(
            VirtualMove.game_id == game.id, VirtualMove.number == opened
        )
    ).scalar_one()
    return stored + timedelta(seconds=window)


def window_seats(game: Game, played: VirtualGame) -> tuple[int, ...]:
    """The people asked in the window open now, all at once (none if no window is open)."""
    chance = played.hand.chance
    if chance is None or window_closes_at(game, played) is None:
        return ()
    players = _players_of(game)
    return tuple(seat for seat in chance.seats if players[seat] is None)


@dataclass(frozen=True, slots=True)
class SeatSight:
    """What a seat of a virtual game sees and may do now: the engine's view from its chair and,
    in an open coup-fourré window, the chance it is asked about before the chance reaches it
    (every person asked reads it at once). The API and the seat's page both render this, so
    what one offers the other offers too."""

    view: SeatView
    legal_moves: tuple[Move, ...]
    pending_hazard: Card | None
    in_window: bool
    """Whether the seat is asked in the open window: its page then offers no pass (the window
    closes by itself, so how long it stays open tells nothing), though the seat whose turn it
    is may still send one through the API."""

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.view.to_dict(),
            "pending_hazard": None if self.pending_hazard is None else str(self.pending_hazard),
            "legal_moves": [move.to_dict() for move in self.legal_moves],
        }


def seat_sight(game: Game, played: VirtualGame, seat: int) -> SeatSight | None:
    """What ``seat`` sees of ``played`` (``game`` as restored) now; None once the game is over."""
    if played.over:
        return None
    view = seat_view(played.hand, seat)
    chance = played.hand.chance  # a seat the chance does not ask needs no look at the window
    asked = chance is not None and seat in chance.seats and seat in window_seats(game, played)
    if not asked or played.hand.to_act == seat:
        return SeatSight(view, view.legal_moves, view.pending_hazard, asked)
    coups_fourres = tuple(
        move for move in answers(played.hand, seat) if isinstance(move, CoupFourre)
    )
    return SeatSight(view, coups_fourres, view.asked_hazard, asked)


def close_window(game: Game, played: VirtualGame) -> bool:
    """If the open window's time is up, every person it asks lets the chance go, in the order
    the chance asks them, and the computers play on; True if any move was played (the caller
    commits). A computer's hazard then opens a window of its own, from its own time."""
    closed = False
    while (closes := window_closes_at(game, played)) is not None and closes <= clock():
        _apply_chosen(game, played, played.hand.to_act, PASS)
        _let_computers_play(game, played)
        closed = True
    return closed


def settle(game: Game) -> Game:
    """``game`` with its coup-fourré window closed if its time is up (committed), for a request
    that reads it: the phones' polls close the window, nobody has to tap. The game is locked
    only when there is a window to close."""
    if chance_window() <= 0 or game.status != GameStatus.IN_PROGRESS:
        return game
    with restored(game) as played:
        closes = window_closes_at(game, played)
    if closes is None or closes > clock():
        return game
    table = db.session.get(Table, game.table_id)
    assert table is not None
    game = locked_game(table, game.id)
    with restored(game) as played:
        if close_window(game, played):
            db.session.commit()
    return game


def _into_window(game: Game, played: VirtualGame, seat: int, move: Move) -> None:
    """A person asked in the open window lays a coup-fourré before the chance reaches its seat:
    the seats asked before it let the chance go first, as the chance would have them."""
    if not isinstance(move, CoupFourre) or seat not in window_seats(game, played):
        return
    while played.hand.to_act != seat and played.hand.phase is Phase.COUP_FOURRE:
        _apply_chosen(game, played, played.hand.to_act, PASS)


def _let_computers_play(game: Game, played: VirtualGame) -> None:
    """Computer seats move until a human seat is to act or the game ends. Each decision draws
    on its own random stream, named by the game's seed and the move number, so a replay of the
    stored moves never depends on which worker computed them."""
    computers = {
        seat.seat: seat.computer or seat.stand_in for side in game.sides for seat in side.seats
    }
    stand_ins = {seat.seat for side in game.sides for seat in side.seats if seat.stand_in}
    while not played.over and computers[played.hand.to_act] is not None:
        seat = played.hand.to_act
        kind = computers[seat]
        assert kind is not None
        player = make_player(kind, Random(f"{game.seed}/{played.move_count}"))
        move = player.choose(seat_view(played.hand, seat))
        _apply_chosen(game, played, seat, move, stand_in=kind if seat in stand_ins else None)


def hint(game: Game, played: VirtualGame, seat: int) -> Move:
    """The move :data:`HINT_PLAYER` would make in ``seat``'s place now (``played`` is the game
    :func:`restored`); refused if the game is over or another seat is to act, a coup-fourré chance
    offered to another seat included.

    Nothing is played and the game's own randomness is left alone, so asking for a hint changes
    neither the game nor what the computers do next; the same position gives the same hint on
    any worker.
    """
    if game.status != GameStatus.IN_PROGRESS:
        raise GameClosed(
            N_("The game is abandoned: there is no move to suggest.")
            if game.status == GameStatus.ABANDONED
            else N_("The game is finished: there is no move to suggest.")
        )
    waiting = played.hand.to_act
    if waiting != seat:
        raise NotNow(
            N_(
                "It is not seat %(seat)s's move: the game waits for seat %(waiting)s, and a hint "
                "is given for the seat's own move only."
            ),
            seat=seat,
            waiting=waiting,
        )
    assert game.seed is not None  # a virtual game
    return suggest(seat_view(played.hand, seat), game.seed, played.move_count)


def suggest(view: SeatView, seed: int, number: int) -> Move:
    """:data:`HINT_PLAYER`'s choice from ``view``, for move ``number`` of the game dealt from
    ``seed``: only what the view shows (the seat's own hand, never another), and a random
    stream of its own (:func:`hint_stream`)."""
    return make_player(HINT_PLAYER, hint_stream(seed, number)).choose(view)


def hint_stream(seed: int, number: int) -> Random:
    """The random stream a hint for move ``number`` draws on: named apart from the stream of the
    computer who may play that move (:func:`_let_computers_play`), and new for each hint, so a
    hint consumes nothing the game or a computer will draw."""
    return Random(f"{seed}/{number}/hint")


def _apply_chosen(
    game: Game, played: VirtualGame, seat: int, move: Move, *, stand_in: str | None = None
) -> None:
    """:func:`_apply` for a move the app chose (a computer's, or a chance let go when the window
    closes): the rules refusing it is a fault of the app, never the request's, so it is raised
    as one (its trace in the log), not answered as a refused move."""
    try:
        _apply(game, played, seat, move, stand_in=stand_in)
    except IllegalMove as fault:
        raise RuntimeError(f"the app chose a move the rules refuse: {fault}") from fault


def _apply(
    game: Game, played: VirtualGame, seat: int, move: Move, *, stand_in: str | None = None
) -> None:
    """Play ``move`` on the engine's game and store it, with the computer that chose it in the
    seat's player's place (``stand_in``); store the hand if it ended."""
    number = played.move_count
    score = played.apply(move, seat)
    stored = VirtualMove(
        game_id=game.id,
        number=number,
        seat=seat,
        move=move.to_dict(),
        stand_in=stand_in,
        created_at=clock(),
    )
    db.session.add(stored)
    if score is not None:
        # The game ends (finished) with the hand that ends the engine's game: both ask the
        # same totals where the game stands.
        number = running_totals.add(game, score)
        report = played.reports[-1]
        game.hands.append(Hand(number=number, report=report.to_dict(), breakdown=score.to_dict()))
    game.updated_at = utcnow()


def events(played: VirtualGame, seat: int | None, since: int) -> list[dict[str, Any]]:
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
