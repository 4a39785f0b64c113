# Commands for a fresh machine: `make run`, `make serve` and `make test` (see README).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: run serve test bench lint format clean

$(PY):
	$(PYTHON) -m venv $(VENV)

run: $(PY)
	$(PIP) .
	$(VENV)/bin/dicesheets all --out output/

# the web page on http://127.0.0.1:8000/ (SERVE_ARGS="--port 8080 --open" to change)
serve: $(PY)
	$(PIP) '.[web]'
	$(VENV)/bin/dicesheets serve $(SERVE_ARGS)

test: $(PY)
	$(PIP) -e '.[test]'
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(PY) -m pytest

bench: $(PY)
	$(PIP) -e '.[test]'
	$(PY) -m bench

format: $(PY)
	$(VENV)/bin/ruff format generator tests bench
	$(VENV)/bin/ruff check --fix generator tests bench

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
