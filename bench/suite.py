"""`make test` in a fresh clone, timed: `python -m bench.suite [--runs 3] [--busy 2] [REV]`.

Each run clones this repository at REV (default HEAD: commit first) into a new
temporary folder and runs `bash .ci/run` there (virtualenv, install, ruff, mypy and
every test), then prints its wall time, exit status, the 1-minute load average before
and after, and the tail of pytest's summary. `--busy N` starts N CPU-bound processes
beside the last run (the busy-machine proof). Not part of `make bench` (a run takes
minutes, and it measures the whole machine, not one function).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _spin() -> None:  # pragma: no cover - a CPU-bound neighbour, killed by the parent
    while True:
        pass


def _load() -> float:
    return os.getloadavg()[0]


def one_run(rev: str, log: Path) -> tuple[float, int]:
    """Clone at `rev`, run `.ci/run`; the wall seconds and the exit status."""
    with tempfile.TemporaryDirectory(prefix="dicesheets-suite-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", "--detach", rev], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env["DICESHEETS_CACHE"] = str(Path(tmp) / "cache")  # cold, like a fresh machine
        start = time.perf_counter()
        with log.open("wb") as out:
            done = subprocess.run(
                ["bash", ".ci/run"], cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--busy", type=int, default=0, help="CPU-bound processes beside the last run"
    )
    args = parser.parse_args()
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", args.rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    print(f"suite: {sha[:10]}, {os.cpu_count()} processors, {args.runs} run(s)", flush=True)
    for k in range(1, args.runs + 1):
        busy = args.busy if k == args.runs else 0
        spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(busy)]
        for p in spinners:
            p.start()
        before = _load()
        log = Path(tempfile.gettempdir()) / f"dicesheets-suite-{sha[:10]}-{k}.log"
        try:
            wall, status = one_run(sha, log)
        finally:
            for p in spinners:
                p.kill()
        tail = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()][-2:]
        print(
            f"run {k}: {wall / 60:.2f} min, exit {status}, load {before:.2f} → {_load():.2f}"
            f"{f', {busy} busy processes beside it' if busy else ''} | {' | '.join(tail)}"
            f" | log {log}",
            flush=True,
        )


if __name__ == "__main__":
    main()
