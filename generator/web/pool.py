"""The bounded pool the CPU-heavy builds run in: worker processes, a queue limit, a time limit.

Builds run in separate processes so they use every core and a runaway build can
be stopped: each job arms a timer inside its worker (SIGALRM) and is abandoned
with `BuildTimeout` when it runs past the limit. At most `workers + queue` jobs
are admitted at once; beyond that `PoolFull` is raised at once (the page answers
503 with Retry-After) instead of piling up requests until the server collapses.

A job waits for a free worker here, not in the executor, so a job nobody waits for
any more (its request was cancelled: the browser asked again, or left) never starts;
one that runs is stopped in its worker (SIGUSR1, `Cancelled`), and the worker takes
the next job. Each worker has a slot in a shared array (its pid, the job it runs, the
job to stop), so the signal only stops the job it was meant for.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from generator.registry import PRODUCTS
from generator.surface.model import resolve

# imported once by the fork server, so every worker starts with them loaded
PRELOAD = ["generator.web.products", "generator.render.draw", "pypdfium2", "numpy"]


class PoolFull(Exception):
    """Every worker is busy and the queue is full."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"all {retry_after} s busy")
        self.retry_after = retry_after


class BuildTimeout(Exception):
    """A build ran past the time limit."""


class WorkerDied(Exception):
    """A worker process died during a build (killed, out of memory)."""


class Cancelled(Exception):
    """A build stopped because nobody waits for its answer any more."""


SLOT = 3  # a worker's slot: pid, the job it runs, the job to stop
_STATE: Any = None  # in a worker: the pool's shared array
_SLOT = -1  # in a worker: its slot


def _on_alarm(signum: int, frame: Any) -> None:
    raise BuildTimeout


def _on_cancel(signum: int, frame: Any) -> None:
    base = _SLOT * SLOT
    if _STATE is not None and _STATE[base + 1] != 0 and _STATE[base + 1] == _STATE[base + 2]:
        raise Cancelled


def _init_worker(
    catalog: str | None,
    state: Any = None,
    lock: Any = None,
    fonts: tuple[str, ...] | None = None,
) -> None:
    """Set up a fresh worker: the server's catalog (from its command line only), its slot,
    where it looks for the fallback font (None: the usual places)."""
    global _STATE, _SLOT
    from generator.web.products import use_catalog

    use_catalog(Path(catalog) if catalog is not None else None)
    if fonts is not None:
        from generator.render.fonts import use_fallback_fonts

        use_fallback_fonts(fonts)
    # every product's modules now, before any job: a timeout or cancel signal that lands
    # inside an import leaves that module half made in this worker for good
    for product in PRODUCTS.values():
        resolve(product.load)
        resolve(product.build)
    signal.signal(signal.SIGALRM, _on_alarm)
    if state is not None and lock is not None:
        with lock:
            _SLOT = next(i for i in range(len(state) // SLOT) if state[i * SLOT] == 0)
            state[_SLOT * SLOT] = os.getpid()
        _STATE = state
        signal.signal(signal.SIGUSR1, _on_cancel)


def _timed(limit: float, job: int, fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` in the worker as job `job`, with an alarm after `limit` seconds."""
    base = _SLOT * SLOT
    if _STATE is not None:
        _STATE[base + 1] = job
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if _STATE is not None:
            _STATE[base + 1] = 0


class BuildPool:
    """Worker processes with admission control; use from one event loop."""

    def __init__(
        self,
        workers: int,
        queue: int,
        time_limit: float,
        catalog: Path | None = None,
        fonts: tuple[str, ...] | None = None,
    ) -> None:
        self.workers = workers
        self.fonts = fonts
        self.capacity = workers + queue
        self.time_limit = time_limit
        self.catalog = str(catalog) if catalog is not None else None
        self.admitted = 0  # jobs waiting or running (a stopped one until its worker is free)
        self.stopped = 0  # jobs stopped because nobody waited for them (for tests and logs)
        self._executor: ProcessPoolExecutor | None = None
        self._state: Any = None
        self._free: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._jobs = itertools.count(1)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # a fork server: workers fork from a clean, single-threaded process (never from
            # the server's threads), with the heavy modules already imported
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._state = context.RawArray("q", SLOT * self.workers)
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_init_worker,
                initargs=(self.catalog, self._state, context.Lock(), self.fonts),
            )  # fmt: skip
        return self._executor

    def retry_after(self) -> int:
        """Seconds a client should wait before asking again (about one build per worker)."""
        return max(1, round(self.time_limit / 10))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker; PoolFull when no place is left, BuildTimeout past the limit,
        WorkerDied when its worker died.

        Cancelling the caller's task drops a job that waits and stops one that runs."""
        if self.admitted >= self.capacity:
            raise PoolFull(self.retry_after())
        loop = asyncio.get_running_loop()
        if self._free is None or self._loop is not loop:  # (a test client's new loop)
            self._free, self._loop = asyncio.Semaphore(self.workers), loop
        free = self._free
        self.admitted += 1
        try:
            await free.acquire()  # (cancelled here: the job never started)
        except BaseException:
            self.admitted -= 1
            raise
        job = next(self._jobs)
        try:
            running = self._pool().submit(_timed, self.time_limit, job, fn, *args)
        except BaseException:
            free.release()
            self.admitted -= 1
            raise
        future = asyncio.wrap_future(running)

        def done(_: Any) -> None:  # the worker is free again (finished, failed or stopped)
            free.release()
            self.admitted -= 1
            if not future.cancelled():
                future.exception()  # (read: a stopped job's Cancelled is no stray error)

        future.add_done_callback(done)
        try:
            # the worker's own alarm fires first; this only guards against a stuck worker
            return await asyncio.wait_for(asyncio.shield(future), self.time_limit + 10)
        except asyncio.CancelledError:
            self._stop(job)
            raise
        except asyncio.TimeoutError:
            raise BuildTimeout from None
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool for the next job
            self.close()
            raise WorkerDied from None

    def _stop(self, job: int) -> None:
        """Stop job `job` in the worker that runs it (nothing if it has ended)."""
        state = self._state
        if state is None:
            return
        for slot in range(self.workers):
            base = slot * SLOT
            if state[base + 1] == job and state[base] > 0:
                state[base + 2] = job
                try:
                    os.kill(state[base], signal.SIGUSR1)
                    self.stopped += 1
                except ProcessLookupError:
                    pass
                return

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
