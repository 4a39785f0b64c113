"""Roll-and-hold solver: Kniffel-size batches and one Kribbeln-size solve, against plain Python DPs.

The baselines are straightforward per-state dynamic programmes in plain Python
(dicts, one keep at a time, its expectation memoised), run on a reduced
instance in the same process; their results are checked against the solver's.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement, product

import numpy as np

from bench.common import line, median_time
from generator.core.rollhold import DistinctDice, IdenticalDice, solve, start_value

ROLLS = 3
BATCH = 10_000
PLAIN_GOALS = 3


def _plain_identical(n_dice: int, n_faces: int, terminal: dict, rolls: int) -> float:
    """Per-state DP over sorted tuples: every sub-multiset keep, every re-roll multiset."""
    faces = range(1, n_faces + 1)

    def probability(multiset: tuple[int, ...]) -> float:
        ways = math.factorial(len(multiset))
        for c in Counter(multiset).values():
            ways //= math.factorial(c)
        return ways / n_faces ** len(multiset)

    rerolls = [
        [(o, probability(o)) for o in combinations_with_replacement(faces, m)]
        for m in range(n_dice + 1)
    ]
    values = dict(terminal)
    for _ in range(rolls - 1):
        memo: dict[tuple[int, ...], float] = {}

        def expect(keep: tuple[int, ...], values: dict = values, memo: dict = memo) -> float:
            if keep not in memo:
                memo[keep] = sum(
                    p * values[tuple(sorted(keep + o))] for o, p in rerolls[n_dice - len(keep)]
                )
            return memo[keep]

        new = {}
        for state in values:
            counts = sorted(Counter(state).items())
            new[state] = max(
                expect(tuple(f for (f, _), t in zip(counts, taken, strict=True) for _ in range(t)))
                for taken in product(*(range(c + 1) for _, c in counts))
            )
        values = new
    return sum(probability(s) * v for s, v in values.items())


def _plain_distinct(faces: list[int], terminal: dict, rolls: int) -> float:
    """Per-state DP over ordered tuples: every hold mask, every re-rolled outcome."""
    n = len(faces)
    values = dict(terminal)
    for _ in range(rolls - 1):
        memo: dict[tuple, float] = {}

        def expect(keep: tuple, values: dict = values, memo: dict = memo) -> float:
            if keep not in memo:
                free = [i for i in range(n) if keep[i] is None]
                total = 0.0
                for outcome in product(*(range(faces[i]) for i in free)):
                    state = list(keep)
                    for i, face in zip(free, outcome, strict=True):
                        state[i] = face
                    total += values[tuple(state)]
                memo[keep] = total / math.prod(faces[i] for i in free)
            return memo[keep]

        values = {
            state: max(
                expect(tuple(s if mask >> i & 1 else None for i, s in enumerate(state)))
                for mask in range(2**n)
            )
            for state in values
        }
    return sum(values.values()) / len(values)


def main() -> None:
    rng = np.random.default_rng(0)

    kniffel = IdenticalDice(5, 6)
    goals = rng.random((BATCH, kniffel.n_states))
    fast, _ = median_time(lambda: solve(kniffel, goals, ROLLS))
    lean, turn = median_time(lambda: start_value(kniffel, goals, ROLLS))
    plain, plain_turn = median_time(
        lambda: [
            _plain_identical(5, 6, dict(zip(kniffel.states, g, strict=True)), ROLLS)
            for g in goals[:PLAIN_GOALS]
        ],
        repeat=3,
    )
    assert np.allclose(plain_turn, turn[:PLAIN_GOALS], atol=1e-12)
    plain_batch = plain / PLAIN_GOALS * BATCH
    baseline = f"plain Python DP {plain_batch:.0f} s ({PLAIN_GOALS} goals scaled to {BATCH})"
    for name, seconds in (("solve", fast), ("start_value", lean)):
        line(
            f"rollhold {name} {kniffel!r} {ROLLS} rolls, batch {BATCH}",
            seconds,
            f"{plain_batch / seconds:.0f}× faster than {baseline}",
        )

    kribbeln = DistinctDice([6] * 6)
    goal = rng.random(kribbeln.n_states)
    fast, _ = median_time(lambda: solve(kribbeln, goal, ROLLS), repeat=9)
    line(f"rollhold solve {kribbeln!r} {ROLLS} rolls, one goal", fast, "speed-up: next line")

    reduced = DistinctDice([6] * 4)
    goal = rng.random(reduced.n_states)
    fast, result = median_time(lambda: solve(reduced, goal, ROLLS), repeat=9)
    terminal = dict(zip(reduced.states, goal, strict=True))
    plain, plain_turn = median_time(lambda: _plain_distinct([6] * 4, terminal, ROLLS), repeat=3)
    assert abs(plain_turn - float(result.start_value())) <= 1e-12
    line(
        f"rollhold solve {reduced!r} {ROLLS} rolls, one goal",
        fast,
        f"{plain / fast:.0f}× faster than plain Python DP {plain * 1000:.0f} ms (same instance)",
    )


if __name__ == "__main__":
    main()
