"""The difficulty score of a problem, computed from all of its solutions.

Each part is what the problem *needs*: the minimum over all distinct solutions
(`generator.numbers.solve`), so another way that avoids it makes it unneeded.

    difficulty = (fewest numbers − 1)              every number is one more step
               + fewest operation points           − 1, × 2, ÷ 3, added per solution
               + 2 · brackets needed               every solution has brackets
               + 3 · fractions needed              every solution has a fraction or a
                                                   negative number along the way (24 game)
               + scarcity                          1 solution: 3, 2: 2, 3–4: 1, 5 or more: 0

With + and −, 3 from 1, 2, 4 (2 + 1, 4 − 1, 4 + 1 − 2) scores 1 + 0 + 0 + 0 + 1 = 2;
with all four operations, 10 from 1, 2, 6 (only (6 − 1) × 2) scores 2 + 3 + 2 + 0 + 3 = 10.
Impossible problems have no score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.core.errors import UserError
from generator.numbers import Rules, Solution, evaluate, solve
from generator.numbers.expr import MINUS, reading_text

OP_POINTS = {"-": 1, "*": 2, "/": 3}
BRACKET_POINTS = 2
FRACTION_POINTS = 3


def scarcity(count: int) -> int:
    """Points for having few distinct solutions (harder to find)."""
    if count <= 1:
        return 3
    if count == 2:
        return 2
    if count <= 4:
        return 1
    return 0


@dataclass(frozen=True)
class Difficulty:
    """The parts of the score (see the module docstring) and their total."""

    numbers: int  # fewest numbers a solution uses
    op_points: int  # fewest operation points of a solution
    brackets: bool  # every solution needs brackets
    fractions: bool  # every solution passes through a fraction or a negative number
    solutions: int  # distinct solutions

    @property
    def score(self) -> int:
        return (
            (self.numbers - 1)
            + self.op_points
            + BRACKET_POINTS * self.brackets
            + FRACTION_POINTS * self.fractions
            + scarcity(self.solutions)
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "numbers": self.numbers,
            "op_points": self.op_points,
            "brackets": self.brackets,
            "fractions": self.fractions,
            "solutions": self.solutions,
        }


def uses_op(solution: Solution, op: str) -> bool:
    """Whether the printed solution uses the operation `op` ("+-*/")."""
    if op == "*":
        return solution.uses_multiplication
    if op == "/":
        return solution.uses_division
    if op == "-":
        return MINUS in solution.text
    return "+" in solution.text


def op_points(solution: Solution) -> int:
    """− 1, × 2, ÷ 3, each counted once per solution."""
    return sum(points for op, points in OP_POINTS.items() if uses_op(solution, op))


def fraction_keys(rules: Rules, solutions: Sequence[Solution]) -> frozenset[str]:
    """Keys of those `solutions` that need a fraction or a negative number along the way.

    The printed form of a canonical solution has whole non-negative intermediates
    whenever any way of writing it has (`generator.numbers.expr`), so checking the
    printed form under integer rules decides it. Only possible under rational rules.
    """
    if not rules.rational:
        return frozenset()
    whole = rules.replace(division="integer")
    needing = set()
    for solution in solutions:
        try:
            evaluate(solution.text, whole)
        except UserError:
            needing.add(solution.key)
    return frozenset(needing)


def difficulty_of(
    solutions: Sequence[Solution], fractions: frozenset[str] = frozenset()
) -> Difficulty | None:
    """The difficulty of a problem from all its distinct solutions; None if there are none."""
    if not solutions:
        return None
    return Difficulty(
        numbers=min(len(s.numbers_used) for s in solutions),
        op_points=min(op_points(s) for s in solutions),
        brackets=all(s.needs_brackets for s in solutions),
        fractions=bool(fractions) and all(s.key in fractions for s in solutions),
        solutions=len(solutions),
    )


def key_solution(solutions: Sequence[Solution], fractions: frozenset[str]) -> Solution:
    """The solution the answer key prints: the simplest, preferring whole-number steps
    and, among equally simple ones, one that reads left to right as printed.

    `solutions` come simplest first (the solver's order); under the 24 rules the first one
    without a fraction or a negative number along the way wins when there is one, so the
    key shows (9 − 3) × (7 − 3) rather than (3 − 7) × (3 − 9).
    """
    whole = [s for s in solutions if s.key not in fractions] or list(solutions)
    # of the equally simple ones, one a pupil reads left to right as printed (2 × 3 + 6
    # rather than 4 − 6 ÷ 6); the key writes it with `reading_text` in any case
    ties = [s for s in whole if s.complexity == whole[0].complexity]
    return next((s for s in ties if reading_text(s.expr) == s.text), ties[0])


@dataclass(frozen=True)
class Assessment:
    """What the solver says about one problem."""

    solutions: list[Solution]  # simplest first
    difficulty: Difficulty | None  # None: no solution
    simplest: Solution | None  # the one the answer key prints

    @property
    def shown(self) -> str | None:
        """The key's solution as printed: read left to right, it is right."""
        return reading_text(self.simplest.expr) if self.simplest else None


def assess(numbers: Sequence[int], target: int, rules: Rules) -> Assessment:
    """All solutions of a problem, its difficulty and the solution for the answer key."""
    solutions = solve(numbers, target, rules)
    if not solutions:
        return Assessment(solutions, None, None)
    fractions = fraction_keys(rules, solutions)
    return Assessment(
        solutions, difficulty_of(solutions, fractions), key_solution(solutions, fractions)
    )
