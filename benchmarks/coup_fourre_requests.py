"""Human requests per hand of a virtual game, with the coup-fourré chance asked one person after
another (no window) and with the window that closes by itself (``VIRTUAL_CHANCE_WINDOW``).

The same games are played both ways, in process, over the API: the same deals (fixed seeds), and
at every person's move the strong computer player's choice (the seat's hint, which asks nothing
of the game), a holder always laying its safety as a coup-fourré. A *human request* is a move a
person posts: a play, a discard, a coup-fourré, an extension answer, or a pass. Reads are not
counted: a seat's page polls whoever holds it. Without a window each person asked answers, the
holder with its coup-fourré and everybody else with a pass; with it nobody passes: the window's
time goes by on a clock of this script's own and the next read closes it. A pass *interrupts*
when the seat that sends it is not the seat whose turn begins next.

Both ways must store the very same moves: the script checks that each game's record is the same.

Then the seconds a hand spends waiting on the server and on windows, at 2 and 4 seats with people:
each *hand-over* (a person's move that gives the turn to another person's phone) waits for the
move to reach that phone, and each window nobody answers waits its length and then for its close
to reach the phones. Before: pages polled every 2.5 s (1.25 s on average per hand-over, and as
much again after a window's close) and the window was 5 s. After: the move's way to the other phone
as ``benchmarks/live.py`` measures it (``--delivery``, its p90), and the 3 s window, which the
waiting pages close themselves.

    .venv/bin/python benchmarks/coup_fourre_requests.py [--games 3] [--hands 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.services import virtual  # noqa: E402
from scorekeeper.storage.extensions import db  # noqa: E402
from tests.running import Clock  # noqa: E402

WINDOW = 5.0
SETUPS = {
    "4 seats, 2 people partners": [None, "strong", None, "strong"],
    "6 seats, 3 people": [None, None, None, "strong", "strong", "strong"],
}
TIMED = {
    "2 seats, 2 people": [None, None],
    "4 seats, 4 people (partners)": [None, None, None, None],
}
"""The games whose waiting is timed: only people at the table."""
POLL = 2.5
WINDOW_BEFORE, WINDOW_AFTER = 5.0, 3.0
"""The seats of each game: None a person, else a computer."""


class Table:
    """A table's API, as its phones use it."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        body = client.post("/api/v1/tables", json={"name": "Bench"}).get_json()
        self.url = f"/api/v1/tables/{body['id']}"
        self.headers = {"Authorization": f"Bearer {body['token']}"}

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(self.url + path, json=body, headers=headers or self.headers)


def play_game(
    client: FlaskClient, seats: list[str | None], hands: int, clock: Clock, window: bool
) -> tuple[Counter[str], list[tuple[int, dict[str, Any]]]]:
    """One game, ``hands`` hands long; what the people sent, by kind, and the moves stored."""
    table = Table(client)
    people = iter(
        table.post("/players", {"name": f"Person {n}"}).get_json()["id"] for n in range(6)
    )
    seating = [{"computer": kind} if kind else {"player": next(people)} for kind in seats]
    started = table.post("/virtual-games", {"players": len(seats), "seats": seating})
    game = started.headers["Location"]
    tokens = {
        entry["seat"]: {"Authorization": f"Bearer {entry['token']}"}
        for entry in started.get_json()["seat_tokens"]
    }
    sent: Counter[str] = Counter()

    def read(headers: dict[str, str]) -> dict[str, Any]:
        body: dict[str, Any] = client.get(game, headers=headers).get_json()
        return body

    def send(seat: int, number: int, move: dict[str, Any]) -> dict[str, Any]:
        clock.wait(1)
        response = client.post(
            game + "/moves", json={"number": number, **move}, headers=tokens[seat]
        )
        assert response.status_code == 200, response.get_json()
        sent[move["move"]] += 1
        answer: dict[str, Any] = response.get_json()
        after = answer["state"]
        if after is not None and after["to_act"] != seat and after["to_act"] in tokens:
            sent["hand-over"] += 1
        began = after is not None and after["phase"] == "play" and after["to_act"] == seat
        if move["move"] == "pass" and not began:
            sent["interrupting pass"] += 1  # its turn did not begin: it was not next
        return answer

    view = read(table.headers)
    while view["state"] is not None and len(view["game"]["hands"]) < hands:
        state = view["state"]
        to_act = state["to_act"]
        if state["phase"] == "coup_fourre" and to_act in tokens:
            holders = [
                (seat, move)
                for seat in tokens
                for move in _coup_fourres(read(tokens[seat]), window)
            ]
            if holders:
                seat, move = holders[0]
                view = send(seat, view["next_move"], move)
            elif window:
                clock.wait(WINDOW)  # nobody holds it: the window closes by itself
                sent["window"] += 1
                view = read(table.headers)
            else:
                view = send(to_act, view["next_move"], {"move": "pass"})
            continue
        hint = client.get(game + "/hint", headers=tokens[to_act]).get_json()
        move = {key: hint[key] for key in ("move", "card", "target") if key in hint}
        view = send(to_act, hint["number"], move)
    record = client.get(game, headers=table.headers).get_json()["events"]
    return sent, [(event["seat"], event) for event in record]


