"""Numbers puzzles: make a target from a few numbers with + − × ÷ (Köpfchen, 24, Countdown).

A pure core: no I/O. `solve` lists every distinct solution simplest first (an extra
× 1 or ÷ 1 is no new one; `all_forms` keeps them); `reachable_targets` says which
whole targets can be made at all. The canonical form that decides when two solutions
are the same is described in `generator.numbers.expr`.
"""

from generator.numbers.expr import Expr, evaluate, numbers_in, parse
from generator.numbers.rules import COUNTDOWN, GAME_24, KOEPFCHEN, MAX_NUMBERS, Rules
from generator.numbers.solver import (
    Solution,
    all_forms,
    count_solutions,
    equation_text,
    expressions,
    reachable_targets,
    simplest,
    solve,
)

__all__ = [
    "COUNTDOWN",
    "GAME_24",
    "KOEPFCHEN",
    "MAX_NUMBERS",
    "Expr",
    "Rules",
    "Solution",
    "all_forms",
    "count_solutions",
    "equation_text",
    "evaluate",
    "expressions",
    "numbers_in",
    "parse",
    "reachable_targets",
    "simplest",
    "solve",
]
