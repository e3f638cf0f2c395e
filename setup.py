"""Packaging of the engine: compiled by mypyc where it can be, pure Python otherwise.

The metadata is in pyproject.toml; this file only decides the engine's extension modules. A wheel
(``pip install .``, ``pip wheel .``) has the engine compiled, but for the modules pyproject.toml
leaves pure (``[tool.compiled-engine]``), when mypyc (part of mypy, a build requirement) and a C
compiler able to build Python extensions are at hand; otherwise it says why (``pip -v`` shows it)
and ships the same source as pure Python. An editable install (``pip install -e .``, as the
Makefile does) always stays pure, so that editing a ``.py`` file takes effect.
``ENGINE_COMPILE=0`` forces pure Python; ``ENGINE_COMPILE=1`` makes a failure to compile an
error instead (the Makefile's compiled build in ``build/compiled``).

The reference players (``reference/``: research code the app never plays) are no package of the
project and never go into a wheel. ``COMPILE_REFERENCE=1``, which only ``make compiled`` sets
(for ``make bench``), compiles them too, as a group of their own beside the engine's, so that the
benchmarks play them at the compiled engine's speed.

    python setup.py why_not_compiled    # why the engine cannot be compiled here, if so
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
BUILDING = {"build", "build_ext", "bdist_wheel", "install"}
"""The commands that make extension modules (metadata and editable installs never do)."""


def settings() -> dict[str, Any]:
    """pyproject.toml's ``[tool.compiled-engine]``."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text())
    table: dict[str, Any] = project["tool"]["compiled-engine"]
    return table


def compiled_modules() -> list[str]:
    """The engine modules mypyc compiles (paths from here): all but those left pure."""
    pure = set(settings()["pure"])
    modules = [path.relative_to(HERE).as_posix() for path in (HERE / "engine").rglob("*.py")]
    return sorted(set(modules) - pure)


def engine_groups() -> list[tuple[list[str], str]]:
    """The compiled modules in two groups, each a C file of its own that a core compiles: the
    play (pyproject.toml's ``play``, a folder there standing for its modules), and the rest."""
    play = tuple(settings()["play"])
    modules = compiled_modules()
    in_play = [path for path in modules if path in play or path.startswith(play)]
    rest = [path for path in modules if path not in in_play]
    return [(in_play, "engine_play"), (rest, "engine")]


def reference_modules() -> list[str]:
    """The reference players' modules (paths from here): compiled only under
    ``COMPILE_REFERENCE=1``, never into a wheel."""
    return sorted(path.relative_to(HERE).as_posix() for path in (HERE / "reference").rglob("*.py"))


def why_not_compiled() -> str | None:
    """Why the engine cannot be compiled here (None if it can): mypyc missing, or no C compiler
    that builds a Python extension (a test file including Python.h is compiled to find out)."""
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy)"
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile(
                [str(source)], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]]
            )
        except (CCompilerError, DistutilsError, OSError) as error:
            name = getattr(compiler, "compiler_so", None) or [compiler.compiler_type]
            return f"no C compiler able to build Python extensions ({name[0]}: {error})"
    return None


def engine_extensions() -> list[Any]:
    """The engine's extension modules for this build, or none (pure Python), saying why."""
    commands = set(sys.argv[1:])
    if commands & {"editable_wheel", "develop"}:
        print("engine: pure Python (an editable install: edits take effect)", file=sys.stderr)
        return []
    if not commands & BUILDING:
        return []  # metadata, sdist: no extension modules
    choice = os.environ.get("ENGINE_COMPILE", "")
    if choice == "0":
        print("engine: pure Python (ENGINE_COMPILE=0)", file=sys.stderr)
        return []
    reason = why_not_compiled()
    if reason is not None:
        if choice == "1":
            sys.exit(f"engine: cannot be compiled (ENGINE_COMPILE=1): {reason}")
        print(f"engine: pure Python, not compiled: {reason}", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    groups = engine_groups()
    if os.environ.get("COMPILE_REFERENCE") == "1":
        print("engine and reference players: compiling with mypyc", file=sys.stderr)
        groups.append((reference_modules(), "reference"))
    else:
        print("engine: compiling with mypyc", file=sys.stderr)
    return mypycify(
        [path for modules, _ in groups for path in modules],
        opt_level="3",
        separate=groups,
        target_dir="build/mypyc",
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["why_not_compiled"]:
        reason = why_not_compiled()
        print(reason or "the engine can be compiled here")
        sys.exit(reason is not None)
    setup(ext_modules=engine_extensions())
