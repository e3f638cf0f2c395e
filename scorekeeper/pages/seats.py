"""The seats this phone plays, remembered in its session so every page of a game leads back.

A seat's page lives at its secret link. A phone that opens it may then wander to the game's
scoreboard (or to a page the scoreboard links to), and the way back must not depend on the
browser's history: the session remembers each seat the phone has opened, and those pages show
a link back to it. A phone that holds no seat of the game sees none.
"""

from __future__ import annotations

from typing import Any

from flask import session

SEATS_HELD = "seats_held"
"""Session key: ``[game id, seat, link]`` for each seat this phone has opened, oldest first."""
SEATS_REMEMBERED = 8
"""How many seats are remembered: a session cookie must stay small."""


def hold_seat(game_id: int, seat: int, link: str) -> None:
    """Remember that this phone plays ``seat`` of ``game_id`` at ``link``.

    Called on every view of a seat's page (a poll too), so it writes the session only when
    the seat is new to it: an unchanged session sends no cookie.
    """
    held: list[list[Any]] = list(session.get(SEATS_HELD, []))
    entry = [game_id, seat, link]
    if entry in held:
        return
    held = [kept for kept in held if kept[:2] != entry[:2]] + [entry]
    session[SEATS_HELD] = held[-SEATS_REMEMBERED:]


def held_seats(game_id: int) -> list[tuple[int, str]]:
    """The seats of ``game_id`` this phone plays, with their links, by seat number."""
    held = session.get(SEATS_HELD, [])
    return sorted((int(seat), str(link)) for game, seat, link in held if game == game_id)


def seat_names(view: dict[str, Any]) -> dict[int, str]:
    """Each seat's name in a game as answered (:func:`scorekeeper.results.standings.game_view`)."""
    return {seat["seat"]: seat["name"] for side in view["sides"] for seat in side["seats"]}
