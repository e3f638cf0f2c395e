"""Fit the learned evaluation's weights (``reference/evaluation.json``) by self-play, with numpy.

    PYTHONPATH=build/compiled .venv/bin/python benchmarks/train_evaluation.py

Games of ``strong`` against ``strong``, ``classic`` and ``contest`` (2 seats, default rules,
games to 5,000, seats alternating) are played on seeds of their own (``--seed``, 31000 by
default: never the seed 2026 the figures are measured with, nor the tuning seeds of 5000, 7000,
9200 and 9700, nor the 33000 the candidate players were compared on). At a share of the
decisions (``--rate``) the position is recorded from both seats' views
(:func:`reference.evaluation.features`: only what each seat can see); at another (``--branches``)
a random legal move is played off the game's path and the hand played out from it, and so is
the move the player made, from the same seed (:func:`branch`).

Two logistic regressions are fitted, by Newton's method on standardised features with a small
ridge, deterministic for given games (numpy on one thread):

1. the totals model: from the running totals before each hand, whether the side won the game;
2. the position model: from a position inside a hand, the chance of winning the game once that
   hand is over, as the totals model reads the totals after it (or the game's result when the
   hand ended it). Aiming at the end of the hand rather than at the end of the game leaves out
   the luck of the hands still to come, which a position cannot tell. With ``--hidden N`` the
   position model gains N hidden tanh units added to its log-odds (a tiny neural network),
   started from the regression and fitted by Adam over ``--epochs`` passes (seeded).

By default a third set of weights over the same features is fitted to what a Club player
asks, which move is better (:func:`fit_advantage`, :meth:`Evaluation.preference`): the
difference between a random move's outcome and the played move's, regressed on the difference
of their features (``--levels``: not fitted). The chances themselves rank the positions a game
passes through well but the positions one move apart badly (docs/contributing/computer-players.md).

The last ``--check`` games are left out of the fit and their positions scored (log loss), against
the totals model alone. Prints the run time and the data's size.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")  # one core, and the same sums in the same order

import numpy as np  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH's compiled engine

from engine.moves import Move  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.scoring import score_hand  # noqa: E402
from engine.state import HandState, Phase  # noqa: E402
from engine.view import seat_view  # noqa: E402
from engine.virtual_game import VirtualGame  # noqa: E402
from reference import make_player  # noqa: E402
from reference.evaluation import (  # noqa: E402
    FEATURES,
    TOTALS_FEATURES,
    Evaluation,
    features,
    totals_features,
)

HERE = Path(__file__).resolve().parent.parent
OPPONENTS = ("strong", "classic", "contest")
"""Who sits against ``strong``, game after game in turn."""
RIDGE = 1.0
"""The ridge on the standardised weights (the bias is not held back)."""


@dataclass(slots=True)
class Games:
    """What the games taught: positions and hand starts, with what came of them."""

    positions: array[float] = field(default_factory=lambda: array("d"))
    """The positions' features, one row after another (a flat buffer: a list of lists of a
    quarter of a million rows would take ten times the memory)."""
    ends: list[tuple[int, int]] = field(default_factory=list)
    """For each position, its side's total and its best rival's after the hand."""
    position_games: list[int] = field(default_factory=list)
    starts: list[list[float]] = field(default_factory=list)
    start_games: list[int] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    """For each hand start, the side's share of the game won."""
    position_results: list[float] = field(default_factory=list)
    branches: array[float] = field(default_factory=lambda: array("d"))
    """The features of positions a random move led to, off the game's path, one row after
    another."""
    branch_ends: list[tuple[int, int]] = field(default_factory=list)
    branch_games: list[int] = field(default_factory=list)


def branch(games: Games, number: int, hand: HandState, kinds: list[str], rng: Random) -> None:
    """A random legal move of the seat to act, off the game's path, and the rest of the hand
    played out from it by the game's players: the position it led to, seen by that seat, and
    the totals after the hand. The positions a Club player weighs are those every legal move
    leads to, most of which the players never reach: played games alone do not show them.
    The move its player would have made is played out the same way, from the same seed, so
    that the two outcomes can be told apart (:func:`fit_advantage`)."""
    seat = hand.to_act
    moves = hand.legal_moves(seat)
    chosen = rng.choice(moves)
    played = make_player(kinds[seat], Random(rng.getrandbits(32))).choose(seat_view(hand, seat))
    seed = rng.getrandbits(32)
    outcomes = [_played_out(hand, seat, move, kinds, seed) for move in (chosen, played)]
    if outcomes[0] is None or outcomes[1] is None:
        return  # a move that ends the hand is valued by the totals after it, not by the model
    for row, end in outcomes:
        games.branches.extend(row)
        games.branch_ends.append(end)
        games.branch_games.append(number)


