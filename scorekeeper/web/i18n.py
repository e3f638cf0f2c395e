"""English and French for the pages, through Flask-Babel and gettext catalogs.

The words of the pages are ``_("English text")`` in the templates and :func:`gettext` in Python;
their French is in ``translations/fr/LC_MESSAGES/messages.po`` (docs/contributing/translations.md
tells how to update it), and a word without French falls back to English rather than breaking a
page. Card and bonus names come from the engine's own tables (``engine.vocabulary``). Numbers go
through Babel's locale formatting: 1493.8 reads "1,493.8" in English and "1 493,8" in French.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import flask_babel
from babel.lists import format_list
from flask import Flask, after_this_request, g, has_request_context, request
from werkzeug.wrappers import Response

from engine.cards import Card
from engine.categories import Category
from engine.problems import Problem
from engine.sentences import N_, Fact, Quoted, Sentence
from engine.vocabulary import Language, card_name, category_name
from scorekeeper.web.catalogs import DOMAIN, compiled_catalogs
from scorekeeper.web.security import ONE_YEAR, is_https

LANGUAGE_COOKIE = "lang"
babel = flask_babel.Babel(configure_jinja=False)  # Jinja's helpers are set up in init_app


def gettext(text: str, **variables: object) -> str:
    """``text`` in the request's language (Flask-Babel's gettext, typed): ``%(name)s``
    placeholders are filled from ``variables``. An empty text stays empty: gettext's own answer
    to ``""`` is the catalog's header, which a template translating data must never show."""
    if not text:
        return text
    return str(flask_babel.gettext(text, **variables))


def ngettext(singular: str, plural: str, count: int, **variables: object) -> str:
    """``singular`` or ``plural`` as ``count`` needs in the request's language (French says
    "0 carte", English "0 cards"); ``%(num)s`` is ``count`` written in that language."""
    return str(flask_babel.ngettext(singular, plural, count, **variables))


def say(said: Sentence | Problem) -> str:
    """A sentence of the engine (or a problem's) in the request's language: the template
    through the catalogs, each fact written the language's way (numbers, card names, lists)."""
    sentence = said.sentence if isinstance(said, Problem) else said
    template = gettext(sentence.template)  # the facts are filled apart: any name may be a fact's
    if not sentence.facts:
        return template
    return template % {name: _local(fact) for name, fact in sentence.facts.items()}


def _local(fact: Fact) -> str:
    if isinstance(fact, Card):
        return card_name(fact, language())
    if isinstance(fact, Category):
        return category_name(fact, language())
    if isinstance(fact, int):
        return number(fact)
    if isinstance(fact, tuple):
        return listed(fact)
    if isinstance(fact, Quoted):
        # TRANSLATORS: something a reader wrote that could not be read, in the quotes of the
        # language (French: « foo », with narrow no-break spaces inside).
        return gettext("'%(value)s'", value=fact.text)
    return fact


def pgettext(context: str, text: str, **variables: object) -> str:
    """``text`` in the request's language, as meant in ``context``: one English word that French
    says two ways ("won": a column of games, "gagnées"; one game's result, "gagnée")."""
    return str(flask_babel.pgettext(context, text, **variables))


DATA_WORDS = (
    # A game's status, as the table's list of games shows it (table.html).
    N_("in progress"),
    N_("finished"),
    N_("abandoned"),
)
"""Words the templates translate from data (``_(game.status)``): listed here so ``pybabel
extract`` finds them; the tests check the lists cover their data. The computer levels' words
are marked where they are defined (:mod:`scorekeeper.domain.levels`)."""


def language() -> Language:
    """The language of this request: the switch's cookie (or ``?lang=``), else the browser's
    preference, else English; English outside a request (the command line, a migration).
    Flask-Babel's locale selector."""
    if not has_request_context():
        return Language.EN
    if "language" not in g:
        chosen = request.args.get(LANGUAGE_COOKIE) or request.cookies.get(LANGUAGE_COOKIE)
        if chosen not in (Language.EN, Language.FR):
            chosen = request.accept_languages.best_match([Language.EN, Language.FR], Language.EN)
        g.language = Language(chosen)
    return Language(g.language)


def language_asked() -> dict[str, Any]:
    """This request's ``?lang=``, when it chose the language, for the address of what the page
    asks next on its own (a followed page's questions): those answers come in the page's
    language, not the cookie's."""
    chosen = request.args.get(LANGUAGE_COOKIE)
    return {LANGUAGE_COOKIE: chosen} if chosen in (Language.EN, Language.FR) else {}


def use_language(code: str) -> None:
    """The EN/FR switch: whatever this request renders from now on is in ``code``, and its
    response keeps it on the phone. A code that is not one of the languages changes nothing."""
    if code not in (Language.EN, Language.FR):
        return
    g.language = Language(code)
    flask_babel.refresh()  # anything translated so far this request was in the other language

    @after_this_request
    def keep(response: Response) -> Response:
        response.set_cookie(
            LANGUAGE_COOKIE, code, max_age=ONE_YEAR, samesite="Lax", secure=is_https()
        )
        return response


def number(value: float) -> str:
    """A number as people of the request's language write it: "1,493.8", "1 493,8"; a
    negative one with French typography's minus sign, "−25", where English keeps "-25"."""
    return with_minus_sign(str(flask_babel.format_decimal(value)))


MINUS_SIGN = "\u2212"


def with_minus_sign(written: str) -> str:
    """A number written by Babel, its hyphen for a minus turned into the minus sign (U+2212) for
    a French reader: Babel's French data keeps the hyphen, which French typography does not."""
    if written.startswith("-") and language() == Language.FR:
        return MINUS_SIGN + written[1:]
    return written


def percent(value: float) -> str:
    """A ratio as a whole percentage in the request's language: "50%", "50 %"."""
    return str(flask_babel.format_percent(value))


def listed(names: Iterable[str]) -> str:
    """Names listed the request's language's way: "Ann, Bob and Zoé", "Ann, Bob et Zoé"."""
    return str(format_list(list(names), locale=language()))


def category_label(category: str) -> str:
    """A score category's name in the request's language."""
    return category_name(Category(category), language())


def card_label(card: str) -> str:
    """A card's printed name in the request's language."""
    return card_name(Card(card), language())


def init_app(app: Flask) -> None:
    """Flask-Babel on the compiled catalogs, and the helpers every template uses.

    Templates get a plain ``_`` (gettext) instead of Flask-Babel's Jinja set-up: Jinja's
    "newstyle" gettext marks every translation as safe HTML, and a few templates translate texts
    that come from data (a notice, a status), which must stay escaped as any other value.
    """
    if "BABEL_TRANSLATION_DIRECTORIES" not in app.config:
        app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled_catalogs(app.instance_path))
    app.config.setdefault("BABEL_DOMAIN", DOMAIN)
    babel.init_app(app, locale_selector=language)
    app.jinja_env.globals.update(
        _=gettext,
        ngettext=ngettext,
        pgettext=pgettext,
        say=say,
        language=language,
        category_label=category_label,
        card_label=card_label,
    )
    app.jinja_env.filters.update(number=number, percent=percent, listed=listed)
