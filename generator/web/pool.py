"""The bounded pool the CPU-heavy builds run in: worker processes, a queue limit, a time limit.

Builds run in separate processes so they use every core and a runaway build can
be stopped: each job arms a timer inside its worker (SIGALRM) and is abandoned
with `BuildTimeout` when it runs past the limit. At most `workers + queue` jobs
are admitted at once; beyond that `PoolFull` is raised at once (the page answers
503 with Retry-After) instead of piling up requests until the server collapses.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

# imported once by the fork server, so every worker starts with them loaded
PRELOAD = ["generator.web.products", "generator.render.draw", "pypdfium2", "numpy"]


class PoolFull(Exception):
    """Every worker is busy and the queue is full."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"all {retry_after} s busy")
        self.retry_after = retry_after


class BuildTimeout(Exception):
    """A build ran past the time limit."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise BuildTimeout


def _init_worker(catalog: str | None) -> None:
    """Set up a fresh worker: the server's catalog (from its command line only)."""
    from generator.web.products import use_catalog

    use_catalog(Path(catalog) if catalog is not None else None)
    signal.signal(signal.SIGALRM, _on_alarm)


def _timed(limit: float, fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` in the worker with an alarm after `limit` seconds."""
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class BuildPool:
    """Worker processes with admission control; use from one event loop."""

    def __init__(
        self, workers: int, queue: int, time_limit: float, catalog: Path | None = None
    ) -> None:
        self.workers = workers
        self.capacity = workers + queue
        self.time_limit = time_limit
        self.catalog = str(catalog) if catalog is not None else None
        self.admitted = 0
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # a fork server: workers fork from a clean, single-threaded process (never from
            # the server's threads), with the heavy modules already imported
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_init_worker,
                initargs=(self.catalog,),
            )  # fmt: skip
        return self._executor

    def retry_after(self) -> int:
        """Seconds a client should wait before asking again (about one build per worker)."""
        return max(1, round(self.time_limit / 10))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker; PoolFull when no place is left, BuildTimeout past the limit."""
        if self.admitted >= self.capacity:
            raise PoolFull(self.retry_after())
        self.admitted += 1
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._pool(), _timed, self.time_limit, fn, *args)
            try:
                # the worker's own alarm fires first; this only guards against a stuck worker
                return await asyncio.wait_for(future, self.time_limit + 10)
            except asyncio.TimeoutError:
                raise BuildTimeout from None
            except BrokenProcessPool:
                # a worker died (killed, out of memory): start a fresh pool for the next job
                self.close()
                raise PoolFull(self.retry_after()) from None
        finally:
            self.admitted -= 1

    def close(self) -> None:
        """Stop the workers (a running build is ended, not waited for)."""
        if self._executor is not None:
            executor, self._executor = self._executor, None
            # the workers are forked by the fork server, not by us: end them, or they outlive
            # the server
            workers = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(5)
