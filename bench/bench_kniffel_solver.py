"""Kniffel/Yahtzee optimal solver: cold solve per rule set, warm load, and a plain-Python baseline.

The baseline is a straightforward per-state dynamic programme in plain Python
(dicts, one turn state and one keep at a time) for a reduced game — the upper
section alone (six boxes, bonus 35 at 63) — timed in the same run as the
vectorised solver on that game; the two results are checked to agree.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tempfile
import time
from collections import Counter
from itertools import combinations_with_replacement

from bench.common import line, median_time
from generator.kniffel.load import load_rules, load_strategy
from generator.kniffel.solver import make_game, solve_values, with_joker

VARIANTS = [("kniffel", None), ("yahtzee", "forced"), ("yahtzee", "free")]


def _probability(dice: tuple[int, ...]) -> float:
    ways = math.factorial(len(dice))
    for c in Counter(dice).values():
        ways //= math.factorial(c)
    return ways / 6 ** len(dice)


def _plain_upper_section(threshold: int = 63, bonus: int = 35) -> float:
    """Optimal expected score of the upper section alone, one state at a time in plain Python."""
    states = list(combinations_with_replacement(range(1, 7), 5))
    first = {s: _probability(s) for s in states}
    keeps_of: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for s in states:
        keeps_of[s] = {tuple(x for i, x in enumerate(s) if mask >> i & 1) for mask in range(32)}
    keeps = sorted({k for ks in keeps_of.values() for k in ks})
    outcomes = {
        k: [
            (tuple(sorted(k + o)), _probability(o))
            for o in combinations_with_replacement(range(1, 7), 5 - len(k))
        ]
        for k in keeps
    }
    reach: dict[int, set[int]] = {0: {0}}
    for mask in range(1, 64):
        face = mask.bit_length()
        below = reach[mask & ~(1 << (face - 1))]
        reach[mask] = {min(threshold, u + face * n) for u in below for n in range(6)}
    value: dict[tuple[int, int], float] = {}
    for mask in sorted(range(64), key=lambda m: -m.bit_count()):
        for u in reach[mask]:
            if mask == 63:
                value[mask, u] = bonus if u >= threshold else 0.0
                continue
            v = {}
            for s in states:
                best = -1.0
                for face in range(1, 7):
                    if not mask >> (face - 1) & 1:
                        pts = face * s.count(face)
                        after = value[mask | 1 << (face - 1), min(threshold, u + pts)]
                        best = max(best, pts + after)
                v[s] = best
            for _ in range(2):
                expect = {k: sum(p * v[o] for o, p in outcomes[k]) for k in keeps}
                v = {s: max(expect[k] for k in keeps_of[s]) for s in states}
            value[mask, u] = sum(p * v[s] for s, p in first.items())
    return value[0, 0]


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        old = os.environ.get("DICESHEETS_CACHE")
        os.environ["DICESHEETS_CACHE"] = cache
        try:
            for name, joker in VARIANTS:
                rules = with_joker(load_rules(name), joker)
                start = time.perf_counter()
                strategy = load_strategy(rules)  # cold: solve and store
                cold = time.perf_counter() - start
                warm, _ = median_time(lambda rules=rules: load_strategy(rules), repeat=5)
                line(
                    f"solve {name} ({rules.joker} joker), cold",
                    cold,
                    f"expected score {strategy.expected_score():.6f}; warm load "
                    f"{warm * 1000:.1f} ms",
                )
        finally:
            if old is None:
                os.environ.pop("DICESHEETS_CACHE", None)
            else:
                os.environ["DICESHEETS_CACHE"] = old
    kniffel = load_rules("kniffel")
    upper = make_game(dataclasses.replace(kniffel, boxes=kniffel.upper))
    t_fast, table = median_time(lambda: solve_values(upper), repeat=3)
    t_plain, plain = median_time(_plain_upper_section, repeat=1)
    fast = float(table[0, 0, 0])
    assert abs(fast - plain) < 1e-9, (fast, plain)
    line(
        "upper section alone (2794 states)",
        t_fast,
        f"expected {fast:.6f}, plain Python {t_plain:.1f} s: {t_plain / t_fast:.0f}× faster",
        baseline=t_plain,
    )
