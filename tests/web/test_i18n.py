"""Every word the pages show has its French in the catalog; numbers are written the language's
way; the language follows the switch or the browser."""

from __future__ import annotations

import codecs
import html
import json
import os
import re
from http import HTTPStatus
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.domain.games import GameStatus
from scorekeeper.domain.levels import LEVELS
from scorekeeper.results.standings import HISTORY_COLUMNS
from scorekeeper.web import catalogs
from scorekeeper.web.catalogs import TRANSLATIONS, compile_catalogs
from scorekeeper.web.errors import PAGE_TITLES
from scorekeeper.web.i18n import DATA_WORDS, gettext
from tests.api.conftest import TableAccess, create_table

ROOT = Path(__file__).resolve().parents[2]
FRENCH_PO = TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po"
EXAMPLES = ROOT / "examples"
# Python's %(name)s and the "{n}" the offline queue's script fills in itself.
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sdif]|\{n\}")
NARROW_NBSP = "\u202f"  # French digit grouping in CLDR (Babel's locale data)


def french() -> Catalog:
    with FRENCH_PO.open("rb") as file:
        return read_po(file, locale="fr")


def extracted_msgids() -> dict[tuple[str, str | None], str]:
    """Each msgid (with its context) ``pybabel extract -F babel.cfg`` finds, with
    where it is."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = DEFAULT_KEYWORDS
    found: dict[tuple[str, str | None], str] = {}
    for filename, line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found.setdefault((msgid, context), f"{filename}:{line}")
    return found


def test_every_msgid_of_the_french_catalog_has_its_french() -> None:
    catalog = french()
    missing = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert len(catalog) > 100
    assert missing == []


def test_the_catalog_has_every_text_of_the_sources() -> None:
    """A new ``_("...")`` in a template (or gettext/N_ in Python) without its French fails here:
    run the pybabel lines of docs/contributing/translations.md and translate it."""
    found = extracted_msgids()
    # Templates, N_ marks and contexts are read.
    assert {("Create a table", None), ("Not undone", None), ("won", "result")} <= found.keys()
    catalog = french()
    missing = {
        key: where for key, where in found.items() if catalog.get(key[0], context=key[1]) is None
    }
    assert missing == {}


def test_placeholders_agree_between_english_and_french() -> None:
    catalog = french()
    formatted = [m for m in catalog if m.id and "python-format" in m.flags]
    assert formatted, "the catalog has at least one text with a %(name)s placeholder"
    for message in catalog:
        if message.id:
            assert sorted(PLACEHOLDER.findall(str(message.id))) == sorted(
                PLACEHOLDER.findall(str(message.string))
            ), message.id
    assert [(m.id, errors) for m, errors in catalog.check()] == []


def test_the_words_taken_from_data_are_marked_for_translation() -> None:
    words = set(DATA_WORDS)
    assert {status.value.replace("_", " ") for status in GameStatus} <= words


def test_every_computer_level_has_its_french_name_and_description(sqlite_app: Flask) -> None:
    with sqlite_app.test_request_context("/?lang=fr"):
        french_words = [(gettext(level.name), gettext(level.description)) for level in LEVELS]
    assert [name for name, _ in french_words] == ["Novice", "Débutant", "Club", "Expert"]
    descriptions = [level.description for level in LEVELS]
    assert all(french not in descriptions for _, french in french_words)


@pytest.mark.parametrize("status", [400, 403, 404, 405, 409, 412, 413, 415, 422, 428, 500])
def test_each_error_pages_title_is_marked_for_translation(status: int) -> None:
    assert HTTPStatus(status).phrase in PAGE_TITLES


def test_catalogs_compile_when_missing_or_older_than_their_po(tmp_path: Path) -> None:
    source = tmp_path / "source"
    po = source / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(FRENCH_PO.read_bytes())
    target = tmp_path / "compiled"
    mo = target / "fr" / "LC_MESSAGES" / "messages.mo"

    assert compile_catalogs(source, target) == [mo]
    assert Translations.load(str(target), ["fr"]).gettext("Create a table") == "Créer une table"
    assert compile_catalogs(source, target) == []  # up to date: left alone
    os.utime(po, (mo.stat().st_mtime + 10, mo.stat().st_mtime + 10))
    assert compile_catalogs(source, target) == [mo]


def test_a_package_folder_that_cannot_be_written_compiles_into_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compile_into = catalogs.compile_catalogs

    def read_only_package(source: Path, target: Path) -> list[Path]:
        if target == TRANSLATIONS:
            raise PermissionError(13, "Permission denied", str(target))
        return compile_into(source, target)

    monkeypatch.setattr(catalogs, "compile_catalogs", read_only_package)
    assert catalogs.compiled_catalogs(tmp_path) == tmp_path / "translations"
    assert (tmp_path / "translations" / "fr" / "LC_MESSAGES" / "messages.mo").is_file()


def test_an_empty_text_translates_to_nothing_not_to_the_catalogs_header(
    sqlite_app: Flask,
) -> None:
    with sqlite_app.test_request_context("/?lang=fr"):
        assert gettext("Create a table") == "Créer une table"
        assert gettext("") == ""


def test_language_from_accept_language_and_switch(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    assert "Créer une table" in client.get("/", headers={"Accept-Language": "fr-FR"}).text
    assert "Create a table" in client.get("/", headers={"Accept-Language": "en"}).text
    client.get("/language/fr")
    assert "Créer une table" in client.get("/", headers={"Accept-Language": "en"}).text


def test_the_switch_goes_back_to_the_page_with_its_query_string(sqlite_app: Flask) -> None:
    page = "/t/1/games/new?players=3&x=%C3%A9"
    response = sqlite_app.test_client().get(
        "/language/fr", headers={"Referer": f"http://localhost{page}"}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == page


def test_the_switch_drops_a_language_named_in_the_query_string(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    response = client.get(
        "/language/fr", headers={"Referer": "http://localhost/t/1/games/new?lang=en&players=3"}
    )
    assert response.headers["Location"] == "/t/1/games/new?players=3"
    assert "Créer une table" in client.get("/", headers={"Accept-Language": "en"}).text


@pytest.mark.parametrize(
    "referrer",
    ["http://localhost//other.example/?a=1", "ftp://localhost/t/1", "http://other.example/t/1?a=1"],
)
def test_the_switch_goes_home_from_anywhere_else(sqlite_app: Flask, referrer: str) -> None:
    response = sqlite_app.test_client().get("/language/fr", headers={"Referer": referrer})
    assert response.headers["Location"] == "/"


@pytest.fixture
def finished_game(sqlite_app: Flask) -> tuple[FlaskClient, int, int]:
    """Ann beats Bob in three hands through the API, 6,400 to 1,050: a phone holding the
    table's cookie, the table and the game."""
    client = sqlite_app.test_client()
    table = create_table(client, "Club")
    game_id, _ = play_a_game(table)
    client.set_cookie(f"table_{table.id}", table.token)
    return client, table.id, game_id


