"""Who a request speaks for: the table or the seat whose bearer token it carries (looked up by
its hash, :mod:`scorekeeper.domain.credentials`), and what of theirs it may reach.

A missing or wrong token is 401 (a revoked one is wrong); a valid token that may not do what is
asked is 403: a seat's token where the table's is needed, an issued token beyond its scope
(:class:`~scorekeeper.domain.credentials.Scope`); a valid token for another table is 404, so a
token never tells whether someone else's table exists.

What a request needs follows its method unless its view says more: reading (GET) needs any of
the table's tokens, any other method a record token or the table's own, so a write view added
later is never open to a read token by omission.
"""

from __future__ import annotations

from flask import request
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import Forbidden, NotFound, Unauthorized

from engine.sentences import N_
from scorekeeper.domain.credentials import Scope
from scorekeeper.results import queries
from scorekeeper.storage.models import AccessToken, Game, Player, Seat, Table, load_hands

NO_SUCH_GAME = N_("There is no such game at this table.")
NO_SUCH_PLAYER = N_("There is no such player at this table.")
SEAT_TOKEN_REFUSED = N_(
    "A seat's token plays its own seat of a virtual game: this needs the table's token."
)
BEYOND_SCOPE = {
    Scope.RECORD: N_(
        "This token only reads the table: recording needs a token with the 'record' scope, "
        "or the table's own."
    ),
    Scope.OWNER: N_(
        "Only the table's own token may do this (its tokens, a new table token, a seat's new "
        "link, abandoning a game, erasing a player, deleting the table)."
    ),
}
"""Why an issued token may not do what it asked, by the scope that would have allowed it."""
READING = frozenset({"GET", "HEAD"})


def bearer_token() -> str:
    """The request's bearer token; 401 without one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized(N_("This table's data needs 'Authorization: Bearer <token>'."))
    return token.strip()


def authorized_seat(table_id: int, game_id: int) -> Seat | None:
    """The seat of game ``game_id`` whose own token the request carries; None if it carries the
    table's token instead (a watcher). 401 for any other token; 404 if the seat's game is not
    ``game_id`` of table ``table_id``."""
    found = queries.seat_and_table_by_token(bearer_token())
    if found is None:
        authorized_table(table_id)
        return None
    seat, seat_table_id = found
    if seat.side.game_id != game_id or seat_table_id != table_id:
        raise NotFound(NO_SUCH_GAME)
    return seat


def authorized_table(table_id: int, needs: Scope | None = None) -> Table:
    """The table the request's bearer token opens, which must be ``table_id``, with a token whose
    scope covers ``needs`` (by default: reading for a GET, recording for any other method)."""
    token = bearer_token()
    found = queries.table_access(token)
    if found is None:
        if queries.seat_by_token(token) is not None:
            raise Forbidden(SEAT_TOKEN_REFUSED)
        raise _unauthorized(N_("The token is not valid (it may have been rotated, or revoked)."))
    table, scope = found
    if table.id != table_id:
        raise NotFound(N_("There is no such table."))
    if needs is None:
        needs = Scope.READ if request.method in READING else Scope.RECORD
    if not scope.covers(needs):
        raise Forbidden(BEYOND_SCOPE[needs])
    return table


def table_game(table: Table, game_id: int) -> Game:
    """The table's game ``game_id``, with everything a view of it needs; 404 otherwise."""
    game = queries.table_game(table, game_id)
    if game is None:
        raise NotFound(NO_SUCH_GAME)
    return game


def issued_token(table: Table, token_id: int) -> AccessToken:
    """The table's issued token ``token_id``; 404 otherwise."""
    issued = queries.issued_token(table.id, token_id)
    if issued is None:
        raise NotFound(N_("There is no such token at this table."))
    return issued


def table_player(table: Table, player_id: int) -> Player:
    """The table's player ``player_id``; 404 otherwise, whoever the player belongs to."""
    player = queries.table_player(table, player_id)
    if player is None:
        raise NotFound(NO_SUCH_PLAYER)
    return player


def game_viewed(table_id: int, game_id: int) -> Game:
    """Game ``game_id`` of table ``table_id`` with its sides, seats, players and hands: the
    token and the game checked in one query, the hands read in a second."""
    game = _token_game(table_id, game_id, seated=True)
    load_hands(game)
    return game


def table_game_with_hands(table_id: int, game_id: int) -> Game:
    """Game ``game_id`` of table ``table_id`` and its hands, checked as :func:`game_viewed`
    checks it, reading nothing else of the game."""
    game = _token_game(table_id, game_id, seated=False)
    load_hands(game)
    return game


def authorized_game_version(table_id: int, game_id: int) -> tuple[int, bool]:
    """The version of game ``game_id`` of table ``table_id`` (its ETag) and whether it is a
    virtual game, checked as :func:`game_viewed` checks it, in one query that reads no more of
    the game."""
    found = queries.game_version_by_token(bearer_token(), table_id, game_id)
    if found is None:
        raise _not_opened(table_id)
    return found


def _token_game(table_id: int, game_id: int, *, seated: bool) -> Game:
    game = queries.game_by_token(bearer_token(), table_id, game_id, seated=seated)
    if game is None:
        raise _not_opened(table_id)
    return game


def _not_opened(table_id: int) -> NotFound:
    """Why a game was not found with the request's token: 401 or 404 for the table (raised by
    :func:`authorized_table`), else the table has no such game (returned)."""
    authorized_table(table_id)
    return NotFound(NO_SUCH_GAME)


def _unauthorized(description: str) -> Unauthorized:
    return Unauthorized(description, www_authenticate=WWWAuthenticate("Bearer", {"realm": "table"}))
