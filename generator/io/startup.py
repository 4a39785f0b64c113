"""Start-up and run-time devices, in one place, each with what it saves (measured in bench/).

A device bends the code for speed rather than for clarity. Each is listed here with
the command it serves and what it saves (`python -m bench.bench_issue_speed`, part
"devices", and `python -m bench bench_devices`: the device as it is and turned off,
fresh processes in pairs, medians; figures in docs/figures/speed.json). One that saves
less than 20 ms of a command's time goes. The small ones live here; the others are
named with their module, which says why it is one.

- quick end (`quick_exit`): `os._exit` after a finished command, its exit functions
  run and its output flushed; Python's teardown of ~200–450 modules is skipped.
  Saves `kniffel advise` 44 ms, `kniffel block` 91 ms, `all` 230 ms, the help 19 ms
  (load 3–6).
- help from the shipped copy (`stored_help`, `generator/cli/help.json`, written by
  `python -m generator.cli.helpcopy`): click alone takes ~4× a bare interpreter. Every
  command's help as click prints it at the width of a pipe or a terminal of 80 columns or
  more, so the first help after a plain `pip install` is a copy too. Saves the root
  group's help ~45 ms, `kniffel advise`'s ~47 ms (load 1).
- a plain `numbers solve` and `kniffel advise` read without click
  (`generator/cli/fastpath.py`, a surface: it reads the command line): saves `numbers
  solve` 62 ms, `kniffel advise` ~25 ms of ~100 (click, the registry, the command tree).
- the default odds card's figures shipped (`generator/kniffel/shipped.py`): a cold `all`
  skips ~2.3 s of processor time (the Kniffel table and 100,000 games); a test solves
  and simulates them again.
- the coach without numpy (`kniffel/coach.py`, `generator.io.cache.StoredTable`):
  numpy and the whole table stay unread; `kniffel advise` from 270 to ~110 ms
  (`bench_kniffel_advise`). The web worker keeps the mapped tables and the parsed rule
  sets (`generator.web.products.table_for`, `rules_for`): an answer 7.9 → 3.4 ms of
  processor time.
- OpenBLAS threads sleep at once (`prepare`): ~0.3 s CPU of a cold table and simulation
  (`bench_cold_all`, "spinning as by default").
- allocator thresholds kept (`generator.io.cache.keep_freed_memory`, called before
  every computation the cache keeps): 0.8 s system time of a cold Kniffel table
  (`bench_kniffel_chain`).
- warm-ups forked by `all` (`warming`) and two processes sharing a solve
  (`generator/io/pair.py`, numpy's shared memory: it stays out of this module, which every
  command imports first): a cold table 0.55× (`bench_kniffel_chain`), a cold `all` with a
  seed or rule set not shipped 0.70× the time of one process (`bench_cold_all`); for the
  shipped default the warm-up finds nothing to do. `generator.core.team` is no device:
  it is the interface a solver takes (`ALONE` runs the work once, here), like `Store`.
- imports inside functions: `LAZY` below, each with what it keeps out of which command.

`tests/test_startup.py` fails on a function-local import outside the surfaces
(`SURFACES`: a command imports its own work when it runs) that `LAZY` does not name.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence

# the surfaces: a command imports its own work when it runs, so `--help`, the fast paths
# and every other command do without it (root --help alone imports 11 command modules)
SURFACES = ("generator/cli/", "generator/web/", "generator/surface/")

# module (or package prefix) → why code outside the surfaces imports it inside a function
LAZY: dict[str, str] = {
    # import circles still cut by a function-local import (the rooms issue removes them)
    "generator.core.errors": "circle: errors ↔ built",
    # heavy libraries: numpy ~60–120 ms, ReportLab ~80 ms, Jinja2 ~30 ms, pypdfium2 ~20 ms
    "numpy": "~60–120 ms: the block, the worksheet, the coach and the help do without it",
    "pypdfium2": "the PNG previews only (~20 ms)",
    "generator.render": "ReportLab (~80 ms): only what draws",
    "generator.io.preview": "pypdfium2 and PIL (~40 ms): the PNG previews only",
    "generator.io.pair": "numpy: only a cold solve",
    "generator.core.rollhold": "numpy: only what solves",
    "generator.kniffel.solver": "numpy: the block and the coach do without",
    "generator.kniffel.simulate": "numpy: only the odds card and `kniffel solve`",
    "generator.kniffel.odds": "numpy: only the odds card",
    "generator.kniffel.build": "the pages (Jinja2, ReportLab's metrics): not the warm-up",
    "generator.kniffel.block_layout": "ReportLab's metrics: only the block",
    "generator.kniffel.family_layout": "ReportLab's metrics: only the family block",
    "generator.kniffel.rulespage": "Jinja2: only a Kniffel product with its rules page",
    "generator.kniffel.rulespage_layout": "ReportLab's metrics: only the rules page",
    "generator.kniffel.oddscard": "Jinja2 and the layout: only the odds card",
    "generator.kniffel.oddscard_layout": "ReportLab's metrics: only the odds card",
    "generator.kniffel.scorefile": "only `kniffel score`",
    "generator.kniffel.table": "the coach's table: the block does without",
    "generator.kniffel.load": "the Kniffel edge (yaml): only what reads a rule set",
    "generator.koepfchen": "the Köpfchen room (numpy): only its commands, validate, report",
    "generator.kribbeln": "the Kribbeln room (numpy): only its commands, validate, report",
    "generator.worksheet": "the worksheet room (numpy): only its command and validate",
    "generator.numbers": "the numbers room (the odds tables ~15 ms): only what solves",
    "generator.validate": "validate and its rehearsal: only `validate`",
    "generator.text": "Jinja2 (~30 ms): only what writes words",
    "generator.io.templates": "Jinja2 (~30 ms): only what reads or compiles templates",
    "jinja2": "~30 ms: an error's words (`core.errors`), only when a message is said",
    "openpyxl": "~100 ms: only an Excel (.xlsx) class list",
    "zipfile": "only an Excel (.xlsx) class list",
    "generator.core.resources": "where errors.j2 lies: only when a message is said",
    "generator.core.langs": "validate's template check only (with the templates it reads)",
    "generator.registry": "the products' declarations: validate's rehearsal only",
    "generator.io.cache": "hashlib, mmap, tempfile: only what reads or keeps results",
    "generator.io.userfiles": "only what reads a user's file",
    "generator.io.progress": "click (~30 ms): only a long run, on a terminal",
    # the entry point: signals are caught before anything else is imported
    "generator.io.signals": "caught first, before click and the commands",
    "generator.io.startup": "the entry's devices, set up before anything else",
    "generator.cli": "the click CLI: not for a fast path or a stored help (~30 ms)",
    "_thread": "signals: an interrupt sent again from a thread of its own (rare)",
    "threading": "signals and the quick end, only when needed",
    "atexit": "the quick end runs the exit functions itself",
    "ctypes": "glibc's mallopt (`keep_freed_memory`): only before a cold solve",
    "fcntl": "the writer's folder lock: only a write",
    "tempfile": "~5 ms (shutil, random): only what stores a cache entry",
    "fractions": "exact arithmetic: only rational division",
    "re": "an error's or a parser's rare path",
    "json": "the shipped help's copy: only a plain help request",
    "sys": "signals: the main thread's frame",
    "itertools": "`possible_scores` only",
    "unicodedata": "names and stand-ins: only a text that is not ASCII",
    "codecs": "the stand-ins of a narrow stdout: only when it is not UTF-8",
    "generator.io.streams": "standard output set up by the entry, before the commands",
    "generator.core.built": "circle: words ↔ built (the format characters of names)",
}

# OpenBLAS's idle workers spin for ~0.1 s of processor time before they sleep, at the
# library's load and after each threaded call; in a cold `all` that time is taken from
# the other processes. The thread count is unchanged, so every dot product is split (and
# rounded) as before.
OPENBLAS_THREAD_TIMEOUT = "4"


def prepare() -> None:
    """What the console entry sets before anything is imported (a value the user set is kept)."""
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", OPENBLAS_THREAD_TIMEOUT)


def quick_exit(code: int) -> None:
    """End a finished command at once, without the interpreter's teardown.

    When a command returns, every file is written, closed and renamed; Python's shutdown
    would still free every module's objects one by one (and numpy's buffers, and end
    OpenBLAS's threads). The exit functions still run (a library may flush something
    there) and the output is flushed. With another thread still running, or output that
    cannot be written, it returns and Python ends as usual (and reports it as usual).
    """
    import atexit
    import threading

    if threading.active_count() > 1:
        return
    streams = [stream for stream in (sys.stdout, sys.stderr) if stream is not None]
    try:
        for stream in streams:
            stream.flush()
        atexit._run_exitfuncs()  # (and forgotten: Python's shutdown would not run them twice)
        for stream in streams:
            stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


# --- warm-ups forked by `dicesheets all` ---------------------------------------------------
# The Kniffel table and simulation (most of a cold run) start in a forked child, first
# thing, while this process imports and draws the other sheets.


class _Warm:
    """Child processes filling the solver cache, one per sheet with early solver work."""

    def __init__(self) -> None:
        self.pids: dict[int, int] = {}

    def ready(self, index: int) -> bool:
        pid = self.pids.get(index)
        if pid is not None and os.waitpid(pid, os.WNOHANG)[0] == pid:
            del self.pids[index]
        return index not in self.pids

    def wait(self, index: int) -> None:
        """Until the child is done; whatever became of it, the sheet's own build is exact."""
        pid = self.pids.pop(index, None)
        if pid is not None:
            os.waitpid(pid, 0)


