"""The documentation, run as a newcomer would run it: the README and the pages of the site.

What is run, and how:

- The README, then the site's pages in the order of its navigation (``mkdocs.yml``, each page's
  French version under ``docs/fr/`` right after it), are read block by block. The organiser's
  guide, ``docs/club.md``, is left out: it is walked as the service's user on PostgreSQL by
  ``test_club_guide.py``.
- Each ```json block must name, in the prose just above it, the file of ``examples/`` it shows,
  and must be that file. Each ```sh block is run for real, all of them in one bash session (so
  shell variables carry from block to block, and from page to page, as they do for a reader
  pasting the blocks in order) under ``set -euo pipefail``, in a scratch folder holding a copy of
  ``examples/`` and a ``.venv`` link to the environment running the tests. A ```text block right
  after a ```sh block is that block's output, exactly. ```console blocks are shown, not run.
- Not run: lines starting with ``make`` (``make run`` serves until stopped, and ``make test`` is
  what runs this test); every other line runs as written.
- The server is the production line (:func:`server_line`: the gunicorn line of the organiser's
  guide, or of the systemd unit it installs), started in the background after ``scorekeeper db
  upgrade``, on a new SQLite database in a temporary instance folder (``DATABASE_URL``) with its
  own ``SECRET_KEY``. The one rewrite: every ``127.0.0.1:<port>`` in a command becomes the free
  port the test picked.
- Answers: curl reads a ``.curlrc`` (``CURL_HOME``) that writes each response's status to stderr,
  so the commands stay as written. After each ``# -> NNN …`` line the script prints a mark: the
  commands since the previous mark must have made exactly one request, answered NNN, and every
  header (``ETag: "…"``, ``Idempotent-Replayed: true``) or JSON field (``"status": "won"``) the line
  shows must be in their output. A request with no ``# ->`` line after it fails the test too.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.once import once_per_run

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RULES = ROOT / "RULES.md"
EXAMPLES = ROOT / "examples"
CLUB = DOCS / "club.md"
"""The organiser's guide: walked by its own test, and where the production line is written."""
UNIT = ROOT / "deploy" / "scorekeeper.service"

SERVER_LINE = re.compile(r"\S*/gunicorn\s.*'scorekeeper:create_app\(\)'")
ANSWER_LINE = re.compile(r"^#\s*->\s*(\d{3})\b(.*)$")
SHOWN_HEADER = re.compile(
    r"\b(ETag|Idempotent-Replayed|Location|Preference-Applied): (\"[^\"]*\"|[^\s\"]+)"
)
SHOWN_FIELD = re.compile(r'"(\w+)": ("[^"…]*"|-?\d+|null|true|false|\[[-\d, ]*\])')
MARK = "@@mark "
STATUS = "@@status "


FRENCH = DOCS / "fr"
"""The French tree of the site (mkdocs-static-i18n's folder layout): each page has the name of
the English page it translates, and the nav names only the English one."""


def nav_pages() -> list[Path]:
    """The site's pages in the order of its navigation, each English page followed by its French
    version, if it has one."""
    return [
        page
        for english in english_pages()
        for page in (english, FRENCH / english.relative_to(DOCS))
        if page.exists() or page == english
    ]


def english_pages() -> list[Path]:
    """The pages ``mkdocs.yml``'s nav names, in its order."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def flatten(entries: Any) -> Iterator[str]:
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(value, list):
                yield from flatten(value)
            else:
                yield value

    return [DOCS / page for page in flatten(config["nav"])]


def walked() -> list[Path]:
    """What this test runs: the README, then the site's pages in order, but the club's guide."""
    return [README, *(page for page in nav_pages() if page != CLUB)]


def server_line() -> str:
    """The production server's gunicorn line, as ``.venv/bin/gunicorn …``: the organiser's
    guide's, if it writes one out, else the ``ExecStart`` of the systemd unit it installs."""
    sources = [CLUB] if CLUB.exists() else []
    for path in [*sources, UNIT]:
        for line in path.read_text(encoding="utf-8").splitlines():
            found = SERVER_LINE.search(line)
            if found:
                return re.sub(r"^\S*/gunicorn", ".venv/bin/gunicorn", found[0])
    raise AssertionError(f"no gunicorn line in {CLUB.name} nor in {UNIT.name}")


