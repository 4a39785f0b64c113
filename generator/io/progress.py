"""Progress bars for runs that take a while: shown on a terminal, silent otherwise.

Uses click's progress bar (click is already a dependency). The bar appears only
when stderr is a terminal and the run lasts longer than about a second, so
pipes, CI logs and tests stay clean.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

Tick = Callable[[int], None]

DELAY = 1.0  # seconds before a bar is worth showing


def _ignore(n: int = 1) -> None:
    """The tick of a run without a bar."""


@contextmanager
def progress(total: int, label: str) -> Iterator[Tick]:
    """Yield `tick(n)` to report n more units done out of `total`."""
    if not sys.stderr.isatty() or total <= 0:
        yield _ignore
        return
    start = time.monotonic()
    done = 0
    bar = None
    try:

        def tick(n: int = 1) -> None:
            nonlocal done, bar
            done += n
            if bar is None and time.monotonic() - start > DELAY:
                bar = click.progressbar(length=total, label=label, file=sys.stderr)
                bar.__enter__()
                bar.update(done)
            elif bar is not None:
                bar.update(n)

        yield tick
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


@contextmanager
def staged_progress(delay: float = DELAY) -> Iterator[Callable[[str, int, int], None]]:
    """Yield `report(stage, done, total)`: one bar per stage, on a terminal, after `delay` s."""
    if not sys.stderr.isatty():
        yield lambda stage, done, total: None
        return
    start = time.monotonic()
    state: dict[str, Any] = {"stage": None, "bar": None, "done": 0}

    def close() -> None:
        bar = state["bar"]
        if bar is not None:
            bar.__exit__(None, None, None)
        state["bar"] = None

    def report(stage: str, done: int, total: int) -> None:
        if time.monotonic() - start < delay or total <= 0:
            return
        if state["stage"] != stage or state["bar"] is None:
            close()
            bar = click.progressbar(length=total, label=stage, file=sys.stderr)
            bar.__enter__()
            state.update(stage=stage, bar=bar, done=0)
        bar = state["bar"]
        step = done - int(state["done"])
        if step > 0:
            bar.update(step)
            state["done"] = done

    try:
        yield report
    finally:
        close()
