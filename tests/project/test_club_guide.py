"""The organiser's guide (docs/club.md), walked word for word as root on this Debian 12 machine:
its ```bash blocks in order, in one bash session, with the service's user made by the guide's own
``useradd`` and every command run as the user the guide names; its backup units checked by
systemd, and its backup script's retention.

What stands in for a real server (the guide's last section says the same to its reader):

- PostgreSQL 15: a throwaway cluster run by ``postgres`` with Debian's peer authentication on a
  socket only, reached through ``PGHOST`` and ``PGPORT`` instead of Debian's default socket;
- the paths ``/srv/scorekeeper``, ``/etc/scorekeeper``, ``/etc/systemd/system``,
  ``/var/backups/scorekeeper`` and ``/tmp`` are rewritten under a temporary folder, in the
  guide's blocks and in the ``deploy/`` files its clone holds, and ``127.0.0.1:8000`` becomes a
  free port;
- commands found first on ``PATH``: ``sudo`` is ``runuser`` (no sudo in CI; it keeps the
  environment, so ``PGHOST``), ``systemctl`` and ``journalctl`` run a unit's ``ExecStart`` by
  hand as its ``User`` with its ``EnvironmentFile`` and ``WorkingDirectory`` (no systemd runs
  here) and show what it printed, ``apt-get`` does nothing, and ``make install`` makes ``.venv``
  as :mod:`tests.commands.installed` does (Debian's Python, the tests' packages);
- ``$repository`` is a git repository made from the working tree (a global ``safe.directory``
  names it, since root owns it), given a second commit before the upgrade so that the rollback
  leaves a detached HEAD, and a third after the rollback, the fixed version;
- not run: the section for a machine without ``sudo`` (``su -`` would install a package and add a
  user to a group on this machine; the walk runs as root, where nothing is missing), and the HTTPS
  section (the proxies' tests load ``deploy/nginx.conf`` and ``deploy/Caddyfile``).
- added: after the service starts, a table made through the API; before and after the restore,
  which of the table's two tokens (the first, and the one ``sk new-token`` gave it after the
  backup) opens it; the restore again, as a second restore the same day; after ``git pull``, the
  block of "Install, and migrate" (the guide says to run it again there); after the rollback, a
  fixed version upgraded to as the guide says, its first block run again; marks saying where the
  clone's HEAD is after the rollback and at the end.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask

from tests.commands import installed
from tests.conftest import require
from tests.postgres import _free_port

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "club.md"
DEPLOY = ROOT / "deploy"
SERVICE_USER = "scorekeeper"
MOVED = ("/srv/scorekeeper", "/etc/scorekeeper", "/etc/systemd/system", "/var/backups/scorekeeper")
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
NOT_RUN = ("No `sudo`?", "HTTPS in front")
"""Sections whose blocks the walk leaves out, and why: see the module's docstring."""


@dataclass(frozen=True)
class Section:
    """A ``##`` section of the guide: its heading and its ```bash blocks with their lines."""

    heading: str
    blocks: list[tuple[int, str]]


def sections() -> list[Section]:
    found: list[Section] = []
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            found.append(Section(line[3:].strip(), []))
        elif line.startswith("```"):
            end = lines.index("```", index + 1)
            if line == "```bash" and found:
                found[-1].blocks.append((index + 1, "\n".join(lines[index + 1 : end])))
            index = end
        index += 1
    return found


def section(heading: str) -> Section:
    (found,) = [each for each in sections() if each.heading == heading]
    return found


def bash_lines() -> list[str]:
    return [line for each in sections() for _, block in each.blocks for line in block.splitlines()]


def test_the_guide_has_one_migration_line_run_through_sk() -> None:
    """The old docs had three ``db upgrade`` lines, each as another user with another database."""
    upgrades = [line for line in bash_lines() if "db upgrade" in line]
    assert upgrades == ["sk db upgrade"]
    for line in bash_lines():
        if ".venv/bin/scorekeeper" in line:
            assert line.startswith("sk() {"), line  # the app's command only through sk


