"""The fuzz campaigns' cases run across worker processes, each under a memory limit.

`run_cases(cases, check)` forks `jobs()` workers from the test process (so `check` and
the cases need no pickling and every module is imported already), hands each one case
index at a time and collects what `check(case)` returned. A case that raises (a broken
promise: an AssertionError, a MemoryError under the worker's limit, anything else),
that kills its worker (a signal, the kernel) or that does not answer within `hang`
seconds is a finding that names the case; the campaign goes on with a fresh worker, so
one long run reports every case that fell short, never a machine stopped by one case.

Sizes and limits come from the environment, with the stress defaults the callers pass:
FUZZ_JOBS (workers, default: the machine's cores, at most 2), FUZZ_MEMORY_MB (each
worker's address-space limit, default 3072), FUZZ_SEED (the long runs' seed).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

CASES_PER_WORKER = 250  # a fresh worker after this many: what one case leaked does not add up


def setting(name: str, default: int) -> int:
    """A campaign's size or limit from the environment (FUZZ_INPUTS=…), else `default`."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def jobs() -> int:
    return setting("FUZZ_JOBS", min(2, os.cpu_count() or 1))


def seed(default: int = 2026) -> int:
    return setting("FUZZ_SEED", default)


@dataclass
class Outcome:
    """What a campaign tried: a count per result key, and the cases that fell short."""

    name: str
    tried: int = 0
    keys: Counter = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    peak_mb: float = 0.0  # the largest resident size any worker reached

    @property
    def held(self) -> int:
        return self.tried - len(self.findings)

    def summary(self) -> str:
        keys = dict(sorted(self.keys.items(), key=str))
        peak = f", workers' peak {self.peak_mb:.0f} MB" if self.peak_mb else ""
        return (
            f"{self.name}: {self.tried} tried, {self.held} held, {len(self.findings)} fell short"
            f" in {self.seconds:.0f} s{peak}; {keys}"
        )

    def check(self) -> None:
        """Print the summary; fail naming the first findings if any case fell short."""
        print(self.summary())
        assert not self.findings, "\n\n".join([self.summary(), *self.findings[:5]])


def _shown(case: Any) -> str:
    text = repr(case)
    return text if len(text) <= 1500 else text[:1000] + " … " + text[-400:]


def _limit_memory(megabytes: int) -> None:
    if megabytes > 0:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _worker(conn: Connection, cases: Sequence[Any], check: Callable[[Any], Any], mb: int) -> None:
    """Run the cases whose indices arrive on `conn`; answer (index, key, finding)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent's Ctrl-C ends the workers too
    _limit_memory(mb)
    while True:
        index = conn.recv()
        if index is None:
            return
        try:
            key, finding = check(cases[index]), None
        except BaseException as exc:  # every way a case can break is a finding, not a crash
            key = type(exc).__name__
            text = "".join(traceback.format_exception_only(type(exc), exc))[-3000:]
            finding = f"case {index}: {_shown(cases[index])}\n{text}"
            if isinstance(exc, MemoryError):
                finding += f"(over the worker's limit of {mb} MB)"
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        try:
            conn.send((index, key, finding, peak))
        except MemoryError:
            what = f"case {index}: {_shown(cases[index])}: MemoryError"
            conn.send((index, "MemoryError", what, peak))


class _Slot:
    """One worker process and the case it runs."""

    def __init__(self, cases: Sequence[Any], check: Callable[[Any], Any], mb: int) -> None:
        parent, child = multiprocessing.Pipe()
        context = multiprocessing.get_context("fork")
        self.process = context.Process(target=_worker, args=(child, cases, check, mb), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        self.index: int | None = None
        self.started = 0.0
        self.done = 0

    def give(self, index: int) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(index)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run_cases(
    name: str,
    cases: Sequence[Any],
    check: Callable[[Any], Any],
    hang: float = 300,
    workers: int | None = None,
) -> Outcome:
    """Each of `cases` through `check` in a worker; `check`'s return value is the case's key.

    `hang`: seconds after which a case that has not answered is killed as a hang.
    """
    mb = setting("FUZZ_MEMORY_MB", 3072)
    outcome = Outcome(name)
    started = time.monotonic()
    sys.stdout.flush()
    sys.stderr.flush()
    todo = list(range(len(cases)))[::-1]
    slots = [_Slot(cases, check, mb) for _ in range(min(workers or jobs(), len(cases)))]
    try:
        for slot in slots:
            if todo:
                slot.give(todo.pop())
        while any(slot.index is not None for slot in slots):
            busy = {slot.conn: slot for slot in slots if slot.index is not None}
            ready = wait(list(busy), timeout=5)
            for conn in ready:
                slot = busy[conn]
                try:
                    index, key, finding, peak = conn.recv()
                    outcome.peak_mb = max(outcome.peak_mb, peak)
                except (EOFError, OSError):  # the worker died in the case (killed, a signal)
                    slot.process.join(5)
                    code = slot.process.exitcode
                    index, key = slot.index, "died"
                    finding = f"case {index}: {_shown(cases[index])}\nthe worker died (exit {code})"
                    slots[slots.index(slot)] = slot = _replace(slot, cases, check, mb, kill=True)
                _note(outcome, key, finding)
                if outcome.tried % max(1, len(cases) // 10) == 0:  # (seen with pytest -s)
                    print(f"{outcome.name}: {outcome.tried} of {len(cases)}", flush=True)
                slot.index = None
                slot.done += 1
                if slot.done >= CASES_PER_WORKER:
                    slots[slots.index(slot)] = slot = _replace(slot, cases, check, mb)
                if todo:
                    slot.give(todo.pop())
            now = time.monotonic()
            for i, slot in enumerate(slots):
                if slot.index is not None and now - slot.started > hang:
                    index = slot.index
                    what = f"case {index}: {_shown(cases[index])}\nno end in {hang} s"
                    _note(outcome, "hang", what)
                    slots[i] = slot = _replace(slot, cases, check, mb, kill=True)
                    if todo:
                        slot.give(todo.pop())
    finally:
        for slot in slots:
            slot.stop(kill=slot.index is not None)
    outcome.seconds = time.monotonic() - started
    return outcome


def _replace(slot: _Slot, cases: Sequence[Any], check: Callable, mb: int, kill=False) -> _Slot:
    slot.index = None
    slot.stop(kill=kill)
    return _Slot(cases, check, mb)


def _note(outcome: Outcome, key: Any, finding: str | None) -> None:
    outcome.tried += 1
    outcome.keys[key] += 1
    if finding is not None:
        outcome.findings.append(finding)
