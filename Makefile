PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Two stamps: the service's own dependencies (make run), and those plus the development tools
# (tests, lint, type checks, locks). Each lock file pins its set with hashes.
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
# Where `make run` serves: `make run PORT=9000`, or `HOST=0.0.0.0` to be reached from a phone.
HOST ?= 127.0.0.1
PORT ?= 8000

# `make help` lists the targets with their one-line descriptions.
help: ## List the targets
	@awk -F ':.*## ' '/^[a-z-]+:.*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: help venv venv-run browser run test test-fast lint typecheck lock messages bench bench-load rehearsal clean

venv: $(STAMP) ## Install the service and the development tools into .venv

venv-run: $(RUN_STAMP) ## Install the service's dependencies alone into .venv

$(RUN_STAMP): requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	touch $(RUN_STAMP)

$(STAMP): requirements.lock requirements-dev.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.lock
	touch $(RUN_STAMP) $(STAMP)

# The service only: its runtime dependencies, none of the development tools. The worker that
# delivers the webhooks (manage.py worker) runs beside the server and stops with it.
# It first says which database it uses: the embedded SQLite, or the one an exported
# DATABASE_URL names (and stops in one sentence when that one cannot be reached).
run: venv-run ## Serve the app, the API and the webhook worker on HOST:PORT
	@DEBUG=$${DEBUG:-true} $(PY) manage.py database
	DEBUG=$${DEBUG:-true} $(PY) manage.py migrate
	DEBUG=$${DEBUG:-true} HOST=$(HOST) PORT=$(PORT) $(PY) manage.py seed_demo --if-empty
	DEBUG=$${DEBUG:-true} $(PY) manage.py worker --no-reload --verbosity 0 & worker=$$!; \
		trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; trap 'exit 0' INT TERM; \
		DEBUG=$${DEBUG:-true} $(PY) manage.py runserver $(HOST):$(PORT)

# The browser tests drive Debian's Chromium; as root on Debian, install it when it is missing.
browser: ## Install Debian's Chromium for the browser tests when it is missing
	@test -x "$${CHROMIUM:-/usr/bin/chromium}" || [ "$$(id -u)" != 0 ] || ! command -v apt-get \
		>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq chromium; }

# The tests run on the PostgreSQL named by DATABASE_URL; unset, on the one at 127.0.0.1:5432,
# and when none answers there, on a throwaway PostgreSQL of their own (tests/run.py).
# Both run on every core (pytest-xdist, -n auto: `make test WORKERS=0` for one process) in a
# random order (pytest-randomly; its seed is printed, `--randomly-seed=N` repeats an order).
WORKERS ?= auto
# More pytest arguments: `make test-fast ARGS="tests/scoring -k meld"`.
ARGS ?=
# Everything: the browser tests and the slow ones included.
test: venv browser ## Run every test (ARGS=... is passed on to pytest)
	SECRET_KEY=$${SECRET_KEY:-arlington-test-suite-key} $(PY) -m tests.run --create-db \
		-n $(WORKERS) $(ARGS)

# The quick loop: leaves out the browser tests (tests/web) and those marked slow (pytest -m),
# and runs a fifth of Hypothesis' examples per property test (the "fast" profile).
test-fast: venv ## Run every test but the browser and slow ones (ARGS=... to pytest)
	SECRET_KEY=$${SECRET_KEY:-arlington-test-suite-key} $(PY) -m tests.run --create-db -q \
		-n $(WORKERS) -m "not browser and not slow" --hypothesis-profile=fast $(ARGS)

lint: venv ## Check style, formatting and the layering contract
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: venv ## Check types (mypy --strict)
	DEBUG=true $(VENV)/bin/mypy --strict scoring/ matches/ accounts/ clubnight/ webhooks/

# The runtime lock first; the development lock is held to the same versions (-c) and adds the
# tools. Both carry hashes.
LOCK_FLAGS := --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links --no-emit-trusted-host
lock: venv ## Pin the dependencies with hashes in the lock files
	$(VENV)/bin/pip-compile $(LOCK_FLAGS) -o requirements.lock pyproject.toml
	$(VENV)/bin/pip-compile $(LOCK_FLAGS) --extra dev -c requirements.lock \
		-o requirements-dev.lock pyproject.toml

# Needs GNU gettext (msgmerge, msgfmt); the tests and the server only read the committed .mo files.
messages: venv ## Extract and compile the translations (needs GNU gettext)
	DEBUG=true $(PY) manage.py makemessages -l pt -l fr --no-location --no-obsolete \
		--ignore=.venv --ignore=tests --ignore=bench --ignore=docs
	DEBUG=true $(PY) manage.py compilemessages -l pt -l fr --ignore=.venv

bench: venv ## Benchmark the rules engine and the standings
	$(PY) bench/engine.py && $(PY) bench/standings.py

# Needs PostgreSQL and wrk (apt-get install wrk); about two minutes.
bench-load: venv ## Benchmark the API under load (needs PostgreSQL and wrk)
	$(PY) bench/load.py

# "Past one machine" rehearsed here (bench/cluster.py): PostgreSQL primary and replica, PgBouncer,
# Redis, two app servers behind HAProxy, a mixed load with faults; `make rehearsal SECONDS=60`.
SECONDS ?= 150
rehearsal: venv ## Rehearse several servers, a replica and faults (bench/cluster.py)
	$(PY) bench/cluster.py --seconds $(SECONDS)

clean: ## Remove .venv and the caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
