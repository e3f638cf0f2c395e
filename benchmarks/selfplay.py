"""Self-play speed of the virtual engine: hands per second on one core.

    .venv/bin/python benchmarks/selfplay.py [--seconds 5]

Each figure plays whole games to 5,000 (every deal, every move, each hand's report scored and
checked by the scorer) between computer players of one kind, all decisions made through seat
views, and counts the hands. The search player's figure is decisions per second (its own moves,
the strong players' time left out).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.view import seat_view  # noqa: E402


def hands_per_second(kind: str, players: int, seconds: float) -> float:
    hands, seed = 0, 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        game = Game(Rules.for_players(players), seed)
        game.play([make_player(kind, Random(seed * 10 + seat)) for seat in range(players)])
        hands += len(game.sheet.hands)
        seed += 1
    return hands / (time.perf_counter() - start)


def search_decisions_per_second(players: int, seconds: float) -> float:
    """The search player deciding at seat 0 (other seats strong), over whole hands."""
    decisions, searching, seed = 0, 0.0, 0
    while searching < seconds:
        game = Game(Rules.for_players(players), seed)
        computers = [make_player("strong", Random(seed * 10 + seat)) for seat in range(players)]
        searcher = make_player("search", Random(seed))
        while not game.over and len(game.sheet.hands) < 1:
            seat = game.hand.to_act
            view = seat_view(game.hand, seat)
            if seat == 0:
                start = time.perf_counter()
                move = searcher.choose(view)
                searching += time.perf_counter() - start
                decisions += 1
            else:
                move = computers[seat].choose(view)
            game.apply(move, seat)
        seed += 1
    return decisions / searching


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    print(f"{platform.machine()}, CPython {platform.python_version()}, one core")
    for kind in ("random", "greedy", "strong"):
        for players in (2, 4):
            rate = hands_per_second(kind, players, args.seconds)
            print(f"{kind:<8} {players} seats {rate:>9,.0f} hands/s")
    for players in (2, 4):
        rate = search_decisions_per_second(players, args.seconds)
        print(f"search   {players} seats {rate:>9,.0f} decisions/s")


if __name__ == "__main__":
    main()
