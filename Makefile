# `make run` and `make test` do everything on a fresh machine (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
WEB_PROCESSES ?= $(shell nproc 2>/dev/null || echo 1)
# The Celery worker's processes (one task at a time each, one database connection each).
WORKER_PROCESSES ?= $(shell nproc 2>/dev/null || echo 1)
# The tests run on one process per core and one more (tests/process_isolation.py): a browser
# test, or one with live servers, leaves its core idle while it waits for a page or a socket.
# 0 runs them in this one.
TEST_PROCESSES ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

# The engine modules compiled with mypyc (README.md, "Development"): all but the exceptions
# (errors), which derive from ValueError, what only loads data or drives whole games
# (decklists, simulation, shuffle), and the words of a "you may" prompt (wording), spelled once
# per such decision. The invariants and the simulations' game loop (checked_play) are compiled
# although only simulations use them: they run after every action of every simulated game.
ENGINE_COMPILED := actions api checked_play combat continuous effects events invariants phases \
	printed rules select setup state triggers views rng
ENGINE_SOURCES := $(wildcard game/engine/*.py)

.PHONY: run test lint format install setup catalog bench start engine

run: setup
	$(PY) manage.py runserver $(HOST):$(PORT)

setup: catalog
	$(PY) manage.py demo

catalog: install engine
	mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_cards
	$(PY) manage.py standard_queues

test: install engine
	mkdir -p var
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) -m pytest --numprocesses $(TEST_PROCESSES) --dist worksteal $(PYTEST_ARGS)

# Production mode: web, worker and beat from the Procfile, WEB_PROCESSES web processes (one per
# core) on HOST:PORT, PORT+1 and so on, for the proxy to share the sockets among. The demo
# players' passwords are published, so they are created only when asked for: `make start DEMO=1`.
start: catalog
	$(if $(DEMO),$(PY) manage.py demo)
	$(PY) manage.py collectstatic --noinput --verbosity 0
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" HOST=$(HOST) WORKER_PROCESSES=$(WORKER_PROCESSES) $(VENV)/bin/honcho start --port $(PORT) \
		--concurrency web=$(WEB_PROCESSES)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy game/engine

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: setup
	$(PY) benchmarks/card_browser.py
	$(PY) benchmarks/card_faces.py
	$(PY) benchmarks/collection_manager.py
	$(PY) benchmarks/deck_builder.py
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/lobby_chat.py
	$(PY) benchmarks/lobby_pages.py
	$(PY) benchmarks/match_load.py
	$(PY) benchmarks/ai.py
	$(PY) benchmarks/tournament_simulation.py
	$(PY) benchmarks/soak.py
	$(PY) benchmarks/computer_reply.py

install: $(VENV)/.installed

# Compiled again whenever a source changed; until then the package imports the sources.
engine: game/engine/.compiled

game/engine/.compiled: Makefile $(VENV)/.installed $(ENGINE_SOURCES)
	rm -f game/engine/*.so *__mypyc.*.so
	@mkdir -p var
	@echo "Compiling the engine with mypyc (log: var/engine-build.log)"
	@$(VENV)/bin/mypyc $(ENGINE_COMPILED:%=game/engine/%.py) > var/engine-build.log 2>&1 \
		|| { cat var/engine-build.log; exit 1; }
	@# The modules' own files are small stubs, copied with their old times when unchanged.
	touch game/engine/*.so $@

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $@
