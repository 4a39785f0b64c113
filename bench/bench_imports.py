"""Start-up imports of the PDF commands, per library (`python -X importtime`).

Run: `make bench` (or `python -m bench bench_imports`). Each command writes into a
temporary folder from a warm solver cache; the figures are the medians over the runs of
the import time per top-level package (self times added up), then the whole command's
wall time against a bare interpreter (`python -c pass`) in the same run.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import dicesheets, process_times

COMMANDS = {
    "kniffel block": ["kniffel", "block"],
    "kniffel odds": ["kniffel", "odds"],
    "worksheet": ["worksheet", "--level", "2"],
    "koepfchen board": ["koepfchen", "board"],
    "kribbeln block": ["kribbeln", "block"],
    "numbers solve": ["numbers", "solve", "3", "1", "2", "--target", "8"],
}
LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)")
RUNS = 5


def per_library(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Median milliseconds of import time per top-level package over RUNS runs."""
    runs: list[dict[str, float]] = []
    for _ in range(RUNS + 1):  # the first run writes the bytecode and is not counted
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "generator", *args],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        totals: dict[str, float] = {}
        for self_us, module in LINE.findall(proc.stderr):
            top = module.split(".")[0]
            totals[top] = totals.get(top, 0.0) + int(self_us) / 1000
        runs.append(totals)
    names = {name for run in runs[1:] for name in run}
    return {n: statistics.median(run.get(n, 0.0) for run in runs[1:]) for n in names}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["DICESHEETS_CACHE"] = str(Path(tmp) / "cache")
        out = str(Path(tmp) / "out") + "/"
        for name, args in COMMANDS.items():
            args = [*args, "--out", out] if args[0] != "numbers" else args
            subprocess.run(dicesheets(*args), env=env, check=True, capture_output=True)  # warm
            libs = per_library(args, env)
            total = sum(libs.values())
            top = sorted(libs.items(), key=lambda kv: -kv[1])[:8]
            shown = ", ".join(f"{lib} {ms:.1f}" for lib, ms in top)
            whole, bare, ratio, *_ = process_times(
                dicesheets(*args), [sys.executable, "-c", "pass"], 5, env
            )
            print(
                f"{name}: imports {total:.0f} ms ({shown} ms) | whole command median "
                f"{whole * 1000:.0f} ms, {ratio:.3g}× a bare interpreter ({bare * 1000:.0f} ms)",
                flush=True,
            )


if __name__ == "__main__":
    main()
