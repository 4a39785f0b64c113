"""Daten und Zufall with the games' dice: sicher / möglich / unmöglich, which is more
likely, how often in N rolls (`dice-chance`), and a Strichliste experiment (`dice-tally`).

Every probability is exact: a fraction from listing the 6 (one die) or 36 (two dice)
equally likely rolls. The tally's key gives the expected count of every result and
the fair spread: the counts a class's results fall in nineteen times out of twenty
(the central 95 % of the exact binomial distribution).

Difficulty model: the kind of question (judge, compare, count) and one or two dice.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from generator.worksheet.topics.base import Controls, Solution, Space, Task, Topic

# an event: (dice, kind, value); kinds on one die: the number is =, ≥, ≤ value, even, odd;
# on two dice: the sum is =, ≥, ≤ value, a double (Pasch)
KINDS = ("eq", "ge", "le", "even", "odd", "double")
JUDGE, COMPARE, COUNT = 0, 1, 2
VERDICTS = ("impossible", "possible", "certain")


def rolls(dice: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, 7), repeat=dice))


def holds(event: tuple[int, int, int], roll: tuple[int, ...]) -> bool:
    dice, kind, value = event
    total = sum(roll)
    name = KINDS[kind]
    if name == "eq":
        return total == value
    if name == "ge":
        return total >= value
    if name == "le":
        return total <= value
    if name == "even":
        return total % 2 == 0
    if name == "odd":
        return total % 2 == 1
    return dice == 2 and roll[0] == roll[1]


def probability(event: tuple[int, int, int]) -> Fraction:
    """The share of the equally likely rolls the event holds for."""
    all_rolls = rolls(event[0])
    return Fraction(sum(holds(event, r) for r in all_rolls), len(all_rolls))


def verdict(p: Fraction) -> int:
    return 0 if p == 0 else 2 if p == 1 else 1


def _event_ok(dice: int, kind: int, value: int) -> bool:
    name = KINDS[kind]
    if name == "double":
        return dice == 2 and value == 0
    if name in ("even", "odd"):
        return value == 0
    if name == "eq":  # one past each end: the impossible ones
        return max(1, dice - 1) <= value <= 6 * dice + 1
    return dice <= value <= 6 * dice


def _chance(controls: Controls) -> Space:
    def build(p: tuple[int, ...]) -> Task | None:
        question, dice, kind, value, kind2, value2 = p
        if not _event_ok(dice, kind, value):
            return None
        first = (dice, kind, value)
        pa = probability(first)
        if question == JUDGE:
            cells: tuple[tuple[int | None, ...], ...] = (first, (None,))
            solution: Solution = (first, (verdict(pa), pa.numerator, pa.denominator))
            # both ends of the scale belong on a sheet, not only "möglich"
            return Task(
                "dice-chance", "chance", cells, solution, ("judge",), (0, dice, verdict(pa))
            )
        if question == COMPARE:
            if not _event_ok(dice, kind2, value2) or (kind2, value2) == (kind, value):
                return None
            second = (dice, kind2, value2)
            pb = probability(second)
            if pa in (0, 1) or pb in (0, 1):
                return None  # comparing with the impossible is no question
            more = 0 if pa > pb else 1 if pb > pa else 2
            cells = (first, second, (None,))
            solution = (first, second, (more, 0, 0))
            return Task("dice-chance", "chance", cells, solution, ("compare",), (1, dice))
        if pa in (0, 1):
            return None
        rolls_n = 36 if dice == 2 else 30
        expected = pa * rolls_n
        if expected.denominator != 1:
            return None  # "how often" asks for a whole number
        cells = (first, (rolls_n, None))
        solution = (first, (rolls_n, int(expected)))
        return Task("dice-chance", "chance", cells, solution, ("count",), (2, dice))

    return Space((range(3), range(1, 3), range(len(KINDS)), range(0, 14), range(len(KINDS)),
                  range(0, 14)), build)  # fmt: skip


def check_chance(task: Task) -> Solution:
    """The answer from listing every roll again."""
    question = task.ops[0]
    first = task.cells[0]
    assert None not in first
    event = (int(first[0] or 0), int(first[1] or 0), int(first[2] or 0))
    pa = probability(event)
    if question == "judge":
        return (event, (verdict(pa), pa.numerator, pa.denominator))
    if question == "compare":
        second = task.cells[1]
        other = (int(second[0] or 0), int(second[1] or 0), int(second[2] or 0))
        pb = probability(other)
        return (event, other, (0 if pa > pb else 1 if pb > pa else 2, 0, 0))
    n = int(task.cells[1][0] or 0)
    expected = pa * n
    if expected.denominator != 1:
        raise ValueError(f"{task.cells}: not a whole number of rolls")
    return (event, (n, int(expected)))


# --- Strichliste -------------------------------------------------------------------------

TALLIES = ((1, 30), (1, 60), (2, 36), (2, 72))  # (dice, rolls): the sum of two dice


def spread(n: int, p: Fraction) -> tuple[int, int]:
    """The central counts of Binomial(n, p) holding at least 95 %: the least k with
    P(X ≤ k) > 2.5 % and the least k with P(X ≤ k) ≥ 97.5 %."""
    cumulative, low, high = Fraction(0), None, n
    for k in range(n + 1):
        cumulative += comb(n, k) * p**k * (1 - p) ** (n - k)
        if low is None and cumulative > Fraction(1, 40):
            low = k
        if cumulative >= Fraction(39, 40):
            high = k
            break
    return low or 0, high


def tally_rows(dice: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Per result: (result, expected count × the rolls' denominator, low, high)."""
    rows = []
    for result in range(dice, 6 * dice + 1):
        p = probability((dice, 0, result))
        low, high = spread(n, p)
        rows.append((result, (p * n).numerator, (p * n).denominator, low, high))
    return tuple(rows)


def _tally(controls: Controls) -> Space:
    def build(p: tuple[int, ...]) -> Task | None:
        dice, n = TALLIES[p[0]]
        rows = tally_rows(dice, n)
        cells = tuple((r[0], None) for r in rows)
        solution = tuple((r[0], *r[1:]) for r in rows)
        return Task("dice-tally", "tally", ((dice, n), *cells), ((dice, n), *solution), (),
                    (dice,))  # fmt: skip

    return Space((range(len(TALLIES)),), build)


def check_tally(task: Task) -> Solution:
    first = task.cells[0]
    dice, n = int(first[0] or 0), int(first[1] or 0)
    return ((dice, n), *tally_rows(dice, n))


TOPICS: tuple[Topic, ...] = (
    Topic("dice-chance", {"de": "Wahrscheinlichkeit mit Würfeln", "en": "Chance with dice"}, 3,
          "chance", (), _chance, check_chance),
    Topic("dice-tally", {"de": "Strichliste: Würfelexperiment", "en": "Tally chart: dice"},
          3, "chance", (), _tally, check_tally, default_problems=2),
)  # fmt: skip
