"""Shared fixtures: running the CLI in-process and a scratch output folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import cli


@pytest.fixture
def run_cli(tmp_path: Path):
    """Run `dicesheets ARGS…` in-process, in `tmp_path` as the working folder."""

    def run(*args: str, input: str | None = None) -> Result:
        runner = CliRunner()
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            return runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)
        finally:
            os.chdir(cwd)

    return run


@pytest.fixture(autouse=True, scope="session")
def _session_cache(tmp_path_factory: pytest.TempPathFactory):
    """One solver cache per test session, never the user's own."""
    folder = tmp_path_factory.mktemp("cache")
    old = os.environ.get("DICESHEETS_CACHE")
    os.environ["DICESHEETS_CACHE"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("DICESHEETS_CACHE", None)
    else:
        os.environ["DICESHEETS_CACHE"] = old


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One clear line at the end when the real-browser tests could not run here."""
    if not Path("/usr/bin/chromium").exists():
        terminalreporter.write_line(
            "browser tests skipped: /usr/bin/chromium is missing (apt-get install chromium)"
        )
