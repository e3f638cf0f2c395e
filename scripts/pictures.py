"""The documentation's pictures, taken from the real pages: ``make pictures``.

Serves the app on a fresh SQLite database, plays an evening at one table (a few hands entered,
a finished game, a virtual game against computers dealt from a fixed seed), then opens each scene
in Debian's chromium at a 360×640 phone, once in English and once in French, and writes
``docs/pictures/<language>/<scene>.png``: what the guides and the README show. Run it again after a
change to the pages; a page test (``tests/pages/test_pictures.py``) runs the same scenes, so a
screen that is pictured and no longer exists fails the suite.

    .venv/bin/python scripts/pictures.py [--out docs/pictures] [--language en|fr] [SCENE ...]

Each picture is the phone's viewport at twice its pixels, reduced to a few colours (the pages are
flat colours and text), so that it stays under 60 KB; the script says so when one does not.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import logging
import random
import re
import shutil
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.domain import credentials  # noqa: E402
from scorekeeper.services import virtual  # noqa: E402
from scorekeeper.storage.extensions import db  # noqa: E402
from tests.pages.conftest import BROWSER_ARGS, CHROMIUM, PHONE  # noqa: E402
from tests.running import served  # noqa: E402

LANGUAGES = {"en": "en-GB", "fr": "fr-FR"}
MAKE_RUN_PORT = 5000
"""make run's port, so the links pictured are the ones a laptop's table sees."""
LIMIT = 60_000
"""Bytes a picture may weigh: the guides show a dozen on one page."""
SEED = 7
"""The virtual game's deal: the same cards on every run, so a picture changes only with the page."""


@dataclass(frozen=True, slots=True)
class Evening:
    """Where the staged evening is (paths on the server): one table and its games."""

    table: str
    running: str
    """A game of two teams, three hands in."""
    virtual_links: str
    virtual_seats: str
    seat: str
    """The human seat's page (its secret link, a path)."""


@dataclass(frozen=True, slots=True)
class Scene:
    """One picture: where it is, what to do there, what shows it is ready, what it shows."""

    name: str
    path: Callable[[Evening], str]
    ready: str
    """A selector that is visible once the scene is all there."""
    words: dict[str, str]
    """What the picture shows, in each language (the French with plain spaces: see :meth:`alt`)."""
    then: Callable[[Page], None] | None = None
    """What to do once the page is open to reach the scene (fill a form, open a fold...)."""
    polls: bool = False
    """Whether the page keeps asking the server (a seat's page): no waiting for a quiet network."""

    def alt(self, language: str) -> str:
        """The picture's alt text in ``language``, as the guides write it under the picture; the
        French typeset as the pages are (a narrow no-break space before ``: ; ! ?`` and between
        the groups of a number's thousands)."""
        text = self.words[language]
        if language != "fr":
            return text
        text = re.sub(r"(?<=\d) (?=\d{3}(?!\d))", "\u202f", text)
        return re.sub(r" ([:;!?])", "\u202f\\1", text)

    def file(self, language: str) -> str:
        """The picture's path under the pictures' folder."""
        return f"{language}/{self.name}.png"

    def show(self, page: Page, base: str, evening: Evening) -> None:
        """Open the scene on ``page`` and wait until it is all there."""
        page.goto(base + self.path(evening))
        page.wait_for_load_state("load")
        if self.then is not None:
            self.then(page)
        expect(page.locator(self.ready).first).to_be_visible()
        if not self.polls:  # the live preview's answer, say, drawn before the picture
            page.wait_for_load_state("networkidle")


def _open_share(page: Page) -> None:
    page.locator("details.share summary").click()


def _fill_hand(page: Page) -> None:
    """A hand being entered: both teams' km, a safety, a coup-fourré; the preview scores it."""
    page.locator("input[name='s0-km']").fill("1000")
    page.locator("input[name='s1-km']").fill("425")
    page.locator("input[name='completed'][value='0']").check()
    page.locator("#side-0 [data-safety=right_of_way] .safety-cycle").click()
    extra_tank = page.locator("#side-1 [data-safety=extra_tank] .safety-cycle")
    extra_tank.click()
    extra_tank.click()  # a second tap: a coup-fourré
    page.evaluate("window.scrollTo(0, 0)")


