"""Every refusal of the rules reads as French on French pages and in French API answers: each
problem code, each reason a move is illegal, with the facts written the French way.

The reports below are built to trip every :class:`ProblemCode`; a test checks they do, so a new
code cannot escape the French check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest
from flask import Flask

from engine import ProblemCode
from engine.codes import CARDS
from engine.errors import IllegalMove, InvalidReport
from engine.moves import CALL, Discard, PassCoupFourre, Play
from engine.problems import Problem
from engine.report import read_hand_report, read_rules
from engine.rules import Rules
from engine.sentences import Sentence, quoted
from engine.sheet import read_sheet
from engine.validation import check_report
from engine.virtual_game import VirtualGame
from scorekeeper.web.i18n import say
from tests.web.test_i18n import extracted_msgids

ENGLISH_WORDS = re.compile(
    r"\b(the|and|but|is|are|was|were|with|side|sides|seat|played|travelled|cannot|must|only|"
    r"not|of|reports?|claimed|claims|trip|target|hand|cards?|safety|safeties|deck|extension|"
    r"may|which|who|than|more|once|this|that|there|shows|bonus|shutout|completed|hazard)\b",
    re.IGNORECASE,
)
"""English words that are no French words (not "on", "a", "distance")."""
FIELD_NAMES = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A snake_case word: a report's field (``two_hundreds``) or an API value left in a sentence."""
BAD_SPACING = re.compile(
    r"(?<![\u202f\u00a0])[;!?]|(?<![\u202f\u00a0\d]):|«(?!\u202f)|(?<!\u202f)»"
)
"""French sets a (narrow) no-break space before ; : ! ? and inside « »."""


def side(name: str, distance: Any = 0, **facts: Any) -> dict[str, Any]:
    return {"name": name, "distance": distance, **facts}


REPORTS: list[dict[str, Any]] = [
    {"players": 5, "sides": [side("Zoé"), side("Léa")]},
    {"players": 2, "variants": {"gel": True, "shutout": "jamais"}, "sides": [side("Zoé")]},
    {
        "players": 2,
        "target": 900,
        "extension_called_by": [0, 1],
        "sides": [
            side("Zoé", -25, two_hundreds=-1, safeties=["driving_ace", "driving_ace", "wings"]),
            side("Léa", 585, two_hundreds=3, coup_fourres=["extra_tank", "right_of_way"]),
        ],
    },
    {
        "players": 3,
        "extension_called_by": 2,
        "sides": [
            side("Zoé", 1000, two_hundreds=None, completed_trip=True, claims=["safe_trip"]),
            side("Léa", 1000, two_hundreds=2, completed_trip=True, safeties=["extra_tank"]),
            side("Émile", {"100": 30, "200": -1, "25": 1}, safeties=["extra_tank"]),
        ],
    },
    {
        "players": 2,
        "sides": [
            side("Zoé", 700, completed_trip=False, delayed_action=True, claims=["bogus"]),
            side("Léa", 300, two_hundreds=1, completed_trip=True, claims=["shutout", "trip"]),
        ],
    },
    {
        "players": 4,
        "extension_called_by": 0,
        "sides": [
            side("Zoé & Léa", 400, two_hundreds=0, claims=["extension", "all_safeties"]),
            side("Émile & Jo", 2900, two_hundreds=0, coup_fourres=["puncture_proof"] * 2),
        ],
    },
    {
        "players": 2,
        "sides": [
            side("Zoé", 700, two_hundreds=0, completed_trip=True, claims=["delayed_action"]),
            side("Léa", 0, two_hundreds=0, claims=["safe_trip", "extension"]),
        ],
    },
]


def problems_of(report: dict[str, Any]) -> list[Problem]:
    rules, problems = read_rules(report)
    hand, reading = read_hand_report(report)
    return problems + reading + check_report(hand, rules)


