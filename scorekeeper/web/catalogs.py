"""The compiled message catalogs (``.mo``), built from the translators' ``.po`` files.

Why at start-up rather than in a build step: ``.mo`` files are build output and stay out of git,
yet a clean clone must work with ``make run``, ``make test`` and a plain ``pip install -e .``
followed by ``scorekeeper run``, and none of these runs a build step. Compiling the French
catalog with Babel's own API (what ``pybabel compile`` calls) takes a few milliseconds, and is
skipped while each ``.mo`` is newer than its ``.po``, so a translator's edit shows at the next
start. Each ``.mo`` is written to a temporary file and renamed into place, so several workers
starting at once never read half a file. An installed package whose folder cannot be written
compiles into the instance folder instead.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
"""The catalogs as shipped: ``messages.pot`` and ``<language>/LC_MESSAGES/messages.po``."""
DOMAIN = "messages"


def compiled_catalogs(instance_path: str | os.PathLike[str]) -> Path:
    """The folder of up-to-date ``.mo`` files: the package's own when it can be written (or is
    already up to date), else ``<instance>/translations``."""
    try:
        compile_catalogs(TRANSLATIONS, TRANSLATIONS)
        return TRANSLATIONS
    except OSError:
        fallback = Path(instance_path) / "translations"
        compile_catalogs(TRANSLATIONS, fallback)
        return fallback


def compile_catalogs(source: Path, target: Path) -> list[Path]:
    """Compile each ``source/<lang>/LC_MESSAGES/messages.po`` missing or stale in ``target``;
    return the ``.mo`` files written. Fuzzy entries are left out, as ``pybabel compile`` does."""
    written = []
    for po in sorted(source.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as file:
            catalog = read_po(file, domain=DOMAIN)
        mo.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                write_mo(file, catalog)
            os.replace(temporary, mo)
        except BaseException:
            os.unlink(temporary)
            raise
        written.append(mo)
    return written
