"""Names people give to tables, players and sides: what is accepted, and when two are the same.

A name is shown on every phone at the table and a hand is credited to a side by its name, so two
names must never look alike while being different strings. The rules:

* A name is stored in Unicode NFC, without leading or trailing spaces.
* It is refused if it has a character that does not show as itself: control characters, line
  and paragraph separators, format characters (zero-width spaces and joiners, bidirectional
  controls such as U+202E, the soft hyphen), Hangul fillers, private-use and unassigned code
  points, or an unpaired surrogate. The one exception is U+200D (zero-width joiner) between two
  emoji, which draws one emoji from them (a family, a profession, a flag).
* It must have at least one letter, digit, punctuation mark or symbol.
* Two names are the same name when they read the same: compared after NFKC (so a full-width
  "Ａｎｎ" or a ligature is its plain form), case folding ("ANN", "ann", "Straße" and "STRASSE"),
  and with runs of spaces counted as one. Accents count ("Zoé" is not "Zoe"). Look-alike letters
  of different scripts (a Cyrillic "а" for a Latin "a") are not folded: that needs Unicode's
  confusables table, which the standard library does not have.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence

from engine.sentences import N_, Sentence

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format, surrogate, private-use, unassigned, line and paragraph separator."""

BLANK_LETTERS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5"})
"""Drawn as nothing though not spaces: the Hangul fillers, the blank Braille pattern and the
Khmer inherent vowels."""

INVISIBLE_MARKS = frozenset(
    {
        "\u034f",  # combining grapheme joiner
        *map(chr, range(0x180B, 0x1810)),  # Mongolian variation selectors and vowel separator
        *map(chr, range(0xFE00, 0xFE0F)),  # variation selectors 1-15
        *map(chr, range(0xE0100, 0xE01F0)),  # variation selectors 17-256
    }
)
"""Combining marks (Unicode's default-ignorable code points among them) that draw nothing: a
name with one would read like the name without it. U+FE0F, which asks for an emoji's colour
form, is kept after an emoji."""

ZERO_WIDTH_JOINER = "\u200d"
EMOJI_PRESENTATION = "\ufe0f"
VISIBLE_CATEGORIES = frozenset("LNPS")
"""The first letter of the categories of letters, digits, punctuation and symbols."""
NAME_LIMIT = 80
"""The longest name stored (tables, players, sides)."""


def normal_name(text: str) -> str:
    """``text`` as a name is stored: NFC, without leading or trailing spaces."""
    return unicodedata.normalize("NFC", text).strip()


def name_problem(name: str) -> Sentence | None:
    """Why ``name`` cannot be a name, or None if it can.

    >>> name_problem("Zoé & 👩‍🚀"), name_problem("Ann \u2764\ufe0f")
    (None, None)
    >>> name_problem("An\\u200bn").english()[:61]
    'Not a valid name: it has an invisible or formatting character'
    >>> name_problem("\\u0301").english()
    'Not a valid name: it has no letter, digit or symbol.'
    """
    name = unicodedata.normalize("NFC", name)
    for index, character in enumerate(name):
        category = unicodedata.category(character)
        if character == ZERO_WIDTH_JOINER and _joins_emoji(name, index):
            continue
        if category in ("Cc", "Zl", "Zp"):
            return Sentence(
                N_("Not a valid name: it has a control character or a line break (%(code)s)."),
                {"code": _code(character)},
            )
        if character == EMOJI_PRESENTATION and _follows_emoji(name, index):
            continue
        if (
            category in INVISIBLE_CATEGORIES
            or character in BLANK_LETTERS
            or character in INVISIBLE_MARKS
            or character == EMOJI_PRESENTATION
        ):
            return Sentence(
                N_(
                    "Not a valid name: it has an invisible or formatting character (%(code)s), "
                    "which would make it look like another name."
                ),
                {"code": _code(character)},
            )
    if not any(unicodedata.category(c)[0] in VISIBLE_CATEGORIES for c in name):
        return Sentence(N_("Not a valid name: it has no letter, digit or symbol."))
    return None


def folded(name: str) -> str:
    """``name`` as a person reads it: the form two names are compared in.

    >>> folded("  ＡＮＮ   Lee ") == folded("ann lee")
    True
    >>> folded("Straße") == folded("STRASSE"), folded("Zoé") == folded("Zoe")
    (True, False)
    """
    once = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", once).split())


def name_key(name: str) -> str:
    """What the database keeps unique per table: a digest of :func:`folded` (fixed length, so
    any name of 80 characters fits an index, however far NFKC expands it)."""
    return hashlib.sha256(folded(name).encode()).hexdigest()


def _joins_emoji(name: str, index: int) -> bool:
    """Whether the joiner at ``index`` stands between two emoji (a modifier or the emoji
    presentation selector may come between the first emoji and the joiner)."""
    before = name[index - 1] if index > 0 else ""
    after = name[index + 1] if index + 1 < len(name) else ""
    before_ok = bool(before) and (
        before == EMOJI_PRESENTATION or unicodedata.category(before) in ("So", "Sk")
    )
    return before_ok and bool(after) and unicodedata.category(after) == "So"


def first_repeat(names: Sequence[str]) -> tuple[int, int] | None:
    """The first name in ``names`` that reads as an earlier one, as (its index, the earlier
    one's); blank names are no repeat of anything.

    >>> first_repeat(["Ann", "Bob", "ANN", "bob"])
    (2, 0)
    """
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        first = seen.setdefault(folded(name), index) if name else index
        if first != index:
            return index, first
    return None


def team_name(names: Iterable[str]) -> str:
    """A side's default name, "Ann & Bob", cut to fit the stored names (80 characters).

    >>> team_name(["Ann", "Bob"])
    'Ann & Bob'
    """
    name = " & ".join(names)
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def _follows_emoji(name: str, index: int) -> bool:
    """Whether the character at ``index`` comes right after an emoji (a symbol)."""
    return index > 0 and unicodedata.category(name[index - 1]) in ("So", "Sk")


def _code(character: str) -> str:
    return f"U+{ord(character):04X}"
