"""French as a French reader expects it: a narrow no-break space before ; : ! ? and inside « »
(so a 360 px line never breaks before a « ? »), and sentences that are one msgid each, never
assembled from fragments whose order and agreement only English shares."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from tests.api.conftest import create_table
from tests.web.test_i18n import french, play_a_game

TEMPLATES = Path(__file__).resolve().parents[2] / "scorekeeper" / "templates"
SPACED = "\u202f\u00a0"
BAD_SPACING = re.compile(
    rf"[ ]+[;:!?»]|(?<![{SPACED}\s(])[;!?](?=\s|$)|(?<=[^\W\d_])[:](?=\s|$)|«(?![{SPACED}])"
)
"""A plain space (which may break the line) or none at all where French wants a no-break one."""
JSON_EXAMPLE = re.compile(r"\{[^{}]*\}")

MSGID = r"""\{\{\s*_\(\s*(["'])([^"']*)\1[^}]*\}\}"""
VARIABLE = r"""\{\{\s*(?!_\()[^}]*\}\}"""
GLUED = {
    "punctuation after a msgid": re.compile(MSGID + r"[ \t]*[:;!?]"),
    "a variable and punctuation before a msgid": re.compile(
        VARIABLE + r"[ \t]*[:;!?][ \t]*" + MSGID
    ),
    "a sentence continued by a msgid": re.compile(
        VARIABLE + r"[ \t]+" + r"""\{\{\s*_\(\s*["'][a-z]"""
    ),
}


def spacing_flaws(text: str) -> list[str]:
    text = JSON_EXAMPLE.sub("", text)  # a JSON example keeps JSON's own punctuation
    return [text[max(m.start() - 12, 0) : m.end() + 2] for m in BAD_SPACING.finditer(text)]


def test_the_spacing_check_finds_what_it_should() -> None:
    assert spacing_flaws("Partie terminée : victoire") != []
    assert spacing_flaws("Qui a gagné la manche?") != []
    assert spacing_flaws("« Feu rouge »") != []
    assert spacing_flaws("Qui a gagné la manche\u202f? «\u202fFeu\u202f» 12:30 (1\u202f000)") == []


def test_every_french_text_has_its_no_break_spaces() -> None:
    flawed = {}
    for message in french():
        if not message.id:
            continue  # the catalog's header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            if string and spacing_flaws(string):
                flawed[str(message.id)] = spacing_flaws(string)
    assert flawed == {}


def test_no_template_assembles_a_sentence_from_fragments() -> None:
    found = {
        f"{path.name}: {what}": [m.group(0)[:80] for m in pattern.finditer(path.read_text())]
        for path in TEMPLATES.rglob("*.html")
        for what, pattern in GLUED.items()
    }
    assert {where: hits for where, hits in found.items() if hits} == {}


def test_the_fragment_check_finds_what_it_should() -> None:
    samples = {
        "punctuation after a msgid": '{{ _("Game over") }}: {{ name }}',
        "a variable and punctuation before a msgid": "{{ name }}: {{ _('Distance') }}",
        "a sentence continued by a msgid": '{{ card }} {{ _("was played on your side.") }}',
    }
    for what, sample in samples.items():
        assert GLUED[what].search(sample), what
    assert not any(p.search('{{ _("Attack: %(card)s.", card=c) }}') for p in GLUED.values())


def test_french_pages_read_with_their_no_break_spaces(sqlite_app: Flask) -> None:
    client: FlaskClient = sqlite_app.test_client()
    table = create_table(client, "Club")
    game_id, _ = play_a_game(table)
    client.set_cookie(f"table_{table.id}", table.token)
    french_page = {"Accept-Language": "fr"}
    pages = ["/", f"/t/{table.id}", f"/t/{table.id}/games/{game_id}", f"/t/{table.id}/history"]
    pages += [f"/t/{table.id}/ratings", f"/t/{table.id}/players/1"]
    flawed = {}
    for page in pages:
        html = client.get(page, headers=french_page).text
        text = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
        text = re.sub(r"<[^>]+>", "", text)
        if spacing_flaws(text):
            flawed[page] = spacing_flaws(text)
    assert flawed == {}


ENGLISH_ON_A_PAGE = re.compile(
    r"\b(the|and|but|with|your|you|game|games|hand|hands|side|seat|player|players|trip|"
    r"shutout|safety|safeties|extension|history|won|lost|tied|save|undo|"
    r"waiting|computer|new|back|share|join|add|link|links|deal|draw|discard|"
    r"hint|play|nobody|who|delayed)\b",
    re.IGNORECASE,
)
"""English words a French page must not show (none of them is also a French word, as "table",
"score" and "total" are)."""
KEPT_AS_TYPED = ("Club", "Ann", "Bob", "Cat", "Dan")
"""Names the test gave its table and players, and a level that is the same word in French."""


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    for kept in KEPT_AS_TYPED:
        html = html.replace(kept, "")
    return html


def test_the_french_walk_finds_no_english_word(sqlite_app: Flask) -> None:
    """Every page of an evening at the table, read in French: a finished game and one in
    progress, the hand form, the history, a virtual game's seat, seats and links pages."""
    client: FlaskClient = sqlite_app.test_client()
    table = create_table(client, "Club")
    finished, (ann, bob) = play_a_game(table)
    started = table.start_game(2, [[ann], [bob]])["id"]
    virtual = table.post(
        "/virtual-games", {"players": 2, "seats": [{"player": ann}, {"computer": "club"}]}
    ).get_json()
    client.set_cookie(f"table_{table.id}", table.token)
    french = {"Accept-Language": "fr"}
    t = f"/t/{table.id}"
    pages = [
        "/",
        t,
        f"{t}/games/new",
        f"{t}/virtual/new",
        f"{t}/games/{finished}",
        f"{t}/games/{started}",
        f"{t}/games/{started}/hands/new",
        f"{t}/games/{finished}/hands/1",
        f"{t}/history",
        f"{t}/ratings",
        f"{t}/players/{ann}",
        f"{t}/virtual/{virtual['game']['id']}/seats",
        f"/play/{virtual['seat_tokens'][0]['token']}",
        "/offline",
        f"{t}/games/999",
    ]
    found = {}
    for page in pages:
        response = client.get(page, headers=french)
        assert response.status_code in (200, 404), page
        words = sorted({m.group() for m in ENGLISH_ON_A_PAGE.finditer(visible_text(response.text))})
        if words:
            found[page] = words
    assert found == {}
    english = client.get(f"{t}/games/{started}/hands/new", headers={"Accept-Language": "en"})
    assert ENGLISH_ON_A_PAGE.search(visible_text(english.text))  # the walk can see English
