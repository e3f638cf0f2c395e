"""What the app's players are called in the request's language: computer seats, the sides they
sit on, their levels, and the sides a scored report or sheet leaves unnamed.

The database keeps a stored game's English names ("Computer 2 (Club)", made by
:func:`scorekeeper.domain.levels.computer_name`); a page, and the API, say them in the reader's
language, from the same lazy markers, here where the language is known. A report or sheet scored
without being stored has nothing to keep: the API names its unnamed sides in the asker's
language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import after_this_request, g, has_request_context
from werkzeug.wrappers import Response

from engine.sentences import N_
from scorekeeper.domain.games import SideKind
from scorekeeper.domain.levels import COMPUTER_NAME, Strength, level_named
from scorekeeper.names import team_name
from scorekeeper.web.i18n import gettext

UNNAMED: dict[SideKind, str] = {
    # TRANSLATORS: a side a scored report leaves unnamed, by its letter ("Side A").
    "side": N_("Side %(letter)s"),
    # TRANSLATORS: a side of one player a score sheet leaves unnamed, by its letter ("Player A").
    "player": N_("Player %(letter)s"),
    # TRANSLATORS: a team a score sheet leaves unnamed, by its letter ("Team A").
    "team": N_("Team %(letter)s"),
}
"""The names of unnamed sides, as the engine gives them in English."""


def level_name(computer: str) -> str:
    """A computer player's level name in the request's language ("Club"), from its level key or
    its technical name."""
    level = level_named(computer)
    return gettext(level.name) if level else computer


# TRANSLATORS: a computer level's measured strength, in games won of 100 against two other
# Mille Bornes programs: BSD's computer player (1982) and the winner of an AI contest.
STRENGTH = N_(
    "Wins about %(classic)s games in 100 against the 1982 BSD program, %(contest)s against the "
    "winner of an AI contest."
)
# TRANSLATORS: a computer level's measured strength when it wins under 1 game in 200.
NO_WINS = N_("Almost never wins against the 1982 BSD program or the winner of an AI contest.")


def strength_words(strength: Strength) -> str:
    """A level's measured strength as a player reads it: "Wins about 52 games in 100 against the
    1982 BSD program, 57 against the winner of an AI contest"."""
    classic, contest = strength.games_in_100()
    if not classic and not contest:
        return gettext(NO_WINS)
    return gettext(STRENGTH, classic=classic, contest=contest)


def local_computer_name(seat: int, computer: str) -> str:
    """A computer seat's name in the request's language: "Ordinateur 2 (Club)"."""
    _varies_by_language()
    level = level_named(computer)
    shown = gettext(level.name) if level else computer
    return gettext(COMPUTER_NAME, number=seat + 1, level=shown)


def local_side_name(name: str, seats: Iterable[Mapping[str, Any]]) -> str:
    """A side's name in the request's language: a side with a computer seat is named after its
    seats (as it was named when dealt), each computer in the request's language; any other side
    keeps its stored name."""
    seats = list(seats)
    if not any(seat["computer"] for seat in seats):
        return name
    return team_name(local_seat_name(seat) for seat in seats)


def local_seat_name(seat: Mapping[str, Any]) -> str:
    """A seat's name (``seat``: a seat as :func:`scorekeeper.results.standings.game_view` answers
    it) in the request's language."""
    if seat["computer"]:
        return local_computer_name(seat["seat"], seat["computer"])
    return str(seat["name"])


def in_language(view: dict[str, Any]) -> dict[str, Any]:
    """A game as :func:`scorekeeper.results.standings.game_view` answers it, with its computer
    seats and their sides named in the request's language."""
    sides = [
        {
            **side,
            "name": local_side_name(side["name"], side["seats"]),
            "seats": [{**seat, "name": local_seat_name(seat)} for seat in side["seats"]],
        }
        for side in view["sides"]
    ]
    return {**view, "sides": sides}


def history_in_language(
    rows: Iterable[dict[str, Any]], games: Iterable[Any]
) -> list[dict[str, Any]]:
    """History rows (:func:`scorekeeper.results.standings.history_rows` of ``games``, stored
    games) with their computer seats and sides named in the request's language."""
    seats = [(side, seat) for game in games for side in game.sides for seat in side.seats]
    return [
        {**row, "side_name": side_label(side), "player": seat_label(seat)}
        for row, (side, seat) in zip(rows, seats, strict=True)
    ]


def board_in_language(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A leaderboard's rows (:func:`scorekeeper.results.leaderboard.board`) with each computer
    level named in the request's language."""
    return [{**row, "name": level_name(row["level"])} if row["level"] else row for row in rows]


def seat_label(seat: Any) -> str:
    """A stored seat's (:class:`scorekeeper.storage.models.Seat`) name in the request's language."""
    return local_seat_name({"seat": seat.seat, "computer": seat.computer, "name": seat.name})


def side_label(side: Any) -> str:
    """A stored side's (:class:`scorekeeper.storage.models.Side`) name in the request's language:
    only a virtual game's sides can hold a computer, so a game at the table's keep their name."""
    if not side.game.virtual:
        return str(side.name)
    seats = [{"seat": s.seat, "computer": s.computer, "name": s.name} for s in side.seats]
    return local_side_name(side.name, seats)


def unnamed_side(kind: SideKind, index: int) -> str:
    """The name of a side the request left unnamed, in the request's language: "Camp A" in
    French where the engine, which speaks English, says "Side A" (the 27th side is "Side 27")."""
    _varies_by_language()
    letter = chr(ord("A") + index) if index < 26 else str(index + 1)
    return gettext(UNNAMED[kind], letter=letter)


def _varies_by_language() -> None:
    """Mark this request's answer as one that depends on the asker's language (``Vary``), as a
    refusal's is: a cache must not give the French names to an English reader."""
    if not has_request_context() or "varies_by_language" in g:
        return
    g.varies_by_language = True

    @after_this_request
    def vary(response: Response) -> Response:
        response.vary.add("Accept-Language")
        return response
