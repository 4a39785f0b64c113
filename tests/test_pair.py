"""Two processes sharing work (`generator.io.pair`): the same result as alone, whatever befalls
the helper; nothing left behind (no process, no open pipe)."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from generator.core.team import ALONE, Member, share
from generator.io import pair
from generator.io.pair import PAIR

pytestmark = pytest.mark.skipif(pair.pair_if_spare() is None, reason="needs fork, 2 processors")


def _squares(member: Member, fail: str = "") -> np.ndarray:
    """Each member squares its share of the numbers, notes its pid, and both add up."""
    numbers, pids, total = member.arrays
    for step in range(3):
        mine = share(member, len(numbers))
        if member.index == 1 and fail == f"raise {step}":
            raise RuntimeError("the helper fails")
        if member.index == 1 and fail == f"kill {step}":
            os.kill(os.getpid(), signal.SIGKILL)
        numbers[mine.start : mine.stop] **= 2
        pids[member.index] = os.getpid()
        member.wait()
    if member.index == 0:
        total[0] = numbers.sum()
    return numbers.copy()


def _arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.arange(10, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64)


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def _children() -> set[int]:
    """This process's children, reaped or not (a zombie counts), from /proc.

    Only these are compared before and after: the test run may have other children of
    its own (a browser driver), which must neither fail nor be reaped by these tests.
    """
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
            except OSError:  # (it ended meanwhile)
                continue
            if int(fields[1]) == me:
                found.add(int(entry))
    return found


def test_two_processes_share_the_work_and_give_the_result_of_one() -> None:
    alone = ALONE.run(_squares, *_arrays())
    files, children = _open_files(), _children()
    arrays = _arrays()
    seen: list[np.ndarray] = []

    def work(member: Member) -> np.ndarray:
        result = _squares(member)
        seen.append(member.arrays[1])
        return result

    assert np.array_equal(PAIR.run(work, *arrays), alone)
    pids = seen[0]
    assert pids[0] == os.getpid() and pids[1] not in (0, os.getpid())  # a helper did its share
    assert np.array_equal(arrays[0], np.arange(10))  # the caller's arrays are copied, not used
    assert _open_files() == files and _children() == children


@pytest.mark.parametrize("fail", ["raise 0", "raise 2", "kill 0", "kill 1"])
def test_a_failing_or_killed_helper_only_costs_time(fail: str) -> None:
    files, children = _open_files(), _children()
    result = PAIR.run(lambda member: _squares(member, fail), *_arrays())
    assert np.array_equal(result, ALONE.run(_squares, *_arrays()))
    assert _open_files() == files and _children() == children


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_in_the_caller_ends_the_helper(error: type[BaseException]) -> None:
    files, children = _open_files(), _children()

    def work(member: Member) -> None:
        member.wait()
        if member.index == 0:
            raise error
        member.wait()  # the helper would wait here for ever
        member.wait()

    with pytest.raises(error):
        PAIR.run(work)
    assert _open_files() == files and _children() == children


def test_no_pair_on_one_processor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert pair.pair_if_spare() is None
    monkeypatch.setattr(pair.sys, "platform", "darwin")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert pair.pair_if_spare() is None
