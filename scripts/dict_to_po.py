"""Merge English→French pairs written as a Python dict into the French gettext catalog.

The pages' French used to be a dict in the app's i18n module (``FRENCH = {"English": "French"}``).
This script moved it into ``scorekeeper/translations/fr/LC_MESSAGES/messages.po``, and merges the
same way any entries written in that form later (a branch that added to the old dict, a list a
translator sent)::

    python scripts/dict_to_po.py old_i18n.py            # the FRENCH = {...} of a Python file
    python scripts/dict_to_po.py pairs.py --name WORDS  # another dict's name
    python scripts/dict_to_po.py pairs.txt              # a file that is just a dict literal

A pair fills its msgid's empty or fuzzy translation, or adds the msgid; a msgid that already has a
different French is left as it is and reported (exit status 1), unless ``--replace``. Run ``pybabel
update`` afterwards (docs/contributing/translations.md) to sort the catalog against the sources.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
FRENCH_PO = ROOT / "scorekeeper" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"


def read_pairs(path: Path, name: str = "FRENCH") -> dict[str, str]:
    """The dict literal assigned to ``name`` in the Python file at ``path`` (or the file's whole
    text, when it is a dict literal alone); read with ``ast``, never executed."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    value: ast.expr | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            value = node.value
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
        ):
            value = node.value
    if value is None and len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        value = tree.body[0].value
    if value is None:
        raise SystemExit(f"{path}: no dict named {name} and no lone dict literal")
    pairs = ast.literal_eval(value)
    if not isinstance(pairs, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in pairs.items()
    ):
        raise SystemExit(f"{path}: {name} is not a dict of str to str")
    return pairs


def merge(catalog: Catalog, pairs: dict[str, str], *, replace: bool = False) -> list[str]:
    """Put ``pairs`` into ``catalog``; return the msgids whose different French was kept."""
    conflicts = []
    for english, french in pairs.items():
        if english in catalog.obsolete:
            catalog[english] = catalog.obsolete.pop(english)
        message = catalog.get(english)
        if message is None:
            catalog.add(english, french)
        elif not message.string or message.fuzzy or replace:
            message.string = french
            message.flags.discard("fuzzy")
        elif message.string != french:
            conflicts.append(english)
    return conflicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a Python file with the dict, or a dict literal")
    parser.add_argument("--name", default="FRENCH", help="the dict's name (default: FRENCH)")
    parser.add_argument("--po", type=Path, default=FRENCH_PO, help="the catalog to merge into")
    parser.add_argument("--replace", action="store_true", help="the dict wins over the catalog")
    args = parser.parse_args(argv)

    pairs = read_pairs(args.source, args.name)
    with args.po.open("rb") as file:
        catalog = read_po(file, locale="fr")
    conflicts = merge(catalog, pairs, replace=args.replace)
    with args.po.open("wb") as file:
        write_po(file, catalog, width=76)
    print(f"{len(pairs)} pairs merged into {args.po}")
    for english in conflicts:
        print(f"kept the catalog's French for {english!r}: {catalog[english].string!r}")
    return 1 if conflicts else 0


if __name__ == "__main__":
    sys.exit(main())
