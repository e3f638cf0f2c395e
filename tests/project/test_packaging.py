"""What an installed copy needs ships with it, and nothing more: the package data patterns of
pyproject.toml cover every template, static file and catalog (an icon left out made ``/sw.js`` a
500 there), and the research code of ``reference/`` stays out of the wheel."""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"


def test_every_page_asset_is_in_the_package_data() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = settings["tool"]["setuptools"]["package-data"]["scorekeeper"]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern)}
    needed = {
        path
        for folder in ("static", "templates")
        for path in (PACKAGE / folder).rglob("*")
        if path.is_file()
    } | set(PACKAGE.glob("translations/**/*.po"))
    assert sorted(str(p.relative_to(PACKAGE)) for p in needed - shipped) == []


REFERENCE_PLAYERS = {"classic", "contest", "inference", "endgame"}
"""The research modules of ``reference/`` that no installed copy may hold."""


def shipped_packages() -> list[str]:
    """The packages a wheel holds: pyproject.toml's ``packages.find``, as setuptools reads it."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    find = settings["tool"]["setuptools"]["packages"]["find"]
    return setuptools.find_packages(
        str(ROOT), include=find["include"], exclude=find.get("exclude", ())
    )


def test_the_wheel_holds_no_reference_player() -> None:
    """The reference opponents and the search's research levers stay in the source checkout: no
    package of the wheel is ``reference``, none of its modules has their names, and the modules
    setup.py compiles into a wheel (without the Makefile's ``COMPILE_REFERENCE=1``) are the
    engine's only."""
    packages = shipped_packages()
    assert "engine.players" in packages and "scorekeeper" in packages
    assert [name for name in packages if name.split(".")[0] not in {"engine", "scorekeeper"}] == []
    modules = {
        path.stem
        for package in packages
        for path in (ROOT / package.replace(".", "/")).glob("*.py")
    }
    assert modules & REFERENCE_PLAYERS == set()
    spec = importlib.util.spec_from_file_location("project_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    project_setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(project_setup)
    compiled = project_setup.compiled_modules()
    assert "engine/players/search.py" in compiled
    assert [path for path in compiled if not path.startswith("engine/")] == []
    assert {Path(path).stem for path in compiled} & REFERENCE_PLAYERS == set()


def test_the_installed_packages_import_nothing_of_the_reference_players() -> None:
    """The app and the engine run from a wheel, where ``reference`` is not: neither may import it
    (the tests and the benchmarks do, from the source checkout)."""
    importing = []
    for package in ("engine", "scorekeeper"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                if any(name.split(".")[0] == "reference" for name in names):
                    importing.append(str(path.relative_to(ROOT)))
    assert importing == []
