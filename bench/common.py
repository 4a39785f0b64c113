"""Timing helpers shared by the benchmarks: medians, never a single run."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple


def median_time(fn: Callable[[], Any], repeat: int = 5) -> tuple[float, Any]:
    """Median wall time of `fn()` over `repeat` runs, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def line(name: str, seconds: float, extra: str = "", baseline: float | None = None) -> None:
    """Print one benchmark figure: median, optional ratio against a baseline of the same run."""
    text = f"{name}: median {seconds * 1000:.1f} ms"
    if baseline:
        text += f" | ratio {seconds / baseline:.3g}× baseline ({baseline * 1000:.1f} ms)"
    if extra:
        text += f" | {extra}"
    print(text, flush=True)


class Pair(NamedTuple):
    """Medians of two commands run in turn: wall seconds, CPU seconds, and a/b ratios."""

    a: float
    b: float
    ratio: float  # median of the pair-by-pair wall ratios a/b
    a_cpu: float  # user + system of the process and its children
    b_cpu: float
    cpu_ratio: float


def user_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """This environment (plus `env`) for a timed run, bytecode written and reused as on a
    user's machine (PYTHONDONTWRITEBYTECODE is dropped)."""
    run = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run.update(env or {})
    return run


def run_once(cmd: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and processor seconds (user + system, children included) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def process_times(
    a: Sequence[str], b: Sequence[str], repeat: int = 7, env: dict[str, str] | None = None
) -> Pair:
    """Whole-process times of commands a and b run in turn (a b a b …, one warm-up each).

    Pairs taken close together keep the ratio fair when the shared machine's speed
    drifts; CPU time (children included) says what the wall time hides on a busy
    machine. Bytecode is written and reused as on a user's machine
    (PYTHONDONTWRITEBYTECODE is dropped).
    """
    run = user_env(env)

    def once(cmd: Sequence[str]) -> tuple[float, float]:
        return run_once(cmd, run)

    once(a), once(b)
    pairs = [(once(a), once(b)) for _ in range(repeat)]
    return Pair(
        statistics.median(ta[0] for ta, _ in pairs),
        statistics.median(tb[0] for _, tb in pairs),
        statistics.median(ta[0] / tb[0] for ta, tb in pairs),
        statistics.median(ta[1] for ta, _ in pairs),
        statistics.median(tb[1] for _, tb in pairs),
        statistics.median(ta[1] / tb[1] for ta, tb in pairs),
    )


def dicesheets(*args: str) -> list[str]:
    """The command line that runs `dicesheets ARGS` with this interpreter (console script)."""
    script = Path(sys.executable).with_name("dicesheets")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "generator", *args]


def source_at(commit: str, folder: Path) -> bool:
    """The project's files at `commit` (from git) extracted into `folder`; False without it."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", commit], capture_output=True)
    if archive.returncode != 0:
        print(f"baseline {commit} not in git history here: skipped", flush=True)
        return False
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return True
