"""The pool of a level: every (numbers, target) problem that belongs to it, solved once.

A problem is identified by its numbers as a multiset (sorted) and its target, so
"3 5 6 → 12" and "6 3 5 → 12" are the same problem. The pool holds the solvable
problems that pass the level's filters, and, for `--impossible`, the impossible ones
that still look possible (the target is at most the largest number the level's + and
× make from them). Pools are kept in the caller's store (the edge: on disk) and in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from generator.core.store import Store, key_for
from generator.worksheet.difficulty import Difficulty, assess, uses_op
from generator.worksheet.levels import Level

POOL_VERSION = 3  # bump when the pool or the difficulty formula changes

Progress = Callable[[str, int, int], None]
"""A progress callback: (stage, done, total)."""

ProblemKey = tuple[tuple[int, ...], int]
"""(sorted numbers, target): equal for the same problem, whatever order the dice lie in."""


@dataclass(frozen=True)
class Candidate:
    """One problem of a pool with what the answer key needs."""

    numbers: tuple[int, ...]  # sorted
    target: int
    count: int  # distinct solutions; 0 for an impossible problem
    simplest: str | None
    difficulty: Difficulty | None
    focus: bool = False  # needs the level's focus operation

    @property
    def key(self) -> ProblemKey:
        return (self.numbers, self.target)

    @property
    def solvable(self) -> bool:
        return self.count > 0


@lru_cache(maxsize=8192)
def largest(numbers: tuple[int, ...], times: bool = True) -> int:
    """The largest number + (and × if `times`) make from all of `numbers` (positive whole numbers).

    Both operations grow with their operands, so the best split of the numbers into two
    groups, each made as large as possible, gives it; − and ÷ never make more with whole
    intermediates. With fractions a few larger targets are reachable (6 ÷ (1 − 5 ÷ 6) =
    36), which only means they never count as "looks possible" impossible problems.
    """
    if not times or len(numbers) == 1:
        return sum(numbers)
    best = 0
    rest = numbers[1:]
    for size in range(len(rest)):  # the group holding numbers[0] takes `size` others
        for chosen in set(combinations(range(len(rest)), size)):
            left = (numbers[0], *(rest[i] for i in chosen))
            right = tuple(v for i, v in enumerate(rest) if i not in chosen)
            a, b = largest(tuple(sorted(left))), largest(right)
            best = max(best, a + b, a * b)
    return best


@dataclass(frozen=True)
class Pool:
    level: Level
    solvable: tuple[Candidate, ...]
    impossible: tuple[Candidate, ...]


def _keep(level: Level, solutions: list, difficulty: Difficulty) -> bool:
    if difficulty.numbers < level.min_numbers:
        return False
    if len(solutions) < level.min_solutions:
        return False
    if level.max_solutions is not None and len(solutions) > level.max_solutions:
        return False
    if level.brackets == "needed" and not difficulty.brackets:
        return False
    return not (level.brackets == "never" and difficulty.brackets)


def compute_pool(level: Level, progress: Progress | None = None) -> dict[str, Any]:
    """Solve every problem of `level` (slow part; JSON-ready rows)."""
    solvable: list[list[Any]] = []
    impossible: list[list[Any]] = []
    low, high = level.targets
    multisets = level.numbers.multisets()
    for done, numbers in enumerate(multisets):
        if progress is not None and done % 16 == 0:
            progress("pool", done, len(multisets))
        high_mark = largest(numbers, "*" in level.rules.ops)
        for target in range(low, high + 1):
            found = assess(numbers, target, level.rules)
            solutions, difficulty = found.solutions, found.difficulty
            if difficulty is None or found.shown is None:
                if target <= high_mark:
                    impossible.append([list(numbers), target])
                continue
            if not _keep(level, solutions, difficulty):
                continue
            focus = level.focus is not None and all(uses_op(s, level.focus.op) for s in solutions)
            solvable.append(
                [
                    list(numbers),
                    target,
                    len(solutions),
                    found.shown,
                    [
                        difficulty.numbers,
                        difficulty.op_points,
                        difficulty.brackets,
                        difficulty.fractions,
                    ],
                    focus,
                ]
            )
    if progress is not None:
        progress("pool", len(multisets), len(multisets))
    return {"solvable": solvable, "impossible": impossible}


_MEMO: dict[str, Pool] = {}
_MEMO_SIZE = 32


def level_pool(level: Level, progress: Progress | None = None, *, store: Store) -> Pool:
    """The pool of `level`: from memory, else from `store`, else solved now."""
    key = key_for("worksheet-pool", POOL_VERSION, level.describe())
    if key not in _MEMO:
        data = store.json(
            "worksheet-pool", key, lambda: compute_pool(level, progress), _valid_pool(level)
        )
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = _from_json(level, data)
    return _MEMO[key]


def clear_memo() -> None:
    """Forget the pools held in memory (benchmarks of a cold start)."""
    _MEMO.clear()


def _valid_pool(level: Level) -> Callable[[Any], bool]:
    """The check of a cached pool: every row of the form `compute_pool` writes."""
    low, high = level.targets

    def whole(x: Any, lo: int, hi: int) -> bool:
        return type(x) is int and lo <= x <= hi

    def numbers_ok(numbers: Any) -> bool:
        return (
            isinstance(numbers, list)
            and 1 <= len(numbers) <= 6
            and all(whole(n, 0, 10**6) for n in numbers)
        )

    def valid(data: Any) -> bool:
        if set(data) != {"solvable", "impossible"}:
            return False
        for numbers, target, count, simplest, parts, focus in data["solvable"]:
            a, b, brackets, fractions = parts
            if not (
                numbers_ok(numbers)
                and whole(target, low, high)
                and whole(count, 1, 10**6)
                and isinstance(simplest, str)
                and whole(a, 1, 6)
                and whole(b, 0, 100)
                and type(brackets) is bool
                and type(fractions) is bool
                and type(focus) is bool
            ):
                return False
        return all(numbers_ok(n) and whole(t, 0, high) for n, t in data["impossible"])

    return valid


def _from_json(level: Level, data: dict[str, Any]) -> Pool:
    solvable = tuple(
        Candidate(
            numbers=tuple(numbers),
            target=target,
            count=count,
            simplest=simplest,
            difficulty=Difficulty(parts[0], parts[1], parts[2], parts[3], count),
            focus=focus,
        )
        for numbers, target, count, simplest, parts, focus in data["solvable"]
    )
    impossible = tuple(
        Candidate(tuple(numbers), target, 0, None, None) for numbers, target in data["impossible"]
    )
    return Pool(level, solvable, impossible)