def test_git_runs_as_the_clones_owner() -> None:
    """As the admin, git refuses a repository another user owns ("dubious ownership")."""
    runs = 0
    for line in bash_lines():
        if "apt-get" in line:
            continue
        for found in re.finditer(r"(?:^|[\s(])git\s", line):
            assert line[: found.start() + 1].endswith(f"sudo -u {SERVICE_USER} "), line
            runs += 1
    assert runs >= 5  # clone, rev-parse, pull, checkout, switch


def test_postgresql_commands_run_as_a_user_postgresql_knows() -> None:
    for line in bash_lines():
        for command in ("createdb", "createuser", "dropdb", "pg_restore", "pg_dump"):
            if re.search(rf"\b{command}\b", line):
                assert re.search(rf"sudo -u (postgres|{SERVICE_USER}) {command}\b", line), line


def test_the_way_to_sudo_names_the_admin_and_finds_adduser() -> None:
    """The one block the walk cannot run (it would change this machine's users): ``$USER`` in
    double quotes is the admin's name, expanded before ``su``; ``su -`` is a login shell, whose
    PATH has /usr/sbin, where adduser is (plain ``su`` keeps the user's PATH on Debian)."""
    ((_, block),) = section("No `sudo`?").blocks
    assert block == 'su - -c "apt-get install -y sudo && adduser $USER sudo"'
    assert "No `sudo`?" in NOT_RUN


# --- The backup units and script -----------------------------------------------------------


