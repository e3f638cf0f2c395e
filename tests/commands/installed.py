"""The app installed as a club's server has it: a folder of its own (so an instance folder of its
own, with its own secret key and SQLite file), run by a user of its own.

``make install`` would download the app's packages; the tests have them already. The folder's
virtual environment is made from Debian's own Python, as ``make install`` makes it, and reads the
packages of the environment running the tests (the same Python 3.11 ABI) through a ``.pth`` file,
with the copy of the source first. Debian's Python, not the one running the tests: that one may
live in a home folder closed to other users (a pyenv build under ``/root``), and a service user
must be able to run what it is given.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ("scorekeeper", "engine", "migrations")
"""What the app runs from a checkout: its package, the engine, the migrations."""
SYSTEM_PYTHON = Path("/usr/bin/python3")
PACKAGES = Path(sysconfig.get_paths()["purelib"])
"""The packages of the environment running the tests."""
SCRIPTS = ("scorekeeper", "gunicorn")
"""The commands the organiser's guide runs from ``.venv/bin``."""


def unreachable_for_others() -> str | None:
    """Why another user could not run the installed app here, or None when it can."""
    if not SYSTEM_PYTHON.exists():
        return f"{SYSTEM_PYTHON} is missing (Debian's python3, which make install uses)"
    version = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import sys; print(sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if version != str(sys.version_info[:2]):
        return f"{SYSTEM_PYTHON} is Python {version}, the tests' packages are for another"
    for folder in [PACKAGES, *PACKAGES.parents]:
        if folder.stat().st_mode & 0o001 == 0:
            return f"{folder} is closed to other users, and the tests' packages are in it"
    return None


def folder_for_others(prefix: str) -> Path:
    """A new temporary folder other users may enter (pytest's own are private to its user)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return folder


def copy_source(folder: Path) -> None:
    """The app's source, as a clone has it, into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in SOURCE:
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))


INSTALL_SCRIPT = f"""\
set -e
here=$(pwd -P)
{SYSTEM_PYTHON} -m venv --without-pip .venv
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\\n' "$here" "{PACKAGES}" > "$site/scorekeeper-under-test.pth"
for name in {" ".join(SCRIPTS)}; do
    {{ echo "#!$here/.venv/bin/python"; tail -n +2 "{Path(sys.executable).parent}/$name"; }} \\
        > ".venv/bin/$name"
    chmod 755 ".venv/bin/$name"
done
echo "Installed $(.venv/bin/scorekeeper --version) in .venv, with the tests' packages."
"""
"""``make install`` as a shell script run in the folder of a clone: ``.venv`` whose
``scorekeeper`` and ``gunicorn`` run that folder's source."""


def make_environment(folder: Path) -> Path:
    """``folder/.venv``, as ``make install`` leaves it (:data:`INSTALL_SCRIPT`). Returns its
    ``bin`` folder."""
    subprocess.run(["sh", "-c", INSTALL_SCRIPT], cwd=folder, check=True, capture_output=True)
    return folder / ".venv" / "bin"


def install(folder: Path, owner: str | None = None) -> Path:
    """The source and its environment in ``folder``, belonging to ``owner`` if given (root only).
    Returns the environment's ``bin`` folder."""
    copy_source(folder)
    scripts = make_environment(folder)
    if owner is not None:
        give(folder, owner)
    return scripts


def give(path: Path, owner: str) -> None:
    """``chown -R owner: path``."""
    entry = pwd.getpwnam(owner)
    for where, folders, files in os.walk(path):
        for name in [".", *folders, *files]:
            os.lchown(os.path.join(where, name), entry.pw_uid, entry.pw_gid)


def as_user(user: str | None, *command: str | os.PathLike[str]) -> list[str]:
    """``command`` run as ``user`` (through runuser, as root), or as is when ``user`` is None."""
    words = [os.fspath(word) for word in command]
    return ["runuser", "-u", user, "--", *words] if user else words
