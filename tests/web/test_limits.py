"""The limits against abuse (``scorekeeper/web/limits.py``): a flood from one address or one
token is refused with a translated 429, ``Retry-After`` and the RateLimit fields, while other
addresses and tokens go on; behind the proxy the phone's address is counted, not the proxy's;
Redis makes two gunicorn workers count together and remember across a restart; and a club's
busiest minute, 30 phones behind one address, is never refused by the defaults.

The rest of the suite runs with the limits off (``tests/conftest.py``); these tests turn them on.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import config, create_app
from scorekeeper.domain.credentials import token_hash
from scorekeeper.storage.extensions import db
from scorekeeper.web import limits
from tests import redis_server
from tests.api.conftest import TableAccess, create_table
from tests.conftest import migrate, require
from tests.contract import ContractClient
from tests.postgres import _free_port
from tests.running import ask, wait_until_serving

PHONE = {"X-Forwarded-For": "192.0.2.1"}
OTHER_PHONE = {"X-Forwarded-For": "198.51.100.7"}
REFUSED_EN = "Too many requests at once: wait a moment and try again."
REFUSED_FR = "Trop de requêtes à la fois\u202f: patientez un instant et réessayez."


def limited_app(template: Path, folder: Path, **settings: Any) -> Flask:
    """The app on a copy of the migrated SQLite file, its limits on (the production defaults
    but for ``settings``), behind one trusted proxy, its forms' CSRF check off (these tests post
    the pages' forms without reading them first; the limits are counted before that check)."""
    path = folder / "limits.sqlite3"
    shutil.copyfile(template, path)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "RATELIMIT_ENABLED": True,
            "TRUSTED_PROXIES": 1,
            "WTF_CSRF_ENABLED": False,
            **settings,
        }
    )
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def make_app(sqlite_template: Path, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes a :func:`limited_app`, each on a database of its own."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        folder = tmp_path / f"app{len(made)}"
        folder.mkdir()
        made.append(limited_app(sqlite_template, folder, **settings))
        return made[-1]

    yield make
    for app in made:
        with app.app_context():
            db.engine.dispose()


def rate_fields(response: Any) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name.startswith("RateLimit-") or name == "Retry-After"
    }


def assert_refused(response: Any, *, page: bool = False, french: bool = False) -> None:
    """A 429 as the API (problem+json) or the pages (HTML) answer it, with its fields."""
    assert response.status_code == 429, response.get_data(as_text=True)[:300]
    fields = rate_fields(response)
    assert 1 <= int(fields["Retry-After"]) <= 3600
    assert fields["RateLimit-Remaining"] == "0"
    assert int(fields["RateLimit-Limit"]) >= 1
    assert int(fields["Retry-After"]) >= int(fields["RateLimit-Reset"])
    assert re.fullmatch(r"\d+;w=\d+(, \d+;w=\d+)*", fields["RateLimit-Policy"])
    said = REFUSED_FR if french else REFUSED_EN
    if page:
        assert response.mimetype == "text/html"
        assert said.replace("'", "&#39;") in response.get_data(as_text=True)
    else:
        assert response.mimetype == "application/problem+json"
        problem = response.get_json()
        assert (problem["status"], problem["title"], problem["detail"]) == (
            429,
            "Too Many Requests",
            said,
        )


def test_the_limits_are_on_unless_turned_off(tmp_path: Path) -> None:
    """Production counts; only the tests' environment turns the limits off (tests/conftest.py)."""
    settings = config.defaults(str(tmp_path))
    assert settings["RATELIMIT_ENABLED"] is True
    assert settings["RATELIMIT_STORAGE_URI"] == "memory://"