def test_systemd_reads_the_backup_units_without_a_complaint(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on the service and its timer, their paths pointing here."""
    if shutil.which("systemd-analyze") is None:
        require(
            "systemd-analyze is not on this machine (apt-get install -y systemd)",
            "CI needs it to check the units",
        )
    for name in ("scorekeeper-backup.service", "scorekeeper-backup.timer"):
        text = (DEPLOY / name).read_text().replace("/srv/scorekeeper", str(ROOT))
        (tmp_path / name).write_text(text)
    units = [
        str(tmp_path / "scorekeeper-backup.service"),
        str(tmp_path / "scorekeeper-backup.timer"),
    ]
    checked = subprocess.run(
        ["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=60
    )
    complaints = [line for line in checked.stderr.splitlines() if "scorekeeper-backup" in line]
    assert checked.returncode == 0 and not complaints, checked.stderr


def test_the_backup_service_runs_the_script_as_the_service_does() -> None:
    def settings(name: str) -> dict[str, str]:
        lines = (DEPLOY / name).read_text().splitlines()
        return dict(line.split("=", 1) for line in lines if "=" in line and line[0] not in "#[")

    backup, service = settings("scorekeeper-backup.service"), settings("scorekeeper.service")
    for key in ("User", "Group", "EnvironmentFile", "WorkingDirectory"):
        assert backup[key] == service[key], key
    assert backup["Type"] == "oneshot"
    assert backup["ExecStart"] == (
        "/srv/scorekeeper/deploy/scorekeeper-backup /var/backups/scorekeeper 14"
    )
    assert settings("scorekeeper-backup.timer")["Persistent"] == "true"


def backup(folder: Path, database: str, days: int = 14) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PGHOST")}
    return subprocess.run(
        [DEPLOY / "scorekeeper-backup", folder, str(days)],
        env={**environment, "DATABASE_URL": database, "SECRET_KEY": "backup-test"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_backup_script_keeps_the_days_it_is_given(sqlite_app: Flask, tmp_path: Path) -> None:
    """A copy older than DAYS days goes once a new one is made; a younger one stays; the
    newest is named ``latest``; a SQLite database is copied by ``scorekeeper db backup``."""
    database = sqlite_app.config["SQLALCHEMY_DATABASE_URI"]
    folder = tmp_path / "backups"
    folder.mkdir()
    old, young = folder / "scorekeeper-old.sqlite3", folder / "scorekeeper-young.sqlite3"
    for path, days in ((old, 15), (young, 13)):
        path.write_text("")
        subprocess.run(["touch", "-d", f"{days} days ago", path], check=True)

    ran = backup(folder, database)

    assert ran.returncode == 0, ran.stderr
    assert not old.exists() and young.exists()
    latest = folder / "latest.sqlite3"
    assert latest.is_symlink() and latest.resolve().parent == folder
    assert f"Backed up to {latest.resolve()} (" in ran.stdout
    assert "2 kept, none older than 14 days." in ran.stdout
    assert oct(latest.resolve().stat().st_mode & 0o777) == "0o600"
    assert not list(folder.glob("*.partial"))


def test_a_failed_backup_deletes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    old = folder / "scorekeeper-old.dump"
    old.write_text("")
    subprocess.run(["touch", "-d", "30 days ago", old], check=True)

    ran = backup(folder, "postgresql://club@127.0.0.1:1/scores")  # nothing listens on port 1

    assert ran.returncode != 0
    assert "pg_dump" in ran.stderr
    assert sorted(path.name for path in folder.iterdir()) == ["scorekeeper-old.dump"]


def test_a_backup_with_days_that_are_not_a_number_is_refused(tmp_path: Path) -> None:
    ran = subprocess.run(
        [DEPLOY / "scorekeeper-backup", tmp_path, "two weeks"], capture_output=True, text=True
    )
    assert ran.returncode == 2
    assert "DAYS is a whole number of days" in ran.stderr


# --- The walk ------------------------------------------------------------------------------


SUDO = """\
#!/bin/sh
# sudo as the guide is walked: as root already; -u USER through runuser, which keeps the
# environment (PGHOST and PGPORT, the throwaway cluster's socket).
if [ "$1" = -u ]; then
    user=$2
    shift 2
    exec runuser -u "$user" -- "$@"
fi
exec "$@"
"""

APT_GET = """\
#!/bin/sh
echo "apt-get $*: not run, the test machine has its packages"
"""

SYSTEMD = '''\
#!{python}
"""systemctl and journalctl as the guide is walked: no systemd runs here, so a unit's ExecStart
runs by hand as its User, with its EnvironmentFile and WorkingDirectory; what it prints goes to
a journal file per unit."""

import os
import pwd
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

UNITS = Path({units!r})
STATE = Path({state!r})
MACHINE = {machine!r}  # what a service finds on the machine: PostgreSQL's socket


def read(name):
    name = name if "." in name else name + ".service"
    settings, section = {{}}, None
    for line in (UNITS / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault((section, key.strip()), []).append(value.strip())
    return name, settings


def one(settings, key, default=None):
    return settings.get(("Service", key), [default])[-1]


def environment(settings):
    values = {{"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin", "LANG": "C.UTF-8"}}
    values.update(MACHINE)
    for assignments in settings.get(("Service", "Environment"), []):
        values.update(word.split("=", 1) for word in shlex.split(assignments))
    for file in settings.get(("Service", "EnvironmentFile"), []):
        for line in Path(file.lstrip("-")).read_text().splitlines():
            line = line.strip()
            if line and not line.startswith(("#", ";")):
                key, _, value = line.partition("=")
                values[key.strip()] = value.strip()
    return values


def alive(pid):
    try:
        state = Path(f"/proc/{{pid}}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start(unit):
    name, settings = read(unit)
    if name.endswith(".timer"):
        return  # enabled: systemd would start its service at the set times
    words = shlex.split(one(settings, "ExecStart").lstrip("-@:+!"))
    account = pwd.getpwnam(one(settings, "User", "root"))
    account_settings = {{
        "HOME": account.pw_dir,
        "USER": account.pw_name,
        "LOGNAME": account.pw_name,
        "SHELL": account.pw_shell,
    }}
    journal = open(STATE / (name + ".log"), "ab")
    options = dict(
        user=account.pw_uid,
        group=one(settings, "Group", account.pw_gid),
        extra_groups=[],
        cwd=one(settings, "WorkingDirectory", "/"),
        env={{**environment(settings), **account_settings}},
        stdin=subprocess.DEVNULL,
        stdout=journal,
        stderr=subprocess.STDOUT,
    )
    if one(settings, "Type") == "oneshot":
        if subprocess.run(words, **options).returncode:
            sys.exit(f"Job for {{name}} failed. See journalctl -u {{name}}.")
        return
    server = subprocess.Popen(words, start_new_session=True, **options)
    (STATE / (name + ".pid")).write_text(str(server.pid))
    host, port = words[words.index("-b") + 1].rsplit(":", 1)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"{{name}} exited at once. See journalctl -u {{name}}.")
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{{name}} did not listen within 90 s")


def stop(unit):
    name, _ = read(unit)
    pid_file = STATE / (name + ".pid")
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text())
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + 30
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if alive(pid):
        os.killpg(pid, signal.SIGKILL)
    pid_file.unlink()


def systemctl(args):
    now = "--now" in args
    verb, *units = [arg for arg in args if not arg.startswith("--")]
    for unit in units:
        read(unit)  # every unit named is installed
    if verb not in ("daemon-reload", "enable", "start", "stop", "restart"):
        sys.exit(f"systemctl {{verb}}: not stood in for")
    for unit in units:
        if verb in ("stop", "restart"):
            stop(unit)
        if verb in ("start", "restart") or (verb == "enable" and now):
            start(unit)


def journalctl(args):
    unit = args[args.index("-u") + 1]
    count = int(args[args.index("-n") + 1]) if "-n" in args else None
    name = unit if "." in unit else unit + ".service"
    lines = (STATE / (name + ".log")).read_text().splitlines()
    print("\\n".join(lines[-count:] if count else lines))


if Path(sys.argv[0]).name == "journalctl":
    journalctl(sys.argv[1:])
else:
    systemctl(sys.argv[1:])
'''

WALK = """\
# The walk's bash session, under a process that adopts whatever it leaves (PR_SET_CHILD_SUBREAPER):
# the services systemctl started outlive it, and once stopped they are reaped here, where no
# systemd (nor an init that reaps) would.
import ctypes, os, signal, subprocess, sys, time
from pathlib import Path

ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
walk = subprocess.run(["bash", sys.argv[1]])
subprocess.run([sys.argv[2], "stop", "scorekeeper"])

def children():
    mine = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            mine.append(int(stat.parent.name))
    return mine

deadline = time.monotonic() + 30
while children():
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if time.monotonic() > deadline:
        for pid in children():
            os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
sys.exit(walk.returncode)
"""

SEED = """\
import json, sys, urllib.request

base = f"http://127.0.0.1:{port}/api/v1"

def post(path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)

table = post("/tables", {"name": "Club"})
url, token = f"/tables/{table['id']}", table["token"]
ids = [post(f"{url}/players", {"name": name}, token)["id"] for name in ("Ann", "Bob")]
sides = [{"players": [ids[0]]}, {"players": [ids[1]]}]
game = post(f"{url}/games", {"players": 2, "sides": sides}, token)
post(f"{url}/games/{game['id']}/hands", {"sides": [{"distance": 25}, {"distance": 50}]}, token)
print(f"@@seeded table {table['id']}")
print(f"@@token {token}")
"""

TOKENS = """\
# Which of table 1's tokens open it: the first (the seed's), and the last one sk new-token gave it;
# both read from what the walk printed so far.
import re, sys, urllib.error, urllib.request
from pathlib import Path

printed = Path(sys.argv[1]).read_text()
first = re.search(r"^@@token (\\S+)$", printed, re.M)[1]
newer = re.findall(r"^Token \\(shown this once\\): (\\S+)$", printed, re.M)[-1]

def status(token):
    request = urllib.request.Request(
        "http://127.0.0.1:{port}/api/v1/tables/1/players",
        headers={"Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code

print(f"@@tokens {sys.argv[2]}: the first {status(first)}, the newer {status(newer)}")
"""


@dataclass(frozen=True)
class Machine:
    """The walk's stand-in for a Debian 12 server: its root folder, the service's port and
    PostgreSQL's socket."""

    root: Path
    port: int
    pg_socket: Path
    pg_port: int

    def moved(self, text: str) -> str:
        """``text`` with the guide's paths under ``root``, and the service on ``port``."""
        text = re.sub(r"(?<![\w/.])/tmp\b", f"{self.root}/tmp", text)  # first: root is in /tmp
        for path in MOVED:
            text = text.replace(path, f"{self.root}{path}")
        return text.replace("127.0.0.1:8000", f"127.0.0.1:{self.port}")


def walk_missing() -> str | None:
    """Why the guide cannot be walked here, or None."""
    if os.geteuid() != 0:
        return "the guide makes a system user and runs commands as three users: it needs root"
    for tool in ("runuser", "useradd", "userdel", "initdb", "pg_ctl", "pg_dump", "git", "curl"):
        if shutil.which(tool) is None:
            return f"{tool} is not on this machine"
    return installed.unreachable_for_others()


@pytest.fixture
def machine() -> Iterator[Machine]:
    """The folders of a Debian 12 server under a temporary root, PostgreSQL 15 running with
    Debian's peer authentication, and no ``scorekeeper`` user yet (the guide makes it)."""
    require(walk_missing(), "CI walks the organiser's guide")
    root = installed.folder_for_others("scorekeeper-guide-")
    _remove_a_user_left_by_an_earlier_walk()
    for folder in ("etc/systemd/system", "var/backups", "srv", "home/admin", "bin", "journal"):
        (root / folder).mkdir(parents=True)
    (root / "tmp").mkdir(mode=0o1777)
    (root / "tmp").chmod(0o1777)
    socket_folder, data = root / "run" / "postgresql", root / "pg"
    for folder in (socket_folder, data):
        folder.mkdir(parents=True)
        shutil.chown(folder, "postgres", "postgres")
    pg_port = _free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_postgres, "initdb", "-D", data / "data", "-U", "postgres", "-E", "UTF8"]
        + ["--auth-local=peer", "--auth-host=scram-sha-256"],
        check=True,
        capture_output=True,
    )
    options = f"-k {socket_folder} -c listen_addresses='' -p {pg_port} -c fsync=off"
    pg_ctl = [*as_postgres, "pg_ctl", "-D", str(data / "data"), "-l", str(data / "log"), "-w"]
    subprocess.run([*pg_ctl, "-o", options, "start"], check=True, capture_output=True)
    try:
        yield Machine(root, _free_port(), socket_folder, pg_port)
    finally:
        systemctl = root / "bin" / "systemctl"
        if systemctl.exists():
            subprocess.run([systemctl, "stop", "scorekeeper"], capture_output=True)
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        if _user_home(SERVICE_USER) == f"{root}/srv/scorekeeper":
            subprocess.run(["userdel", "--force", SERVICE_USER], check=True)
        shutil.rmtree(root, ignore_errors=True)


def _user_home(name: str) -> str | None:
    try:
        return pwd.getpwnam(name).pw_dir
    except KeyError:
        return None


def _remove_a_user_left_by_an_earlier_walk() -> None:
    home = _user_home(SERVICE_USER)
    if home is None:
        return
    if "/scorekeeper-guide-" not in home:
        pytest.fail(f"this machine has a user {SERVICE_USER} of its own; the guide makes one")
    subprocess.run(["userdel", "--force", SERVICE_USER], check=True)


def origin(machine: Machine) -> Path:
    """The app's repository as the guide clones it: the working tree's app, Makefile and
    ``deploy/`` (its paths moved under the machine's root), committed on ``main``."""
    repository = machine.root / "origin"
    installed.copy_source(repository)
    for name in ("Makefile", "pyproject.toml", ".gitignore"):
        shutil.copy(ROOT / name, repository / name)
    shutil.copytree(DEPLOY, repository / "deploy")
    for path in (repository / "deploy").iterdir():
        if path.suffix in (".service", ".timer", ".env"):
            path.write_text(machine.moved(path.read_text()))
    git = ["git", "-C", str(repository)]
    subprocess.run(["git", "init", "-q", "-b", "main", repository], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "The app as the guide installs it"], check=True)
    return repository