def play_a_game(table: TableAccess) -> tuple[int, list[int]]:
    """Ann beats Bob 6,400 to 1,050 in three hands at ``table``: the game's id, and theirs."""
    ann, bob = table.add_players("Ann", "Bob")
    game = table.start_game(2, [[ann], [bob]])
    for name in ("hand-1.json", "hand-1.json", "hand-2.json"):
        hand = json.loads((EXAMPLES / name).read_text())
        assert table.post(f"/games/{game['id']}/hands", hand).status_code == 201
    return int(game["id"]), [ann, bob]


def cells(html: str) -> list[str]:
    return re.findall(r"<td[^>]*>([^<]*)</td>", html)


def test_french_pages_write_numbers_the_french_way(
    finished_game: tuple[FlaskClient, int, int],
) -> None:
    client, table_id, game_id = finished_game
    french_page = {"Accept-Language": "fr"}
    board = client.get(f"/t/{table_id}/games/{game_id}", headers=french_page).text
    assert f'data-side="0" data-points="6400">6{NARROW_NBSP}400</span>' in board
    assert f"Ann l&#39;emporte avec 6{NARROW_NBSP}400 points" in board  # the winner's banner
    history = cells(client.get(f"/t/{table_id}/history", headers=french_page).text)
    # Ann: 1 game, 1 won, 100 %, 6,400 / 3 hands, best hand 4,000.
    ann = ["Ann", "1", "1", "100\xa0%", f"2{NARROW_NBSP}133,3", f"4{NARROW_NBSP}000"]
    assert history[:6] == ann
    assert f"6{NARROW_NBSP}400" in history
    assert ["gagnée", "perdue"] == [cell for cell in history if cell in ("gagnée", "perdue")]