@dataclass
class Block:
    """A fenced block of a page, and the prose just above it."""

    page: Path
    kind: str
    text: str
    line: int
    above: str

    @property
    def name(self) -> str:
        """Where the block is: ``docs/api.md:42``."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Answer:
    """What a ``# ->`` line says the request just before it gets."""

    status: int
    shown: str
    command: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    fields: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Run:
    """The walk: each mark's stdout and statuses, the answers expected, and the outputs."""

    returncode: int
    stdout: str
    stderr: str
    server_log: str
    segments: dict[str, tuple[str, list[int]]]
    answers: dict[str, Answer]
    outputs: dict[str, str]


def page_blocks(page: Path) -> list[Block]:
    """A page's fenced blocks, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    above: list[str] = []
    index = 0
    while index < len(lines):
        opening = re.match(r"^```(\w*)", lines[index])
        if opening is None:
            above.append(lines[index])
            index += 1
            continue
        end = lines.index("```", index + 1)
        text = "\n".join(lines[index + 1 : end])
        found.append(Block(page, opening[1], text, index + 1, "\n".join(above)))
        above = []
        index = end + 1
    return found


def blocks() -> list[Block]:
    """The fenced blocks of every page walked, in order."""
    return [block for page in walked() for block in page_blocks(page)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def on_port(line: str, port: int) -> str:
    """``line`` with every loopback address (and gunicorn's bind address) on ``port``."""
    line = re.sub(r"(-b|--bind)\s+\S+:\d+", rf"\1 127.0.0.1:{port}", line)
    return re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", line)


def script(port: int) -> tuple[str, dict[str, Answer], dict[str, str]]:
    """The bash script of every ```sh block, marked; the answers and outputs it should give."""
    lines = [
        "set -euo pipefail",
        "trap 'echo \"@@failed at line $LINENO: $BASH_COMMAND\" >&2' ERR",
        # The production server, as the organiser's guide starts it, on a new database.
        ".venv/bin/scorekeeper db upgrade",
        f"{on_port(server_line(), port)} > server.log 2>&1 &",
        "echo $! > server.pid",
        "for _ in $(seq 300); do "
        f"(exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 0.1; done",
        'kill -0 "$(cat server.pid)"  # the port is answered by our server',
    ]
    answers: dict[str, Answer] = {}
    outputs: dict[str, str] = {}
    every = blocks()

    def mark(name: str) -> None:
        lines.append(f"printf '\\n{MARK}{name}\\n'; printf '{MARK}{name}\\n' >&2")

    mark("server")
    command: list[str] = []
    for number, block in enumerate(every):
        if block.kind != "sh":
            continue
        following = every[number + 1] if number + 1 < len(every) else None
        if following is not None and following.kind == "text" and following.page == block.page:
            outputs[block.name] = following.text
        for line in block.text.splitlines():
            if line.startswith("make "):
                continue
            line = on_port(line, port)
            lines.append(line)
            answer = ANSWER_LINE.match(line)
            if answer is None:
                if line.strip() and not line.lstrip().startswith("#"):
                    command.append(line.strip())
                continue
            shown = answer[2]
            key = f"answer-{len(answers)}"
            answers[key] = Answer(
                status=int(answer[1]),
                shown=f"{block.name}: {line}",
                command=" ".join(command),
                headers=SHOWN_HEADER.findall(shown),
                fields=SHOWN_FIELD.findall(shown),
            )
            command = []
            mark(key)
        mark(block.name)  # what the block printed since its last answer (all of it, if none)
        command = []
    mark("end")
    return "\n".join(lines) + "\n", answers, outputs


def split(stream: str, with_statuses: bool) -> dict[str, tuple[str, list[int]]]:
    """Each mark's share of ``stream``: what came before it since the previous mark."""
    segments: dict[str, tuple[str, list[int]]] = {}
    text: list[str] = []
    statuses: list[int] = []
    for line in stream.split("\n"):
        if line.startswith(MARK):
            segments[line.removeprefix(MARK)] = ("\n".join(text), statuses)
            text, statuses = [], []
        elif with_statuses and line.startswith(STATUS):
            statuses.append(int(line.removeprefix(STATUS)))
        else:
            text.append(line)
    return segments


@pytest.fixture(scope="module")
def docs_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Every command of the documentation, run once for the test run (whatever the workers) in a
    scratch folder against a new server."""
    missing = [tool for tool in ("bash", "curl", "python3") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs {', '.join(missing)} to run the documentation's commands")
        pytest.skip(f"the documentation's commands need {', '.join(missing)}")
    return once_per_run(tmp_path_factory, "docs-run", lambda: run_the_docs(tmp_path_factory))


def run_the_docs(tmp_path_factory: pytest.TempPathFactory) -> Run:
    scratch = tmp_path_factory.mktemp("clone")
    shutil.copytree(EXAMPLES, scratch / "examples")
    (scratch / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    instance = tmp_path_factory.mktemp("instance")
    curl_home = tmp_path_factory.mktemp("curl")
    (curl_home / ".curlrc").write_text(f'write-out = "%{{stderr}}{STATUS}%{{http_code}}\\n"\n')
    port = free_port()
    text, answers, outputs = script(port)
    (scratch / "docs.sh").write_text(text)
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
        "SECRET_KEY": secrets.token_urlsafe(32),
        "CURL_HOME": str(curl_home),
    }
    try:
        done = subprocess.run(
            ["bash", "docs.sh"],
            cwd=scratch,
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        _stop_server(scratch / "server.pid")
    log = scratch / "server.log"
    stdout = split(done.stdout, with_statuses=False)
    stderr = split(done.stderr, with_statuses=True)
    return Run(
        returncode=done.returncode,
        stdout=done.stdout,
        stderr=done.stderr,
        server_log=log.read_text() if log.exists() else "",
        segments={key: (stdout.get(key, ("", []))[0], stderr[key][1]) for key in stderr},
        answers=answers,
        outputs=outputs,
    )


def _stop_server(pid_file: Path) -> None:
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text())
    try:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            os.kill(pid, 0)
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.slow(40)
def test_every_command_of_the_documentation_runs(docs_run: Run) -> None:
    assert docs_run.returncode == 0, (
        f"stderr:\n{docs_run.stderr[-3000:]}\nserver:\n{docs_run.server_log[-2000:]}"
    )
    assert "end" in docs_run.segments


def test_the_walk_covers_the_readme_the_api_and_the_command_line() -> None:
    """The blocks the README held before the site are run from the pages that took them."""
    pages = {block.page.relative_to(ROOT).as_posix() for block in blocks() if block.kind == "sh"}
    assert {"README.md", "docs/api.md", "docs/command-line.md"} <= pages
    assert CLUB not in walked() and CLUB in nav_pages()
    assert len([block for block in blocks() if block.kind == "sh"]) >= 24


def test_the_server_is_started_with_the_production_line() -> None:
    words = shlex.split(server_line())
    assert words[0] == ".venv/bin/gunicorn" and words[-1] == "scorekeeper:create_app()"
    assert "--access-logfile" in words  # gunicorn keeps no access log unless told
    (unit,) = [line for line in UNIT.read_text().splitlines() if line.startswith("ExecStart=")]
    assert shlex.split(unit)[1:] == words[1:], "the unit runs another line than the guide's"


def test_every_request_is_answered_as_the_documentation_says(docs_run: Run) -> None:
    assert len(docs_run.answers) >= 30
    wrong = []
    for key, answer in docs_run.answers.items():
        _, statuses = docs_run.segments.get(key, ("", []))
        if statuses != [answer.status]:
            wrong.append(f"{answer.shown}\n  {answer.command}\n  server: {statuses}")
    assert not wrong, "\n".join(wrong)


def test_every_request_has_its_answer_line(docs_run: Run) -> None:
    unannounced = {
        key: statuses
        for key, (_, statuses) in docs_run.segments.items()
        if key not in docs_run.answers and statuses
    }
    assert not unannounced, f"requests with no '# ->' line after them, before mark: {unannounced}"


def test_headers_and_fields_the_documentation_shows_are_sent(docs_run: Run) -> None:
    checked = 0
    wrong = []
    for key, answer in docs_run.answers.items():
        output = docs_run.segments.get(key, ("", []))[0]
        for name, value in answer.headers:
            checked += 1
            if not re.search(rf"(?im)^{name}: {re.escape(value)}\r?$", output):
                wrong.append(f"{answer.shown}\n  no header {name}: {value} in:\n{output[:800]}")
        for name, value in answer.fields:
            checked += 1
            pattern = re.escape(value).replace(",\\ ", r",\s*")
            if not re.search(rf'"{name}":\s*{pattern}(?![\w.])', output):
                wrong.append(f"{answer.shown}\n  no {name}: {value} in:\n{output[:800]}")
    assert checked >= 40
    assert not wrong, "\n".join(wrong)


def test_outputs_the_documentation_shows_are_printed(docs_run: Run) -> None:
    assert docs_run.outputs, "the documentation shows no command output to check"
    for key, expected in docs_run.outputs.items():
        printed = docs_run.segments.get(key, ("", []))[0]
        assert printed.strip("\n") == expected.strip("\n"), key


def test_json_examples_are_the_shipped_files() -> None:
    shown = [block for block in blocks() if block.kind == "json"]
    assert shown
    for block in shown:
        names = re.findall(r"\b(examples/[\w.-]+\.json)\b", block.above)
        assert names, f"the JSON at {block.name} names no file of examples/"
        path = ROOT / names[-1]
        assert json.loads(block.text) == json.loads(path.read_text(encoding="utf-8")), path.name


def test_every_example_file_is_used_by_the_documentation() -> None:
    text = "\n".join(page.read_text(encoding="utf-8") for page in walked())
    files = sorted(path.name for path in EXAMPLES.iterdir() if path.is_file())
    assert files
    assert [name for name in files if f"examples/{name}" not in text] == []


def test_every_json_example_is_valid_json() -> None:
    for path in EXAMPLES.glob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))


def test_the_rules_reference_has_every_section_the_code_cites() -> None:
    sections = re.findall(r"^## (\d+a?)\. ", RULES.read_text(encoding="utf-8"), re.MULTILINE)
    assert sections == [*map(str, range(1, 6)), "5a", *map(str, range(6, 14))]
    cited: dict[str, str] = {}
    sources = [
        *ROOT.glob("engine/**/*.py"),
        *ROOT.glob("scorekeeper/**/*.py"),
        *ROOT.glob("scorekeeper/templates/**/*.html"),
        ROOT / "openapi.yaml",
        README,
        *DOCS.glob("**/*.md"),
        RULES,
    ]
    for path in sources:
        for number in re.findall(r"§\s?(\d+a?)", path.read_text(encoding="utf-8")):
            cited.setdefault(number, str(path.relative_to(ROOT)))
    assert {"4", "5", "11", "12"} <= cited.keys()
    assert {number: where for number, where in cited.items() if number not in sections} == {}


def test_the_site_shows_the_rules_reference() -> None:
    """The site's rules page is RULES.md itself (included when the site is built), so the app's
    refusals and the site cite the same sections."""
    assert DOCS / "rules.md" in nav_pages()
    assert '--8<-- "RULES.md"' in (DOCS / "rules.md").read_text(encoding="utf-8")


def test_the_documented_server_logs_each_request_and_never_a_token(docs_run: Run) -> None:
    """The production line writes an access log (gunicorn keeps none unless told), names its
    database at start-up, and no table or seat token the walk was given reaches the log."""
    log = docs_run.server_log
    assert re.search(r'"POST /api/v1/tables HTTP/1\.1" 201 ', log), log[-2000:]
    assert re.search(r"\[INFO\] Scorekeeper \S+, database: sqlite:///\S+", log), log[:2000]
    given = set(re.findall(r"\bmbs?_[A-Za-z0-9_-]{20,}", docs_run.stdout))
    assert given, "the walk was given no token to look for"
    assert not [token for token in given if token in log]