def fakes(machine: Machine) -> None:
    """The commands the walk finds first on ``PATH``."""
    folder = machine.root / "bin"
    shell_script = installed.INSTALL_SCRIPT
    units, state = machine.root / "etc" / "systemd" / "system", machine.root / "journal"
    systemd = SYSTEMD.format(
        python=sys.executable,
        units=str(units),
        state=str(state),
        machine={"PGHOST": str(machine.pg_socket), "PGPORT": str(machine.pg_port)},
    )
    make = (
        "#!/bin/sh\n# make, as the guide is walked: make install links the tests' packages.\n"
        'case "$*" in install | "install EXTRAS=postgres") ;;\n'
        '*) echo "make $*: only make install is stood in for" >&2; exit 2 ;;\nesac\n' + shell_script
    )
    for name, text in (
        ("sudo", SUDO),
        ("apt-get", APT_GET),
        ("systemctl", systemd),
        ("make", make),
    ):
        (folder / name).write_text(text)
        (folder / name).chmod(0o755)
    (folder / "journalctl").symlink_to("systemctl")


def script(machine: Machine, repository: Path) -> str:
    """The bash session: the guide's blocks, moved, with the walk's few additions (the module's
    docstring lists them). Its standard output goes to ``walk.out``, which it reads itself."""
    tokens = (
        f"{sys.executable} - {machine.root}/walk.out '{{when}}' <<'EOF'\n"
        f"{TOKENS.replace('{port}', str(machine.port))}EOF"
    )
    lines = [
        "set -euo pipefail",
        "umask 022",
        "trap 'echo \"@@failed at line $LINENO: $BASH_COMMAND\" >&2' ERR",
        f"cd {machine.root}/home/admin",
    ]
    install_block = machine.moved(section("Install, and migrate").blocks[0][1])
    for each in sections():
        if each.heading in NOT_RUN:
            continue
        if each.heading == "Upgrading, and rolling back":
            lines += [
                f"git -C {repository} commit -q --allow-empty -m 'A new version'",
                "echo '@@origin has a new version'",
            ]
        blocks = []
        for number, (line, block) in enumerate(each.blocks):
            block = re.sub(r"(?m)^repository=.*$", f"repository={repository}", machine.moved(block))
            blocks.append(block)
            if each.heading == "Restoring a backup":
                lines.append(tokens.replace("{when}", "before the restore"))
            lines += [f"echo '@@block {line}'", block]
            if each.heading == "The service":
                lines.append(
                    f"{sys.executable} - <<'EOF'\n{SEED.replace('{port}', str(machine.port))}EOF"
                )
            if each.heading == "Restoring a backup":
                lines += [
                    tokens.replace("{when}", "after the restore"),
                    "echo '@@restored again'",
                    block,
                ]
            if each.heading == "Upgrading, and rolling back":
                if number == 0:
                    lines += ["echo '@@install again'", install_block]
                if number == 2:
                    lines.append(
                        'echo "@@head after the rollback: $(sudo -u scorekeeper git rev-parse '
                        '--abbrev-ref HEAD)"'
                    )
        if each.heading == "Upgrading, and rolling back":
            # A fixed version is out: the guide's upgrade again, from the commit rolled back to.
            lines += [
                f"git -C {repository} commit -q --allow-empty -m 'A fixed version'",
                "echo '@@origin has a fixed version'",
                blocks[0],
                install_block,
                blocks[1],
            ]
    lines.append(
        f'echo "@@head at the end: $(cd {machine.root}/srv/scorekeeper && sudo -u scorekeeper '
        'git rev-parse --abbrev-ref HEAD)"'
    )
    return "\n".join(lines) + "\n"