def _coup_fourres(view: dict[str, Any], window: bool) -> list[dict[str, Any]]:
    """The coups-fourrés a seat may lay now: its legal ones when it is asked, and in a window
    the safety in its hand that answers the hazard it is asked about."""
    state = view["state"]
    legal = [move for move in state["legal_moves"] if move["move"] == "coup_fourre"]
    if legal or not window:
        return legal
    hazard = next(event for event in reversed(view["events"]) if event["move"] != "pass")
    safety = SAFETY.get(hazard.get("card", ""))
    if safety in state["hand"] and hazard.get("target") == state["side"]:
        return [{"move": "coup_fourre", "card": safety}]
    return []


NOT_REQUESTS = ("hands", "interrupting pass", "hand-over", "window")
"""What the counts hold besides the people's requests by kind."""

SAFETY = {
    "accident": "driving_ace",
    "out_of_gas": "extra_tank",
    "flat_tire": "puncture_proof",
    "stop": "right_of_way",
    "speed_limit": "right_of_way",
}


def measure(
    games: int, hands: int, window: bool, setups: dict[str, list[str | None]] | None = None
) -> dict[str, Counter[str]]:
    """Every setup's people's requests over ``games`` games of ``hands`` hands; the records."""
    results: dict[str, Counter[str]] = {}
    records: dict[str, list[Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                "VIRTUAL_CHANCE_WINDOW": WINDOW if window else 0,
            }
        )
        with app.app_context():
            upgrade(directory=str(ROOT / "migrations"))
        clock = Clock()
        virtual.moves.clock = clock  # type: ignore[assignment]
        for name, seats in (setups or SETUPS).items():
            total: Counter[str] = Counter()
            for seed in range(1, games + 1):
                virtual.lifecycle.new_seed = _fixed(seed)  # type: ignore[assignment]
                sent, record = play_game(app.test_client(), seats, hands, clock, window)
                total += sent
                records[f"{name}/{seed}"] = record
            total["hands"] = games * hands
            results[name] = total
        with app.app_context():
            db.engine.dispose()
    results["records"] = Counter({repr(records): 1})
    return results


def _fixed(seed: int) -> Callable[[], int]:
    return lambda: seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per setup")
    parser.add_argument("--hands", type=int, default=2, help="hands per game")
    parser.add_argument(
        "--delivery", type=float, default=0.16, help="a move's way to the other phone, live (s)"
    )
    args = parser.parse_args()
    before = measure(args.games, args.hands, window=False)
    after = measure(args.games, args.hands, window=True)
    same = before.pop("records") == after.pop("records")
    print(f"{args.games} games × {args.hands} hands per setup; the same moves stored: {same}")
    print(
        f"{'setup':<28} {'chance':<12} {'requests/hand':>13} {'passes/hand':>11} "
        f"{'passes':>7} {'interrupting':>12}"
    )
    for name in SETUPS:
        for label, counts in (("one by one", before[name]), (f"{WINDOW:g} s window", after[name])):
            requests = sum(n for kind, n in counts.items() if kind not in NOT_REQUESTS)
            hands = counts["hands"]
            passes = counts["pass"]
            share = passes / requests if requests else 0
            interrupting = counts["interrupting pass"] / passes if passes else 0
            print(
                f"{name:<28} {label:<12} {requests / hands:>13.1f} {passes / hands:>11.1f} "
                f"{share:>7.0%} {interrupting:>12.0%}"
            )
    if not same:
        sys.exit("the two ways stored different moves")
    waiting(args.games, args.hands, args.delivery)


def waiting(games: int, hands: int, delivery: float) -> None:
    """Seconds a hand waits on the server and on windows, before and after live pages."""
    timed = measure(games, hands, window=True, setups=TIMED)
    timed.pop("records")
    print("\nwaiting per hand (hand-overs × the move's way + unanswered windows × their time)")
    print(
        f"{'setup':<30} {'hand-overs':>10} {'windows':>8} {'before s':>9} {'after s':>8} "
        f"{'ratio':>6}"
    )
    for name in TIMED:
        counts = timed[name]
        handovers = counts["hand-over"] / counts["hands"]
        windows = counts["window"] / counts["hands"]
        before = handovers * POLL / 2 + windows * (WINDOW_BEFORE + POLL / 2)
        after = handovers * delivery + windows * (WINDOW_AFTER + delivery)
        print(
            f"{name:<30} {handovers:>10.1f} {windows:>8.1f} {before:>9.1f} {after:>8.1f} "
            f"{after / before:>6.2f}"
        )


if __name__ == "__main__":
    main()
