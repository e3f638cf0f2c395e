"""French as a French reader expects it: a narrow no-break space before ; : ! ? and one inside
each « » (so a 360 px line never breaks before a « ? »), thousands grouped by a narrow no-break
space (1 000, as Babel writes them), one apostrophe throughout ('), the computer players called
"ordinateur", and sentences that are one msgid each, never assembled from fragments whose order
and agreement only English shares.

Each check is shown to catch its slip (a bad sample per kind), then run on every French text of
the catalog, the cards' French names, the French pages of an evening and the API's French
refusals."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.vocabulary import CARD_NAMES, CATEGORY_NAMES, Language
from tests.api.conftest import TableAccess, create_table
from tests.web.test_i18n import french, play_a_game

TEMPLATES = Path(__file__).resolve().parents[2] / "scorekeeper" / "templates"
SPACED = "\u202f\u00a0"
BAD_SPACING = re.compile(
    rf"[ ]+[;:!?»]|(?<![{SPACED}\s(])[;!?](?=\s|$)|(?<=[^\W\d_])[:](?=\s|$)|«(?![{SPACED}])"
)
"""A plain space (which may break the line) or none at all where French wants a no-break one."""
VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"
PLACEHOLDER = r"%\(\w+\)[sd]"
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


SLIPS = {
    "a doubled space": re.compile(r"\s*[\u202f\u00a0]\s+|\s+[\u202f\u00a0]"),
    "not one narrow no-break space inside « »": re.compile(r"«(?!\u202f[^\s»])|(?<![^\s«]\u202f)»"),
    "a number grouped by a breakable or a wide space": re.compile(r"\d[ \u00a0]\d{3}(?!\d)"),
    "another apostrophe than '": re.compile(r"[’‘ʼ`´]"),
    "English quotation marks": re.compile(r"[“”]"),
    '"virtuel" for a computer player': re.compile(
        r"\b(?:joueu(?:r|rs|se|ses)|adversaires?)\s+virtuel|\bvirtuels?\b", re.IGNORECASE
    ),
    "a de, que, le or la not elided before a vowel": re.compile(
        rf"(?<![\w-])(?:de|que|le|la|ce|ne|se|jusque|lorsque|puisque)\s+(?=[{VOWELS}])",
        re.IGNORECASE,
    ),
    "a breakable space or none between a number and its unit": re.compile(
        rf"(?:\d|{PLACEHOLDER})(?:[ ]|)km\b"
    ),
    "a breakable space or none around ±": re.compile(r"[ \d]±|±(?=[ \d%])"),
    "§ not followed by a no-break space": re.compile(rf"§(?![{SPACED}])"),
    "a hyphen for a minus sign": re.compile(rf"(?<![\w-])-(?=\d|{PLACEHOLDER})"),
}
"""Each kind of slip a French text must not have, beyond the spaces before ; : ! ? (the apostrophe
chosen is the plain one, which the cards' own names use: "Panne d'essence"). "de", "que", "le",
"la" before a vowel are elided, which a sentence can do only for the words it writes itself: before
a name it is said another way (test_every_french_sentence_takes_any_name). A number and its unit,
and ± between two numbers, are held together by a narrow no-break space, as the digits of 1 000
are; § by a no-break space ("§ 5"); a negative number has the minus sign (−25), not a hyphen."""


def spacing_flaws(text: str) -> list[str]:
    text = JSON_EXAMPLE.sub("", text)  # a JSON example keeps JSON's own punctuation
    return [text[max(m.start() - 12, 0) : m.end() + 2] for m in BAD_SPACING.finditer(text)]


def typography_flaws(text: str) -> list[str]:
    """Every slip in ``text``: each with its kind and where it is."""
    flaws = [f"a plain or missing space at {where!r}" for where in spacing_flaws(text)]
    for kind, slip in SLIPS.items():
        flaws += [
            f"{kind} at {text[max(m.start() - 12, 0) : m.end() + 6]!r}" for m in slip.finditer(text)
        ]
    return flaws


def test_the_spacing_check_finds_what_it_should() -> None:
    assert spacing_flaws("Partie terminée : victoire") != []
    assert spacing_flaws("Qui a gagné la manche?") != []
    assert spacing_flaws("« Feu rouge »") != []
    assert spacing_flaws("Qui a gagné la manche\u202f? «\u202fFeu\u202f» 12:30 (1\u202f000)") == []


BAD_SAMPLES = {
    "a doubled space": "ne peut pas défausser «\u202f\u202f%(card)s\u202f\u202f»",
    "not one narrow no-break space inside « »": "n'a pas la carte «\u00a0Feu rouge\u00a0» en main",
    "a number grouped by a breakable or a wide space": "Allonger à 1 000 bornes",
    "another apostrophe than '": "l’export contient la graine",
    "English quotation marks": "“Ann” n'est pas un nombre.",
    '"virtuel" for a computer player': "Des joueurs virtuels prennent les places libres.",
    "a de, que, le or la not elided before a vowel": "Partie terminée\u202f: victoire de Anne.",
    "a breakable space or none between a number and its unit": "Pour %(side)s, %(distance)s km",
    "a breakable space or none around ±": "il faut un nombre entier, à ±%(limit)s au plus",
    "§ not followed by a no-break space": "les bottes se gardent (règles §12).",
    "a hyphen for a minus sign": "Pour Anne, -25\u202fkm\u202f: une distance ne peut pas",
}
"""One slip of each kind, as the catalog once had them."""


@pytest.mark.parametrize("kind", SLIPS)
def test_the_typography_check_catches_each_kind_of_slip(kind: str) -> None:
    flaws = typography_flaws(BAD_SAMPLES[kind])
    assert any(flaw.startswith(kind) for flaw in flaws), flaws


@pytest.mark.parametrize(
    "sample",
    [
        "n'a pas de carte «\u202fFeu rouge\u202f» en main",
        "«\u202f%(card)s\u202f»\u202f: les bottes se gardent",
        "Allonger à 1\u202f000 bornes\u202f? 101 cartes à 2 ou 3 joueurs, 2\u202f133,3 points",
        "Ce n'est pas au tour de la place 2\u202f; la partie virtuelle 3 est en cours.",
        "Le jour 2026-11-27, à 12:30, 25 et 50\u202fkm",
        "Envoyez-le avec l'en-tête, importez-la avec --as-new\u202f; le jeu de Bob, la place 2",
        "27,6\u202f±\u202f8,1 (±), entre \u22122\u202f000 et 2\u202f000, règles §\u00a05",
    ],
)
def test_the_typography_check_leaves_good_french_alone(sample: str) -> None:
    assert typography_flaws(sample) == []


def french_texts() -> dict[str, str]:
    """Every French text the app shows from data: the catalog's and the cards' and categories'
    printed names, each under what it translates."""
    texts = {}
    for message in french():
        if not message.id:
            continue  # the catalog's header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for number, string in enumerate(strings):
            texts[f"{message.id!s} [{number}]"] = string
    for card, names in CARD_NAMES.items():
        texts[str(card)] = names[Language.FR]
    for category, names in CATEGORY_NAMES.items():
        texts[str(category)] = names[Language.FR]
    return texts


def test_every_french_text_is_set_as_a_french_typographer_would() -> None:
    texts = french_texts()
    assert len(texts) > 500
    flawed = {key: typography_flaws(text) for key, text in texts.items() if typography_flaws(text)}
    assert flawed == {}


NAMED = (
    "name", "names", "side", "sides", "other", "seat", "player", "caller", "callers", "computer",
    "table", "winner", "leader",
)  # fmt: skip
"""The placeholders a name fills: a player's, a side's or a team's, a computer's, a table's."""
NAMES = ("Anne", "Ordinateur 2 (Club)", "Élodie", "Bob")
"""Names beginning with a vowel (a computer's French name among them) and with a consonant."""


def with_names(text: str, name: str) -> str:
    """A French text with every name in it ``name``, every other fact a number."""
    return re.sub(r"%\((\w+)\)[sd]", lambda m: name if m.group(1) in NAMED else "3", text)


def misplaced_names(text: str, name: str) -> list[str]:
    """Where ``text`` puts ``name`` after a word that would need eliding ("de Anne", "que
    Élodie") or elides one before a consonant ("d'Bob"); or after "du", "au", which no name
    takes."""
    named = re.escape(name)
    if name[0].lower() in VOWELS:
        before = r"(?:de|que|le|la|ce|jusque|lorsque|puisque)\s+"
    else:
        before = r"(?:d|qu|l|jusqu|lorsqu|puisqu)'\s*"
    found = re.finditer(rf"(?<![\w-])(?:{before}|(?:du|au|des|aux)\s+){named}", text, re.I)
    return [text[max(m.start() - 12, 0) : m.end()] for m in found]


def test_the_name_check_catches_a_word_left_unelided_before_a_name() -> None:
    assert misplaced_names("Partie terminée\u202f: victoire de Anne.", "Anne") != []
    assert misplaced_names("Au tour de Ordinateur 2 (Club)…", "Ordinateur 2 (Club)") != []
    assert misplaced_names("Jeu posé de Élodie", "Élodie") != []
    assert misplaced_names("Jeu posé d'Bob", "Bob") != []
    assert misplaced_names("Au tour de Bob, puis de la place d'Anne. À Anne de jouer", "Bob") == []
    assert misplaced_names("À Anne de jouer, le camp Anne, Pour Anne, l'Anne", "Anne") == []


def test_every_french_sentence_takes_any_name() -> None:
    """Each French text of the catalog that a name fills, filled with names beginning with a
    vowel and with a consonant: none reads "victoire de Anne" or "Au tour de Ordinateur 2"."""
    named = {
        key: text
        for key, text in french_texts().items()
        if set(re.findall(r"%\((\w+)\)[sd]", text)) & set(NAMED)
    }
    assert len(named) > 100
    flawed = {
        key: misplaced
        for key, text in named.items()
        for name in NAMES
        if (misplaced := misplaced_names(with_names(text, name), name))
    }
    assert flawed == {}


def test_the_catalog_uses_one_apostrophe() -> None:
    used = {
        mark for text in french_texts().values() for mark in re.findall(r"(?<=\w)[’'](?=\w)", text)
    }
    assert used == {"'"}


def test_every_french_text_calls_the_computer_ordinateur() -> None:
    """The seats the app plays are "ordinateur" in every sentence that names them."""
    texts = french_texts()
    computer = [key for key in texts if re.search(r"\bcomputers?\b", key, re.IGNORECASE)]
    assert len(computer) >= 10
    assert [key for key in computer if "ordinateur" not in texts[key].lower()] == []


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


def an_evening(client: FlaskClient) -> tuple[TableAccess, dict[str, Any]]:
    """A table with a finished game, one in progress, a player new to it, and a virtual game
    against the computer; the table, and what the walks below need of it."""
    table = create_table(client, "Club")
    finished, (ann, bob) = play_a_game(table)
    started = table.start_game(2, [[ann], [bob]])["id"]
    (newcomer,) = table.add_players("Dan")
    virtual = table.post(
        "/virtual-games", {"players": 2, "seats": [{"player": ann}, {"computer": "club"}]}
    ).get_json()
    client.set_cookie(f"table_{table.id}", table.token)
    return table, {
        "finished": finished,
        "started": started,
        "ann": ann,
        "newcomer": newcomer,
        "virtual": virtual["game"]["id"],
        "seat": virtual["seat_tokens"][0]["token"],
    }


def french_pages(table: TableAccess, ids: dict[str, Any]) -> list[str]:
    """Every screen of the evening: the table's, the games', the hand form, the history, the
    leaderboard, a player's page (and a new player's), the new-game page with its variants, and
    a virtual game's pages, its seat's included."""
    t = f"/t/{table.id}"
    return [
        "/",
        t,
        f"{t}/games/new",
        f"{t}/games/new?players=4",
        f"{t}/virtual/new",
        f"{t}/games/{ids['finished']}",
        f"{t}/games/{ids['started']}",
        f"{t}/games/{ids['started']}/hands/new",
        f"{t}/games/{ids['finished']}/hands/1",
        f"{t}/history",
        f"{t}/ratings",
        f"{t}/players/{ids['ann']}",
        f"{t}/players/{ids['newcomer']}",
        f"{t}/players/{ids['newcomer']}/erase",
        f"{t}/delete",
        "/deleted",
        f"{t}/virtual/{ids['virtual']}/seats",
        f"{t}/games/{ids['virtual']}",
        f"/play/{ids['seat']}",
        "/offline",
        f"{t}/games/999",
    ]


def api_refusals(client: FlaskClient, table: TableAccess, ids: dict[str, Any]) -> dict[str, Any]:
    """The API's answers to refused requests, asked in French: a hand the rules refuse, a body of
    the wrong shape, a move against the rules, a scored report with unnamed sides."""
    french = {"Accept-Language": "fr"}
    hand = {"sides": [{"distance": 710}, {"distance": 0, "safeties": ["wings"]}]}
    seat = {"Authorization": f"Bearer {ids['seat']}"}
    virtual = f"{table.url}/virtual-games/{ids['virtual']}"
    view = client.get(virtual, headers=seat).get_json()
    move = {"number": view["next_move"], "move": "call_extension"}
    scored = {"players": 2, "sides": [{"distance": -25}, {"distance": 710}]}
    answers = {
        "a refused hand": table.post(f"/games/{ids['started']}/hands", hand, headers=french),
        "a body of the wrong shape": table.post(
            f"/games/{ids['started']}/hands", {}, headers=french
        ),
        "an illegal move": client.post(virtual + "/moves", json=move, headers={**seat, **french}),
        "a refused report": client.post("/api/v1/score", json=scored, headers=french),
    }
    for what, answer in answers.items():
        assert answer.status_code == 422, (what, answer.get_json())
    return {what: answer.get_json() for what, answer in answers.items()}


def test_french_pages_read_as_a_french_typographer_would(sqlite_app: Flask) -> None:
    client: FlaskClient = sqlite_app.test_client()
    table, ids = an_evening(client)
    flawed = {}
    for page in french_pages(table, ids):
        html = client.get(page, headers={"Accept-Language": "fr"}).text
        text = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
        text = html_unescape(re.sub(r"<[^>]+>", "", text))
        if typography_flaws(text):
            flawed[page] = typography_flaws(text)
    assert flawed == {}


def test_the_api_s_french_refusals_read_as_french(sqlite_app: Flask) -> None:
    client: FlaskClient = sqlite_app.test_client()
    table, ids = an_evening(client)
    flawed = {}
    for what, answer in api_refusals(client, table, ids).items():
        details = [answer["detail"]] + [error["detail"] for error in answer.get("errors", [])]
        for detail in details:
            slips = typography_flaws(detail)
            slips += [f"English {m.group()!r}" for m in ENGLISH_ON_A_PAGE.finditer(detail)]
            if slips:
                flawed[f"{what}: {detail}"] = slips
    assert flawed == {}
    said = " ".join(
        error["detail"] for error in api_refusals(client, table, ids)["a refused report"]["errors"]
    )
    assert "Camp A" in said and "Camp B" in said  # unnamed sides named in French too


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
    progress, the hand form, the history, the leaderboard, a player's page and a new player's,
    a virtual game's seat, seats and links pages, and the API's refusals."""
    client: FlaskClient = sqlite_app.test_client()
    table, ids = an_evening(client)
    found = {}
    for page in french_pages(table, ids):
        response = client.get(page, headers={"Accept-Language": "fr"})
        assert response.status_code in (200, 404), page
        words = sorted({m.group() for m in ENGLISH_ON_A_PAGE.finditer(visible_text(response.text))})
        if words:
            found[page] = words
    for what, answer in api_refusals(client, table, ids).items():
        said = " ".join([answer["detail"]] + [e["detail"] for e in answer.get("errors", [])])
        words = sorted({m.group() for m in ENGLISH_ON_A_PAGE.finditer(said)})
        if words:
            found[what] = words
    assert found == {}
    started = f"/t/{table.id}/games/{ids['started']}/hands/new"
    english = client.get(started, headers={"Accept-Language": "en"})
    assert ENGLISH_ON_A_PAGE.search(visible_text(english.text))  # the walk can see English


def test_the_offline_queue_s_note_agrees_with_its_count(sqlite_app: Flask) -> None:
    """ "1 manche en attente" is "gardée", "3 manches en attente" are "gardées": the script picks
    the note by the count, as it picks the count's own words."""
    client: FlaskClient = sqlite_app.test_client()
    table, ids = an_evening(client)
    board = client.get(f"/t/{table.id}/games/{ids['started']}", headers={"Accept-Language": "fr"})
    found = re.search(
        r'<script type="application/json" id="queue-texts">(.*?)</script>', board.text
    )
    assert found is not None
    texts = json.loads(found.group(1))
    assert texts["waiting_one"] == "1 manche en attente"
    assert texts["waiting_why_one"].startswith("Elle est gardée sur ce téléphone")
    assert texts["waiting_many"] == "{n} manches en attente"
    assert texts["waiting_why_many"].startswith("Elles sont gardées sur ce téléphone")


DOCS_FRENCH = Path(__file__).resolve().parents[2] / "docs" / "fr"
"""The site's French pages (``mkdocs.yml``: the French tree of the documentation)."""
NUMBER_SLIPS = {
    "a breakable space between a number and its unit": re.compile(
        r"\d[ \n](?:km|px|s|secondes|%)(?!\w)"
    ),
    "a breakable space or none around ±": re.compile(r"(?<=\d)[ \n]?±|±[ \n]?(?=\d)"),
    "a breakable space or none after §": re.compile(r"§[ \n]?(?=\d)"),
    "a number's thousands on two lines": re.compile(r"\d\n\d{3}(?!\d)"),
    "a hyphen for a minus sign": re.compile(r"(?<![\w/.:-])-(?=\d)"),
}
"""What a page of the documentation must not have either, beyond :data:`SLIPS`: a number and
what goes with it stay on one line (``700\u00a0km``, ``27,6\u202f±\u202f8,1``, ``§\u00a012``),
and a negative number has its minus sign (−25)."""
GUIDE_WORDS = {
    '"partie virtuelle" (the pages say "partie dans l\'appli")': re.compile(
        r"\bparties? virtuelles?\b", re.IGNORECASE
    ),
    '"tendances" (the player\'s page says "Évolution")': re.compile(
        r"\btendances?\b", re.IGNORECASE
    ),
    '"jeton" (the pages say "clé" for a table, "lien" for a seat)': re.compile(
        r"\bjetons?\b", re.IGNORECASE
    ),
    '"1000 Bornes" (the game is Mille Bornes)': re.compile(r"\b1\W?000 Bornes\b", re.IGNORECASE),
}
"""Words the players' guide does not use, for the pages' own words: one word for each idea."""
MARKUP = {
    "x": re.compile(r"^```.*?^```|`[^`\n]*`|https?://\S+", re.MULTILINE | re.DOTALL),
    "]": re.compile(r"\]\([^)\s]*\)"),
    "": re.compile(r"\{[^}\n]*\}|<!--.*?-->|^[ \t]*(?:!!!|\?\?\?\+?)[ \t]*[\w-]+", re.M | re.S),
}
"""What a Markdown page holds that is not French prose, and what stands for it when the page is
read: its code and addresses (a word), link targets, attribute lists ({ width="270" },
{#anchor}), comments and the marks of a note (!!! note)."""


def prose(markdown: str) -> str:
    """The text of a Markdown page that a reader reads as French."""
    for stand_in, markup in MARKUP.items():
        markdown = markup.sub(stand_in, markdown)
    return markdown


def docs_flaws(text: str, words: dict[str, re.Pattern[str]] | None = None) -> list[str]:
    """Every slip in a page of the documentation: a French text's, a number's, and a word the
    pages say otherwise."""
    flaws = typography_flaws(text)
    for kind, slip in {**NUMBER_SLIPS, **(words or {})}.items():
        flaws += [
            f"{kind} at {text[max(m.start() - 12, 0) : m.end() + 6]!r}" for m in slip.finditer(text)
        ]
    return flaws


@pytest.mark.parametrize(
    "sample",
    [
        "l'objectif est de 700 km",
        "une cote de 27,6 ± 8,1",
        "une cote de 27,6\u00a0±8,1",
        "ce que chacune change (§12)",
        "une distance de -25\u00a0km",
        "une barre vers 5 000",
        "une barre vers 5\n000",
        "toutes les 5\nsecondes",
        "une partie virtuelle",
        "ses tendances",
        "le jeton de la table",
        "À vous de jouer – 1000 Bornes",
    ],
)
def test_the_docs_check_catches_each_kind_of_slip(sample: str) -> None:
    assert docs_flaws(sample, GUIDE_WORDS) != []


def test_the_docs_check_leaves_good_french_and_markup_alone() -> None:
    good = (
        "L'objectif est de 700\u00a0km (1\u202f000 avec l'allonge)\u202f: voyez le §\u00a012,"
        " une cote de 27,6\u202f±\u202f8,1 et −25\u00a0km. Une partie dans l'appli, son"
        " Évolution, la clé de la table, le lien d'une place, au Mille Bornes."
    )
    assert docs_flaws(good, GUIDE_WORDS) == []
    markup = (
        "Ouvrez `http://<adresse>:5000/` ([les réglages](../command-line.md#settings))\u202f:\n"
        '![Une image.](../pictures/fr/home.png){ width="270" }\n\n'
        "## Servir la table {#serving-the-table}\n\n"
        '```console\n$ openssl req -days 825 -subj "/CN=x" ; echo 1 000 km\n```\n'
    )
    assert docs_flaws(prose(markup), GUIDE_WORDS) == []


def test_every_french_page_of_the_docs_reads_as_a_french_typographer_would() -> None:
    """The French pages of the site (the players' guide first) are set as the app's French is,
    and the players' guide uses the pages' own words."""
    pages = sorted(DOCS_FRENCH.rglob("*.md"))
    assert DOCS_FRENCH / "table.md" in pages
    flawed = {}
    for page in pages:
        words = GUIDE_WORDS if page.name == "table.md" else None
        flaws = docs_flaws(prose(page.read_text(encoding="utf-8")), words)
        if flaws:
            flawed[page.name] = flaws
    assert flawed == {}


def test_a_negative_number_has_the_minus_sign_in_french_only(sqlite_app: Flask) -> None:
    from scorekeeper.pages.ratings import one_place
    from scorekeeper.web.i18n import number, use_language

    with sqlite_app.test_request_context(headers={"Accept-Language": "fr"}):
        assert (number(-1025), number(1025), one_place(-3.25)) == (
            "\u22121\u202f025",
            "1\u202f025",
            "\u22123,2",
        )
        use_language("en")
        assert (number(-1025), one_place(-3.25)) == ("-1,025", "-3.2")
