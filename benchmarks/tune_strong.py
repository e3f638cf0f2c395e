"""Tune the strong player's weights against the faithful references, on seeds of its own.

    PYTHONPATH=build/compiled .venv/bin/python benchmarks/tune_strong.py [--games 2000] [--passes 2]

A coordinate search over :class:`engine.players.strong.Weights`: each weight in turn is scaled
up and down, and a change is kept when it wins more games against the references of
``reference/`` (``classic``, BSD mille's computer, and ``contest``, mille-ai's contest winner),
2 seats, default rules, games to 5,000, seats alternating. Every trial plays the same games
(common random numbers), so a difference between two trials is the weights' and not the deals'.

The tuning seeds (``--seed``, 7000 by default) are disjoint from the seed the documented figures
are measured with (``benchmarks/match.py --seed 2026``, the games ``scorekeeper simulate``
plays): each game's seed derives from the seed and the game's number, so two different seeds
share no game. Run it on the compiled engine (``make compiled``): a trial of 2,000 games takes a
few seconds there.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import sys
from functools import partial
from pathlib import Path
from random import Random

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH's compiled engine

from engine.players.strong import DEFAULT, StrongPlayer, Weights  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.virtual_game import VirtualGame  # noqa: E402
from reference import make_player  # noqa: E402
from scorekeeper.commands.simulate import wilson  # noqa: E402

REFERENCES = ("classic", "contest")
STEPS = (0.5, 0.8, 1.25, 2.0)
"""The factors each weight is tried at (a weight at 0 is tried at ± its neighbours' scale)."""


def play(settings: dict[str, float], reference: str, players: int, seed: int, number: int) -> float:
    """Game ``number``: the strong player's share of the win (seats alternate with the number).
    The weights travel as their changes from the defaults: a compiled record does not pickle."""
    weights = dataclasses.replace(DEFAULT, **settings)
    rules = Rules.for_players(players)
    game_seed = Random(f"{seed}/{number}").getrandbits(64)
    strong_side = number % 2
    computers = [
        StrongPlayer(Random(f"{game_seed}/{seat}"), weights)
        if seat % rules.sides == strong_side
        else make_player(reference, Random(f"{game_seed}/{seat}"))
        for seat in range(players)
    ]
    game = VirtualGame(rules, game_seed)
    game.play(computers)
    leaders = game.sheet.leaders
    return 1 / len(leaders) if strong_side in leaders else 0.0


def shares(
    pool: multiprocessing.pool.Pool, weights: Weights, games: int, seed: int
) -> dict[str, float]:
    """The strong player's share of ``games`` won against each reference."""
    settings = {
        field.name: getattr(weights, field.name)
        for field in dataclasses.fields(Weights)
        if getattr(weights, field.name) != getattr(DEFAULT, field.name)
    }
    return {
        reference: sum(
            pool.imap_unordered(partial(play, settings, reference, 2, seed), range(games), 50)
        )
        / games
        for reference in REFERENCES
    }


def share(pool: multiprocessing.pool.Pool, weights: Weights, games: int, seed: int) -> float:
    """The strong player's share of games won, over ``games`` against each reference."""
    return sum(shares(pool, weights, games, seed).values()) / len(REFERENCES)


def parsed(settings: str) -> dict[str, float]:
    """``name=value,...`` as weights, each of its field's type."""
    types = {
        field.name: type(getattr(DEFAULT, field.name)) for field in dataclasses.fields(Weights)
    }
    pairs = (item.split("=", 1) for item in settings.split(",") if item)
    return {name: types[name](float(value)) for name, value in pairs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="per reference and trial")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="weights to tune, comma-separated")
    parser.add_argument("--start", default="", help="name=value,...: where the search starts")
    parser.add_argument("--measure", action="store_true", help="only measure --start's weights")
    options = parser.parse_args()
    start = dataclasses.replace(DEFAULT, **parsed(options.start))
    names = [field.name for field in dataclasses.fields(Weights)]
    if options.only:
        names = [name for name in names if name in options.only.split(",")]
    with multiprocessing.get_context("spawn").Pool(options.workers) as pool:
        if options.measure:
            for reference, won in shares(pool, start, options.games, options.seed).items():
                low, high = wilson(won * options.games, options.games)
                print(f"{reference:<10}{won:>8.1%}  [{low:.1%}–{high:.1%}]")
            return
        best = start
        best_share = share(pool, best, options.games, options.seed)
        print(f"start: {best_share:.2%}", flush=True)
        for number in range(options.passes):
            for name in names:
                value = getattr(best, name)
                for factor in STEPS:
                    tried = type(value)(value * factor) if value else type(value)(factor - 1)
                    if tried == value:
                        continue
                    weights = dataclasses.replace(best, **{name: tried})
                    result = share(pool, weights, options.games, options.seed)
                    if result > best_share:
                        print(f"pass {number + 1}: {name} {value} → {tried}: {result:.2%}")
                        best, best_share = weights, result
                print(f"pass {number + 1}: {name} = {getattr(best, name)}", flush=True)
        low, high = wilson(best_share * options.games * 2, options.games * 2)
        print(f"best: {best_share:.2%} [{low:.1%}–{high:.1%}] on the tuning seeds")
        changed = {
            name: getattr(best, name)
            for name in names
            if getattr(best, name) != getattr(DEFAULT, name)
        }
        print(f"changed: {changed}")


if __name__ == "__main__":
    main()
