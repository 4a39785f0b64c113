"""Benchmark of the Köpfchen odds table: targets 1–40, 3 d6, 3 rolls, optimal holding.

Run: `make bench` (or `python -m bench bench_numbers_odds`). Every repeat starts cold (the
solver's tables, the per-roll reachable targets and the dice space are forgotten). The
baseline in the same run is a plain-Python brute force: the reachable targets of every
roll from tests/numbers_bruteforce.py (all expression trees, exact fractions) and an
explicit recursion over rolls, keeps and ordered re-rolls; both must agree to 1e-12.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from bench.common import line, median_time
from generator.numbers import odds
from generator.numbers.odds import odds_table
from generator.numbers.solver import clear_caches
from tests import numbers_bruteforce as brute  # the brute force lives with the tests

TARGETS = list(range(1, 41))
DICE, FACES, ROLLS = 3, 6, 3
AIM_SECONDS = 0.2


def cold(run: Callable[[], Any]) -> Callable[[], Any]:
    """`run` after forgetting every cache it could profit from."""

    def wrapped() -> Any:
        clear_caches()
        odds._reach.cache_clear()
        odds._space.cache_clear()
        brute._brute_force.cache_clear()
        return run()

    return wrapped


def fast_table() -> list[tuple[int, float, float]]:
    return [(o.target, o.single_roll, o.within) for o in odds_table(TARGETS, DICE, FACES, ROLLS)]


def brute_table() -> list[tuple[int, float, float]]:
    """The same table by brute force: explicit recursion over every roll and keep."""
    rolls = list(product(range(1, FACES + 1), repeat=DICE))
    reach: dict[tuple[int, ...], set[int]] = {}
    for roll in rolls:
        state = tuple(sorted(roll))
        if state not in reach:
            values = brute.brute_force(state)
            reach[state] = {int(v) for v in values if v.denominator == 1 and v >= 0}
    rows = []
    for target in TARGETS:
        single = sum(target in reach[tuple(sorted(r))] for r in rolls) / len(rolls)
        rows.append((target, single, _within(target, reach, rolls)))
    return rows


def _within(
    target: int, reach: dict[tuple[int, ...], set[int]], rolls: list[tuple[int, ...]]
) -> float:
    """The chance of making `target` within ROLLS rolls, by explicit recursion."""
    memo: dict[tuple[tuple[int, ...], int], float] = {}

    def value(state: tuple[int, ...], r: int) -> float:
        """Chance of making the target from `state` with r − 1 re-rolls left, playing well."""
        if target in reach[state]:
            return 1.0
        if r == 1:
            return 0.0
        if (state, r) not in memo:
            best = 0.0
            for mask in range(2**DICE):  # every keep by position, keep-all included
                kept = [state[i] for i in range(DICE) if mask >> i & 1]
                outcomes = list(product(range(1, FACES + 1), repeat=DICE - len(kept)))
                total = sum(value(tuple(sorted(kept + list(o))), r - 1) for o in outcomes)
                best = max(best, total / len(outcomes))
            memo[state, r] = best
        return memo[state, r]

    return sum(value(tuple(sorted(r)), ROLLS) for r in rolls) / len(rolls)


def main() -> None:
    t_fast, fast = median_time(cold(fast_table), repeat=7)
    t_brute, slow = median_time(cold(brute_table), repeat=3)
    worst = max(abs(a - b) for f, s in zip(fast, slow) for a, b in zip(f[1:], s[1:]))
    assert [f[0] for f in fast] == [s[0] for s in slow] and worst < 1e-12, worst
    line(
        "köpfchen odds table, targets 1–40, 3 d6, 3 rolls (cold)",
        t_fast,
        f"aim < {AIM_SECONDS} s: {'met' if t_fast < AIM_SECONDS else 'MISSED'}; "
        f"{t_brute / t_fast:.0f}× faster than the brute force; max difference {worst:.1e}",
        baseline=t_brute,
    )


if __name__ == "__main__":
    main()