def test_a_flood_of_tables_from_one_address_is_refused_while_another_address_makes_tables(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(LIMIT_TABLES_PER_ADDRESS="5 per hour").test_client()
    made = [client.post("/api/v1/tables", json={"name": f"T{n}"}, headers=PHONE) for n in range(5)]
    assert [answer.status_code for answer in made] == [201] * 5
    assert [rate_fields(answer)["RateLimit-Remaining"] for answer in made] == list("43210")
    first = rate_fields(made[0])
    assert first["RateLimit-Limit"] == "5"
    assert 3500 <= int(first["RateLimit-Reset"]) <= 3600
    assert "5;w=3600" in first["RateLimit-Policy"].split(", ")
    assert "Retry-After" not in first

    assert_refused(client.post("/api/v1/tables", json={"name": "T5"}, headers=PHONE))
    # The start page's form counts as the API does: the same phone is refused there too.
    assert_refused(client.post("/tables", data={"name": "T5"}, headers=PHONE), page=True)

    other = client.post("/api/v1/tables", json={"name": "Other"}, headers=OTHER_PHONE)
    assert other.status_code == 201
    assert rate_fields(other)["RateLimit-Remaining"] == "4"
    assert client.post("/tables", data={"name": "Other's"}, headers=OTHER_PHONE).status_code == 302


def test_a_phone_cannot_pass_for_another_address_without_a_trusted_proxy(
    make_app: Callable[..., Flask],
) -> None:
    """Without a proxy to believe, X-Forwarded-For is the phone's own word, and not counted."""
    client = make_app(TRUSTED_PROXIES=0, LIMIT_TABLES_PER_ADDRESS="2 per hour").test_client()
    for number in range(2):
        forged = {"X-Forwarded-For": f"203.0.113.{number}"}
        assert client.post("/api/v1/tables", json={"name": "T"}, headers=forged).status_code == 201
    forged = {"X-Forwarded-For": "203.0.113.99"}
    assert_refused(client.post("/api/v1/tables", json={"name": "T"}, headers=forged))


def test_behind_two_proxies_the_phone_is_counted_not_the_nearer_proxy(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(TRUSTED_PROXIES=2, LIMIT_TABLES_PER_ADDRESS="1 per hour").test_client()
    chain = {"X-Forwarded-For": "192.0.2.1, 10.0.0.2"}  # the phone, then the first proxy
    assert client.post("/api/v1/tables", json={"name": "T"}, headers=chain).status_code == 201
    assert_refused(client.post("/api/v1/tables", json={"name": "T"}, headers=chain))
    another = {"X-Forwarded-For": "192.0.2.2, 10.0.0.2"}
    assert client.post("/api/v1/tables", json={"name": "T"}, headers=another).status_code == 201


def test_a_token_over_its_write_limit_is_refused_while_another_token_writes(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(LIMIT_WRITES_PER_TOKEN="4 per minute").test_client()
    ours, theirs = create_table(client, "Ours"), create_table(client, "Theirs")
    added = [ours.post("/players", {"name": name}) for name in ("Ann", "Bob", "Cy", "Di")]
    assert [answer.status_code for answer in added] == [201] * 4
    assert rate_fields(added[-1])["RateLimit-Remaining"] == "0"
    assert "4;w=60" in rate_fields(added[-1])["RateLimit-Policy"].split(", ")
    assert_refused(ours.post("/players", {"name": "Ed"}))
    # Reading is not writing; and the other table's token writes on, from the same address.
    read = ours.get("/players")
    assert read.status_code == 200 and rate_fields(read)["RateLimit-Limit"] != "4"
    assert theirs.post("/players", {"name": "Ed"}).status_code == 201

    # The pages count a table's token from the phone's cookie: the same count as the API's.
    client.set_cookie(f"table_{ours.id}", ours.token)
    client.set_cookie(f"table_{theirs.id}", theirs.token)
    assert_refused(client.post(f"/t/{ours.id}/players", data={"name": "Flo"}), page=True)
    assert client.post(f"/t/{theirs.id}/players", data={"name": "Flo"}).status_code == 302


def test_the_refusal_is_said_in_french(make_app: Callable[..., Flask]) -> None:
    client = make_app(LIMIT_TABLES_PER_ADDRESS="1 per hour").test_client()
    french = {**PHONE, "Accept-Language": "fr"}
    assert client.post("/api/v1/tables", json={"name": "T"}, headers=french).status_code == 201
    refused = client.post("/api/v1/tables", json={"name": "T"}, headers=french)
    assert_refused(refused, french=True)
    assert "Accept-Language" in refused.headers["Vary"]
    page = client.post("/tables", data={"name": "T"}, headers=french)
    assert_refused(page, page=True, french=True)
    assert '<html lang="fr"' in page.get_data(as_text=True)


def test_scoring_is_counted_apart_from_the_writes(make_app: Callable[..., Flask]) -> None:
    """The hand form's preview scores as the API does, nothing stored: it never eats into the
    writes, nor they into it."""
    client = make_app(
        LIMIT_SCORING_PER_ADDRESS="3 per minute", LIMIT_WRITES_PER_ADDRESS="5 per minute"
    ).test_client()
    report = {"players": 2, "sides": [{"distance": 300}, {"distance": 0}]}
    scored = [client.post("/api/v1/score", json=report, headers=PHONE) for _ in range(2)]
    assert [answer.status_code for answer in scored] == [200, 200]
    table = create_table(client)  # a write, from the test client's own address
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])["id"]
    client.set_cookie(f"table_{table.id}", table.token)
    form = {"number": "1", "s0-km": "300", "s1-km": "0"}
    preview = client.post(f"/t/{table.id}/games/{game}/preview", data=form, headers=PHONE)
    assert preview.status_code == 200
    assert_refused(client.post("/api/v1/score", json=report, headers=PHONE))
    assert_refused(
        client.post(f"/t/{table.id}/games/{game}/preview", data=form, headers=PHONE), page=True
    )
    assert client.post("/api/v1/tables", json={"name": "T"}, headers=PHONE).status_code == 201


def test_static_files_are_not_counted(make_app: Callable[..., Flask]) -> None:
    client = make_app(LIMIT_REQUESTS_PER_ADDRESS="1 per minute").test_client()
    for _ in range(3):
        with client.get("/static/app.css", headers=PHONE) as answer:
            assert answer.status_code == 200 and rate_fields(answer) == {}
    assert client.get("/", headers=PHONE).status_code == 200
    assert_refused(client.get("/", headers=PHONE), page=True)


def test_an_answer_counted_carries_the_fields_of_the_limit_nearest_to_refusing(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(
        LIMIT_REQUESTS_PER_ADDRESS="100 per minute", LIMIT_REQUESTS_PER_TOKEN="3 per minute"
    ).test_client()
    table = create_table(client)
    read = table.get("")
    assert rate_fields(read)["RateLimit-Limit"] == "3"
    assert rate_fields(read)["RateLimit-Remaining"] == "2"
    assert rate_fields(read)["RateLimit-Policy"] == "100;w=60, 3;w=60"
    cached = table.get("", headers={"If-None-Match": read.headers["ETag"]})
    assert cached.status_code == 304 and rate_fields(cached)["RateLimit-Remaining"] == "1"


def test_an_ipv6_phone_is_counted_by_its_network(database_free_app: Flask) -> None:
    """A phone is handed a whole /64: each of its addresses is the same phone."""
    seen = {}
    addresses = ("2001:db8:1:2::1", "2001:db8:1:2:aaaa::9", "2001:db8:1:3::1", "::ffff:192.0.2.9")
    for address in addresses:
        with database_free_app.test_request_context("/", environ_base={"REMOTE_ADDR": address}):
            seen[address] = limits.client_address()
    assert seen == {
        "2001:db8:1:2::1": "2001:db8:1:2::/64",
        "2001:db8:1:2:aaaa::9": "2001:db8:1:2::/64",
        "2001:db8:1:3::1": "2001:db8:1:3::/64",
        "::ffff:192.0.2.9": "192.0.2.9",
    }


def test_a_token_is_counted_by_a_digest_that_is_not_the_stored_one(
    database_free_app: Flask,
) -> None:
    """The API's bearer token, a seat's page and a table's page (its cookie) count alike."""
    token = "mb_" + "x" * 43
    places = [
        ("/api/v1/tables/3", {"Authorization": f"Bearer {token}"}),
        (f"/play/{token}", {}),
        ("/t/3/history", {"Cookie": f"table_3={token}"}),
    ]
    keys = set()
    for path, headers in places:
        with database_free_app.test_request_context(path, headers=headers):
            keys.add(limits.token_key())
    (key,) = keys
    assert token not in key and key not in token_hash(token)
    with database_free_app.test_request_context("/t/3/history"):
        assert limits.token_key() == ""


def test_a_setting_that_is_no_limit_stops_the_app_at_its_start() -> None:
    with pytest.raises(ValueError, match="LIMIT_WRITES_PER_TOKEN='lots' is not a limit"):
        create_app({"TESTING": True, "RATELIMIT_ENABLED": True, "LIMIT_WRITES_PER_TOKEN": "lots"})


def test_a_redis_out_of_reach_leaves_the_app_serving(
    make_app: Callable[..., Flask], caplog: pytest.LogCaptureFixture
) -> None:
    """Counting is a guard, not a service: while its Redis is away the server answers, and says
    so in its log."""
    client = make_app(RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_free_port()}/0").test_client()
    answer = client.get("/", headers=PHONE)
    assert answer.status_code == 200 and rate_fields(answer) == {}
    assert "Failed to rate limit" in caplog.text


# --- A club evening -------------------------------------------------------------------------

CLUB = {"X-Forwarded-For": "192.0.2.50"}
"""The club's one address: every phone reaches the server through the venue's router."""
PHONES = 30
GAMES = 8
POLLS = 24
"""A scoreboard asks every 2.5 s whether its game moved: 24 times a minute."""
PREVIEWS = 20
"""The hand form's live preview asks again after each change (a quarter of a second after the
last tap): about 20 times for a hand entered."""


def club_minute(app: Flask, *, one_table: bool) -> list[Any]:
    """The busiest minute of a club evening, every request sent at once, through the test client:
    the tables made (8, or one the club keeps all its games on), 30 players, 8 games of 3 or 4,
    30 phones opening their scoreboard and asking 24 times whether it moved, then every game's
    hand entered (20 previews) and recorded, and every phone at the table reading it again."""
    organiser = app.test_client()
    organiser.environ_base["HTTP_X_FORWARDED_FOR"] = CLUB["X-Forwarded-For"]
    answers: list[Any] = []

    def sent(answer: Any) -> Any:
        answers.append(answer)
        return answer

    tables: list[TableAccess] = []
    for number in range(1 if one_table else GAMES):
        made = sent(organiser.post("/api/v1/tables", json={"name": f"Table {number + 1}"}))
        tables.append(TableAccess(organiser, made.get_json()["id"], made.get_json()["token"]))
    games = []
    for number in range(GAMES):
        table = tables[0 if one_table else number]
        size = 4 if number < PHONES - 3 * GAMES else 3  # 6 games of 4, 2 of 3: 30 players
        players = [
            sent(table.post("/players", {"name": f"P{number}-{seat}"})).get_json()["id"]
            for seat in range(size)
        ]
        sides = [players[0::2], players[1::2]] if size == 4 else [[each] for each in players]
        body = {"players": size, "sides": [{"players": side} for side in sides]}
        games.append((table, sent(table.post("/games", body)).get_json()["id"], size))
    phones: list[tuple[FlaskClient, str, TableAccess, int]] = []
    for table, game_id, size in games:
        for _ in range(size):
            phone = app.test_client()
            phone.environ_base["HTTP_X_FORWARDED_FOR"] = CLUB["X-Forwarded-For"]
            phone.set_cookie(f"table_{table.id}", table.token)
            phones.append((phone, f"/t/{table.id}/games/{game_id}", table, game_id))
    assert len(phones) == PHONES
    etags = [sent(phone.get(path)).headers["ETag"] for phone, path, _, _ in phones]
    for _ in range(POLLS):
        for (phone, path, _, _), etag in zip(phones, etags, strict=True):
            assert sent(phone.get(path, headers={"If-None-Match": etag})).status_code == 304
    for table, game_id, size in games:
        entering = next(phone for phone in phones if phone[3] == game_id)
        form = {"number": "1", "s0-km": "300", "s1-km": "0"}
        for _ in range(PREVIEWS):
            sent(entering[0].post(entering[1] + "/preview", data=form))
        report = {"sides": [{"distance": 300}] + [{"distance": 0}] * (1 if size == 4 else 2)}
        sent(table.post(f"/games/{game_id}/hands", report))
        for phone, path, _, game in phones:
            if game == game_id:
                sent(phone.get(path))
    return answers


@pytest.mark.parametrize("one_table", [False, True], ids=["eight tables", "one table"])
def test_a_club_evening_behind_one_address_is_never_refused(
    make_app: Callable[..., Flask], one_table: bool
) -> None:
    """Counted, not timed: the whole minute is sent in a burst and counted in one moving
    window, more than a real minute's spread would count, against the production defaults."""
    app = make_app(RATELIMIT_STRATEGY="moving-window")
    answers = club_minute(app, one_table=one_table)
    assert len(answers) > PHONES * (POLLS + 1)
    assert [answer.status_code for answer in answers if answer.status_code >= 400] == []
    # Far from refusing: the limit nearest to it at the busiest moment still had over half left.
    left = min(
        int(answer.headers["RateLimit-Remaining"]) / int(answer.headers["RateLimit-Limit"])
        for answer in answers
    )
    assert left > 0.5, left


# --- Two workers sharing Redis, and a restart -------------------------------------------------


@pytest.fixture
def redis() -> Iterator[str]:
    """A Redis server of the test's own, by its URL."""
    require(redis_server.binary_missing(), "CI runs the limits kept in Redis")
    with redis_server.server() as url:
        yield url


class Gunicorn:
    """The app under gunicorn, two workers, its limits kept in Redis; started again at will."""

    def __init__(self, folder: Path, database: str, redis: str) -> None:
        self.folder, self.log = folder, folder / "access.log"
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": database,
            "SECRET_KEY": "limits-test",
            "SCOREKEEPER_TRUSTED_PROXIES": "1",
            "SCOREKEEPER_RATELIMIT_ENABLED": "true",
            "SCOREKEEPER_RATELIMIT_STORAGE_URI": redis,
            "SCOREKEEPER_LIMIT_REQUESTS_PER_ADDRESS": "30 per hour",
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: list[int] = []

    def start(self) -> None:
        errors_log = self.folder / "server.log"
        before = errors_log.stat().st_size if errors_log.exists() else 0
        with errors_log.open("a") as errors:
            self.process = subprocess.Popen(
                [
                    sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{self.port}",
                    "--access-logfile", str(self.log), "--access-logformat", "%(p)s %(s)s %(U)s",
                    "scorekeeper:create_app()",
                ],
                env=self.env,
                cwd=self.folder,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )  # fmt: skip
        wait_until_serving(self.base)
        # Each worker makes its app once forked, and says so: both, before anything is counted.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with errors_log.open() as log:
                log.seek(before)
                said = log.read()
            if said.count(", database: ") >= 2:
                self.pids = [
                    int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", said)
                ]
                return
            time.sleep(0.1)
        raise AssertionError(f"gunicorn's two workers did not start:\n{errors_log.read_text()}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None

    def workers(self) -> set[int]:
        """The process ids of the workers that answered a counted request (the static file
        asked while waiting for the server to come up is not counted)."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        return {int(line.split()[0].strip("<>")) for line in lines if "/static/" not in line}

    @contextmanager
    def only(self, pid: int) -> Iterator[None]:
        """Only worker ``pid`` answers: the other is paused (SIGSTOP) until the block ends."""
        (other,) = set(self.pids) - {pid}
        os.kill(other, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(other, signal.SIGCONT)


def test_two_workers_count_together_in_redis_and_a_restart_forgets_nothing(
    redis: str, tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    migrate(database)
    server = Gunicorn(tmp_path, database, redis)
    server.start()
    try:
        status, made, _ = ask(server.base + "/api/v1/tables", PHONE, {"name": "Club"})
        assert status == 201
        token = ask(server.base + "/api/v1/tables", OTHER_PHONE, {"name": "Two"})[2]["token"]
        headers = {**PHONE, "Authorization": f"Bearer {token}"}
        # Each worker in turn answers while the other is paused.
        remaining = [int(made["RateLimit-Remaining"])]
        for pid in server.pids:
            with server.only(pid):
                for _ in range(3):
                    remaining.append(int(ask(server.base + "/", headers)[1]["RateLimit-Remaining"]))
        assert server.workers() == set(server.pids) and len(server.pids) == 2
        # One count for the address, whichever worker answered: each answer left one less.
        assert remaining == list(range(29, 22, -1))
        for _ in range(30):
            status, fields, problem = ask(server.base + "/api/v1/score", PHONE, {"players": 2})
            if status == 429:
                break
        assert status == 429 and int(fields["Retry-After"]) >= 1
        assert problem["detail"] == REFUSED_EN
        assert ask(server.base + "/", OTHER_PHONE)[0] == 200

        server.stop()
        server.start()
        status, fields, _ = ask(server.base + "/", PHONE)
        assert status == 429 and fields["RateLimit-Remaining"] == "0"
        assert ask(server.base + "/", OTHER_PHONE)[0] == 200
    finally:
        server.stop()
    # What Redis keeps names no token, nor the digest the database keeps of it.
    kept = " ".join(redis_server.keys(redis))
    assert "scorekeeper" in kept
    assert token not in kept and token_hash(token) not in kept
