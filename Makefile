# Commands for a fresh machine: `make run`, `make serve` and `make test` (see README).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: run serve test bench lint format clean

# What the installed package is built from: a change to any of these (an edit, a new or
# deleted file, which changes its folder) reinstalls; otherwise `make run` skips pip.
SOURCES := pyproject.toml README.md $(shell find generator templates task_catalog \
	-name __pycache__ -prune -o -print)
INSTALLED := $(VENV)/.installed
INSTALLED_WEB := $(VENV)/.installed-web

$(PY):
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): $(SOURCES) | $(PY)
	$(PIP) .
	touch $@

run: $(INSTALLED)
	$(VENV)/bin/dicesheets all --out output/

$(INSTALLED_WEB): $(SOURCES) | $(PY)
	$(PIP) '.[web]'
	touch $@

# the web page on http://127.0.0.1:8000/ (SERVE_ARGS="--port 8080 --open" to change)
serve: $(INSTALLED_WEB)
	$(VENV)/bin/dicesheets serve $(SERVE_ARGS)

test: lint
	$(PY) -m pytest

# ruff (lint and format) and mypy: the checks `make test` runs before the tests
lint: $(PY)
	$(PIP) -e '.[test]'
	rm -f $(INSTALLED) $(INSTALLED_WEB)  # the editable install replaced the one `make run` made
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy

bench: $(PY)
	$(PIP) -e '.[test,bench]'
	rm -f $(INSTALLED) $(INSTALLED_WEB)
	$(PY) -m bench

format: $(PY)
	$(VENV)/bin/ruff format generator tests bench
	$(VENV)/bin/ruff check --fix generator tests bench

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