def _refuse(page: Page) -> None:
    """A shutout claimed while the other team travelled: the rules refuse it, saying why."""
    page.locator("input[name='s1-km']").fill("100")
    page.locator("#side-0 details.claims summary").click()
    claim = page.locator("input[name='s0-claim-shutout']")
    claim.check()
    with page.expect_navigation():
        claim.evaluate("field => field.form.requestSubmit()")


def _save_offline(page: Page) -> None:
    """The server out of reach: the hand is kept on the phone, waiting to be sent."""
    page.locator("input[name='s0-km']").fill("300")
    page.locator("input[name='s1-km']").fill("250")
    page.context.set_offline(True)
    page.locator("form.hand-form button.primary[type=submit]").first.click()
    expect(page.locator("#queue .queue-count")).not_to_be_empty()


def _open_player(page: Page) -> None:
    page.locator("table.leaderboard a").first.click()
    page.wait_for_load_state("networkidle")


def _ask_hint(page: Page) -> None:
    page.locator("#play .hint-ask").click()
    expect(page.locator("#hint-note")).not_to_be_empty()


SCENES: tuple[Scene, ...] = (
    Scene(
        "home",
        lambda e: "/",
        "form input[name=name]",
        {
            "en": "The start page: the tables this phone has joined, and a box to name a new one.",
            "fr": "La page d'accueil : les tables de ce téléphone, et un champ pour en créer une.",
        },
    ),
    Scene(
        "table",
        lambda e: e.table,
        "ul.chips",
        {
            "en": "A table's page: its games, its players, and buttons for a new game, the "
            "history and the leaderboard.",
            "fr": "La page d'une table : ses parties, ses joueurs, et les boutons d'une nouvelle "
            "partie, de l'historique et du classement.",
        },
    ),
    Scene(
        "share",
        lambda e: e.table,
        ".qr svg",
        {
            "en": "The table's share section open: a QR code and the link that joins the table.",
            "fr": "Le partage de la table ouvert : un QR code et le lien qui fait rejoindre la "
            "table.",
        },
        _open_share,
    ),
    Scene(
        "new-game",
        lambda e: e.table + "/games/new?players=4",
        "#new-game",
        {
            "en": "A new game for four players in two teams: who sits where, and the variants.",
            "fr": "Une nouvelle partie à quatre en deux équipes : qui s'assoit où, et les "
            "variantes.",
        },
    ),
    Scene(
        "hand-form",
        lambda e: e.running + "/hands/new",
        "form.hand-form",
        {
            "en": "The hand form: each team's km, its safeties and coups-fourrés, who completed "
            "the trip, and the hand's score in the bar at the bottom.",
            "fr": "Le formulaire d'une manche : les km de chaque équipe, ses bottes et coups "
            "fourrés, qui a gagné la manche, et le score de la manche dans la barre du bas.",
        },
        _fill_hand,
    ),
    Scene(
        "refused",
        lambda e: e.running + "/hands/new",
        ".problem",
        {
            "en": "A refused hand: a shutout claimed while the other team travelled, and the "
            "reason beside the side it concerns.",
            "fr": "Une manche refusée : un capot réclamé alors que l'autre équipe a roulé, et la "
            "raison à côté de l'équipe concernée.",
        },
        _refuse,
    ),
    Scene(
        "scoreboard",
        lambda e: e.running,
        ".totals",
        {
            "en": "The scoreboard: each team's total and its way to 5,000, the leader, and every "
            "hand with its bonuses.",
            "fr": "Le tableau des scores : le total de chaque équipe et sa route vers 5 000, "
            "l'équipe en tête, et chaque manche avec ses primes.",
        },
    ),
    Scene(
        "correction",
        lambda e: e.running + "/hands/2",
        "form.hand-form",
        {
            "en": "Correcting hand 2: the form as it was recorded, ready to change.",
            "fr": "Corriger la manche 2 : le formulaire tel qu'il a été enregistré, prêt à "
            "changer.",
        },
    ),
    Scene(
        "offline",
        lambda e: e.running + "/hands/new",
        "#queue .queue-count",
        {
            "en": "Out of reach of the server: the hand is kept on the phone, one hand waiting.",
            "fr": "Hors de portée du serveur : la manche est gardée sur le téléphone, une manche "
            "en attente.",
        },
        _save_offline,
    ),
    Scene(
        "history",
        lambda e: e.table + "/history",
        "table.stats",
        {
            "en": "The history: the finished games, and every player's statistics.",
            "fr": "L'historique : les parties finies, et les statistiques de chaque joueur.",
        },
    ),
    Scene(
        "leaderboard",
        lambda e: e.table + "/ratings",
        "table.leaderboard",
        {
            "en": "The leaderboard: every player and computer level ranked by rating, with its "
            "uncertainty.",
            "fr": "Le classement : chaque joueur et chaque niveau de l'ordinateur, rangés par "
            "cote, avec son incertitude.",
        },
    ),
    Scene(
        "player",
        lambda e: e.table + "/ratings",
        "table.head-to-head",
        {
            "en": "A player's page: the rating, the statistics and the record against each "
            "player met.",
            "fr": "La page d'un joueur : sa cote, ses statistiques et son bilan face à chaque "
            "joueur rencontré.",
        },
        _open_player,
    ),
    Scene(
        "new-virtual",
        lambda e: e.table + "/virtual/new?players=4",
        "#new-virtual-game",
        {
            "en": "Playing in the app: each seat a player of the table or a computer, and the "
            "computer levels.",
            "fr": "Jouer dans l'appli : chaque place à un joueur de la table ou à l'ordinateur, "
            "et les niveaux de l'ordinateur.",
        },
    ),
    Scene(
        "seat-links",
        lambda e: e.virtual_links,
        ".seat-links",
        {
            "en": "A virtual game's links: each person's seat with its own link and QR code, "
            "shown once.",
            "fr": "Les liens d'une partie dans l'appli : la place de chaque personne, avec son "
            "lien et son QR code, montrés une fois.",
        },
    ),
    Scene(
        "seat",
        lambda e: e.seat,
        "#play",
        {
            "en": "A seat of a virtual game: the player's own cards, their tableau, and the "
            "other teams' tableaux.",
            "fr": "Une place d'une partie dans l'appli : les cartes du joueur, son jeu posé, et "
            "celui des autres équipes.",
        },
        polls=True,
    ),
    Scene(
        "hint",
        lambda e: e.seat,
        "#play",
        {
            "en": "A hint asked for: the move the Club computer would make, marked on its card "
            "and said in words.",
            "fr": "Un conseil demandé : le coup que jouerait l'ordinateur (Club), marqué sur sa "
            "carte et dit en toutes lettres.",
        },
        _ask_hint,
        polls=True,
    ),
    Scene(
        "seats",
        lambda e: e.virtual_seats,
        "main",
        {
            "en": "Seats and links: a new link for a seat, or a computer to play it for a "
            "player who left.",
            "fr": "Places et liens : un nouveau lien pour une place, ou l'ordinateur pour la "
            "jouer à la place d'un joueur parti.",
        },
    ),
)


