"""A `generator.core.team.Team` of two processes: this one and a forked helper (Linux).

The arrays of the work are copied into anonymous shared memory made before the fork,
so both processes read and write the same table; `wait` is a barrier over two pipes
(each side writes a byte and reads the other's). The helper writes nothing but that
memory: its output goes to /dev/null and it leaves with `os._exit`, never through the
caller's code after the work. A helper that fails, is killed or cannot be started only
costs time: the caller notices at the next barrier (end of file on the pipe) and runs
the work again alone, on fresh copies of the arrays. If the caller ends (an error,
Ctrl-C, a kill), the helper is killed, or sees the end of file at its next barrier.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import signal
import sys
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from generator.core.team import ALONE, Member, Solo

T = TypeVar("T")


class PartnerLost(Exception):
    """The other process of the pair is gone (failed, killed, or ended early)."""


class _Side:
    """One process's end of the pair: its index, the shared arrays, the barrier's pipes."""

    size = 2

    def __init__(self, index: int, arrays: tuple[np.ndarray, ...], send: int, receive: int):
        self.index = index
        self.arrays = arrays
        self._pipes = [send, receive]

    def wait(self) -> None:
        if not self._pipes:
            raise PartnerLost
        send, receive = self._pipes
        try:
            os.write(send, b".")
            got = os.read(receive, 1)
        except OSError as exc:  # (a write to a dead helper: EPIPE, SIGPIPE is ignored)
            raise PartnerLost from exc
        if not got:
            raise PartnerLost

    def close(self) -> None:
        """Close the pipes (once: a number closed twice may be another file's by then)."""
        while self._pipes:
            with contextlib.suppress(OSError):
                os.close(self._pipes.pop())


def _shared(array: np.ndarray) -> np.ndarray:
    """A copy of `array` in anonymous memory that a forked child shares (not copy-on-write)."""
    memory = mmap.mmap(-1, max(1, array.nbytes))  # MAP_SHARED: both processes see writes
    copy: np.ndarray = np.frombuffer(memory, dtype=array.dtype, count=array.size)
    copy = copy.reshape(array.shape)
    copy[...] = array
    return copy


class Pair:
    """Two processes share the work (see the module's docstring); the same result as ALONE."""

    def run(self, work: Callable[[Member], T], *arrays: np.ndarray) -> T:
        try:
            shared = tuple(_shared(a) for a in arrays)
            down_read, down_write = os.pipe()  # this process -> the helper
        except OSError:  # (no memory or file left to share: alone)
            return ALONE.run(work, *arrays)
        try:
            up_read, up_write = os.pipe()  # the helper -> this process
        except OSError:
            os.close(down_read)
            os.close(down_write)
            return ALONE.run(work, *arrays)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError:
            pid = -1
        if pid == 0:
            os.close(down_write)
            os.close(up_read)
            _helper(work, _Side(1, shared, send=up_write, receive=down_read))
        os.close(down_read)
        os.close(up_write)
        me = _Side(0, shared, send=down_write, receive=up_read)
        try:
            if pid < 0:
                raise PartnerLost
            result = work(me)
            me.wait()  # the helper's last write is done: it only exits now
        except PartnerLost:
            pid = _end(pid, me, kill=True)
            return work(Solo(tuple(a.copy() for a in arrays)))
        except BaseException:
            pid = _end(pid, me, kill=True)
            raise
        _end(pid, me)
        return result


def _end(pid: int, me: _Side, kill: bool = False) -> int:
    """Close this side's pipes and reap the helper (killed first if `kill`); -1: no helper."""
    me.close()
    if pid > 0:
        if kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)
    return -1


def _helper(work: Callable[[Member], object], side: _Side) -> None:
    """The forked helper: its share of the work, the last barrier, out without cleanup."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        work(side)
        side.wait()
        code = 0
    except BaseException:  # Ctrl-C, a lost partner, a bug: the caller redoes it
        pass
    finally:
        os._exit(code)


PAIR = Pair()


def spare_processors() -> bool:
    """Room for a forked helper: Linux, with at least two processors for this process."""
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False  # fork is the cheap and safe way only on Linux
    return len(os.sched_getaffinity(0)) >= 2


def pair_if_spare() -> Pair | None:
    """`PAIR` where `spare_processors()`, else None."""
    return PAIR if spare_processors() else None