def problem_after_the_game() -> Problem:
    big = side("Zoé", 1000, two_hundreds=2, completed_trip=True, safeties=[])
    hand = {"target": 1000, "extension_called_by": 0, "sides": [big, side("Léa", 0)]}
    hands = [hand] * 3 + [{"sides": [side("Zoé", 25), side("Léa", 0)]}]
    with pytest.raises(InvalidReport) as refused:
        read_sheet({"players": 2, "sides": ["Zoé", "Léa"], "hands": hands})
    (problem,) = refused.value.problems
    assert problem.code is ProblemCode.HAND_AFTER_GAME_OVER
    return problem


def every_problem() -> list[Problem]:
    return [p for report in REPORTS for p in problems_of(report)] + [problem_after_the_game()]


def illegal_moves() -> Iterator[IllegalMove]:
    """Moves refused for every reason a hand in progress can give, found by trying every card
    in every way, turn or not, at each move of a fixed hand."""
    hand = VirtualGame(Rules.for_players(2, {"discard_safeties": "forbidden"}), 2026).hand
    seen: set[str] = set()
    rng = Random(1)
    while not hand.over:
        seat = hand.to_act
        tries: list[tuple[int, Any]] = [(1 - seat, CALL), (seat, PassCoupFourre())]
        for card in {CARDS[code] for held in hand.hands for code in held}:
            tries += [(seat, Play(card, target)) for target in (None, 0, 1, 5)]
            tries += [(seat, Discard(card))]
        for who, move in tries:
            try:
                hand.check(move, who)
            except IllegalMove as illegal:
                if illegal.sentence.template not in seen:
                    seen.add(illegal.sentence.template)
                    yield illegal
        moves = hand.legal_moves()
        hand.apply(moves[rng.randrange(len(moves))])
    with pytest.raises(IllegalMove) as over:
        hand.check(CALL, 0)
    yield over.value


def test_the_reports_trip_every_problem_code() -> None:
    beyond_reports = {ProblemCode.ILLEGAL_MOVE, ProblemCode.IDEMPOTENCY_KEY_REUSED}
    assert {p.code for p in every_problem()} | beyond_reports == set(ProblemCode)


def french_flaws(text: str) -> list[str]:
    flaws = [f"English word {m.group()!r}" for m in ENGLISH_WORDS.finditer(text)]
    flaws += [f"field name {m.group()!r}" for m in FIELD_NAMES.finditer(text)]
    flaws += [
        f"spacing at {text[max(m.start() - 8, 0) : m.end()]!r}" for m in BAD_SPACING.finditer(text)
    ]
    return flaws


def test_every_problem_reads_as_french(sqlite_app: Flask) -> None:
    with sqlite_app.test_request_context(headers={"Accept-Language": "fr"}):
        said = [say(without_api_values(p.sentence)) for p in every_problem()]
    assert {text: french_flaws(text) for text in said if french_flaws(text)} == {}
    texts = "\n".join(said)
    assert "2\u202f900\u202fkm" in texts  # grouped the French way, held to its unit
    assert "Zoé & Léa" in texts and "As du volant" in texts  # names as typed, cards as printed


def without_api_values(sentence: Sentence) -> Sentence:
    """``sentence`` with the values a client sends (a variant's ``%(key)s``, the ``%(known)s``
    it may send) left out: they are spelled the same (``driving_ace``) in every language."""
    sent = {name: "…" for name in ("key", "known") if name in sentence.facts}
    return Sentence(sentence.template, {**sentence.facts, **sent})


def test_every_illegal_move_reads_as_french(sqlite_app: Flask) -> None:
    refused = list(illegal_moves())
    assert len(refused) >= 8, [r.sentence.template for r in refused]
    with sqlite_app.test_request_context(headers={"Accept-Language": "fr"}):
        flawed = {
            say(r.sentence): french_flaws(say(r.sentence))
            for r in refused
            if french_flaws(say(r.sentence))
        }
    assert flawed == {}


