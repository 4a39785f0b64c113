"""Work shared by processes: the interface the edge fills (`generator.io.pair`), like `Store`.

A solver that can split its work takes a `Team` (keyword, default `ALONE`) and hands
it the work and the arrays the work writes into: `team.run(work, *arrays)` calls
`work(member)` in every member of the team. Each member sees the same memory in
`member.arrays`, does its share (`share(member, n)`: which of n pieces are its own)
and calls `member.wait()` after each step whose results another member reads next
(it returns when every member has got there). The result is the work's in the
calling process. The games never start processes themselves: the edge passes
`generator.io.pair.PAIR` where a second processor is free, and `ALONE` runs the work
once, here. Whatever the team, the result must be the same (the tests compare them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


class Member(Protocol):
    """One process of a team, as its share of the work sees it."""

    @property
    def index(self) -> int:
        """This member's number, 0 .. size − 1 (0: the process that called `run`)."""

    @property
    def size(self) -> int:
        """How many members share the work."""

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays given to `run`, in memory every member sees."""

    def wait(self) -> None:
        """Return when every member has called `wait` as often as this one."""


class Team(Protocol):
    """Who does a piece of work: `run(work, *arrays)` is `work(member)` in every member."""

    def run(self, work: Callable[[Member], T], *arrays: np.ndarray) -> T: ...


def share(member: Member, pieces: int) -> range:
    """The member's own pieces of `pieces` (contiguous, as even as can be)."""
    k, n = member.index, member.size
    return range(pieces * k // n, pieces * (k + 1) // n)


@dataclass(frozen=True)
class Solo:
    """The only member of a team of one: every piece is its own, nobody to wait for."""

    arrays: tuple[np.ndarray, ...]
    index: int = 0
    size: int = 1

    def wait(self) -> None:
        pass


class Alone:
    """The work runs once, in this process, on the arrays themselves."""

    def run(self, work: Callable[[Member], T], *arrays: np.ndarray) -> T:
        return work(Solo(arrays))


ALONE = Alone()