@contextlib.contextmanager
def warming(
    warmups: Sequence[Callable[[], object] | None], shared: Sequence[str] = ()
) -> Iterator[_Warm]:
    """Start each warm-up in a forked child when a second processor is free; end them after.

    The modules in `shared` (what the warm-ups import, and the parent too) are imported
    before the fork: once, not in each process.

    A warm-up only fills the solver cache (atomic entries; it may share its work with a
    helper process of its own): if it fails, is killed, or the cache cannot be written,
    the parent computes the same values itself.
    """
    warm = _Warm()
    if any(job is not None for job in warmups) and _spare_processors():
        for name in shared:
            importlib.import_module(name)
        for index, job in enumerate(warmups):
            if job is not None:
                warm.pids[index] = _fork(job)
    try:
        yield warm
    finally:
        for pid in warm.pids.values():  # an error or Ctrl-C in the parent: stop the children
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGTERM)  # the child's helper too
                os.waitpid(pid, 0)


def cache_writable() -> bool:
    """Whether the solver cache can keep what a warm-up computes (it is made on first store)."""
    folder = _cache_folder()
    while not os.path.exists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)


def _cache_folder() -> str:
    """`generator.io.cache.cache_dir()` as a string, without pathlib (a test compares them)."""
    if env := os.environ.get("DICESHEETS_CACHE"):
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dicesheets")


