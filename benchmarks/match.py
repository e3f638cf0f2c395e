"""Matches between computer players, the reference opponents included: what ``scorekeeper simulate``
plays, with ``classic`` and ``contest`` besides the app's players.

The app's command knows only the players the app plays (:func:`engine.players.make_player`);
the reference opponents are research code outside the installed packages (``reference/``). This
benchmark plays the very games ``scorekeeper simulate`` plays (the same seeds, the same seating,
rotated every game, the same worker processes: :func:`scorekeeper.commands.simulate.simulate`)
with the reference registry (:func:`reference.make_player`), and prints the same table: each
player's games, wins (a tie counted half), win rate with its 95% Wilson interval, mean hand score
and bonuses. Run it on the compiled engine (``make compiled``, then ``PYTHONPATH=build/compiled``):
the figures of docs/contributing/computer-players.md were measured so.

    PYTHONPATH=build/compiled .venv/bin/python benchmarks/match.py --players strong,classic \\
        --games 4000 --seed 2026 --workers 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from random import Random

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH's compiled engine

from engine.rules import Rules  # noqa: E402
from reference import make_player  # noqa: E402
from scorekeeper.commands.simulate import simulate, tally  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="strong,classic", help="names, comma-separated")
    parser.add_argument("--seats", type=int, choices=[2, 3, 4, 6], default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default="", help="key=value,key=value (RULES.md §12)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    options = parser.parse_args()
    names = options.players.split(",")
    variants = dict(item.split("=", 1) for item in options.variants.split(",") if item)
    try:
        Rules.for_players(options.seats, variants)
        for name in names:
            make_player(name, Random(0))
    except ValueError as error:
        parser.error(str(error))
    results = list(
        simulate(
            names,
            options.seats,
            options.games,
            options.seed,
            variants,
            options.workers,
            make=make_player,
        )
    )
    print(
        f"{'player':<10}{'games':>7}{'wins':>8}{'win rate':>10}{'95% interval':>16}"
        f"{'mean hand':>11}  bonuses"
    )
    for name, record in tally(results).items():
        summary = record.to_dict()
        low, high = summary["win_rate_95"]
        bonuses = ", ".join(f"{key} {count}" for key, count in sorted(record.bonuses.items()))
        print(
            f"{name:<10}{record.games:>7}{record.wins:>8.1f}{summary['win_rate']:>10.1%}"
            f"{f'{low:.1%}–{high:.1%}':>16}{summary['mean_hand_score'] or 0:>11}  {bonuses}"
        )


if __name__ == "__main__":
    main()
