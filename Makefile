# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

# The engine compiled by mypyc (setup.py decides what and how), built beside the source and never
# installed: the editable install stays pure Python. A .pth file puts it before the source for the
# virtual environment's commands (`make engine`); the test runs and the benchmarks put it first on
# PYTHONPATH. Built again only when an engine file (or setup.py, pyproject.toml) is newer; the
# compiler's own words go to build/compile.log.
# `make run`, `make install` and `make test` build the engine alone. `make compiled` (for `make
# bench` and the strength benchmarks) builds the reference players (reference/, research code the
# app never plays) beside it, their own group of extension modules in the same tree.
COMPILED := build/compiled
ENGINE_SOURCES := $(shell find engine -name '*.py' -o -name '*.json')
REFERENCE_SOURCES := $(shell find reference -name '*.py' -o -name '*.json')
# The tests that can tell the compiled engine from the pure one, run on both (docs/contributing
# says why these): the engine's own, the virtual games and the scoring over the API (the app's
# calls into the engine), the command line's simulate (worker processes) and the engine build.
# Every other test runs once, on the engine `make run` serves: compiled where this machine can
# build it. The doctests run in the pure run (pytest reads them from the .py files).
ENGINE_TESTS ?= tests/engine tests/api/test_virtual.py tests/api/test_virtual_cache.py \
	tests/api/test_virtual_hint.py tests/api/test_virtual_levels.py \
	tests/api/test_virtual_window.py tests/api/test_scoring_api.py tests/commands/test_cli.py \
	tests/project/test_engine_build.py
# Both test runs: PYTEST_WORKERS pytest-xdist workers (0: serially, in one process), each given an
# even, contiguous share of the tests at first (a module's module-scoped fixture is set up once or
# twice, not on every worker), a worker done early taking half of a busy one's tests; in a random
# order (pytest-randomly) drawn from the seed each run's header prints, `Using --randomly-seed=N`
# (SEED=N draws that order again; `PYTEST_ARGS='-p no:randomly'` keeps the files' order); the 15
# slowest tests named at the end. Three workers on a 2-core machine: a third fills the time the page
# tests wait on the browser; a fourth costs more CPU than it saves.
PYTEST_WORKERS ?= 3
SEED ?=
PYTEST_RUN = -n $(PYTEST_WORKERS) --dist worksteal --durations=15 \
	$(if $(SEED),--randomly-seed=$(SEED))
# Bytecode is written for the test runs even where the environment says not to: each worker, and
# each server or command a test starts, then loads the app and the tests compiled once.
PYTEST_ENV = PYTHONDONTWRITEBYTECODE=
# The compiled engine first on sys.path for a test run, the source tree behind it (for what the
# build does not hold: the reference players, unless `make compiled` built them): PYTHONSAFEPATH=1
# (`-P`, but for the xdist workers and the commands the tests start too) and
# `--import-mode=append` keep the current folder from coming first; ENGINE_EXPECT_COMPILED=1 makes
# tests/conftest.py fail the run unless every engine module meant to be compiled was imported from
# its extension module. `-p no:doctest` with pyproject.toml's addopts less --doctest-modules.
ON_COMPILED = ENGINE_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED):$(CURDIR) PYTHONSAFEPATH=1
COMPILED_PYTEST = --import-mode=append -p no:doctest -o addopts=--strict-markers

.PHONY: install run test test-compiled test-pure compiled engine lint typecheck bench docs pictures catalogs clean

# What make runs to set up says one line a step on the console; the tools' own words go to a log
# in build/, whose end is shown if the step fails. $(call quietly,LOG,COMMAND).
LOGS := build
quietly = mkdir -p $(LOGS) && if ! { $(2); } > $(LOGS)/$(1) 2>&1; then \
	tail -n 20 $(LOGS)/$(1); echo "That failed: $(LOGS)/$(1) has all it said."; exit 1; fi
TEST_EXTRAS := test,postgres,compiled,docs

# What goes into the virtual environment goes through uv's `uv pip install`: pip's interface, but
# it fetches and unpacks in parallel. The app and its tests' tools took 46 to 60 s through pip on
# a 2-core machine, and 4 to 5 s through uv, its cache empty. pip, which the virtual environment
# comes with, installs uv alone. uv reads no pip configuration: a package index other than PyPI
# is named by UV_INDEX_URL (or UV_DEFAULT_INDEX).
INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python -e

