"""What one decision of a computer player costs: the CPU time of each ``choose``, per player
kind, over whole seeded games against the strong player (a phone player should not notice a
computer's answer: the goal is 50 ms a decision at most).

Figures are CPU seconds of this process (``time.process_time``), so other work on a shared
machine slows the run but not the figures much. Run it on the pure engine with the source tree
first on ``PYTHONPATH`` (the virtual environment otherwise runs the compiled build while it
matches the source), or on the compiled one with ``PYTHONPATH=build/compiled`` after ``make
compiled``; the first line says which it ran:

    PYTHONPATH=. .venv/bin/python benchmarks/decision_time.py [--games 4] [--kinds search,strong]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH's compiled engine

from engine.rules import Rules  # noqa: E402
from engine.view import seat_view  # noqa: E402
from engine.virtual_game import VirtualGame  # noqa: E402
from reference import make_player  # noqa: E402


def decision_times(kind: str, players: int, games: int) -> list[float]:
    """The seconds of each decision of ``kind`` at side 0, the other sides strong."""
    times: list[float] = []
    for number in range(games):
        rules = Rules.for_players(players)
        game = VirtualGame(rules, seed=777 + number)
        computers = [
            make_player(kind if seat % rules.sides == 0 else "strong", Random(seat + number))
            for seat in range(players)
        ]
        while not game.over:
            seat = game.hand.to_act
            view = seat_view(game.hand, seat)
            start = time.process_time()
            move = computers[seat].choose(view)
            if seat % rules.sides == 0:
                times.append(time.process_time() - start)
            game.apply_legal(move, seat)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument(
        "--kinds", default="search,strong", help="the app's players, or research ones (reference/)"
    )
    parser.add_argument("--seats", default="2,3,4,6", help="seat counts, comma-separated")
    arguments = parser.parse_args()
    engine = "compiled" if _compiled() else "pure"
    print(f"{platform.processor() or platform.machine()}, {engine} engine, CPU ms per decision")
    columns = ("mean", "p90", "p99", "max")
    print(f"{'player':<8} {'seats':>5} {'decisions':>9} " + " ".join(f"{c:>6}" for c in columns))
    for kind in arguments.kinds.split(","):
        for players in (int(seats) for seats in arguments.seats.split(",")):
            times = sorted(decision_times(kind, players, arguments.games))
            count = len(times)
            figures = [
                statistics.fmean(times),
                times[int(count * 0.9)],
                times[int(count * 0.99)],
                times[-1],
            ]
            cells = " ".join(f"{seconds * 1000:6.2f}" for seconds in figures)
            print(f"{kind:<8} {players:>5} {count:>9,} {cells}")


def _compiled() -> bool:
    import engine.state

    return not str(getattr(engine.state, "__file__", "")).endswith(".py")


if __name__ == "__main__":
    main()
