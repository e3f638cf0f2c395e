"""The layers written in pyproject.toml hold, and an import that breaks them fails the run: the
contracts are checked on a copy of the source with one upward import added."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(source: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's verdict on the packages under ``source``, with the project's contracts."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=source,
        env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for package in ("engine", "scorekeeper", "reference"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("*.so"))
    return source


def test_the_source_keeps_its_layers() -> None:
    checked = lint_imports(ROOT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 broken" in checked.stdout


@pytest.mark.parametrize(
    ("module", "upward", "broken"),
    [
        (
            "scorekeeper/storage/models.py",
            "import scorekeeper.services.operations",
            "scorekeeper.storage is not allowed to import scorekeeper.services",
        ),
        (
            "scorekeeper/domain/levels.py",
            "import scorekeeper.storage.models",
            "scorekeeper.domain is not allowed to import scorekeeper.storage",
        ),
        (
            "scorekeeper/results/standings.py",
            "import scorekeeper.services.operations",
            "scorekeeper.results is not allowed to import scorekeeper.services",
        ),
        (
            "scorekeeper/pages/history.py",
            "import scorekeeper.storage.models",
            "scorekeeper.pages is not allowed to import scorekeeper.storage",
        ),
        (
            "scorekeeper/api/games.py",
            "from sqlalchemy import select",
            "scorekeeper.api is not allowed to import sqlalchemy",
        ),
        (
            "scorekeeper/services/operations.py",
            "import scorekeeper.web.i18n",
            "scorekeeper.services is not allowed to import scorekeeper.web",
        ),
        (
            "scorekeeper/api/games.py",
            "import scorekeeper.pages.games",
            "scorekeeper.api is not allowed to import scorekeeper.pages",
        ),
        ("engine/rules.py", "import scorekeeper.names", "engine is not allowed to import"),
        (
            "scorekeeper/commands/simulate.py",
            "import reference",
            "scorekeeper is not allowed to import reference",
        ),
    ],
)
def test_an_upward_import_fails_the_run(
    copied: Path, module: str, upward: str, broken: str
) -> None:
    path = copied / module
    original = path.read_text()
    path.write_text(original + f"\n{upward}  # noqa\n")
    try:
        checked = lint_imports(copied)
    finally:
        path.write_text(original)
    assert checked.returncode == 1
    assert broken in checked.stdout