$(BIN)/python:
	@echo "Making the virtual environment $(VENV) ($$($(PYTHON) --version))."
	@$(call quietly,install.log,$(PYTHON) -m venv $(VENV))

$(BIN)/uv: | $(BIN)/python
	@$(call quietly,install.log,$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.9')

# The app, and what building the compiled engine takes (mypyc comes with mypy): the `compiled`
# extra.
$(VENV)/.installed-compiler: pyproject.toml | $(BIN)/uv
	@echo "Installing the app and what it needs into $(VENV) (uv's words: $(LOGS)/install.log)."
	@$(call quietly,install.log,$(INSTALL) '.[compiled]')
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/uv
	@echo "Installing the app and its tests' tools into $(VENV) (uv's words: $(LOGS)/install.log)."
	@$(call quietly,install.log,$(INSTALL) '.[$(TEST_EXTRAS)]')
	@touch $(VENV)/.installed-compiler $(VENV)/.installed-docs $@

# What building the documentation site takes: the `docs` extra (MkDocs, its Material theme, the
# i18n plugin that builds the French pages with a French interface, and Pillow for the pictures).
$(VENV)/.installed-docs: pyproject.toml | $(BIN)/uv
	@echo "Installing the documentation's tools into $(VENV) (uv's words: $(LOGS)/install.log)."
	@$(call quietly,install.log,$(INSTALL) '.[docs]')
	@touch $@

# Install only, for a server: the virtual environment, the app and its engine (compiled where a
# C compiler is at hand). Starts no server and makes no database: `scorekeeper db upgrade` makes
# or upgrades the one DATABASE_URL names. `make install EXTRAS=postgres` adds psycopg.
EXTRAS ?=
install: engine
	@$(if $(EXTRAS),$(call quietly,install.log,$(INSTALL) '.[$(EXTRAS)]'))
	@echo "Installed $$($(BIN)/scorekeeper --version) in $(VENV)$(if $(EXTRAS), with $(EXTRAS))."

run: engine
	@echo "Migrating the database (the migrations' words: $(LOGS)/upgrade.log)."
	@$(call quietly,upgrade.log,$(BIN)/scorekeeper db upgrade)
	@$(BIN)/scorekeeper run --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-test
	@$(MAKE) --no-print-directory engine
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports  # the layers and the engine's independence (pyproject.toml)
	$(BIN)/mypy
	@$(MAKE) --no-print-directory docs
	@if reason="$$($(BIN)/python setup.py why_not_compiled)" || [ "$$CI" = true ]; then \
		$(MAKE) --no-print-directory test-compiled test-pure; \
	else \
		echo "The whole suite on the pure engine (no compiled engine: $$reason)."; \
		$(PYTEST_ENV) $(BIN)/python -m pytest $(PYTEST_RUN) $(PYTEST_ARGS); \
	fi

# The whole suite on the compiled engine, the one `make run` serves (without a C compiler this
# fails, saying why: `make test` then runs the whole suite on the pure engine instead).
test-compiled: $(VENV)/.installed-test $(COMPILED)/.engine
	@echo "The whole suite on the compiled engine ($(COMPILED)):"
	$(PYTEST_ENV) $(ON_COMPILED) $(BIN)/python -m pytest $(COMPILED_PYTEST) $(PYTEST_RUN) \
		$(PYTEST_ARGS) tests

# The tests that can tell the two engines apart, and the doctests, on the pure engine (the source),
# on SQLite alone: the engine sees no database, and the compiled run tested both.
test-pure: $(VENV)/.installed-test
	@echo "Again on the pure engine: $(ENGINE_TESTS), and the doctests:"
	$(PYTEST_ENV) SCOREKEEPER_TEST_DATABASES=sqlite $(BIN)/python -m pytest $(PYTEST_RUN) \
		$(PYTEST_ARGS) $(ENGINE_TESTS) engine scorekeeper

# The engine the virtual environment's commands import (scorekeeper run and simulate, gunicorn):
# compiled when this machine can build it, put before the source by a .pth file in site-packages
# while it matches the source (scorekeeper/engine_build.py; Python started from the top of the
# tree still finds the source first); otherwise the source, saying why.
ENGINE_PTH = "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/compiled-engine.pth"
# Whether this machine can compile the engine: the reason on standard output if not, the words of
# the compiler it tried (a missing Python.h, say) in build/probe.log, not on the console.
WHY_NOT_COMPILED = mkdir -p $(LOGS) && $(BIN)/python setup.py why_not_compiled 2> $(LOGS)/probe.log
engine: $(VENV)/.installed-compiler
	@if reason="$$($(WHY_NOT_COMPILED))"; then \
		$(MAKE) --no-print-directory $(COMPILED)/.engine && \
		echo "import scorekeeper.engine_build as build; build.use_compiled('$(CURDIR)/$(COMPILED)')" \
			> $(ENGINE_PTH) && \
		echo "Engine: compiled ($(COMPILED))."; \
	else \
		rm -f $(ENGINE_PTH); \
		echo "Engine: pure Python (no compiled engine: $$reason)."; \
	fi

# The compiled engine and the reference players beside it, for the benchmarks, if this machine can
# build them; else why not.
compiled: $(VENV)/.installed-compiler
	@if reason="$$($(WHY_NOT_COMPILED))"; then \
		$(MAKE) --no-print-directory $(COMPILED)/.reference; \
	else \
		echo "No compiled engine: $$reason."; \
	fi

# A new $(COMPILED) holding the source of the packages $(1), then the extension modules built next
# to it (an extension module is imported before a .py of the same name), the C compiled on every
# core, the compiler's words in build/compile.log. $(2): setup.py's settings; $(3): what it is.
define compile
	@echo "Compiling $(3) with mypyc ($(LOGS)/compile.log has the compiler's words)."
	@rm -rf $(COMPILED) && mkdir -p $(COMPILED) && cp -R $(1) $(COMPILED)/
	@$(call quietly,compile.log,ENGINE_COMPILE=1 $(2) $(BIN)/python setup.py --quiet build_ext \
		--parallel $(CORES) --build-lib $(COMPILED) --build-temp build/temp)
	@touch $@
endef
CORES := $(shell nproc 2>/dev/null || echo 2)

$(COMPILED)/.engine: setup.py pyproject.toml $(ENGINE_SOURCES) | $(VENV)/.installed-compiler
	$(call compile,engine,,the engine)

# The reference players' build holds the engine too: it stands for both.
$(COMPILED)/.reference: setup.py pyproject.toml $(ENGINE_SOURCES) $(REFERENCE_SOURCES) \
		| $(VENV)/.installed-compiler
	$(call compile,engine reference,COMPILE_REFERENCE=1,the engine and the reference players)
	@touch $(COMPILED)/.engine

bench: $(VENV)/.installed-test compiled
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/load.py
	$(BIN)/python benchmarks/api_vs_bare.py  # needs wrk: sudo apt-get install wrk
	$(BIN)/python benchmarks/page_weight.py
	$(BIN)/python benchmarks/selfplay.py
	$(BIN)/python benchmarks/simulate_speed.py
	$(BIN)/python benchmarks/virtual_moves.py
	$(BIN)/python benchmarks/leaderboard.py
	$(BIN)/python benchmarks/feed.py
	$(BIN)/python benchmarks/live.py --paced --behind caddy  # a club's evening: needs caddy
	$(BIN)/python benchmarks/live.py --phones 340 --virtual-games 100 --modes threads,gevent

# The documentation site (mkdocs.yml) into site/, strictly: a warning, a broken link or anchor, a
# page left out of the nav, fails it. Open site/index.html, or `.venv/bin/mkdocs serve` while
# writing. (NO_MKDOCS_2_WARNING: the theme's banner about a future MkDocs, not about this site.)
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The documentation's pictures (scripts/pictures.py): the real pages in chromium at 360×640, in
# English and French, written into docs/pictures/. Run again after a change to the pages.
pictures: $(VENV)/.installed-test
	$(BIN)/python scripts/pictures.py

# The message catalogs from the sources (docs/contributing/translations.md): the template, then
# the French catalog merged with it. No line references, so moving code changes no catalog; no
# fuzzy guesses, so a new phrase arrives empty (a test fails until it is translated), never
# pre-filled with a near match's French.
catalogs: $(VENV)/.installed-test
	$(BIN)/pybabel extract -F babel.cfg --add-comments=TRANSLATORS: --no-location --sort-output \
	    --project="Mille Bornes scorekeeper" --copyright-holder="Mille Bornes scorekeeper" \
	    -o scorekeeper/translations/messages.pot . >/dev/null
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
	    --no-fuzzy-matching --ignore-obsolete >/dev/null

clean:
	rm -rf $(VENV) build site .pytest_cache .mypy_cache .ruff_cache .hypothesis
