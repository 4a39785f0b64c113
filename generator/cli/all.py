"""`dicesheets all`: the default set of sheets (what `make run` writes)."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import click

from generator.cli.options import run_catalog, seed_option, write_out

if TYPE_CHECKING:
    from generator.core.built import Built


@click.command("all")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="output",
    show_default=True,
    help="Folder for the sheets.",
)
@seed_option(help="Random seed.")
def all_command(out: str, seed: int) -> None:
    """Write the default set of sheets into a folder."""
    from pathlib import Path

    from generator.cli.defaults import default_set

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    items = list(default_set(seed, run_catalog()))  # (imports no game yet)
    # the warm-up hands its results over through the solver cache: no use if it is read-only
    warmups = [item.warm for item in items] if _cache_writable() else []
    shared = [name for item in items if item.warm for name in item.shared]
    with _warming(warmups, shared) as warm:
        # the warm-up runs from here on: the second processor is busy while this one imports
        from generator.io import writer

        ahead: dict[int, tuple[Built, list[bytes]]] = {}
        for i, item in enumerate(items):
            build = item.build
            if not warm.ready(i):
                # its solver work still runs in the other processes: build and render what
                # comes after meanwhile, read what of its own is there, then write
                # everything in the usual order
                for j in range(i + 1, len(items)):
                    if j not in ahead and warm.ready(j):
                        built = items[j].build()
                        ahead[j] = (built, writer.render_all(built))
                if item.prepare is not None:
                    build = item.prepare()
                warm.wait(i)
            built, pdfs = ahead.pop(i) if i in ahead else (build(), None)
            write_out(built, folder, pdfs=pdfs)


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
def _warming(
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


def _cache_writable() -> bool:
    from generator.io.cache import cache_dir

    folder = cache_dir()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the cache folder is made on the first store
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


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