# -- the evening ------------------------------------------------------------------------------


def api(base: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    """A request to the API under ``token``; its JSON answer."""
    request = urllib.request.Request(
        base + "/api/v1" + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        raise SystemExit(
            f"{request.method} {path}: {refused.code} {refused.read().decode()}"
        ) from None


def _km(*counts: dict[str, int], completed: int | None = None, **extra: Any) -> dict[str, Any]:
    sides = [{"distance": dict(c)} for c in counts]
    if completed is not None:
        sides[completed]["completed_trip"] = True
    for side, safeties in extra.get("safeties", {}).items():
        sides[side]["safeties"] = safeties
    for side, fourres in extra.get("coups", {}).items():
        sides[side]["coup_fourres"] = fourres
    return {"sides": sides}


def stage(page: Page, base: str) -> Evening:
    """An evening at "Chez Zoé": the table made through the pages, the games through the API
    (the table's token read from its share link), the virtual game dealt through the pages."""
    page.goto(base + "/")
    page.locator("input[name=name]").fill("Chez Zoé")
    page.locator("form button[type=submit]").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Chez Zoé")
    table_path = page.url.removeprefix(base)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        page.locator("input[name=name]").fill(name)
        page.locator("form.inline button[type=submit]").click()
        expect(page.locator("ul.chips li").filter(has_text=name)).to_have_count(1)
    share = page.locator("input.share-link").input_value()
    token = share.split("#", 1)[1]
    table = "/tables/" + table_path.rsplit("/", 1)[1]
    ids = {p["name"]: p["id"] for p in api(base, table + "/players", token)["items"]}

    def game(players: int, sides: list[list[str]]) -> int:
        body = {
            "players": players,
            "variants": {},
            "sides": [{"players": [ids[n] for n in s]} for s in sides],
        }
        answer: int = api(base, table + "/games", token, body)["id"]
        return answer

    finished = game(2, [["Cat"], ["Dan"]])
    for _ in range(3):
        api(base, f"{table}/games/{finished}/hands", token, _km({"100": 7}, {}, completed=0))
    other = game(2, [["Ann"], ["Cat"]])
    api(
        base,
        f"{table}/games/{other}/hands",
        token,
        _km({"200": 2, "100": 3}, {"50": 4}, completed=0),
    )
    api(base, f"{table}/games/{other}/hands", token, _km({"100": 7}, {"25": 2}, completed=0))
    api(
        base,
        f"{table}/games/{other}/hands",
        token,
        _km({"200": 1, "100": 5}, {"75": 2}, completed=0),
    )
    api(base, f"{table}/games/{other}/hands", token, _km({"100": 7}, {}, completed=0))

    running = game(4, [["Ann", "Cat"], ["Bob", "Dan"]])
    hands = [
        _km(
            {"200": 2, "100": 4, "75": 2, "25": 2},
            {"100": 2, "75": 1},
            completed=0,
            safeties={0: ["right_of_way"], 1: ["extra_tank"]},
            coups={1: ["extra_tank"]},
        ),
        _km(
            {"100": 4, "50": 2},
            {"200": 2, "100": 4, "75": 2, "25": 2},
            completed=1,
            safeties={1: ["driving_ace", "puncture_proof"]},
        ),
        _km({"200": 1, "100": 2, "50": 3}, {"100": 3, "25": 1}),
    ]
    for hand in hands:
        api(base, f"{table}/games/{running}/hands", token, hand)

    page.goto(base + table_path + "/virtual/new?players=4")
    page.locator("select[name=seat0]").select_option(f"p{ids['Ann']}")
    page.locator("select[name=seat1]").select_option("cclub")
    page.locator("select[name=seat2]").select_option(f"p{ids['Bob']}")
    page.locator("select[name=seat3]").select_option("cclub")
    page.locator("#new-virtual-game button[name=start]").click()
    expect(page.locator(".seat-links")).to_be_visible()
    links = page.url.removeprefix(base)
    seats = [field.input_value() for field in page.locator(".seat-links input").all()]
    seat = seats[0]
    game_id = links.removesuffix("/links").rsplit("/", 1)[1]
    tokens = [link.rsplit("/", 1)[1] for link in seats]
    for played in range(60):  # the people play their hints until Ann's turn comes after a few
        views = [api(base, f"{table}/virtual-games/{game_id}", token) for token in tokens]
        acting = [
            t for t, v in zip(tokens, views, strict=True) if v["state"]["to_act"] == v["seat"]
        ]
        if played >= 6 and acting[:1] == tokens[:1] and views[0]["state"]["phase"] == "play":
            break
        if not acting:  # a coup-fourré window open: the next reads close it once it is due
            time.sleep(0.5)
            continue
        hint = api(base, f"{table}/virtual-games/{game_id}/hint", acting[0])
        move = {key: value for key, value in hint.items() if key != "label"}
        api(base, f"{table}/virtual-games/{game_id}/moves", acting[0], move)
    return Evening(
        table=table_path,
        running=f"{table_path}/games/{running}",
        virtual_links=links,
        virtual_seats=links.removesuffix("/links") + "/seats",
        seat=seat.removeprefix(base),
    )


# -- the pictures -----------------------------------------------------------------------------


@contextmanager
def serving() -> Iterator[str]:
    """The app on a free loopback port, on a new SQLite database, its deals from :data:`SEED`."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pictures-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'pictures.sqlite3'}"})
    with app.app_context():
        upgrade()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    virtual.lifecycle.new_seed = lambda: SEED  # type: ignore[attr-defined]
    # The tokens drawn from the same seed too: the share link's QR code stays the same picture.
    drawn = random.Random(SEED)
    credentials.secrets = SimpleNamespace(  # type: ignore[attr-defined]
        token_urlsafe=lambda size: base64.urlsafe_b64encode(drawn.randbytes(size)).decode()[:43]
    )
    try:
        port = free_or_any(MAKE_RUN_PORT)
        with served(app, port) as base:
            yield base
    finally:
        with app.app_context():
            db.engine.dispose()
        shutil.rmtree(folder, ignore_errors=True)


def free_or_any(port: int) -> int:
    """``port`` if nothing listens there, else 0 (any free port)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port


def squeeze(png: bytes) -> bytes:
    """A screenshot as a PNG of at most 64 colours: flat pages keep their look at a third of
    the weight."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    few = image.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    few.save(out, format="PNG", optimize=True)
    return out.getvalue()


def take(
    browser: Browser,
    base: str,
    evening: Evening,
    cookies: Any,
    language: str,
    scenes: tuple[Scene, ...],
    out: Path,
) -> list[Path]:
    """Each scene in ``language``, each on a phone of its own (the table's key in its cookies);
    the files written."""
    written = []
    folder = out / language
    folder.mkdir(parents=True, exist_ok=True)
    for scene in scenes:
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            locale=LANGUAGES[language],
            storage_state=cookies,
            has_touch=True,
            is_mobile=True,
            reduced_motion="reduce",  # no transition to wait for: the pages drop theirs
        )
        page = context.new_page()
        print(f"{language} {scene.name}", file=sys.stderr)
        scene.show(page, base, evening)
        path = out / scene.file(language)
        path.write_bytes(squeeze(page.screenshot()))
        written.append(path)
        context.close()
    return written


def make(out: Path, languages: list[str], names: list[str]) -> list[Path]:
    """Stage an evening, take the scenes named (every one if none), in ``languages``."""
    scenes = tuple(s for s in SCENES if not names or s.name in names)
    with serving() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        setup = browser.new_context(viewport=PHONE, locale="en-GB")
        evening = stage(setup.new_page(), base)
        cookies = setup.storage_state()
        setup.close()
        written = []
        for language in languages:
            written += take(browser, base, evening, cookies, language, scenes, out)
        browser.close()
    return written


def main() -> int:
    """Write the pictures; exit 1 if one weighs more than :data:`LIMIT`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenes", nargs="*", help="only these scenes (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pictures")
    parser.add_argument("--language", choices=sorted(LANGUAGES), action="append")
    arguments = parser.parse_args()
    unknown = set(arguments.scenes) - {s.name for s in SCENES}
    if unknown:
        parser.error(f"no scene named {', '.join(sorted(unknown))}")
    written = make(arguments.out, arguments.language or list(LANGUAGES), arguments.scenes)
    heavy = 0
    for path in written:
        size = path.stat().st_size
        heavy += size > LIMIT
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {size:>7,} B"
            + ("  OVER 60 KB" if size > LIMIT else "")
        )
    return 1 if heavy else 0


if __name__ == "__main__":
    sys.exit(main())
