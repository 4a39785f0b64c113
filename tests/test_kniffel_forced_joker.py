"""The forced joker, cross-checked: an independent brute force over a small Yahtzee game.

No published figure exists for Hasbro's forced joker (Verhoeff's 254.5896 is the free
choice), so the pinned 254.5877 of the full game rests on the solver. Here the same
solver is checked, on a five-box game where every joker case occurs, against a plain
dynamic programme written from the rules with the scoring engine (`scoring.score`,
`allowed_categories`, `extra_bonus`) — no code of the solver or of `core.rollhold`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import pytest

from generator.kniffel.load import load_rules, load_strategy
from generator.kniffel.scoring import allowed_boxes, extra_bonus, score

ROLLS = tuple(combinations_with_replacement(range(1, 7), 5))  # the 252 rolls of five dice
INDEX = {roll: i for i, roll in enumerate(ROLLS)}


def _probability(dice: tuple[int, ...]) -> float:
    counts = Counter(dice)
    ways = factorial(len(dice))
    for n in counts.values():
        ways //= factorial(n)
    return ways / 6 ** len(dice)


def _keeps_and_outcomes() -> tuple[np.ndarray, list[list[int]]]:
    """P[k, r]: chance that keeping multiset k and rolling the rest gives roll r;
    and for every roll the keeps it allows (every sub-multiset)."""
    keeps = sorted({kept for roll in ROLLS for n in range(6)
                    for kept in combinations_with_replacement(roll, n)
                    if Counter(kept) <= Counter(roll)})  # fmt: skip
    keep_index = {k: i for i, k in enumerate(keeps)}
    matrix = np.zeros((len(keeps), len(ROLLS)))
    for k, kept in enumerate(keeps):
        for rest in combinations_with_replacement(range(1, 7), 5 - len(kept)):
            matrix[k, INDEX[tuple(sorted(kept + rest))]] += _probability(rest)
    allowed = []
    for roll in ROLLS:
        subs = {tuple(sorted(s)) for n in range(6) for s in combinations_with_replacement(roll, n)
                if Counter(s) <= Counter(roll)}  # fmt: skip
        allowed.append([keep_index[s] for s in subs])
    return matrix, allowed


MATRIX, ALLOWED = _keeps_and_outcomes()
FIRST = np.array([_probability(roll) for roll in ROLLS])


def _turn(terminal: np.ndarray) -> float:
    """The value of a turn with three rolls, keeping the best dice each time."""
    value = terminal
    for _ in range(2):
        after_keep = MATRIX @ value
        value = np.array([after_keep[keeps].max() for keeps in ALLOWED])
    return float(FIRST @ value)


def brute_force_expected(rules) -> float:
    """The optimal expected final score, by recursion over (filled boxes, upper sum)."""
    boxes = rules.boxes
    yahtzee = rules.yahtzee_box

    @cache
    def value(filled: frozenset[tuple[str, int]], upper: int) -> float:
        have = dict(filled)
        if len(have) == len(boxes):
            return 0.0
        terminal = np.full(len(ROLLS), -np.inf)
        for r, roll in enumerate(ROLLS):
            bonus = extra_bonus(roll, rules, have)
            for box in allowed_boxes(roll, rules, have):
                points = score(roll, box, rules, have)
                # only what later points depend on: the upper sum, capped at the bonus, and
                # whether the Yahtzee box holds its full score
                kept = points if box is yahtzee else 0
                after = frozenset({*filled, (box.id, kept)})
                new_upper = min(upper + points, rules.bonus_threshold) if box.section == "upper" \
                    else upper  # fmt: skip
                gain = points + bonus
                if box.section == "upper" and upper < rules.bonus_threshold <= new_upper:
                    gain += rules.bonus_value
                terminal[r] = max(terminal[r], gain + value(after, new_upper))
        return _turn(terminal)

    return value(frozenset(), 0)


def small_game(joker: str):
    """Threes, sixes, full house, Yahtzee, chance; bonus 35 from 18 upper points."""
    full = load_rules("yahtzee")
    keep = {"threes", "sixes", "full_house", "yahtzee", "chance"}
    cats = tuple(c for c in full.boxes if c.id in keep)
    assert {c.id for c in cats} == keep
    return dataclasses.replace(full, id=f"small-{joker}", boxes=cats, bonus_threshold=18,
                               joker=joker)  # fmt: skip


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_solver_equals_an_independent_brute_force_on_a_small_game(joker: str) -> None:
    rules = small_game(joker)
    assert load_strategy(rules).expected_score() == pytest.approx(
        brute_force_expected(rules), abs=1e-9
    )


def test_forced_joker_is_below_the_free_choice_on_the_small_game() -> None:
    forced, free = (load_strategy(small_game(j)).expected_score() for j in ("forced", "free"))
    assert forced < free  # the forced joker only ever narrows the free choice