def _spare_processors() -> bool:
    from generator.io.pair import spare_processors  # (numpy with it: only with a warm-up)

    return spare_processors()


def _fork(job: Callable[[], object]) -> int:
    """Run `job` in a forked child, in a process group of its own (with its helpers); its pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        with contextlib.suppress(OSError):  # (the child does it too: whoever is first)
            os.setpgid(pid, pid)
        return pid
    code = 1
    try:  # the child: quiet (the parent reports), then the job, then out without cleanup
        os.setpgid(0, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        job()
        code = 0
    finally:
        os._exit(code)


# --- help from the shipped copy ----------------------------------------------------------
# `dicesheets [COMMAND …] --help` prints the copy shipped in `generator/cli/help.json`,
# which is what click prints (`python -m generator.cli.helpcopy` writes it; a test checks
# it): importing click alone takes ~4× a bare interpreter. The copy names the size of
# every module the help is made from; when one differs (an edit not yet copied), or the
# output is not click's (another wrapping width, not UTF-8), click prints the help.

HELP_WIDTH = 78  # click wraps at min(columns, 80) − 2: every terminal of 80 or more, and a pipe
# the package's folder (this module lives in generator/io/)
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELP_COPY = os.path.join(PACKAGE, "cli", "help.json")


def _is_help(args: list[str], options: Sequence[str]) -> bool:
    return bool(args) and args[-1] in options and not any(w.startswith("-") for w in args[:-1])


def _width() -> int:
    """The width click wraps a help at (`click.formatting.HelpFormatter`: at least 50)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
        if columns <= 0:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 80
    return max(min(columns, 80) - 2, 50)


def _copy() -> dict[str, object]:
    import json

    try:
        with open(HELP_COPY, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def shipped_help(args: list[str], options: Sequence[str]) -> str | None:
    """The shipped copy of the help `args` asks for, if it is a plain help request (the last
    word one of the help `options`), the copy is click's for this output and is current."""
    if not _is_help(args, options) or _width() != HELP_WIDTH:
        return None
    if (getattr(sys.stdout, "encoding", None) or "").replace("-", "").lower() != "utf8":
        return None  # (click would write other bytes)
    data = _copy()
    package = os.path.dirname(os.path.dirname(HELP_COPY))  # (a test moves the copy)
    sources, helps = data.get("sources"), data.get("helps")
    if not isinstance(sources, dict) or not sources or not isinstance(helps, dict):
        return None
    if any(_size(os.path.join(package, rel)) != size for rel, size in sources.items()):
        return None
    text = helps.get(" ".join(args[:-1]))
    return text if isinstance(text, str) else None


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return -1


def stored_help(args: list[str], options: Sequence[str]) -> bool:
    """Print the shipped copy of the help `args` asks for, if there is a current one."""
    text = shipped_help(args, options)
    if text is None:
        return False
    sys.stdout.write(text)
    sys.stdout.flush()
    return True
