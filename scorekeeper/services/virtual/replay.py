"""The engine's game of a stored virtual game, held by one request at a time.

A stored virtual game is its seed and its numbered moves, so any worker can serve any request.
:func:`engine_game` brings the engine's game back: from this worker's cache
(:mod:`scorekeeper.storage.game_cache`) when it holds the game at the stored move count, playing
only the moves another worker stored since, else by replaying every move from the seed
(:meth:`engine.virtual_game.VirtualGame.resume`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import select

from engine import Rules
from engine.errors import IllegalMove, InvalidRecord
from engine.moves import move_from_dict
from engine.sentences import N_
from engine.virtual_game import VirtualGame
from scorekeeper.domain.refusals import Missing
from scorekeeper.services.operations import locked_game
from scorekeeper.storage import game_cache
from scorekeeper.storage.extensions import db
from scorekeeper.storage.game_cache import Cached, DealtFrom
from scorekeeper.storage.models import Game, Table, VirtualMove


def virtual_game(table_id: int, game_id: int, *, locked: bool = False) -> Game:
    """Virtual game ``game_id`` of table ``table_id`` (``locked``: its row locked for the rest
    of the transaction); 404 if the table has no such game, or plays it at the table."""
    if locked:
        table = db.session.get(Table, table_id)
        if table is None:
            raise Missing(N_("There is no such table."))
        game = locked_game(table, game_id)
    else:
        found = db.session.get(Game, game_id, options=Game.everything())
        if found is None or found.table_id != table_id:
            raise Missing(N_("There is no such game at this table."))
        game = found
    if not game.virtual:
        raise Missing(N_("This game is played at a table, not in the app: see its games resource."))
    return game


@contextmanager
def engine_game(game: Game) -> Iterator[VirtualGame]:
    """The engine's game after every stored move of ``game``, for use inside the block only.

    It comes from this worker's cache if the cache holds it, checked against the stored moves
    and brought up to date with the moves stored since (by another worker); otherwise every
    stored move is replayed from the seed. Nobody else uses it during the block: it is out of
    the cache. When the block ends normally it goes back to the cache as soon as it matches what
    is committed (:func:`scorekeeper.storage.game_cache.return_when_committed`); if anything raises
    in the block (an illegal move, a failed write) it is dropped, whatever it went through.
    """
    game_id, start = game.id, dealt_from(game)
    played = _restore(game_id, start)
    yield played
    last = played.events(played.move_count - 1)
    game_cache.return_when_committed(
        db.session(),
        game_id,
        Cached(
            played,
            start,
            played.move_count,
            (last[0][2], last[0][3].to_dict()) if last else None,
        ),
    )


def dealt_from(game: Game) -> DealtFrom:
    """What the engine's game is dealt from: two games dealt from the same and played with the
    same moves are the same game."""
    variants = tuple(sorted(game.variants.items()))
    names = tuple(side.name for side in game.sides)
    assert game.seed is not None, "a virtual game has its seed"
    return DealtFrom(game.seed, game.private_chances, game.players, variants, names)


def _restore(game_id: int, start: DealtFrom) -> VirtualGame:
    cached = game_cache.take(db.session(), game_id)
    if cached is not None and cached.dealt_from == start and _catch_up(game_id, cached):
        return cached.game
    return VirtualGame.resume(
        Rules.for_players(start.players, dict(start.variants)),
        start.seed,
        list(start.names),
        ((move.seat, move_from_dict(move.move)) for move in _stored_moves(game_id, 0)),
        private_chances=start.private_chances,
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
