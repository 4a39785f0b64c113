"""`dicesheets all`: the default set of sheets (what `make run` writes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.cli.options import run_catalog, write_out
from generator.io.startup import cache_writable, warming

if TYPE_CHECKING:
    from generator.core.built import Built


def all_command(out: str, seed: int) -> None:
    """Write the default set of sheets into a folder."""
    import os
    from pathlib import Path

    from generator.cli.defaults import default_set
    from generator.io.files import check_folder

    # refused before any work if it cannot be made; made with the first product's files
    # (a run that fails before them, a full stdout say, leaves no empty folder)
    check_folder(Path(out), "out")
    folder = out if out.endswith(("/", os.sep)) else out + os.sep
    items = list(default_set(seed, run_catalog()))  # (imports no game yet)
    # the warm-up hands its results over through the solver cache: no use if it is read-only
    warmups = [item.warm for item in items] if cache_writable() else []
    shared = [name for item in items if item.warm for name in item.shared]
    with warming(warmups, shared) as warm:
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
