# Commands for a fresh machine: `make run`, `make serve` and `make test` (see README).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# pytest's options for `make test`: every core, each test file on one worker (its module
# fixtures built once); `make test PYTEST_ARGS="-n 0 tests/test_x.py"` runs one file alone
PYTEST_ARGS ?= -n auto --dist loadfile

# bash for pipefail: pip's status survives the filter below
SHELL := bash
.SHELLFLAGS := -o pipefail -c

.PHONY: run serve test bench lint format clean

# One editable install in .venv serves every target, each adding its extras once: the code,
# templates and catalog are read from this folder, so an edit needs no reinstall; only a
# change of pyproject.toml (dependencies, entry points) or of this file installs again.
# The stamps are never removed by another target, so switching between `make run` and
# `make test` installs nothing.
INSTALLED := $(VENV)/.installed
INSTALLED_WEB := $(VENV)/.installed-web
INSTALLED_TEST := $(VENV)/.installed-test
INSTALLED_BENCH := $(VENV)/.installed-bench
DEPS := pyproject.toml Makefile

# pip in full (a line per package, its progress bars on a terminal), without the warning it
# repeats per package when the machine's pip configuration names an index folder that is
# missing ("Location '…' is ignored: it is neither a file nor a directory")
define pip_install
@echo "make: installing dicesheets$(2) into $(VENV) (pip; a few minutes the first time)"
@{ $(PY) -m pip install --disable-pip-version-check --progress-bar on -e '.$(2)' 2>&1 1>&3 \
	| sed '/is ignored: it is neither a file nor a directory/d' >&2; } 3>&1
@touch $(1)
endef
# an extra's install is also the install of those it contains: [test] ⊇ [web] ⊇ the package

$(PY):
	@echo "make: creating the virtualenv $(VENV) ($(PYTHON) -m venv)"
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): $(DEPS) | $(PY)
	$(call pip_install,$@,)

$(INSTALLED_WEB): $(DEPS) | $(PY)
	$(call pip_install,$@ $(INSTALLED),[web])

$(INSTALLED_TEST): $(DEPS) | $(PY)
	$(call pip_install,$@ $(INSTALLED_WEB) $(INSTALLED),[test])

$(INSTALLED_BENCH): $(DEPS) | $(PY)
	$(call pip_install,$@ $(INSTALLED_TEST) $(INSTALLED_WEB) $(INSTALLED),[test,bench])

run: $(INSTALLED)
	@echo "make: writing the default sheets into output/ (dicesheets all)"
	$(VENV)/bin/dicesheets all --out output/

# the web page on http://127.0.0.1:8000/ (SERVE_ARGS="--port 8080 --open" to change)
serve: $(INSTALLED_WEB)
	$(VENV)/bin/dicesheets serve $(SERVE_ARGS)

# exit status 5 is pytest's "no tests collected" (a PYTEST_ARGS selection matched
# nothing): said in one line, not a failure of the run
test: lint
	@echo "make: running the tests (pytest $(PYTEST_ARGS))"
	@$(PY) -m pytest $(PYTEST_ARGS) || { s=$$?; [ $$s -eq 5 ] && echo "make: no tests collected"; [ $$s -eq 5 ]; }

# ruff (lint and format) and mypy: the checks `make test` runs before the tests
lint: $(INSTALLED_TEST)
	@echo "make: ruff and mypy"
	$(VENV)/bin/ruff check generator tests bench
	$(VENV)/bin/ruff format --check generator tests bench
	$(VENV)/bin/mypy

bench: $(INSTALLED_BENCH)
	$(PY) -m bench

format: $(INSTALLED_TEST)
	$(VENV)/bin/ruff format generator tests bench
	$(VENV)/bin/ruff check --fix generator tests bench

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
