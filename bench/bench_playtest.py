"""The playtester's loop: edit a catalog file, rebuild a six-page Kribbeln block, get PNGs."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import line, median_time
from generator.cli import cli


def _run(args: list[str]) -> None:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(args, prog_name="dicesheets")
    except SystemExit as exc:
        if exc.code:
            raise RuntimeError(f"dicesheets {' '.join(args)} exited {exc.code}") from None


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        catalog = folder / "catalog"
        _run(["init", str(catalog)])
        balance = catalog / "kribbeln" / "balance.yaml"
        text = balance.read_text(encoding="utf-8")
        out = folder / "block.pdf"
        build = ["kribbeln", "block", "--catalog", str(catalog), "--out", str(out)]
        _run(build)  # warm the solver cache
        flip = [0]

        def edit() -> None:
            flip[0] ^= 1
            balance.write_text(text + f"\n# edit {flip[0]}\n", encoding="utf-8")

        def loop(png: bool) -> None:
            edit()
            _run(build + (["--png", str(folder / "png"), "--dpi", "100"] if png else []))

        t_png, _ = median_time(lambda: loop(True), repeat=5)
        t_pdf, _ = median_time(lambda: loop(False), repeat=5)
        pages = len(list((folder / "png").glob("*.png")))
        line("edit → six-page Kribbeln block → PNG (in-process, warm cache)", t_png,
             f"{pages} PNG pages at 100 dpi", baseline=t_pdf)  # fmt: skip

        def process() -> None:
            edit()
            subprocess.run(
                [sys.executable, "-m", "generator", *build, "--png", str(folder / "png")],
                check=True, capture_output=True,
            )  # fmt: skip

        t_proc, _ = median_time(process, repeat=3)
        line("same loop as a new process per rebuild (what --watch avoids)", t_proc,
             baseline=t_png)  # fmt: skip
