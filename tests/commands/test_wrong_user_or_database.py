"""A command run as the wrong user, or on a database no migration ran on, says so in a sentence
(exit 1), never with a traceback: the two ways an organiser got stuck following the docs.

How a file is made unreadable honestly: ``chmod 000`` stops no root, and the tests run as root
in CI. There, the command runs as ``nobody`` (``runuser``) on an installation of its own (the
app's instance folder is beside its source, so a copy gets its own), with the secret key
belonging to root or to ``daemon``: the kernel refuses the read, as it refused the service user
who met this. Run as another user, the tests take what that user can do: its own key at mode 000,
its own instance folder at 555.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commands import installed
from tests.conftest import require
from tests.postgres import scratch_database

ROOT_RUN = os.geteuid() == 0
USER = "nobody" if ROOT_RUN else None
"""Who runs the commands: ``nobody`` under root, else the user running the tests."""
NAME = USER or pwd.getpwuid(os.geteuid()).pw_name


@pytest.fixture(scope="module")
def installation() -> Iterator[Path]:
    """The app installed in a folder of its own, belonging to the user who runs the commands."""
    require(
        installed.unreachable_for_others() if ROOT_RUN else None,
        "CI runs these commands as another user",
    )
    folder = installed.folder_for_others("scorekeeper-user-")
    installed.install(folder, owner=USER)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def instance(installation: Path) -> Iterator[Path]:
    """The installation's instance folder, made anew by each test (as its user, if root)."""
    folder = installation / "instance"
    folder.mkdir()
    if USER:
        installed.give(folder, USER)
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(folder)


def scorekeeper(
    installation: Path, *args: str, database: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The installation's ``scorekeeper``, run by its user with no ``SECRET_KEY`` (so the key
    file is read) and ``DATABASE_URL`` only if given."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "SECRET_KEY", "PYTHONPATH")
    }
    if database:
        environment["DATABASE_URL"] = database
    return subprocess.run(
        installed.as_user(USER, installation / ".venv" / "bin" / "scorekeeper", *args),
        cwd=installation,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def said(ran: subprocess.CompletedProcess[str]) -> str:
    """The one sentence a refused command printed, checked to be one and no traceback."""
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "Traceback" not in ran.stderr, ran.stderr
    errors = [line for line in ran.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, ran.stderr
    return errors[0].removeprefix("Error: ")


def test_a_key_root_made_in_the_service_users_folder_is_given_back(
    installation: Path, instance: Path
) -> None:
    """The trap of the old docs: a first command run as root made the key, so the service user
    could not start. The sentence says to give it back, and doing so is enough."""
    if not ROOT_RUN:
        pytest.skip("only root can leave a key its user cannot read in that user's folder")
    key = instance / "secret_key"
    key.write_text("made-by-root")
    key.chmod(0o600)

    sentence = said(scorekeeper(installation, "tables"))

    assert sentence == (
        f"nobody cannot read {key}: it belongs to root (mode 600). A command run as root made "
        f"it in nobody's folder: give it back (`sudo chown nobody: {key}`), and run every "
        "command as nobody (`sudo -u nobody …`)."
    )
    subprocess.run(["chown", "nobody:", key], check=True)  # as the sentence says
    assert scorekeeper(installation, "db", "upgrade").returncode == 0
    listed = scorekeeper(installation, "tables")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("No table in ")


def test_a_key_of_another_user_names_its_owner(installation: Path, instance: Path) -> None:
    key = instance / "secret_key"
    key.write_text("someone-elses")
    key.chmod(0o600)
    owner = NAME
    if ROOT_RUN:
        owner = "daemon"
        shutil.chown(key, owner)
    else:
        key.chmod(0o000)  # the one way a user cannot read its own file

    sentence = said(scorekeeper(installation, "db", "current"))

    mode = "600" if ROOT_RUN else "000"
    assert sentence == (
        f"{NAME} cannot read {key}: it belongs to {owner} (mode {mode}). Run the command as "
        f"{owner} (`sudo -u {owner} …`)."
    )


def test_a_key_it_cannot_make_names_the_folders_owner(installation: Path, instance: Path) -> None:
    """No key yet, in an instance folder the user may not write: the first command of a user
    who is not the service's."""
    if ROOT_RUN:
        shutil.chown(instance, "root")
    else:
        instance.chmod(0o555)
    owner = "root" if ROOT_RUN else NAME

    sentence = said(scorekeeper(installation, "db", "upgrade"))

    assert sentence == (
        f"{NAME} cannot make {instance / 'secret_key'}: the folder belongs to {owner}. Run the "
        f"command as {owner} (`sudo -u {owner} …`)."
    )
    assert not (instance / "scorekeeper.sqlite3").exists()  # it stopped before the database


def test_help_says_it_in_a_sentence_and_still_lists_the_commands(
    installation: Path, instance: Path
) -> None:
    if ROOT_RUN:
        shutil.chown(instance, "root")
    else:
        instance.chmod(0o555)

    ran = scorekeeper(installation, "--help")

    assert ran.returncode == 0
    assert "Traceback" not in ran.stderr
    assert f"Error: {NAME} cannot make {instance / 'secret_key'}" in ran.stderr
    assert "simulate" in ran.stdout and "score" in ran.stdout


def test_without_database_url_an_empty_sqlite_file_says_where_it_is(
    installation: Path, instance: Path
) -> None:
    """The README's plain ``.venv/bin/scorekeeper export 1`` on a server: the SQLite file of the
    instance folder, made empty on the spot, said "The database cannot be reached"."""
    database = instance / "scorekeeper.sqlite3"

    ran = scorekeeper(installation, "export", "1")

    assert ran.stderr.startswith(f" * Database: sqlite:///{database}\n")
    assert said(ran) == (
        f"sqlite:///{database} lacks the scorekeeper's tables (there is no table "
        '"tables"): was it migrated? Run `scorekeeper db upgrade`, as the service\'s user with '
        "its environment, to make them. DATABASE_URL is not set, so this command used the SQLite "
        f"file {database}: to reach the club's database, set DATABASE_URL as the service's "
        "environment file does."
    )
    assert ran.stdout == ""


def test_every_table_command_says_it(installation: Path, instance: Path) -> None:
    for args in (["tables"], ["new-token", "1"], ["db", "backup", "copy.sqlite3"]):
        assert "was it migrated?" in said(scorekeeper(installation, *args)), args
    assert not (installation / "copy.sqlite3").exists()


@pytest.fixture
def empty_postgres(postgres_server: str) -> Iterator[str]:
    """A database of the test's PostgreSQL that no migration ran on."""
    with scratch_database(postgres_server, "never_migrated") as url:
        yield url


def test_an_unmigrated_postgresql_database_says_so(
    installation: Path, instance: Path, empty_postgres: str
) -> None:
    """PostgreSQL says ``relation "tables" does not exist`` (a ProgrammingError, where SQLite's
    is an OperationalError): it was a traceback."""
    ran = scorekeeper(installation, "tables", database=empty_postgres)

    assert said(ran) == (  # no password in the test's URL to hide
        f'{empty_postgres} lacks the scorekeeper\'s tables (there is no table "tables"): was it '
        "migrated? Run `scorekeeper db upgrade`, as the service's user with its environment, to "
        "make them."
    )
