# The README's first commands: `make run` serves, `make test` passes every test. Both set up
# the virtual environment themselves on a machine with only Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
export HOST PORT WORKERS

.PHONY: run test e2e bench fuzz soak load contract clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.installed-e2e: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,e2e]'
	touch $@

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

run: $(VENV)/.installed-app
	$(BIN)/gunicorn --config gunicorn.conf.py 'referee:create_app()'

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# Pages checked in a real headless Chromium (Debian's, installed here when missing).
e2e: $(VENV)/.installed-e2e
	command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium; }
	REFEREE_E2E=1 $(BIN)/python -m pytest tests/e2e

# openapi.yaml is generated from the code; this rewrites it (a test fails when it is stale).
contract: $(VENV)/.installed-app
	$(BIN)/python -m referee.http.contract openapi.yaml

BENCH_SECONDS ?= 3
bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench --seconds $(BENCH_SECONDS)

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
