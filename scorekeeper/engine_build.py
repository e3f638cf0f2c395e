"""Which engine this process runs: compiled by mypyc, or the Python source.

``make run`` and ``make test`` build the compiled engine where a C compiler can, and name it in a
``.pth`` file of the virtual environment, whose line calls :func:`use_compiled` as Python starts.
A build from older source would play by old rules, so it is used only while it matches the source
beside it: after an edit to ``engine/`` (or to the reference players of a source checkout, which
``make compiled`` builds into the same tree for the benchmarks) the commands run the source until
the next build. The app puts that build first before it imports the engine
(:func:`prefer_compiled`), so a server started from the top of the tree serves it too.
``scorekeeper run`` says at start-up which engine it serves with (:func:`describe`).
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

BUILD = Path("build", "compiled")
"""Where the Makefile builds the compiled engine, from the top of the source tree."""
PACKAGES = ("engine", "reference")
"""The packages the Makefile compiles there: the engine, and for the benchmarks (``make compiled``)
the reference players beside it."""

chosen: str | None = None
"""The compiled engine's folder :func:`use_compiled` put on ``sys.path``, if it did."""


def use_compiled(folder: str) -> None:
    """Put the compiled engine of ``folder`` on ``sys.path`` if it is up to date.

    Appended, it still comes before the editable install's finder, which Python asks only after
    every ``sys.path`` entry; Python started from the top of the tree finds the source first.
    """
    global chosen
    if not any(stale_modules(Path(folder, package)) for package in PACKAGES):
        sys.path.append(folder)
        chosen = folder


def prefer_compiled() -> None:
    """Before the app imports the engine: the compiled engine first on ``sys.path``, if it was
    chosen. A server started from the top of the tree (gunicorn puts its working folder first)
    would otherwise find the source there; once the engine is imported, nothing changes."""
    if chosen is not None and "engine" not in sys.modules:
        sys.path.remove(chosen)
        sys.path.insert(0, chosen)


def describe() -> str:
    """One line for the start-up banner: the engine's kind, and why not compiled if it is not."""
    import engine.state

    module = Path(str(engine.state.__file__))
    loaded = module.parent
    if module.name.endswith(tuple(EXTENSION_SUFFIXES)):
        return f"compiled by mypyc ({loaded})"
    build = loaded.parent / BUILD
    if build.is_dir() and any(stale_modules(build / package) for package in PACKAGES):
        return f"pure Python ({loaded}): the compiled build is older than the source (make run)"
    return f"pure Python ({loaded})"


def stale_modules(built: Path) -> list[str]:
    """The modules and data files of a package whose source differs from the copy compiled in
    ``built`` (the Makefile copies the source beside the extension modules), if the source tree
    is beside the build and the build holds the package (``make engine`` builds the engine
    alone: the reference players then run from their source)."""
    source = built.parent.parent.parent / built.name
    if not source.is_dir() or not built.is_dir():
        return []
    files = sorted([*source.rglob("*.py"), *source.rglob("*.json")])
    return [
        str(path.relative_to(source.parent))
        for path in files
        if not (copy := built / path.relative_to(source)).exists()
        or copy.read_bytes() != path.read_bytes()
    ]
