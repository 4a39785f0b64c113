"""Numbers puzzles: make a target from a few numbers with + − × ÷ (Köpfchen, 24, Countdown).

A pure core: no I/O. `solve` lists every distinct solution simplest first;
`reachable_targets` says which whole targets can be made at all. The canonical form
that decides when two solutions are the same is described in `generator.numbers.expr`.
"""

from generator.numbers.expr import Expr, evaluate, numbers_in, parse
from generator.numbers.rules import COUNTDOWN, GAME_24, KOEPFCHEN, MAX_NUMBERS, Rules
from generator.numbers.solver import (
    Solution,
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
