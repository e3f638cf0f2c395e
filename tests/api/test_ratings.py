"""Ratings over the API: hand-worked examples from Weng and Lin's Plackett-Luce updates, teams and
three sides, computer levels, corrections and abandoned games, the season filter's edges, and the
kept ledger against a replay from scratch, on SQLite and PostgreSQL.

The expected numbers are worked here from the formulas openskill documents for its Plackett-Luce
model (Weng and Lin 2011, algorithm 4, with openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300,
γ = σ_side / c): with every prior equal, each side's chance over the sides not yet placed is one
over their number, which makes the arithmetic short enough to follow.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import pytest
from flask import Flask

from scorekeeper.results import leaderboard
from scorekeeper.results.season import Season, VirtualGames
from scorekeeper.storage.extensions import db
from tests.api.conftest import TableAccess
from tests.finished_games import add_finished_game

MU, SIGMA, BETA, TAU = 25.0, 25 / 3, 25 / 6, 25 / 300
PRIOR_VARIANCE = SIGMA**2 + TAU**2  # τ is added to every σ² before a game
WIN_1000 = {
    "sides": [{"distance": 1000, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]
}
"""Four players: 2,200 points for side 0, none for side 1 (trip, shutout, safe trip, no 200)."""
LOSE_1000 = {"sides": [WIN_1000["sides"][1], WIN_1000["sides"][0]]}
WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}
"""Two players: 1,900 points for side 0 and none for side 1 (a 700 km trip)."""
LOSE = {"sides": [WIN["sides"][1], WIN["sides"][0]]}


def expected(omega: float, delta: float, side_variance: float, sides: int) -> tuple[float, float]:
    """A player's new μ and σ from their side's Ω and Δ factors (the sums of algorithm 4), when
    every player's prior is openskill's default and each side has ``side_variance``."""
    c = math.sqrt(sides * (side_variance + BETA**2))
    gamma = math.sqrt(side_variance) / c
    share = PRIOR_VARIANCE / side_variance  # the player's part of the side's variance
    mu = MU + share * side_variance / c * omega
    sigma = math.sqrt(PRIOR_VARIANCE) * math.sqrt(1 - share * gamma * side_variance / c**2 * delta)
    return round(mu, 4), round(sigma, 4)


def ratings(table: TableAccess, query: str = "") -> dict[str, Any]:
    response = table.get("/ratings" + query)
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def by_name(body: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {row["name"]: (row["rating"], row["uncertainty"]) for row in body["items"]}


def play(table: TableAccess, sides: list[list[int]], *reports: dict[str, Any]) -> str:
    """A game at the table with ``reports`` as its hands; its address."""
    game = table.start_game(sum(map(len, sides)), sides)
    url = f"/games/{game['id']}"
    for report in reports:
        assert table.post(url + "/hands", report).status_code == 201
    return url


def test_one_against_one_moves_each_by_half_the_variance_over_c(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    play(table, [[ann], [bob]], WIN, WIN, WIN)
    # Winner: Ω = 1 − 1/2, Δ = ½·½. Loser: Ω = −1/2 (the winner's term), Δ = ½·½.
    assert by_name(ratings(table)) == {
        "Ann": expected(0.5, 0.25, PRIOR_VARIANCE, 2),
        "Bob": expected(-0.5, 0.25, PRIOR_VARIANCE, 2),
    }
    assert by_name(ratings(table))["Ann"] == (27.6354, 8.0659)  # the numbers, once


def test_partners_share_their_team_s_result(table: TableAccess) -> None:
    ann, bob, cat, dan = table.add_players("Ann", "Bob", "Cat", "Dan")
    play(table, [[ann, cat], [bob, dan]], WIN_1000, WIN_1000, WIN_1000)
    team = 2 * PRIOR_VARIANCE  # a side's variance is the sum of its players'
    won, lost = expected(0.5, 0.25, team, 2), expected(-0.5, 0.25, team, 2)
    assert by_name(ratings(table)) == {"Ann": won, "Cat": won, "Bob": lost, "Dan": lost}


def test_three_sides_are_placed_by_their_totals(app: Flask, table: TableAccess) -> None:
    ann, bob, cat = table.add_players("Ann", "Bob", "Cat")
    with app.app_context():
        add_finished_game(
            table.id, [[cat], [ann], [bob]], [3100, 5200, 1800], finished_at=datetime(2026, 3, 1)
        )
        db.session.commit()
    # First: Ω = 1 − 1/3. Second: −1/3 + (1 − 1/2). Third: −1/3 − 1/2 (+ 0 for its own term).
    # Δ adds p(1 − p) over the same terms: 2/9; 2/9 + 1/4; 2/9 + 1/4 + 0.
    body = ratings(table)
    assert by_name(body) == {
        "Ann": expected(2 / 3, 2 / 9, PRIOR_VARIANCE, 3),
        "Cat": expected(1 / 6, 2 / 9 + 1 / 4, PRIOR_VARIANCE, 3),
        "Bob": expected(-5 / 6, 2 / 9 + 1 / 4, PRIOR_VARIANCE, 3),
    }
    assert [row["name"] for row in body["items"]] == ["Ann", "Cat", "Bob"]


def test_a_correction_that_flips_the_winner_flips_the_ratings(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = play(table, [[ann], [bob]], WIN, LOSE, WIN, LOSE, WIN)
    assert [row["name"] for row in ratings(table)["items"]] == ["Ann", "Bob"]
    etag = table.get(url + "/hands/5").headers["ETag"]
    response = table.put(url + "/hands/5", LOSE, headers={"If-Match": etag})
    assert response.status_code == 200
    assert table.get(url).get_json()["winner"] == 1
    body = ratings(table)
    assert [row["name"] for row in body["items"]] == ["Bob", "Ann"]
    assert by_name(body)["Bob"] == expected(0.5, 0.25, PRIOR_VARIANCE, 2)


def test_an_abandoned_game_does_not_count(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = play(table, [[ann], [bob]], WIN, WIN)
    assert table.post(url + "/abandon").status_code == 200
    assert ratings(table)["items"] == []


def test_fewer_than_five_games_is_provisional(app: Flask, table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    with app.app_context():
        for day in range(1, 6):
            add_finished_game(
                table.id, [[ann], [bob]], [5000, 100], finished_at=datetime(2026, 1, day)
            )
            db.session.commit()
            leaderboard_rows = ratings(table)["items"]
            assert {row["provisional"] for row in leaderboard_rows} == {day < 5}
            assert {row["games"] for row in leaderboard_rows} == {day}


def test_each_computer_level_has_a_rating_and_virtual_games_filter(
    app: Flask, table: TableAccess
) -> None:
    (ann,) = table.add_players("Ann")
    with app.app_context():
        add_finished_game(
            table.id,
            [[ann], ["strong"]],
            [5100, 2000],
            finished_at=datetime(2026, 2, 1),
            virtual=True,
        )
        add_finished_game(
            table.id,
            [[ann], ["greedy"], ["search"]],
            [3000, 1000, 5300],
            finished_at=datetime(2026, 2, 2),
            virtual=True,
        )
        db.session.commit()
    everything = ratings(table)["items"]
    assert {(row["name"], row["level"], row["player_id"]) for row in everything} == {
        ("Ann", None, ann),
        ("Club", "club", None),
        ("Beginner", "beginner", None),
        ("Expert", "expert", None),
    }
    assert ratings(table, "?virtual=exclude")["items"] == []
    assert ratings(table, "?virtual=only")["items"] == everything


def test_a_level_seated_twice_ends_with_the_mean_of_its_two_ratings(
    app: Flask, table: TableAccess
) -> None:
    (ann,) = table.add_players("Ann")
    with app.app_context():
        add_finished_game(
            table.id,
            [["strong"], [ann], ["strong"]],
            [5200, 3100, 1800],
            finished_at=datetime(2026, 2, 1),
            virtual=True,
        )
        db.session.commit()
    first = expected(2 / 3, 2 / 9, PRIOR_VARIANCE, 3)
    third = expected(-5 / 6, 2 / 9 + 1 / 4, PRIOR_VARIANCE, 3)
    club = by_name(ratings(table))["Club"]
    assert club == pytest.approx(((first[0] + third[0]) / 2, (first[1] + third[1]) / 2), abs=1e-4)


NEW_YEAR = datetime(2026, 1, 1)


@pytest.mark.parametrize(
    ("query", "counted"),
    [
        ("?from=2026-01-01", {"midnight"}),
        ("?to=2025-12-31", {"last second"}),
        ("?from=2025-12-31&to=2025-12-31", {"last second"}),
        ("?from=2026-01-01&to=2026-01-01", {"midnight"}),
        ("", {"midnight", "last second"}),
        ("?from=0001-01-01&to=9999-12-31", {"midnight", "last second"}),  # the calendar's ends
    ],
)
def test_a_game_finished_at_midnight_is_in_the_new_day(
    app: Flask, table: TableAccess, query: str, counted: set[str]
) -> None:
    midnight, last_second = table.add_players("midnight", "last second")
    (other,) = table.add_players("Other")
    with app.app_context():
        add_finished_game(table.id, [[midnight], [other]], [5000, 0], finished_at=NEW_YEAR)
        add_finished_game(
            table.id,
            [[last_second], [other]],
            [5000, 0],
            finished_at=datetime(2025, 12, 31, 23, 59, 59, 999999),
        )
        db.session.commit()
    names = {row["name"] for row in ratings(table, query)["items"]} - {"Other"}
    assert names == counted


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("?from=2026-13-01", "/from"),
        ("?to=yesterday", "/to"),
        ("?from=2026-05-01&to=2026-04-30", "/to"),
        ("?virtual=sometimes", "/virtual"),
        ("?season=2026", "/season"),
    ],
)
def test_a_bad_season_is_refused_naming_the_field(
    table: TableAccess, query: str, path: str
) -> None:
    response = table.get("/ratings" + query)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert [error["path"] for error in response.get_json()["errors"]] == [path]


def test_the_kept_ratings_match_a_replay_from_scratch(app: Flask, table: TableAccess) -> None:
    """Each answer extends the ledger kept from the previous one (or rates the corrected game
    again onto the kept prefix); a replay of the whole history gives the very same floats."""
    ann, bob, cat, dan = table.add_players("Ann", "Bob", "Cat", "Dan")
    urls = []
    for sides, hands in (
        ([[ann], [bob]], (WIN, WIN, WIN)),
        ([[ann, cat], [bob, dan]], (LOSE_1000, LOSE_1000, LOSE_1000)),
        ([[cat], [dan]], (WIN, LOSE, WIN, LOSE, WIN)),
        ([[bob, ann], [dan, cat]], (WIN_1000, WIN_1000, WIN_1000)),
    ):
        urls.append(play(table, sides, *hands))
        ratings(table)
    etag = table.get(urls[-2] + "/hands/5").headers["ETag"]
    assert table.put(urls[-2] + "/hands/5", LOSE, headers={"If-Match": etag}).status_code == 200
    answered = ratings(table)
    with app.app_context():
        kept = leaderboard.standing(table.id, Season())
        leaderboard.forget()
        scratch = leaderboard.replayed(table.id, Season())
        assert kept.ledger.current == scratch.ledger.current
        assert [step.after for step in kept.ledger.steps] == [
            step.after for step in scratch.ledger.steps
        ]
        assert answered["items"] == leaderboard.board(
            scratch.ledger, {ann: "Ann", bob: "Bob", cat: "Cat", dan: "Dan"}
        )


def test_a_season_rates_from_fresh_priors(app: Flask, table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    with app.app_context():
        add_finished_game(table.id, [[ann], [bob]], [5000, 0], finished_at=datetime(2025, 6, 1))
        add_finished_game(table.id, [[bob], [ann]], [5000, 0], finished_at=datetime(2026, 6, 1))
        db.session.commit()
    body = ratings(table, "?from=2026-01-01&to=2026-12-31")
    assert body["season"] == {"from": "2026-01-01", "to": "2026-12-31", "virtual": "include"}
    assert by_name(body)["Bob"] == expected(0.5, 0.25, PRIOR_VARIANCE, 2)
    assert Season.year(2026, VirtualGames.INCLUDE).to_dict() == body["season"]


def test_head_to_head_counts_opponents_and_partners_apart(app: Flask, table: TableAccess) -> None:
    ann, bob, cat, dan = table.add_players("Ann", "Bob", "Cat", "Dan")
    with app.app_context():
        for day, sides, totals in (
            (1, [[ann], [bob]], [5000, 2000]),
            (2, [[bob], [ann]], [5100, 4000]),
            (3, [[ann], [bob], [cat]], [1000, 2000, 5300]),  # both lose to Cat
            (4, [[ann, bob], [cat, dan]], [5200, 800]),
            (5, [[cat], [dan]], [5000, 0]),  # neither played
        ):
            add_finished_game(table.id, sides, totals, finished_at=datetime(2026, 4, day))
        db.session.commit()
    body = table.get(f"/players/{ann}/head-to-head/{bob}").get_json()
    assert (body["player"]["name"], body["other"]["name"]) == ("Ann", "Bob")
    assert body["opponents"] == {
        "games": 3,
        "player_wins": 1,
        "other_wins": 1,
        "hands": 12,
        "player_average_hand_score": round((5000 + 4000 + 1000) / 12, 1),
        "other_average_hand_score": round((2000 + 5100 + 2000) / 12, 1),
    }
    assert body["partners"] == {"games": 1, "wins": 1, "hands": 4, "average_hand_score": 1300.0}
    season = table.get(f"/players/{ann}/head-to-head/{bob}?from=2026-04-03").get_json()
    assert (season["opponents"]["games"], season["partners"]["games"]) == (1, 1)


def test_head_to_head_needs_two_players_of_the_table(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    same = table.get(f"/players/{ann}/head-to-head/{ann}")
    assert same.status_code == 422
    assert [error["path"] for error in same.get_json()["errors"]] == ["/other_id"]
    assert table.get(f"/players/{ann}/head-to-head/9999").status_code == 404
    assert table.get(f"/players/{ann}/head-to-head/{bob}?virtual=no").status_code == 422


def test_the_history_and_its_csv_carry_the_rating_after_each_game(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    play(table, [[ann], [bob]], WIN, WIN, WIN)
    play(table, [[ann], [bob]], LOSE, LOSE, LOSE)
    rows = table.get("/history").get_json()["items"]
    assert {r["player"]: r["rating"] for r in rows[:2]} == {
        "Ann": expected(0.5, 0.25, PRIOR_VARIANCE, 2)[0],
        "Bob": expected(-0.5, 0.25, PRIOR_VARIANCE, 2)[0],
    }
    now = by_name(ratings(table))
    assert [(r["player"], r["rating"]) for r in rows[2:]] == [
        ("Ann", now["Ann"][0]),
        ("Bob", now["Bob"][0]),
    ]
    lines = table.get("/history.csv").get_data(as_text=True).splitlines()
    assert lines[0].endswith(",virtual,rating")
    assert [line.rsplit(",", 1)[1] for line in lines[1:]] == [str(r["rating"]) for r in rows]


@pytest.mark.parametrize(
    ("query", "finished"),
    [("?from=2026-01-01", 1), ("?to=2025-12-31", 1), ("?from=2026-01-02", 0), ("", 2)],
)
def test_a_player_s_statistics_keep_to_the_season(
    app: Flask, table: TableAccess, query: str, finished: int
) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    with app.app_context():
        add_finished_game(table.id, [[ann], [bob]], [5000, 0], finished_at=NEW_YEAR)
        add_finished_game(
            table.id, [[bob], [ann]], [5000, 0], finished_at=datetime(2025, 12, 31, 23, 59, 59)
        )
        db.session.commit()
    response = table.get(f"/players/{ann}{query}")
    assert response.status_code == 200
    assert response.get_json()["statistics"]["games_finished"] == finished
    assert table.get(f"/players/{ann}?to=2026-13-01").status_code == 422


def test_an_undo_that_reopens_the_last_game_takes_it_out(table: TableAccess) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    play(table, [[ann], [bob]], WIN, WIN, WIN)
    url = play(table, [[bob], [ann]], WIN, WIN, WIN)
    assert by_name(ratings(table))["Bob"][0] > MU  # Bob won the second game
    etag = table.get(url).headers["ETag"]
    assert table.delete(url + "/hands/3", headers={"If-Match": etag}).status_code == 204
    assert by_name(ratings(table)) == {
        "Ann": expected(0.5, 0.25, PRIOR_VARIANCE, 2),
        "Bob": expected(-0.5, 0.25, PRIOR_VARIANCE, 2),
    }
