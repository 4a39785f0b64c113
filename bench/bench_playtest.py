"""The playtester's loop: edit one task, rebuild a six-sheet Kribbeln pad with a pinned seed.

A designer with `--watch` keeps one seed and one file and edits a task between
rebuilds; each rebuild runs in the same process (as `--watch` does). Timed:
- edit → pad → PDF and PNG previews (the figure the loop is judged by: ≤ 1 s median);
- the same rebuild without an edit (baseline: what a rebuild costs whatever changed);
- edit → pad → PDF alone;
- the loop as a new process per rebuild (what `--watch` avoids).
The edited task cycles through counts whose figures the solver cache holds after the
first round, as a designer's second edit of a value finds them.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import line, median_time
from generator.cli import cli
from generator.io import preview

SEED = "7"
TASK = "  - {id: exactly2_red, type: exactly, color: red, count: %d, family: exact}\n"
COUNTS = (2, 3, 1)


def _run(args: list[str]) -> None:
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli.main(args, prog_name="dicesheets")
    except SystemExit as exc:
        if exc.code:
            raise RuntimeError(f"dicesheets {' '.join(args)} exited {exc.code}") from None


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        catalog = folder / "catalog"
        _run(["init", str(catalog), "--game", "kribbeln"])
        tasks = catalog / "kribbeln" / "tasks.yaml"
        text = tasks.read_text(encoding="utf-8")
        assert TASK % 2 in text, "the edited task is not in the shipped catalog"
        out = folder / "block.pdf"
        build = ["kribbeln", "block", "--catalog", str(catalog), "--seed", SEED, "--out", str(out)]
        png = ["--png", str(folder / "png"), "--dpi", "100"]
        step = [0]

        def edit() -> None:
            step[0] += 1
            count = COUNTS[step[0] % len(COUNTS)]
            tasks.write_text(text.replace(TASK % 2, TASK % count), encoding="utf-8")

        for _ in COUNTS:  # warm: every edited value's figures, the templates, the fonts
            edit()
            _run(build + png)

        def loop(with_png: bool, fresh: bool = True) -> None:
            edit()
            if fresh:  # every page encoded anew, as when the edit moved tasks on every sheet
                preview._ENCODED.clear()
            _run(build + (png if with_png else []))

        def same() -> None:
            preview._ENCODED.clear()
            _run(build + png)

        t_png, _ = median_time(lambda: loop(True), repeat=9)
        t_same, _ = median_time(same, repeat=9)
        t_kept, _ = median_time(lambda: loop(True, fresh=False), repeat=9)
        t_pdf, _ = median_time(lambda: loop(False), repeat=9)
        pages = len(list((folder / "png").glob("*.png")))
        line(f"edit one task → six-sheet pad (seed {SEED}) → PDF + PNG, in-process", t_png,
             f"{pages} PNG pages at 100 dpi, all encoded; aim ≤ 1000 ms; baseline: the same "
             "rebuild without an edit", baseline=t_same)  # fmt: skip
        line("the same loop, pages seen before reused (a value tried before)", t_kept,
             baseline=t_png)  # fmt: skip
        line("edit one task → pad → PDF only", t_pdf, baseline=t_png)

        def process() -> None:
            edit()
            subprocess.run(
                [sys.executable, "-m", "generator", *build, *png], check=True, capture_output=True
            )

        t_proc, _ = median_time(process, repeat=3)
        line("same loop as a new process per rebuild (what --watch avoids)", t_proc,
             baseline=t_png)  # fmt: skip
