"""Sentences a person reads, kept apart from the language they are read in.

The engine explains every refusal (an impossible report, an illegal move), but it knows nothing of
the reader's language. So it says each reason as a :class:`Sentence`: one whole English sentence
with ``%(name)s`` placeholders, which is the translators' msgid, and the facts that fill it. The
app translates the template and formats the facts in the reader's language (a number as
"1 025", a card by the name printed on a French card); :meth:`Sentence.english` is the same
sentence for readers of English, logs and exceptions.

Templates are whole sentences, never fragments glued together: word order and agreement differ
between languages, so only a translator who sees the whole sentence can get them right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.cards import Card
from engine.categories import Category
from engine.vocabulary import card_name, category_name


@dataclass(frozen=True, slots=True)
class Quoted:
    """What a reader wrote that the engine could not read, to be quoted as the reader's language
    quotes ('foo' in English, « foo » in French): the engine says what it was, not which quotes."""

    text: str


Fact = str | int | Card | Category | tuple[str, ...] | Quoted
"""What fills a placeholder: a name said as it is, a number, a card, a score category, names
listed ("Ann, Bob and Zoé"), or a value quoted."""


def quoted(value: object) -> Fact:
    """``value``, something a reader wrote, as a sentence shows it: a text quoted, anything else
    as Python writes it (``None``, ``3``, ``[1, 2]``).

    >>> english_fact(quoted("foo")), english_fact(quoted(None)), english_fact(quoted(3))
    ("'foo'", 'None', '3')
    """
    return Quoted(value) if isinstance(value, str) else repr(value)


Reason = tuple[str, dict[str, Fact]]
"""A template and the facts for it, before the caller adds its own and makes the sentence."""


def N_(text: str) -> str:  # noqa: N802  (gettext's own name for the marker)
    """Mark ``text`` as a msgid for ``pybabel extract`` without translating it here."""
    return text


@dataclass(frozen=True, slots=True)
class Sentence:
    """An English template (the msgid) and the facts for its placeholders."""

    template: str
    facts: Mapping[str, Fact] = field(default_factory=dict)

    def english(self) -> str:
        """The sentence in English: numbers with thousands separators, cards by their names.

        >>> Sentence("%(side)s travelled %(km)s km.", {"side": "Ann", "km": 1025}).english()
        'Ann travelled 1,025 km.'
        """
        return self.template % {name: english_fact(fact) for name, fact in self.facts.items()}

    def __str__(self) -> str:
        return self.english()


def english_fact(fact: Fact) -> str:
    """One fact as English writes it."""
    if isinstance(fact, Card):
        return card_name(fact)
    if isinstance(fact, Category):
        return category_name(fact)
    if isinstance(fact, int):
        return f"{fact:,}"
    if isinstance(fact, tuple):
        return english_list(fact)
    if isinstance(fact, Quoted):
        return f"'{fact.text}'"
    return fact


def english_list(names: tuple[str, ...]) -> str:
    """Names listed the English way.

    >>> english_list(("Ann",)), english_list(("Ann", "Bob")), english_list(("Ann", "Bob", "Zoé"))
    ('Ann', 'Ann and Bob', 'Ann, Bob and Zoé')
    """
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
