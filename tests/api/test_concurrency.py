"""Several phones at once: one winner per version, and retries that record nothing twice."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask

from tests.api.conftest import TableAccess

PHONES = 8
SMALL = {"sides": [{"distance": 300}, {"distance": 450}]}
WIN = {"sides": [{"distance": 700, "two_hundreds": 0, "completed_trip": True}, {"distance": 0}]}


def all_at_once(app: Flask, send: Callable[[Any, int], int]) -> list[int]:
    """Run ``send(client, phone)`` from PHONES threads released together; their statuses."""
    start = threading.Barrier(PHONES)

    def phone(number: int) -> int:
        client = app.test_client()
        start.wait()
        return send(client, number)

    with ThreadPoolExecutor(PHONES) as pool:
        return sorted(pool.map(phone, range(PHONES)))


def game_with_a_hand(table: TableAccess) -> str:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"{table.url}/games/{table.start_game(2, [[ann], [bob]])['id']}"
    table.client.post(url + "/hands", json=SMALL, headers=table.headers)
    return url


def test_concurrent_corrections_with_one_etag_let_exactly_one_through(
    app: Flask, table: TableAccess
) -> None:
    url = game_with_a_hand(table)
    etag = table.client.get(url + "/hands/1", headers=table.headers).headers["ETag"]

    def correct(client: Any, phone: int) -> int:
        report = {"sides": [{"distance": 25 * (phone + 1)}, {"distance": 0}]}
        headers = {**table.headers, "If-Match": etag}
        return int(client.put(url + "/hands/1", json=report, headers=headers).status_code)

    statuses = all_at_once(app, correct)
    assert statuses == [200] + [412] * (PHONES - 1)
    hand = table.client.get(url + "/hands/1", headers=table.headers).get_json()
    assert hand["version"] == 2


def test_concurrent_retries_of_one_post_record_one_hand(app: Flask, table: TableAccess) -> None:
    url = game_with_a_hand(table)

    def retry(client: Any, _phone: int) -> int:
        headers = {**table.headers, "Idempotency-Key": "the-same-hand"}
        return int(client.post(url + "/hands", json=SMALL, headers=headers).status_code)

    assert all_at_once(app, retry) == [201] * PHONES
    hands = table.client.get(url, headers=table.headers).get_json()["hands"]
    assert len(hands) == 2


def test_concurrent_different_hands_are_all_recorded_in_turn(
    app: Flask, table: TableAccess
) -> None:
    url = game_with_a_hand(table)

    def add(client: Any, _phone: int) -> int:
        return int(client.post(url + "/hands", json=SMALL, headers=table.headers).status_code)

    assert all_at_once(app, add) == [201] * PHONES
    game = table.client.get(url, headers=table.headers).get_json()
    assert [hand["number"] for hand in game["hands"]] == list(range(1, PHONES + 2))
    assert game["totals"] == [300 * (PHONES + 1), 450 * (PHONES + 1)]


def test_concurrent_retries_of_the_game_ending_hand_all_answer_the_first_result(
    app: Flask, table: TableAccess
) -> None:
    ann, bob = table.add_players("Ann", "Bob")
    url = f"{table.url}/games/{table.start_game(2, [[ann], [bob]])['id']}"
    for _ in range(2):  # 1,900 each: the third ends the game
        table.client.post(url + "/hands", json=WIN, headers=table.headers)
    answers: list[tuple[int, Any, str | None, str | None]] = []

    def retry(client: Any, _phone: int) -> int:
        headers = {**table.headers, "Idempotency-Key": "the-last-hand"}
        response = client.post(url + "/hands", json=WIN, headers=headers)
        replayed = response.headers.get("Idempotent-Replayed")
        answers.append(
            (response.status_code, response.get_json(), response.headers.get("ETag"), replayed)
        )
        return int(response.status_code)

    assert all_at_once(app, retry) == [201] * PHONES
    assert len({repr(answer[:3]) for answer in answers}) == 1  # one body, one ETag
    assert sorted(str(answer[3]) for answer in answers) == ["None"] + ["true"] * (PHONES - 1)
    game = table.client.get(url, headers=table.headers).get_json()
    assert (len(game["hands"]), game["status"]) == (3, "finished")


def test_names_that_read_alike_added_at_once_are_one_player(app: Flask, table: TableAccess) -> None:
    spellings = ["Ann", "ann", "ANN", "Ann ", " ann", "aNN", "\uff21nn", "Ann  "]

    def add(client: Any, phone: int) -> int:
        body = {"name": spellings[phone]}
        return int(
            client.post(table.url + "/players", json=body, headers=table.headers).status_code
        )

    assert all_at_once(app, add) == [201] + [409] * (PHONES - 1)
    assert (
        len(table.client.get(table.url + "/players", headers=table.headers).get_json()["items"])
        == 1
    )


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ROUNDS = 25


def test_one_key_through_the_form_and_the_api_at_once_never_deadlocks(
    app: Flask, table: TableAccess
) -> None:
    """A phone's queue resends a hand through the page form while the same key reaches the API
    (issue 24): both paths lock the game before the key, so one waits for the other and neither
    deadlocks. Each round records one hand under the key; the other answer is the first
    request's (a replay) or 422 (the key was used for another request), never a 5xx."""
    ann, bob = table.add_players("Ann", "Bob")
    game_id = table.start_game(2, [[ann], [bob]])["id"]
    form_path = f"/t/{table.id}/games/{game_id}/hands/new"
    phone = app.test_client()
    phone.set_cookie(f"table_{table.id}", table.token)
    match = CSRF.search(phone.get(form_path).text)
    assert match
    api = app.test_client()
    start = threading.Barrier(2)

    def through_form(key: str, number: int) -> int:
        form = {"csrf_token": match.group(1), "number": str(number), "s0-km": "25", "s1-km": "0"}
        start.wait()
        return int(phone.post(form_path, data=form, headers={"Idempotency-Key": key}).status_code)

    def through_api(key: str) -> int:
        headers = {**table.headers, "Idempotency-Key": key}
        report = {"sides": [{"distance": 25}, {"distance": 0}]}
        start.wait()
        url = f"{table.url}/games/{game_id}/hands"
        return int(api.post(url, json=report, headers=headers).status_code)

    answers: list[tuple[int, int]] = []
    with ThreadPoolExecutor(2) as pool:
        for number in range(1, ROUNDS + 1):
            form = pool.submit(through_form, f"round-{number}", number)
            posted = pool.submit(through_api, f"round-{number}")
            answers.append((form.result(), posted.result()))
    assert all(form in (302, 422) and posted in (201, 422) for form, posted in answers), str(
        answers
    )
    assert all((form == 302) != (posted == 201) for form, posted in answers), str(answers)
    game = table.get(f"/games/{game_id}").get_json()
    assert len(game["hands"]) == ROUNDS
