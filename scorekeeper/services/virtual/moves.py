"""Playing a virtual game: a seat's move, the coup-fourré window, the computers' turns, hints.

A move is stored under the next number only while the game's row is locked, and the number is
unique, so two phones can never fork a game. Computer seats move inside the request that gave
them the turn. A finished hand is stored like a tabletop hand: its report and its breakdown.
Nothing here commits: the request's transaction does, or the command's.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from random import Random

from flask import current_app
from sqlalchemy import bindparam, event, select
from sqlalchemy.orm import Session

from engine.errors import IllegalMove
from engine.moves import PASS, CoupFourre, Move, PassCoupFourre, move_from_dict
from engine.phase import Phase
from engine.players import make_player
from engine.sentences import N_
from engine.view import SeatView, seat_view
from engine.virtual_game import VirtualGame
from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.refusals import GameClosed, NotNow
from scorekeeper.storage import running_totals
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Game, Hand, VirtualMove, utcnow

HINT_PLAYER = "strong"
"""The computer player whose choice a hint is: the strongest that decides at once."""


def play(game: Game, played: VirtualGame, seat: int, number: int, move: Move) -> bool:
    """Play ``move`` as move ``number`` for ``seat`` on ``played`` (the engine's game of
    ``game``, its row locked), then let the computers play.

    A move already stored under ``number`` for this seat, the same, is a retry (a double tap,
    a reload): nothing is played and the answer is True. Any other number that is not the next
    one is a stale phone: refused, nothing changed.
    """
    if window_is_due(game, played):  # its time was up before this move came: the next read
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
    let_computers_play(game, played)
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
    return move_time(game.id, opened) + timedelta(seconds=window)


_MOVE_TIME = select(VirtualMove.created_at).where(
    VirtualMove.game_id == bindparam("game_id"), VirtualMove.number == bindparam("number")
)
MOVE_TIMES = "virtual_move_times"
"""Where a session keeps the times of the moves it read (:func:`move_time`)."""


def move_time(game_id: int, number: int) -> datetime:
    """When move ``number`` of game ``game_id`` was stored. A move's time never changes, so it
    is read once per request (the session's, forgotten with what it rolls back), however many
    times a move asks where the window stands: its seats, whether it is due, when it closes."""
    known: dict[tuple[int, int], datetime] = db.session.info.setdefault(MOVE_TIMES, {})
    if (game_id, number) not in known:
        parameters = {"game_id": game_id, "number": number}
        known[game_id, number] = db.session.execute(_MOVE_TIME, parameters).scalar_one()
    return known[game_id, number]


@event.listens_for(Session, "after_soft_rollback")
def _forget_move_times(session: Session, _previous: object) -> None:
    """A move read in what was rolled back may be written again, at another time."""
    session.info.pop(MOVE_TIMES, None)


def window_seats(game: Game, played: VirtualGame) -> tuple[int, ...]:
    """The people asked in the window open now, all at once (none if no window is open)."""
    chance = played.hand.chance
    if chance is None or window_closes_at(game, played) is None:
        return ()
    players = _players_of(game)
    return tuple(seat for seat in chance.seats if players[seat] is None)


def window_is_due(game: Game, played: VirtualGame) -> bool:
    """Whether a coup-fourré window is open and its time is up (:func:`close_window` closes
    it, when the game is next read)."""
    closes = window_closes_at(game, played)
    return closes is not None and closes <= clock()


def close_window(game: Game, played: VirtualGame) -> bool:
    """If the open window's time is up, every person it asks lets the chance go, in the order
    the chance asks them, and the computers play on; True if any move was played. A computer's
    hazard then opens a window of its own, from its own time."""
    closed = False
    while window_is_due(game, played):
        _apply_chosen(game, played, played.hand.to_act, PASS)
        let_computers_play(game, played)
        closed = True
    return closed


def _into_window(game: Game, played: VirtualGame, seat: int, move: Move) -> None:
    """A person asked in the open window lays a coup-fourré before the chance reaches its seat:
    the seats asked before it let the chance go first, as the chance would have them."""
    if not isinstance(move, CoupFourre) or seat not in window_seats(game, played):
        return
    while played.hand.to_act != seat and played.hand.phase is Phase.COUP_FOURRE:
        _apply_chosen(game, played, played.hand.to_act, PASS)


def let_computers_play(game: Game, played: VirtualGame) -> None:
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
    """The move :data:`HINT_PLAYER` would make in ``seat``'s place now (``played`` is the
    engine's game of ``game``); refused if the game is over or another seat is to act, a
    coup-fourré chance offered to another seat included.

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
    computer who may play that move (:func:`let_computers_play`), and new for each hint, so a
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
