"""Odds of making a target with three dice: hand cases, brute force and Monte Carlo."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from generator.numbers import KOEPFCHEN, reachable_targets
from generator.numbers.odds import hold_options, odds_table, reachable_by_any_roll


def test_target_one_is_makeable_from_every_roll_and_unreachable_targets_are_zero() -> None:
    reach = reachable_by_any_roll()
    impossible = next(t for t in range(1, 500) if t not in reach)
    table = odds_table([1, impossible])
    assert table[0].single_roll == pytest.approx(1, abs=1e-12)
    assert table[0].within == pytest.approx(1, abs=1e-12)
    assert table[1].single_roll == 0 and table[1].within == 0


def test_single_roll_equals_counting_ordered_rolls() -> None:
    targets = range(1, 41)
    counts = {t: 0 for t in targets}
    for roll in product(range(1, 7), repeat=3):
        reach = reachable_targets(roll, KOEPFCHEN)
        for t in targets:
            counts[t] += t in reach
    for odds in odds_table(list(targets)):
        assert odds.single_roll == pytest.approx(counts[odds.target] / 216, abs=1e-12)


def test_two_rolls_by_explicit_recursion() -> None:
    """An independent exact computation for R = 2: best keep after the first roll."""
    target = 37
    reach = {r: target in reachable_targets(r, KOEPFCHEN) for r in product(range(1, 7), repeat=3)}

    def p_after_keep(kept: tuple[int, ...]) -> Fraction:
        free = 3 - len(kept)
        hits = sum(reach[kept + rest] for rest in product(range(1, 7), repeat=free))
        return Fraction(hits, 6**free)

    total = Fraction(0)
    for roll in product(range(1, 7), repeat=3):
        if reach[roll]:
            total += 1
            continue
        best = max(
            p_after_keep(tuple(roll[i] for i in range(3) if mask >> i & 1)) for mask in range(8)
        )
        total += best
    exact = total / 216
    (odds,) = odds_table([target], rolls=2)
    assert odds.within == pytest.approx(float(exact), abs=1e-12)


def test_monte_carlo_of_the_optimal_policy_agrees() -> None:
    rng = random.Random(7)
    target, games, wins = 33, 20000, 0
    for _ in range(games):
        roll = [rng.randint(1, 6) for _ in range(3)]
        for rolls_left in (2, 1, 0):
            if target in reachable_targets(roll, KOEPFCHEN):
                wins += 1
                break
            if rolls_left == 0:
                break
            keep = list(hold_options(roll, target, rolls_left)[0][0])
            roll = keep + [rng.randint(1, 6) for _ in range(3 - len(keep))]
    (odds,) = odds_table([target])
    sd = (odds.within * (1 - odds.within) / games) ** 0.5
    assert abs(wins / games - odds.within) < 4 * sd


def test_hold_advice_for_37_keeps_the_six() -> None:
    options = hold_options([2, 5, 6], 37, 2)
    assert options[0][0] == (6,)
    values = [v for _, v in options]
    assert values == sorted(values, reverse=True)
    # stopping (keep all) cannot make 37 from 2 5 6
    assert dict(options)[(2, 5, 6)] == 0