def test_english_pages_write_numbers_the_english_way(
    finished_game: tuple[FlaskClient, int, int],
) -> None:
    client, table_id, game_id = finished_game
    english_page = {"Accept-Language": "en"}
    board = client.get(f"/t/{table_id}/games/{game_id}", headers=english_page).text
    assert 'data-side="0" data-points="6400">6,400</span>' in board
    history = cells(client.get(f"/t/{table_id}/history", headers=english_page).text)
    assert history[:6] == ["Ann", "1", "1", "100%", "2,133.3", "4,000"]
    assert ["won", "lost"] == [cell for cell in history if cell in ("won", "lost")]


def test_the_french_export_speaks_french_and_opens_in_a_french_spreadsheet(
    finished_game: tuple[FlaskClient, int, int],
) -> None:
    client, table_id, _ = finished_game
    url = f"/t/{table_id}/history.csv"
    french = client.get(url, headers={"Accept-Language": "fr"}).text.splitlines()
    assert french[0].split(",") == [
        "partie",
        "terminée le (UTC)",
        "joueurs",
        "manches",
        "numéro du camp",
        "camp",
        "numéro du joueur",
        "joueur",
        "total",
        "résultat",
        "dans l'appli",
        "cote après la partie",
    ]
    assert [row.split(",")[-3:-1] for row in french[1:]] == [["gagnée", "non"], ["perdue", "non"]]
    assert [row.split(",")[-4] for row in french[1:]] == ["6400", "1050"]  # numbers a sheet reads
    assert [row.split(",")[-1] for row in french[1:]] == ["27.6354", "22.3646"]
    spreadsheet = client.get(
        url, query_string={"spreadsheet": 1}, headers={"Accept-Language": "fr"}
    )
    assert spreadsheet.data.startswith(codecs.BOM_UTF8)
    rows = spreadsheet.data.decode("utf-8-sig").splitlines()
    assert rows[0].split(";")[:2] == ["partie", "terminée le (UTC)"]
    assert rows[1].split(";")[-3:] == ["gagnée", "non", "27,6354"]  # a French decimal comma
    english = client.get(url, headers={"Accept-Language": "en"}).text.splitlines()
    assert english[0].split(",") == list(HISTORY_COLUMNS)  # the API's pinned file
    assert english[1].split(",")[-3:] == ["won", "False", "27.6354"]


def test_a_missing_game_speaks_french(finished_game: tuple[FlaskClient, int, int]) -> None:
    client, table_id, _ = finished_game
    missing = client.get(f"/t/{table_id}/games/999", headers={"Accept-Language": "fr"})
    assert missing.status_code == 404
    assert "<h1>Introuvable</h1>" in missing.text
    assert "Cette partie n&#39;existe pas à cette table." in missing.text


