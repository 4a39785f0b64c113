"""Shared fixtures (the CLI in-process, a scratch output folder) and how xdist splits the suite."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from generator import registry
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


@pytest.fixture
def no_fallback_font():
    """A machine without a font for Chinese, Japanese, Korean names: the search looks nowhere."""
    from generator.render import fonts

    fonts.use_fallback_fonts(())
    yield
    fonts.use_fallback_fonts(fonts.FALLBACK_FONTS)


PRODUCT_OF = {kind: p.id for p in registry.PRODUCTS.values() for kind in p.page_kinds}
"""A page kind's product: the page-health tests (ids `kind-check`) go by product."""

FIRST = (
    "tests/test_fuzz.py", "tests/test_interrupts.py", "tests/test_default_set.py",
    "tests/test_kribbeln_block.py", "tests/test_kniffel_solver.py", "page-health-koepfchen",
    "tests/test_web_browser.py", "tests/test_worksheet_classset.py", "tests/test_worksheet_cli.py",
    "page-health-worksheet", "tests/test_validate.py", "tests/test_web_http.py",
    "page-health-report",
)  # fmt: skip
"""The longest units (a -n 2 run's --durations), handed out first so that no worker is
left alone with one at the end."""


def xdist_scope(nodeid: str) -> str:
    """The unit of tests one worker takes whole under `make test` (`-n auto --dist loadfile`).

    A test file, so its module fixtures are built once, as in one process; but the
    page-health matrix and the house style by product (a worker builds a product's
    documents once for both files, and the products spread over the workers), and each
    docs page's commands (independent, some take seconds) on their own.
    """
    path, _, name = nodeid.partition("::")
    param = name.partition("[")[2].rstrip("]")
    if path == "tests/test_page_health.py" and param:
        return "page-health-" + PRODUCT_OF.get(param.rsplit("-", 1)[0], param)
    if path == "tests/test_house_style.py" and param:  # ids: the product
        return "page-health-" + param
    if path == "tests/test_docs.py" and name.startswith("test_every_command_shown_runs["):
        return nodeid
    return path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile` by `xdist_scope` (xdist's own loadgroup marks rewrite node ids,
    which pytest 9.2 no longer honours: they would silently run as `--dist load`)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByScope(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_scope(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            for scope in reversed(FIRST):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return ByScope(config, log)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One clear line at the end when the real-browser tests could not run here."""
    if not Path("/usr/bin/chromium").exists():
        terminalreporter.write_line(
            "browser tests skipped: /usr/bin/chromium is missing (apt-get install chromium)"
        )
    from generator.render import fonts

    if not fonts.fallback_installed():
        terminalreporter.write_line(
            f"CJK font tests skipped: no fallback font (apt-get install {fonts.FALLBACK_PACKAGE})"
        )
