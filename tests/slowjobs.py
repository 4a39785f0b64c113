"""Jobs for the build pool's tests, importable by its worker processes."""

from __future__ import annotations

import time


def forever() -> None:
    """A build that never ends by itself (only a stop or the time limit ends it)."""
    while True:
        time.sleep(0.01)


def quick(value: int) -> int:
    return value * 2
