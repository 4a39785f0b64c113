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
- help from a stored copy (`stored_help`, `keeping_help`): click alone takes ~4× a bare
  interpreter. The first help click prints keeps every command's (`every`), one copy per
  wrapping width; the Makefile's install asks for one. Saves the root group's help 77 ms,
  `kniffel advise`'s 61 ms.
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
import hashlib
import importlib
import io
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO

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


_SEALED = b"dicesheets-cache 2 "  # `generator.io.cache.FORMAT`
_HELP_BYTES = 1 << 16  # a stored help is a few KB


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


# --- help from a stored copy ---------------------------------------------------------------
# `dicesheets [COMMAND …] --help` prints what click printed last time for the same words, the
# same terminal width and program name and the same code: importing click alone takes ~4×
# a bare interpreter. The copy is an entry of the solver cache (`help/<key>`), sealed like
# every entry; its key covers every file of the package (path, size, modification time)
# and of click, so an edit or an upgrade makes a new one.


# the package's folder (this module lives in generator/io/): the registry's options, the
# commands' words, every module a help is made from
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _is_help(args: list[str], options: Sequence[str]) -> bool:
    words = args[:-1]
    return bool(args) and args[-1] in options and all(w.isidentifier() for w in words)


def _help_path(args: list[str]) -> str | None:
    """Where the copy of the help `args` asks for is kept (None: no copy for this output)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").replace("-", "").lower()
    if encoding != "utf8":  # (click would write other bytes)
        return None
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
        if columns <= 0:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 80
    # the width click wraps at (`click.formatting.HelpFormatter`: at most 80 columns less 2,
    # at least 50), so every terminal of 80 columns or more, and a pipe, share one copy; the
    # program name is always "dicesheets", and each help option prints the same
    width = max(min(columns, 80) - 2, 50)
    digest = hashlib.sha256()
    for part in [*args[:-1], "help", str(width), *_locale()]:
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    click_spec = _find("click")
    for root in (PACKAGE, click_spec):
        if root is None:
            return None
        for path, size, mtime in _files(root):
            digest.update(f"{path}\0{size}\0{mtime}\0".encode("utf-8", "surrogateescape"))
    return os.path.join(_cache_folder(), "help", f"{digest.hexdigest()[:32]}.txt")


def _cache_folder() -> str:
    """`generator.io.cache.cache_dir()` as a string, without pathlib (a test compares them)."""
    if env := os.environ.get("DICESHEETS_CACHE"):
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dicesheets")


def _read_sealed(path: str) -> bytes | None:
    """`generator.io.cache.read_entry` for a small entry, with os and hashlib only."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _HELP_BYTES:
            return None
        data = os.read(fd, _HELP_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    header, _, payload = data.partition(b"\n")
    if header != _SEALED + hashlib.sha256(payload).hexdigest().encode():
        return None
    return payload


def _locale() -> list[str]:
    return [os.environ.get(name, "") for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]


def _find(name: str) -> str | None:
    for folder in sys.path:
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(os.path.join(candidate, "__init__.py")):
            return candidate
    return None


def _files(root: str) -> Iterator[tuple[str, int, int]]:
    """Every .py file below `root` with its size and modification time, in a fixed order."""
    with os.scandir(root) as entries:
        found = sorted(entries, key=lambda e: e.name)
    for entry in found:
        if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
            yield from _files(entry.path)
        elif entry.name.endswith(".py"):
            info = entry.stat(follow_symlinks=False)
            yield entry.path, info.st_size, info.st_mtime_ns


def stored_help(args: list[str], options: Sequence[str]) -> bool:
    """Print the stored help of `args` if it is a plain help request (the last word one of
    the help `options`) and a copy is kept."""
    if not _is_help(args, options):
        return False
    path = _help_path(args)
    if path is None:
        return False
    text = _read_sealed(path)
    if not text:
        return False
    sys.stdout.buffer.write(text)
    sys.stdout.flush()
    return True


class keeping_help:
    """Around the click run of a plain help request: keep what it prints (status 0 only), and
    then, with `every` (the surface's: each command's words and help), every other help not
    kept yet — so after the first help of an install, each command's is a copy."""

    def __init__(
        self,
        args: list[str],
        options: Sequence[str],
        every: Callable[[], Iterator[tuple[list[str], bytes]]] | None = None,
    ) -> None:
        self.path = _help_path(args) if _is_help(args, options) else None
        self.out: TextIO | None = None
        self.kept = io.BytesIO()
        self.every = every

    def __enter__(self) -> None:
        if self.path is not None:
            self.out = sys.stdout
            sys.stdout = io.TextIOWrapper(self.kept, encoding="utf-8", newline="")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if self.path is None or self.out is None:
            return
        captured, sys.stdout = sys.stdout, self.out
        captured.flush()
        data = self.kept.getvalue()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        if isinstance(exc, SystemExit) and exc.code in (0, None) and data:
            from generator.io.cache import cache_dir, store_entry

            store_entry(cache_dir() / "help" / os.path.basename(self.path), data)
            for words, text in self.every() if self.every is not None else ():
                path = _help_path([*words, "help"])  # (the last word is not read)
                if path is not None and not os.path.exists(path):
                    store_entry(cache_dir() / "help" / os.path.basename(path), text)


def captured_help(run: Callable[[], object]) -> bytes:
    """What `run` (a click run of a help request, ending in SystemExit) prints, as bytes."""
    out, kept = sys.stdout, io.BytesIO()
    sys.stdout = io.TextIOWrapper(kept, encoding="utf-8", newline="")
    try:
        run()
    except SystemExit as done:
        if done.code not in (0, None):
            return b""
    finally:
        captured, sys.stdout = sys.stdout, out
        captured.flush()
    return kept.getvalue()
