"""Timing helpers shared by the benchmarks: medians, never a single run."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


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