def blocks_output(stdout: str) -> dict[int, str]:
    """What each block printed, by the line its fence opens on."""
    found: dict[int, str] = {}
    current = None
    for line in stdout.splitlines():
        mark = re.match(r"^@@block (\d+)$", line)
        if mark:
            current = int(mark[1])
            found[current] = ""
        elif current is not None and not line.startswith("@@"):
            found[current] += line + "\n"
    return found


def block_line(heading: str, containing: str) -> int:
    (line,) = [line for line, text in section(heading).blocks if containing in text]
    return line


def owners(folder: Path) -> set[str]:
    names = set()
    for where, folders, files in os.walk(folder):
        for name in [".", *folders, *files]:
            names.add(pwd.getpwuid(os.lstat(os.path.join(where, name)).st_uid).pw_name)
    return names


@pytest.mark.slow(55)
def test_the_guide_works_word_for_word_as_the_service_user(machine: Machine) -> None:
    repository = origin(machine)
    fakes(machine)
    # Root owns the repository; git serves it to another user only if it is named safe (a
    # global setting: a local clone does not pass on the environment's).
    (machine.root / "gitconfig").write_text(f"[safe]\n\tdirectory = {repository}/.git\n")
    session = script(machine, repository)
    (machine.root / "walk.sh").write_text(session)

    out = machine.root / "walk.out"
    with out.open("w") as walk_out:
        walked = subprocess.run(
            [
                sys.executable,
                "-c",
                WALK,
                machine.root / "walk.sh",
                machine.root / "bin" / "systemctl",
            ],
            cwd=machine.root,
            env={
                "PATH": f"{machine.root}/bin:{SYSTEM_PATH}",
                "HOME": f"{machine.root}/home/admin",
                "LANG": "C.UTF-8",
                "PGHOST": str(machine.pg_socket),
                "PGPORT": str(machine.pg_port),
                "GIT_CONFIG_GLOBAL": str(machine.root / "gitconfig"),
                "GIT_AUTHOR_NAME": "Test",
                "GIT_AUTHOR_EMAIL": "test@example.org",
                "GIT_COMMITTER_NAME": "Test",
                "GIT_COMMITTER_EMAIL": "test@example.org",
            },
            stdout=walk_out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=900,
        )
    ran = subprocess.CompletedProcess(
        walked.args, walked.returncode, out.read_text(), walked.stderr
    )
    journal = machine.root / "journal" / "scorekeeper.service.log"
    server_log = journal.read_text() if journal.exists() else ""
    assert ran.returncode == 0, f"{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}\n{server_log[-2000:]}"
    printed = blocks_output(ran.stdout)

    # The migration and everything after it ran as the service's user: nothing in its clone
    # belongs to root (the secret key that did kept the service out).
    clone = machine.root / "srv" / "scorekeeper"
    assert owners(clone) == {SERVICE_USER}
    assert owners(machine.root / "var" / "backups" / "scorekeeper") == {SERVICE_USER}

    # The service answered, and logged no error. It opened no control socket: gunicorn's
    # default one, under the service's home, is read-only under ProtectSystem=strict.
    assert printed[block_line("The service", "curl")] == "200\n"
    assert "Traceback" not in server_log
    assert "Control server" not in server_log and not (clone / ".gunicorn").exists()
    assert "@@seeded table 1" in ran.stdout

    # The tables, a new token, a table moved through a file in the admin's folder.
    tables_line = block_line("A table's id, a lost token, a table moved", "cd /tmp")
    assert printed[tables_line].splitlines()[1].split()[:3] == ["1", "2", "1"]
    token_line = block_line("A table's id, a lost token, a table moved", "new-token")
    assert "Share link: https://scores.example.org/join/1#mb_" in printed[token_line]
    document = (machine.root / "tmp" / "table.json").read_text()
    assert json.loads(document)["table"]["name"] == "Club"  # nothing of standard error in it
    moved_line = block_line("A table's id, a lost token, a table moved", "export")
    assert "Table 2 (Club) imported" in printed[moved_line]
    assert [row.split()[0] for row in printed[moved_line].splitlines()[-2:]] == ["1", "2"]

    # The nightly backup, its latest copy and the secret key beside it.
    backups = machine.root / "var" / "backups" / "scorekeeper"
    assert (backups / "latest.dump").resolve().suffix == ".dump"
    assert (backups / "secret_key").read_text() == (clone / "instance" / "secret_key").read_text()
    backup_line = block_line("Backups, every night", "journalctl")
    assert "Backed up to " in printed[backup_line]

    # The restore, twice: each time the app switched to a new database holding what the backup
    # held (the table imported after it is not there), the service restarted on it; the second
    # database's name did not clash with the first's.
    restore_line = block_line("Restoring a backup", "pg_restore")
    listed = [
        row.split() for row in printed[restore_line].splitlines() if row[:3].strip().isdigit()
    ]
    assert [(row[0], row[-1]) for row in listed] == [("1", "Club")] * 2, printed[restore_line]
    environment = (machine.root / "etc" / "scorekeeper" / "env").read_text()
    (database,) = re.findall(
        r"(?m)^DATABASE_URL=postgresql://scorekeeper@/(scorekeeper_\d{8}_\d{6})$", environment
    )
    served = re.findall(
        r"database: postgresql\+psycopg://scorekeeper@/(scorekeeper_\w+)", server_log
    )
    restored = sorted(set(served) - {"scorekeeper"})
    assert len(restored) == 2 and restored[-1] == database and served[-1] == database, served
    databases = subprocess.run(
        ["runuser", "-u", "postgres", "--", "psql", "-h", machine.pg_socket, "-p"]
        + [str(machine.pg_port), "-Atc", "SELECT datname FROM pg_database"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert set(restored) <= set(databases)
    # The tokens came back as the backup held them, as the guide warns: the one sk new-token
    # gave the table after the backup stopped working, and the first works again.
    assert "@@tokens before the restore: the first 401, the newer 200" in ran.stdout
    assert "@@tokens after the restore: the first 200, the newer 401" in ran.stdout

    # The upgrade pulled the new version; the rollback left a detached HEAD, and git said so.
    # The fixed version's upgrade noted the commit running, the one rolled back to, not the
    # branch's tip (the bad version), then came back to the branch and pulled the fix.
    assert "@@head after the rollback: HEAD" in ran.stdout
    assert "detached HEAD" in ran.stderr
    first, bad, fixed = subprocess.run(
        ["git", "-C", repository, "rev-list", "--reverse", "main"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    notes = re.findall(r"(?m)^Running ([0-9a-f]{40}), database at (\w+)$", ran.stdout)
    assert [commit for commit, _ in notes] == [first, first], (notes, bad)
    assert notes[0][1] == notes[1][1]
    assert "@@head at the end: main" in ran.stdout
    running = subprocess.run(
        ["runuser", "-u", SERVICE_USER, "--", "git", "-C", clone, "rev-parse", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert running == fixed
    # The admin's next shell has sk.
    later = subprocess.run(
        ["bash", "-c", ". ~/.bashrc && declare -F sk"],
        env={"HOME": f"{machine.root}/home/admin"},
        capture_output=True,
        text=True,
    )
    assert later.stdout == "sk\n", later.stderr