def _played_out(
    hand: HandState, seat: int, move: Move, kinds: list[str], seed: int
) -> tuple[list[float], tuple[int, int]] | None:
    """The position ``move`` leads to from ``seat``'s view, and the totals (the seat's side's,
    its rival's) once the hand is played out; None if the move ends the hand."""
    rng = Random(seed)
    state = hand.copy()
    state.apply_legal(move, seat)
    players = [make_player(kind, Random(rng.getrandbits(32))) for kind in kinds]
    views = [seat_view(state, other) for other in range(2)]
    while not state.over and state.phase is not Phase.PLAY:
        asked = state.to_act
        state.apply_legal(players[asked].choose(views[asked]), asked)
    if state.over:
        return None
    row = features(views[seat])
    while not state.over:
        asked = state.to_act
        state.apply_legal(players[asked].choose(views[asked]), asked)
    scores = score_hand(state.report(), state.rules).totals
    totals = [before + score for before, score in zip(state.scores, scores, strict=True)]
    side = seat % 2
    return row, (totals[side], totals[1 - side])


def play(games: Games, number: int, seed: int, rate: float, branches: float) -> None:
    """Game ``number``: ``strong`` against the opponent of its turn, positions recorded, and
    at a share ``branches`` of the decisions a random move's outcome (:func:`branch`)."""
    rules = Rules.for_players(2)
    game_seed = Random(f"train/{seed}/{number}").getrandbits(64)
    opponent = OPPONENTS[number % len(OPPONENTS)]
    kinds = ["strong", opponent] if number // len(OPPONENTS) % 2 == 0 else [opponent, "strong"]
    players = [make_player(kind, Random(f"{game_seed}/{seat}")) for seat, kind in enumerate(kinds)]
    recorder = Random(f"{game_seed}/record")
    brancher = Random(f"{game_seed}/branch")
    game = VirtualGame(rules, game_seed)
    start_sides: list[int] = []
    position_sides: list[int] = []
    while not game.over:
        hand = game.hand
        for side in range(2):
            games.starts.append(totals_features(hand.scores[side], hand.scores[1 - side]))
            games.start_games.append(number)
            start_sides.append(side)
        views = [seat_view(hand, seat) for seat in range(2)]
        recorded: list[int] = []
        while game.hand is hand and not game.over:
            seat = hand.to_act
            if (
                hand.phase is Phase.PLAY
                and brancher.random() < branches
                and len(hand.legal_moves(seat)) > 1
            ):
                branch(games, number, hand, kinds, brancher)
            if hand.phase is Phase.PLAY and recorder.random() < rate:
                for watcher in range(2):
                    games.positions.extend(features(views[watcher]))
                    games.position_games.append(number)
                    position_sides.append(watcher)
                    recorded.append(watcher)
            game.apply_legal(players[seat].choose(views[seat]), seat)
        totals = game.sheet.totals
        games.ends.extend((totals[side], totals[1 - side]) for side in recorded)
    leaders = game.sheet.leaders
    won = [1 / len(leaders) if side in leaders else 0.0 for side in range(2)]
    games.results.extend(won[side] for side in start_sides)
    games.position_results.extend(won[side] for side in position_sides)
    assert len(games.results) == len(games.starts)
    assert len(games.ends) * len(FEATURES) == len(games.positions)


