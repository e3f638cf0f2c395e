"""Which engine the commands run: the compiled build while it matches the source, else the source,
and ``scorekeeper run`` says which (scorekeeper/engine_build.py, the Makefile's ``engine``)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper import engine_build
from scorekeeper.cli import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A source tree with a build of its engine beside it, as the Makefile lays them out."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine")
    shutil.copytree(ROOT / "engine", tmp_path / engine_build.BUILD / "engine")
    return tmp_path


def test_a_build_that_matches_the_source_is_put_on_the_path(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", sys.path[:])
    engine_build.use_compiled(str(tree / engine_build.BUILD))
    assert sys.path[-1] == str(tree / engine_build.BUILD)


def test_a_build_older_than_the_source_is_left_out(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = tree / "engine" / "rules.py"
    edited.write_text(edited.read_text() + "\n# an edit not yet built\n")
    monkeypatch.setattr(sys, "path", sys.path[:])
    engine_build.use_compiled(str(tree / engine_build.BUILD))
    assert str(tree / engine_build.BUILD) not in sys.path
    assert engine_build.stale_modules(tree / engine_build.BUILD / "engine") == ["engine/rules.py"]


def test_an_edit_to_a_reference_player_leaves_the_build_out(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference players are compiled into the same build: an old copy of theirs would
    measure a player that is no longer in the source, or miss a module or data file added since."""
    shutil.copytree(ROOT / "reference", tree / "reference")
    shutil.copytree(ROOT / "reference", tree / engine_build.BUILD / "reference")
    monkeypatch.setattr(sys, "path", sys.path[:])
    engine_build.use_compiled(str(tree / engine_build.BUILD))
    assert sys.path[-1] == str(tree / engine_build.BUILD)
    sys.path.pop()
    edited = tree / "reference" / "evaluated.py"
    edited.write_text(edited.read_text() + "\n# an edit not yet built\n")
    (tree / engine_build.BUILD / "reference" / "evaluation.json").unlink()
    engine_build.use_compiled(str(tree / engine_build.BUILD))
    assert str(tree / engine_build.BUILD) not in sys.path
    stale = engine_build.stale_modules(tree / engine_build.BUILD / "reference")
    assert stale == ["reference/evaluated.py", "reference/evaluation.json"]


def test_a_module_missing_from_the_build_makes_it_stale(tree: Path) -> None:
    (tree / engine_build.BUILD / "engine" / "moves.py").unlink()
    assert engine_build.stale_modules(tree / engine_build.BUILD / "engine") == ["engine/moves.py"]


def test_the_engine_named_is_the_one_this_run_imported() -> None:
    """The Makefile's compiled test run sets ENGINE_EXPECT_COMPILED=1 (tests/conftest.py)."""
    words = engine_build.describe()
    if os.environ.get("ENGINE_EXPECT_COMPILED") == "1":
        assert words.startswith("compiled by mypyc")
    else:
        assert words.startswith("pure Python")


def test_scorekeeper_run_names_its_engine_at_start_up() -> None:
    result = CliRunner().invoke(cli, ["run", "--help"])
    assert result.exit_code == 0, result.output
    assert f" * Engine: {engine_build.describe()}" in result.output


def test_the_app_puts_the_chosen_build_before_a_source_tree_on_the_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gunicorn started from the top of the tree puts the tree first on sys.path: the build the
    .pth line chose must still come first when the app imports the engine."""
    monkeypatch.setattr(sys, "path", [str(ROOT), *sys.path, "/chosen/build"])
    monkeypatch.setattr(engine_build, "chosen", "/chosen/build")
    monkeypatch.delitem(sys.modules, "engine")
    engine_build.prefer_compiled()
    assert sys.path[0] == "/chosen/build" and sys.path.count("/chosen/build") == 1


def test_nothing_moves_once_the_engine_is_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    path = [str(ROOT), *sys.path, "/chosen/build"]
    monkeypatch.setattr(sys, "path", path[:])
    monkeypatch.setattr(engine_build, "chosen", "/chosen/build")
    engine_build.prefer_compiled()  # this run imported the engine long ago
    assert sys.path == path
