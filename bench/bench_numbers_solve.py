"""Benchmark of the numbers solver: Countdown, the 24 census (direct and batch), brute force.

Run: `make bench` (or `python -m bench bench_numbers_solve`). Every repeat starts with cold caches.
The brute force (tests/numbers_bruteforce.py) gives the baseline ratios.
"""

from __future__ import annotations

import itertools
import json
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from generator.numbers import COUNTDOWN, GAME_24, KOEPFCHEN, count_solutions, solve
from generator.numbers.solver import clear_caches
from tests import numbers_bruteforce as brute  # the brute force lives with the tests

T = TypeVar("T")


def timed(run: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Median wall time of `run` over cold-cache repeats, and its last result."""
    times = []
    result: T
    for _ in range(repeats):
        clear_caches()
        brute._brute_force.cache_clear()
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def census() -> tuple[int, int]:
    """(solvable hands, solutions in all) for 24 over all 1820 hands of four cards 1–13."""
    counts = [
        count_solutions(hand, 24, GAME_24)
        for hand in itertools.combinations_with_replacement(range(1, 14), 4)
    ]
    return sum(c > 0 for c in counts), sum(counts)


def census_batch() -> int:
    """Solvable hands of the same census, through `dicesheets numbers solve --batch -`."""
    from click.testing import CliRunner

    from generator.cli import cli

    text = "".join(
        f"{' '.join(map(str, hand))} -> 24\n"
        for hand in itertools.combinations_with_replacement(range(1, 14), 4)
    )
    args = ["numbers", "solve", "--batch", "-", "--use-all", "--division", "rational"]
    result = CliRunner().invoke(cli, args, input=text, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return sum(json.loads(record)["solvable"] for record in result.stdout.splitlines())


def main() -> None:
    countdown = (1, 3, 7, 10, 25, 50)
    t_solve, found = timed(lambda: solve(countdown, 765, COUNTDOWN), repeats=7)
    t_classes, classes = timed(
        lambda: brute.class_enumeration(countdown, 765, allow_zero=False), repeats=3
    )
    assert len(classes) == len(found)
    print(
        f"countdown 765 all solutions: median {t_solve:.3f} s ({len(found)} solutions), "
        f"ratio vs brute force by classes ({t_classes:.2f} s) {t_classes / t_solve:.0f}×"
    )

    t_census, (solvable, total) = timed(census, repeats=3)
    print(
        f"24 census, 1820 hands: median {t_census:.2f} s "
        f"({solvable} solvable, {total} solutions in all)"
    )

    t_batch, batch_solvable = timed(census_batch, repeats=3)
    assert batch_solvable == solvable
    print(
        f"24 census through the batch path (numbers solve --batch -): median {t_batch:.2f} s "
        f"({batch_solvable} solvable; aim ≤ 5 s: {'met' if t_batch <= 5 else 'MISSED'}), "
        f"{t_batch / t_census:.2f}× the direct count"
    )

    hand = (2, 3, 5, 7, 11)
    targets = range(0, 101)

    def fast() -> int:
        return sum(len(solve(hand, t, KOEPFCHEN)) for t in targets)

    def slow() -> int:
        by_value = brute.brute_force(hand)
        return sum(len(by_value.get(t, {})) for t in targets)

    t_fast, n_fast = timed(fast, repeats=5)
    t_slow, n_slow = timed(slow, repeats=3)
    assert n_fast == n_slow
    print(
        f"köpfchen {hand} all targets 0–100: median {t_fast:.3f} s ({n_fast} solutions), "
        f"ratio vs brute force over all trees ({t_slow:.2f} s) {t_slow / t_fast:.0f}×"
    )


if __name__ == "__main__":
    main()
