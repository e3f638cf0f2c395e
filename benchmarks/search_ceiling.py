"""How much better than the strong player a search over sampled deals can play, and what limits it.

The search player rolls the strong heuristics out over deals of the cards it has not seen. This
benchmark plays it against the strong player with the search widened one step at a time, up to
deals that cheat:

- ``search``: the player as shipped (:class:`engine.players.search.SearchPlayer`: turns late in
  the hand, the seat's own knowledge); the other rows are :class:`reference.search.SearchVariant`;
- ``every turn``: every turn searched, still the seat's own knowledge;
- ``reads the rival``: every turn, the deals weighted by what the rival's moves revealed
  (:mod:`reference.inference`: a remedy it did not play when stopped, a coup-fourré it
  did not declare, distance it did not drive), all a player may infer;
- ``knows the hand``: every turn, the rival's hand dealt as it is (the draw pile still shuffled),
  the most any reading of the rival's play could tell;
- ``knows the hand and play``: the same, and the playouts play the rival's sides with the rival's
  own program rather than the strong heuristics (a new player each playout, so what a program
  keeps from turn to turn starts again): the rival known as no player can know it;
- ``knows every card``: every turn, the real hand, the order of the draw pile included.

The gap between ``knows the hand`` and ``knows every card`` is what knowing the cards to come is
worth: no player can know it. The gap between ``every turn`` and ``knows the hand`` bounds what
inferring the rival's hand could add; ``reads the rival`` is how much of it the inference gets.

2 seats, default rules, games to 5,000, seats alternating, the same game seeds in every row; the
share of games won with its 95% Wilson interval. ``--against classic`` (or ``contest``) plays the
rows against a reference instead of the strong player: how far they reach against the programs
the search is meant to beat. Run it on the compiled engine (``PYTHONPATH=build/compiled`` after
``make compiled``): the rows that search every turn take a few minutes each there, ten times more
on the pure engine.

    .venv/bin/python benchmarks/search_ceiling.py [--games 400] [--workers 2] [--against strong]
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH's compiled engine

from engine.players import ComputerPlayer  # noqa: E402
from engine.players.search import SearchPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.state import HandState  # noqa: E402
from engine.view import SeatView  # noqa: E402
from engine.virtual_game import VirtualGame  # noqa: E402
from reference import make_player  # noqa: E402
from reference.inference import weighted_deal  # noqa: E402
from reference.search import SearchVariant, seat_knowledge  # noqa: E402
from scorekeeper.commands.simulate import wilson  # noqa: E402

EVERY_TURN = 10_000
"""A draw-pile size no hand reaches: every turn is searched."""


def the_real_hand(view: SeatView, rng: Random) -> HandState:
    """The hand as it is, every card where it lies: what no seat can know."""
    return view._state.copy()  # the oracle reads past the view on purpose


def the_real_hands(view: SeatView, rng: Random) -> HandState:
    """The hand as it is but for the draw pile, shuffled: the rival's hand known, not the
    cards to come."""
    state = the_real_hand(view, rng)
    rng.shuffle(state.draw_pile)
    return state


def as_shipped(rng: Random, against: str) -> ComputerPlayer:
    """The engine's search player, the one the app plays."""
    return SearchPlayer(rng)


def knows_the_hand_and_play(rng: Random, against: str) -> ComputerPlayer:
    """Every turn, the rival's hand known and its playouts played by the rival's own program:
    the search with all a player could ever learn of its rival, and more."""
    rivals = partial(make_player, against)
    return SearchVariant(rng, late=EVERY_TURN, dealer=the_real_hands, rivals=rivals)


def _settings(**settings: Any) -> Callable[[Random, str], ComputerPlayer]:
    return lambda rng, against: SearchVariant(rng, **settings)


ROWS: dict[str, Callable[[Random, str], ComputerPlayer]] = {
    "search": as_shipped,
    "every turn": _settings(late=EVERY_TURN, dealer=seat_knowledge),
    "reads the rival": _settings(late=EVERY_TURN, dealer=weighted_deal),
    "knows the hand": _settings(late=EVERY_TURN, dealer=the_real_hands),
    "knows the hand and play": knows_the_hand_and_play,
    "knows every card": _settings(late=EVERY_TURN, dealer=the_real_hand),
}


def searcher_won(row: str, against: str, number: int) -> float:
    """Game ``number``: the searcher of ``row`` against ``against``; 1 if it won, ½ for a tie."""
    seat = number % 2
    seed = Random(f"ceiling/{number}").getrandbits(64)
    players = [
        ROWS[row](Random(f"{seed}/0"), against)
        if place == seat
        else make_player(against, Random(seed))
        for place in range(2)
    ]
    game = VirtualGame(Rules.for_players(2), seed)
    game.play(players)
    totals = game.sheet.totals
    if totals[0] == totals[1]:
        return 0.5
    return float(totals[seat] > totals[1 - seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per row")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--rows", default=",".join(ROWS), help="rows to play, comma-separated")
    parser.add_argument("--against", default="strong", help="the opponent: strong, classic, ...")
    arguments = parser.parse_args()
    print(f"{platform.machine()}, {multiprocessing.cpu_count()} cores, Python {sys.version[:6]}")
    print(f"{'search player vs ' + arguments.against:<26} {'games':>6} {'won':>7}   95% interval")
    with multiprocessing.get_context("spawn").Pool(arguments.workers) as pool:
        for row in arguments.rows.split(","):
            results = pool.map(
                partial(searcher_won, row, arguments.against), range(arguments.games)
            )
            wins = sum(results)
            low, high = wilson(wins, arguments.games)
            share = wins / arguments.games
            print(
                f"{row:<26} {arguments.games:>6} {share:>7.1%}   {low:.1%}–{high:.1%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