def test_a_server_error_speaks_french(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    # The trace of the error below is expected. The app's logger is the process's "scorekeeper"
    # logger, shared by every app a test makes: it is silenced for this test only.
    monkeypatch.setattr(sqlite_app.logger, "disabled", True)
    sqlite_app.add_url_rule("/t/0/boom", "boom", lambda: 1 / 0)
    failed = sqlite_app.test_client().get("/t/0/boom", headers={"Accept-Language": "fr"})
    assert failed.status_code == 500
    assert "<h1>Erreur interne du serveur</h1>" in failed.text
    assert "Le serveur n&#39;a pas pu répondre." in failed.text
    assert "The server" not in failed.text and "internal error" not in failed.text


def test_an_error_page_speaks_french(sqlite_app: Flask) -> None:
    page = sqlite_app.test_client().get("/t/12", headers={"Accept-Language": "fr"})
    assert page.status_code == 404
    assert "<h1>Introuvable</h1>" in page.text
    assert "Ce téléphone n&#39;a pas rejoint cette table" in page.text  # and escaped


def test_page_forms_need_their_csrf_token(sqlite_app: Flask) -> None:
    response = sqlite_app.test_client().post("/tables", data={"name": "No token"})
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert "load the page again" in response.text and "CSRF" not in response.text


def test_a_form_refused_for_its_token_is_told_in_french(sqlite_app: Flask) -> None:
    """Flask-WTF's own words ("The CSRF token is missing.") are English only, and name a token
    a player has never heard of."""
    french = {"Accept-Language": "fr"}
    response = sqlite_app.test_client().post("/tables", data={"name": "x"}, headers=french)
    assert response.status_code == 400
    assert "Ce formulaire a expiré" in html.unescape(response.text)
    assert "CSRF" not in response.text


def test_a_problems_own_title_is_said_in_the_readers_language(sqlite_app: Flask) -> None:
    report = {"players": 2, "sides": [{"distance": 1300}, {"distance": 0}]}
    client = sqlite_app.test_client()
    french = client.post("/api/v1/score", json=report, headers={"Accept-Language": "fr"})
    english = client.post("/api/v1/score", json=report)
    assert (english.status_code, english.json["title"]) == (422, "Report refused")
    assert (french.status_code, french.json["title"]) == (422, "Manche refusée")


def test_the_french_undo_button_says_yes_and_its_way_back_says_back(
    finished_game: tuple[FlaskClient, int, int],
) -> None:
    """ "Annuler" alone reads as "Cancel" to a French player: the button that removes the hand
    must not say it, and the way out must not sound like the undo."""
    client, table_id, game_id = finished_game
    page = client.get(f"/t/{table_id}/games/{game_id}/undo", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert re.search(r"<button[^>]*>\s*Oui, annuler\s*</button>", page.text)
    assert re.search(r"<a[^>]*>\s*Retour\s*</a>", page.text)
    assert not re.search(r">\s*Annuler\s*<", page.text)


def test_the_statistics_count_the_games_their_win_rate_counts(sqlite_app: Flask) -> None:
    """A game still being played is not a game lost: the column beside "won" counts the finished
    games, those the win rate is taken over (1 of 1 is 100%, never "played 2, won 1, 100%")."""
    client = sqlite_app.test_client()
    table = create_table(client, "Club")
    _, players = play_a_game(table)
    table.start_game(2, [[player] for player in players])  # the next game, not played yet
    client.set_cookie(f"table_{table.id}", table.token)
    page = client.get(f"/t/{table.id}/history", headers={"Accept-Language": "en"}).text
    assert "<th>finished</th><th>won</th><th>win rate</th>" in page
    history = cells(page)
    assert history[:4] == ["Ann", "1", "1", "100%"]
    assert history[8:12] == ["Bob", "1", "0", "0%"]


def test_one_english_word_is_two_french_words_where_their_contexts_differ(
    finished_game: tuple[FlaskClient, int, int],
) -> None:
    """The history's column counts coups-fourrés ("coups fourrés"); the hand form's button marks
    one ("coup fourré"): the column's msgid has a context of its own."""
    client, table_id, game_id = finished_game
    french_page = {"Accept-Language": "fr"}
    history = client.get(f"/t/{table_id}/history", headers=french_page).text
    assert "<th>coups fourrés</th>" in history
    assert french().get("coup-fourré").string == "coup fourré"
    assert french().get("coup-fourré", context="statistics").string == "coups fourrés"
