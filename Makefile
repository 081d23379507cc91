# The README's two commands are `make run` and `make test`; both set themselves up.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: install run test lint bench browser redis clean

install: $(STAMP)

# Re-installs only when pyproject.toml changes, so `make run` is quick the second time.
$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "error: $(PY) not found; install Python 3.11 or run 'make PY=python3 ...'"; exit 1; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@# uv (itself from PyPI) resolves and installs the same releases in seconds where pip
	@# takes a minute or more of a fresh clone's `make test`; pip when uv cannot be had.
	@echo "installing the project and its dependencies into $(VENV)"
	@# --compile-bytecode: compiled once here, in parallel, rather than by each test worker
	@# and each server the tests start, side by side, on a fresh clone's first run (pip
	@# compiles by itself).
	@{ $(BIN)/python -m pip install --quiet --disable-pip-version-check uv \
	   && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]'; } \
	 || $(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: install
	$(BIN)/assistant serve --demo

# Browser tests drive Debian's Chromium; install it when it is missing (needs root or sudo).
browser:
	@test -x $(CHROMIUM) || { \
	  echo "Chromium not found at $(CHROMIUM); installing the Debian package"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
	  || echo "warning: could not install chromium; the browser tests will fail and say why"; }

# Tests of shared state run a real redis-server; install Debian's when it is missing.
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "redis-server not found; installing the Debian package"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq redis-server >/dev/null \
	  || echo "warning: could not install redis-server; the shared-state tests will fail and say why"; }

# One pytest process per core and one more (pytest-xdist): the suite is ~4,800 tests,
# several of them real browsers and servers, and many wait on a CRM made slow or a turn's
# deadline on purpose, so a worker is often asleep (on 2 cores: 155 s with 3 workers, 185 s
# with 2). `make test PYTEST_ARGS=-n0` runs it in one process.
# Bytecode is written even where the environment says not to: every test worker and every
# server a test starts would otherwise compile the project (and pytest rewrite each test
# module's asserts) from source again, about 5 s of CPU a worker on a fresh clone.
# The project's own modules are compiled first, once (a fraction of a second when they
# already are): on a fresh clone both workers would otherwise compile the same ones.
# tests/fixtures/schedule.py hands the slowest parts out first (by what they last cost).
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST_ARGS ?= -n $(WORKERS) --dist loadgroup
test: install browser redis
	@PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q -j 0 assistant crm_stub bench
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: install
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.decisions
	$(BIN)/python -m bench.latency
	@test ! -f bench/soak.py || $(BIN)/python -m bench.soak

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
