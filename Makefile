# Two commands for a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: run test bench lint format clean

# What the installed package is built from: a change to any of these (an edit, a new or
# deleted file, which changes its folder) reinstalls; otherwise `make run` skips pip.
SOURCES := pyproject.toml README.md $(shell find generator templates task_catalog \
	-name __pycache__ -prune -o -print)
INSTALLED := $(VENV)/.installed

$(PY):
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): $(SOURCES) | $(PY)
	$(PIP) .
	touch $@

run: $(INSTALLED)
	$(VENV)/bin/dicesheets all --out output/

test: lint
	$(PY) -m pytest

# ruff (lint and format) and mypy: the checks `make test` runs before the tests
lint: $(PY)
	$(PIP) -e '.[test]'
	rm -f $(INSTALLED)  # the editable install replaced the one `make run` made
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy

bench: $(PY)
	$(PIP) -e '.[test,bench]'
	rm -f $(INSTALLED)
	$(PY) -m bench

format: $(PY)
	$(VENV)/bin/ruff format generator tests bench
	$(VENV)/bin/ruff check --fix generator tests bench

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