def test_every_engine_sentence_has_french_that_reads_as_french(sqlite_app: Flask) -> None:
    """The sentences no game above happened to produce, rendered with sample facts."""
    engine = [
        msgid for (msgid, _), where in extracted_msgids().items() if where.startswith("engine")
    ]
    assert len(engine) > 60
    facts = {name: "Zoé" for msgid in engine for name in re.findall(r"%\((\w+)\)s", msgid)}
    with sqlite_app.test_request_context(headers={"Accept-Language": "fr"}):
        flawed = {}
        for msgid in engine:
            needed = {name: facts[name] for name in re.findall(r"%\((\w+)\)s", msgid)}
            text = say(without_api_values(Sentence(msgid, needed)))
            assert text != Sentence(msgid, needed).english(), f"no French for {msgid!r}"
            if french_flaws(text):
                flawed[text] = french_flaws(text)
    assert flawed == {}


def test_the_api_says_a_refusal_in_the_language_asked_and_keeps_its_codes(
    sqlite_app: Flask,
) -> None:
    client = sqlite_app.test_client()
    report = REPORTS[6]
    french = client.post("/api/v1/score", json=report, headers={"Accept-Language": "fr-FR"})
    english = client.post("/api/v1/score", json=report)
    assert french.status_code == english.status_code == 422
    assert "Accept-Language" in french.headers["Vary"]
    codes = [(e["path"], e["code"]) for e in english.json["errors"]]
    assert [(e["path"], e["code"]) for e in french.json["errors"]] == codes
    assert french.json["detail"].startswith("La manche est refusée")
    assert english.json["detail"].startswith("The report was refused")
    assert french_flaws(french.json["detail"]) == []
    assert ENGLISH_WORDS.search(english.json["errors"][0]["detail"])


@pytest.mark.parametrize(
    ("body", "headers", "status", "english", "french"),
    [
        ("{bad", {"Content-Type": "application/json"}, 400, "not valid JSON", "pas du JSON valide"),
        ("{}", {"Content-Type": "text/plain"}, 415, "reads a JSON body", "lit un corps JSON"),
        ("x" * (300 * 1024), {"Content-Type": "application/json"}, 413, "256 KiB", "256\u00a0Kio"),
    ],
    ids=["invalid JSON", "not JSON", "too large"],
)
def test_a_body_the_api_cannot_read_is_refused_in_the_language_asked(
    sqlite_app: Flask, body: str, headers: dict[str, str], status: int, english: str, french: str
) -> None:
    """Werkzeug's and Flask's own refusals of a body are said in the reader's language, the
    size limit named (they were English whatever the reader asked, and 415 was Flask's
    sentence for developers)."""
    client = sqlite_app.test_client()
    for language, expected in (("en", english), ("fr", french)):
        answer = client.post(
            "/api/v1/score", data=body, headers={**headers, "Accept-Language": language}
        )
        assert answer.status_code == status
        assert answer.mimetype == "application/problem+json"
        assert expected in answer.get_json()["detail"]


def test_a_value_the_api_cannot_read_is_quoted_as_the_readers_language_quotes(
    sqlite_app: Flask,
) -> None:
    """A variant's unknown value is quoted 'jamais' in English and « jamais » in French (narrow
    no-break spaces inside the guillemets); a value that is not a text is written as sent."""
    client = sqlite_app.test_client()
    report = {
        "players": 2,
        "variants": {"shutout": "jamais"},
        "sides": [{"distance": 300}, {"distance": 450}],
    }
    french = client.post("/api/v1/score", json=report, headers={"Accept-Language": "fr"})
    english = client.post("/api/v1/score", json=report)
    assert "\u00ab\u202fjamais\u202f\u00bb" in french.json["errors"][0]["detail"]
    assert "'jamais'" in english.json["errors"][0]["detail"]
    assert "'jamais'" not in french.json["errors"][0]["detail"]
    with sqlite_app.test_request_context(headers={"Accept-Language": "fr"}):
        assert say(Sentence("%(value)s", {"value": quoted(None)})) == "None"