def standardised(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows with every feature but the bias centred and scaled, and the means and spreads."""
    mean = rows[:, 1:].mean(axis=0)
    spread = rows[:, 1:].std(axis=0)
    spread[spread == 0] = 1.0
    scaled = rows.copy()
    scaled[:, 1:] = (rows[:, 1:] - mean) / spread
    return scaled, mean, spread


def raw(weights: np.ndarray, mean: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """Weights over standardised features (last axis) as weights over the raw ones."""
    result = weights.copy()
    result[..., 1:] = weights[..., 1:] / spread
    result[..., 0] = weights[..., 0] - (weights[..., 1:] / spread) @ mean
    return result


def newton(scaled: np.ndarray, targets: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Logistic regression by Newton's method over standardised rows (targets may be chances,
    not only 0 and 1); the bias, first, is not held back by the ridge."""
    weights = np.zeros(scaled.shape[1])
    penalty = np.full(scaled.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(50):
        chance = 1.0 / (1.0 + np.exp(-(scaled @ weights)))
        gradient = scaled.T @ (chance - targets) + penalty * weights
        curvature = (scaled * (chance * (1 - chance))[:, None]).T @ scaled + np.diag(penalty)
        step = np.linalg.solve(curvature + 1e-9 * np.eye(len(weights)), gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return weights


def fit(rows: np.ndarray, targets: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Logistic regression of ``targets`` on ``rows`` (the first feature, the bias, 1 in every
    row), fitted on standardised features; the weights returned apply to the raw ones."""
    scaled, mean, spread = standardised(rows)
    return raw(newton(scaled, targets, ridge), mean, spread)


def fit_network(
    rows: np.ndarray, targets: np.ndarray, units: int, epochs: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The logistic regression with ``units`` hidden tanh units added to its log-odds, started
    from the regression and fitted by Adam on mini-batches (seeded); weights over the raw
    features: the linear ones, the hidden units', and each unit's output weight."""
    scaled, mean, spread = standardised(rows)
    linear = newton(scaled, targets)
    rng = np.random.default_rng(seed)
    hidden = rng.normal(0.0, 1.0 / np.sqrt(scaled.shape[1]), (units, scaled.shape[1]))
    outputs = np.zeros(units)
    params = [linear, hidden, outputs]
    moments = [np.zeros_like(param) for param in params]
    squares = [np.zeros_like(param) for param in params]
    rate, decay, batch, step = 0.002, 1e-4, 512, 0
    for _ in range(epochs):
        order = rng.permutation(len(scaled))
        for begin in range(0, len(order), batch):
            chosen = order[begin : begin + batch]
            x, y = scaled[chosen], targets[chosen]
            inner = np.tanh(x @ hidden.T)
            chance = 1.0 / (1.0 + np.exp(-(x @ linear + inner @ outputs)))
            error = (chance - y) / len(chosen)
            back = (error[:, None] * outputs) * (1 - inner * inner)
            grads = [x.T @ error, back.T @ x + decay * hidden, inner.T @ error + decay * outputs]
            step += 1
            for param, grad, moment, square in zip(params, grads, moments, squares, strict=True):
                moment *= 0.9
                moment += 0.1 * grad
                square *= 0.999
                square += 0.001 * grad * grad
                param -= (
                    rate * (moment / (1 - 0.9**step)) / (np.sqrt(square / (1 - 0.999**step)) + 1e-8)
                )
    return raw(linear, mean, spread), raw(hidden, mean, spread), outputs


def fit_advantage(
    rows: np.ndarray, targets: np.ndarray, level: np.ndarray, ridge: float = 10.0
) -> np.ndarray:
    """Weights fitted to tell a move from the one the player made: the branched rows come in
    pairs (a random move, the move played, from the same seed), and the difference of their
    outcomes is regressed on the difference of their features (least squares, ridged). The
    result replaces ``level``'s weights of every feature that tells moves apart, scaled from
    a difference of chances to one of log-odds (four times, the slope at even chances); the
    bias and the game's totals, the same for every move, keep ``level``'s, the bias moved so
    that the mean log-odds over the rows stays ``level``'s."""
    change = rows[0::2] - rows[1::2]
    gain = targets[0::2] - targets[1::2]
    spread = change.std(axis=0)
    spread[spread == 0] = 1.0
    scaled = change / spread
    weights = (
        np.linalg.solve(scaled.T @ scaled + ridge * np.eye(scaled.shape[1]), scaled.T @ gain)
        / spread
    )
    result = 4.0 * weights
    for name in ("bias", "total_lead", "own_total", "rival_total", "total_lead_late"):
        index = FEATURES.index(name)
        result[index] = level[index]
    result[0] += float(rows.mean(axis=0) @ (level - result))  # the same mean log-odds
    return result


def network_chances(
    rows: np.ndarray, linear: np.ndarray, hidden: np.ndarray, outputs: np.ndarray
) -> np.ndarray:
    """The chances the network gives the rows (raw features)."""
    return 1.0 / (1.0 + np.exp(-(rows @ linear + np.tanh(rows @ hidden.T) @ outputs)))


def _loss(chances: np.ndarray, targets: np.ndarray) -> float:
    chance = np.clip(chances, 1e-9, 1 - 1e-9)
    return float(-np.mean(targets * np.log(chance) + (1 - targets) * np.log(1 - chance)))


def rounded(weights: np.ndarray) -> list[float]:
    """The weights to six significant digits: what the data file keeps."""
    return [float(f"{weight:.6g}") for weight in weights]


def train(
    games: int,
    check: int,
    seed: int,
    rate: float,
    branches: float,
    units: int,
    epochs: int,
    advantage: bool,
) -> tuple[dict[str, object], str]:
    """The weights as the data file holds them, and a summary of the fit."""
    data = Games()
    for number in range(games + check):
        play(data, number, seed, rate, branches)
    fitted = np.array(data.start_games) < games
    starts = np.array(data.starts)
    results = np.array(data.results)
    totals = fit(starts[fitted], results[fitted])
    evaluation = Evaluation([0.0] * len(FEATURES), rounded(totals))
    played = np.frombuffer(data.positions, dtype=np.float64).reshape(-1, len(FEATURES))
    branched = np.frombuffer(data.branches, dtype=np.float64).reshape(-1, len(FEATURES))
    rows = np.vstack([played, branched])
    ends = data.ends + data.branch_ends
    targets = np.array([evaluation.totals_chance(end, 0) for end in ends])
    in_fit = np.array(data.position_games + data.branch_games) < games
    on_path = np.arange(len(rows)) < len(played)
    position = fit(rows[in_fit], targets[in_fit])
    hidden = np.zeros((0, len(FEATURES)))
    outputs = np.zeros(0)
    if units:
        position, hidden, outputs = fit_network(rows[in_fit], targets[in_fit], units, epochs, seed)
    preference = np.zeros(0)
    if advantage:
        paired = ~on_path & in_fit
        preference = fit_advantage(rows[paired], targets[paired], position)
    summary = [
        f"games {games} fitted + {check} checked: positions played {len(played):,}, "
        f"off the path {len(branched):,} ({int(in_fit.sum()):,} fitted), "
        f"hand starts {len(starts):,}",
    ]
    own, rival = FEATURES.index("own_total"), FEATURES.index("rival_total")
    for name, chosen in (("played", on_path), ("off the path", ~on_path)):
        held = chosen & ~in_fit
        if not held.any():
            continue
        before = np.array(
            [
                evaluation.totals_chance((round(row[own] * 5000), round(row[rival] * 5000)), 0)
                for row in rows[held]
            ]
        )
        chances = network_chances(rows[held], position, hidden, outputs)
        summary.append(
            f"held-out positions {name}: log loss to the chance after the hand "
            f"{_loss(chances, targets[held]):.4f} "
            f"(the totals before the hand alone: {_loss(before, targets[held]):.4f})"
        )
    weights = {
        "command": "benchmarks/train_evaluation.py "
        f"--games {games} --check {check} --seed {seed} --rate {rate} --branches {branches} "
        f"--hidden {units} --epochs {epochs}" + ("" if advantage else " --levels"),
        "features": list(FEATURES),
        "position": rounded(position),
        "totals_features": list(TOTALS_FEATURES),
        "totals": rounded(totals),
        "hidden": [rounded(unit) for unit in hidden],
        "outputs": rounded(outputs),
        "advantage": rounded(preference),
    }
    return weights, "\n".join(summary)


def _count(weights: dict[str, object]) -> int:
    """How many numbers the data file holds."""
    lists = [weights[key] for key in ("position", "totals", "outputs", "advantage")]
    hidden = weights["hidden"]
    assert isinstance(hidden, list)
    return sum(len(numbers) for numbers in lists if isinstance(numbers, list)) + sum(
        len(unit) for unit in hidden
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games fitted")
    parser.add_argument("--check", type=int, default=400, help="games left out, to score the fit")
    parser.add_argument("--seed", type=int, default=31000)
    parser.add_argument("--rate", type=float, default=0.05, help="share of decisions recorded")
    parser.add_argument(
        "--branches", type=float, default=0.2, help="share of decisions branched off the path"
    )
    parser.add_argument("--hidden", type=int, default=0, help="hidden units (0: none)")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the positions")
    parser.add_argument(
        "--levels",
        dest="advantage",
        action="store_false",
        help="fit the chance of winning only, not what tells moves apart (fit_advantage)",
    )
    parser.add_argument("--out", type=Path, default=HERE / "reference" / "evaluation.json")
    options = parser.parse_args()
    start = time.process_time()
    weights, summary = train(
        options.games,
        options.check,
        options.seed,
        options.rate,
        options.branches,
        options.hidden,
        options.epochs,
        options.advantage,
    )
    text = json.dumps(weights, indent=1) + "\n"
    options.out.write_text(text)
    print(summary)
    print(
        f"wrote {options.out.name}: {len(text):,} bytes, "
        f"{_count(weights)} weights, "
        f"in {time.process_time() - start:.1f} s of CPU"
    )


if __name__ == "__main__":
    main()
