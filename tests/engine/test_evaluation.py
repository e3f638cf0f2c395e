"""The learned evaluation (reference/evaluation.py): plain arithmetic over its weights file, fed
only what the seat can see, and weights the training command reproduces from its seeds."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from engine.players import ComputerPlayer
from engine.players.strong import StrongPlayer
from engine.rules import Rules
from engine.state import HandState, Phase
from engine.view import seat_view
from engine.virtual_game import VirtualGame
from reference import make_player
from reference.evaluated import ResidualSearch
from reference.evaluation import (
    FEATURES,
    TOTALS_FEATURES,
    Evaluation,
    default_evaluation,
    features,
)

ROOT = Path(__file__).resolve().parents[2]


def positions(seed: int, every: int = 7) -> list[HandState]:
    """Copies of the positions of a two-seat game of strong players, one turn in ``every``."""
    game = VirtualGame(Rules.for_players(2), seed=seed)
    players = [StrongPlayer(Random(seat)) for seat in range(2)]
    found: list[HandState] = []
    while not game.over and len(found) < 40:
        hand, seat = game.hand, game.hand.to_act
        if hand.phase is Phase.PLAY and len(hand.events) % every == 0:
            found.append(hand.copy())
        game.apply(players[seat].choose(seat_view(hand, seat)), seat)
    return found


def test_every_feature_is_named() -> None:
    for state in positions(3):
        assert len(features(seat_view(state, 0))) == len(FEATURES)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hidden_cards_do_not_change_the_features(seed: int) -> None:
    """The rival's hand and the draw pile dealt again another way (the same cards unseen by
    the seat, elsewhere) leave every feature of the seat as it was."""
    rng = Random(seed)
    for state in positions(seed):
        for seat in range(2):
            seen = features(seat_view(state, seat))
            for _ in range(3):
                other = seat_view(state, seat).sample(rng)
                assert other.hands[1 - seat] != state.hands[1 - seat] or not state.draw_pile
                assert features(seat_view(other, seat)) == seen


def test_the_own_hand_does_change_the_features() -> None:
    """The check above is not vacuous: a card of the seat's own hand swapped with one it has
    not seen changes its features."""
    state = positions(4)[3]
    seen = features(seat_view(state, 0))
    own, hidden = state.hands[0][0], next(c for c in state.hands[1] if c != state.hands[0][0])
    state.hands[0][0], state.hands[1][state.hands[1].index(hidden)] = hidden, own
    assert features(seat_view(state, 0)) != seen


def test_the_chance_is_the_logistic_of_the_weighted_features() -> None:
    evaluation = default_evaluation()
    assert len(evaluation.position) == len(FEATURES)
    for state in positions(5):
        view = seat_view(state, 0)
        logit = sum(w * x for w, x in zip(evaluation.position, features(view), strict=True))
        assert evaluation.chance(view) == pytest.approx(1 / (1 + math.exp(-logit)))


def test_the_preference_is_the_advantage_weights_sum_in_log_odds() -> None:
    evaluation = default_evaluation()
    assert len(evaluation.advantage) == len(FEATURES)
    for state in positions(6):
        view = seat_view(state, 1)
        total = sum(w * x for w, x in zip(evaluation.advantage, features(view), strict=True))
        assert evaluation.preference(view) == pytest.approx(total)


def test_the_totals_model_favours_the_side_ahead_and_settles_a_finished_game() -> None:
    evaluation = default_evaluation()
    assert evaluation.totals_chance((3000, 1000), 0) > 0.5 > evaluation.totals_chance((0, 900), 0)
    assert evaluation.totals_chance((5100, 4000), 0) == 1.0
    assert evaluation.totals_chance((5100, 5100), 1) == 0.5


def test_weights_for_other_features_are_refused() -> None:
    data = json.loads((ROOT / "reference" / "evaluation.json").read_text())
    Evaluation.from_dict(data)
    with pytest.raises(ValueError, match="other features"):
        Evaluation.from_dict({**data, "features": data["features"][::-1]})
    assert data["totals_features"] == list(TOTALS_FEATURES)


def test_the_evaluation_needs_no_numpy() -> None:
    code = (
        "import sys, reference.evaluation as e; e.default_evaluation(); "
        "assert 'numpy' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_training_command_reproduces_its_weights(tmp_path: Path) -> None:
    """Two runs of a small training on the same seeds write the same file (numpy, a test extra,
    fits them: never skipped for want of it)."""
    written = []
    for run in range(2):
        out = tmp_path / f"weights{run}.json"
        command = [
            sys.executable,
            str(ROOT / "benchmarks" / "train_evaluation.py"),
            *("--games", "4", "--check", "1", "--rate", "0.2", "--out", str(out)),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        assert "bytes" in done.stdout and "s of CPU" in done.stdout
        written.append(out.read_text())
    assert written[0] == written[1]
    assert json.loads(written[0])["features"] == list(FEATURES)


@pytest.mark.parametrize(
    "name", ["evaluated", "evaluated:residual=1000.0", "evaluated_search", "residual_search"]
)
@pytest.mark.parametrize("players", [2, 4])
def test_each_candidate_plays_a_game_by_the_rules(name: str, players: int) -> None:
    """Every move a candidate chooses passes the rules' own check (``VirtualGame.apply``), at 2
    seats and at 4 (two teams), beside strong players."""
    game = VirtualGame(Rules.for_players(players), seed=11)
    seated = [
        make_player(name, Random(seat)) if seat % 2 == 0 else StrongPlayer(Random(seat))
        for seat in range(players)
    ]
    moves = 0
    while not game.over:
        seat = game.hand.to_act
        game.apply(seated[seat].choose(seat_view(game.hand, seat)), seat)
        moves += 1
    assert moves > 50 and max(game.sheet.totals) >= 5000


def test_the_residual_search_searches_the_late_turns() -> None:
    """Its ranking's scores are on no scale of the strong player's: were they compared with
    the strong player's settled value, almost no turn would reach the playouts. A late turn is
    one with 30 cards or fewer left to draw, as the shipped search has it."""
    game = VirtualGame(Rules.for_players(2), seed=12)
    searcher = ResidualSearch(Random(0))
    seated: list[ComputerPlayer] = [searcher, StrongPlayer(Random(1))]
    late = 0
    while not game.over:
        seat = game.hand.to_act
        view = seat_view(game.hand, seat)
        if seat == 0 and view.phase is Phase.PLAY and len(view.legal_moves) > 1:
            late += view.draw_pile <= 30
        game.apply(seated[seat].choose(view), seat)
    assert late >= 20 and searcher.searched >= late / 2
