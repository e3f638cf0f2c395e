"""The rating model on its own: places from totals, ties, a level seated twice, and a ledger grown
game by game (or cut and grown again, as after a correction) equal to a replay from scratch."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.results.ratings import MODEL, PRIOR, Entrant, Result, replay

DAY = datetime(2026, 1, 1)


def result(number: int, sides: list[list[Entrant]], totals: list[int]) -> Result:
    best = max(totals)
    winner = totals.index(best) if totals.count(best) == 1 else None
    return Result(
        game_id=number,
        finished_at=DAY + timedelta(hours=number),
        virtual=False,
        sides=tuple(tuple(side) for side in sides),
        totals=tuple(totals),
        winner=winner,
        hand_count=3,
    )


def test_a_tie_between_equals_moves_no_one_s_rating() -> None:
    ann, bob = Entrant(player_id=1), Entrant(player_id=2)
    ledger = replay([result(1, [[ann], [bob]], [5050, 5050])])
    assert ledger.rating(ann).mu == ledger.rating(bob).mu == MODEL.mu
    assert ledger.rating(ann).sigma < PRIOR.sigma  # but each is known a little better
    assert (ledger.rating(ann).wins, ledger.rating(ann).games) == (0, 1)


def test_the_winner_is_first_even_below_another_total() -> None:
    """RULES.md §10 names the winner; the ranks never put another side above it."""
    tied = result(1, [[], [], []], [5000, 5000, 100])
    assert tied.ranks == [0, 0, 2]
    won = replace(tied, totals=(5100, 5000, 100), winner=1)
    assert won.ranks == [1, 0, 2]


def test_an_unrated_entrant_has_the_prior() -> None:
    assert replay([]).rating(Entrant(level="club")) == PRIOR


PLAYERS = [Entrant(player_id=n) for n in range(1, 6)] + [Entrant(level="club")]


@st.composite
def histories(draw: st.DrawFn) -> list[Result]:
    games = []
    for number in range(draw(st.integers(min_value=1, max_value=12))):
        sides = draw(st.sampled_from([2, 3]))
        seated = draw(st.permutations(PLAYERS))[: sides * draw(st.sampled_from([1, 2]))]
        teams = [list(seated[index::sides]) for index in range(sides)]
        totals = draw(st.lists(st.integers(0, 6000), min_size=sides, max_size=sides))
        games.append(result(number, teams, totals))
    return games


@settings(max_examples=60, derandomize=True, deadline=None)
@given(histories(), st.integers(min_value=0, max_value=12))
def test_a_ledger_grown_or_cut_and_grown_again_equals_a_replay(
    games: list[Result], cut: int
) -> None:
    whole = replay(games)
    grown = replay(games[:cut]).extended(games[cut:])
    again = whole.truncated(cut).extended(games[cut:])
    assert grown.current == whole.current == again.current
    assert [step.after for step in grown.steps] == [step.after for step in whole.steps]
