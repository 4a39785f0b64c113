"""The classic puzzles with one solution: Zahlenhaus, Rechenmauer (3 and 4 rows),
Rechendreieck, Zauberquadrat and Rechenkette.

Each is a set of linear equations over its cells, so the checker is the exhaustive
solver of `topics.solve` (every completion in whole numbers ≥ 0 is counted). The
generator shows only cell patterns a pupil can finish step by step — every step an
equation with one blank — which also makes the completion unique.

Difficulty model: the house by the roof (up to 10, above); a wall and a triangle by
the pattern of given cells (how many steps go down, i.e. subtract, instead of up);
the magic square by the number of given cells; the chain by its · and : steps.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cache

from generator.worksheet.topics.base import Cells, Controls, Solution, Space, Task, Topic
from generator.worksheet.topics.base import check_range as _range
from generator.worksheet.topics.solve import Cell, Equation, shown_max, the_completion

TOPICS_BY_ID: dict[str, Topic] = {}


def _solve(task: Task, equations: Sequence[Equation], bound: int) -> Solution:
    found = the_completion(task.cells, equations, bound)
    if found is None:
        raise ValueError(f"{task.topic} {task.cells}: not exactly one completion")
    return found


def _steps(shown: frozenset[Cell], equations: Sequence[Equation]) -> int | None:
    """Solving step by step from the shown cells: how many steps find a cell that is a
    term of the sum (a subtraction), or None when some step needs more than one blank."""
    known, down = set(shown), 0
    cells = {cell for eq in equations for _, cell in eq.terms}
    while known != cells:
        for eq in equations:
            unknown = [(coef, cell) for coef, cell in eq.terms if cell not in known]
            if len(unknown) == 1:
                coef, cell = unknown[0]
                known.add(cell)
                down += coef > 0  # a term of the sum found: a subtraction
                break
        else:
            return None
    return down


# --- Rechenmauer -----------------------------------------------------------------------


def wall_equations(rows: int) -> tuple[Equation, ...]:
    """Every brick (row r from the top, place c) is the sum of the two below it."""
    return tuple(
        Equation(((1, (r + 1, c)), (1, (r + 1, c + 1)), (-1, (r, c))))
        for r in range(rows - 1)
        for c in range(r + 1)
    )


@cache
def wall_patterns(rows: int) -> tuple[tuple[frozenset[Cell], int], ...]:
    """The sets of `rows` given bricks from which the wall can be finished step by step."""
    cells = [(r, c) for r in range(rows) for c in range(r + 1)]
    eqs = wall_equations(rows)
    found = []
    for shown in itertools.combinations(cells, rows):
        down = _steps(frozenset(shown), eqs)
        if down is not None:
            found.append((frozenset(shown), down))
    return tuple(found)


def _wall(topic: str, rows: int) -> Callable[[Controls], Space]:
    def space(controls: Controls) -> Space:
        lo, hi = _range(TOPICS_BY_ID[topic], controls)
        patterns = wall_patterns(rows)
        weights = (1, 3, 3, 1) if rows == 4 else (1, 2, 1)

        def build(p: tuple[int, ...]) -> Task | None:
            *base, pattern = p
            if sum(w * b for w, b in zip(weights, base)) > hi:
                return None
            full = [list(base)]
            while len(full[0]) > 1:
                below = full[0]
                full.insert(0, [below[i] + below[i + 1] for i in range(len(below) - 1)])
            if not lo <= full[0][0] <= hi:
                return None
            shown, down = patterns[pattern]
            cells: Cells = tuple(
                tuple(v if (r, c) in shown else None for c, v in enumerate(row))
                for r, row in enumerate(full)
            )
            solution = tuple(tuple(row) for row in full)
            return Task(topic, "wall", cells, solution, (), (down,), 0 in base)

        inner = hi // 6 + 1 if rows == 4 else hi // 2 + 1
        outer = hi // 3 + 1 if rows == 4 else hi + 1
        widths = [outer, inner, inner, outer] if rows == 4 else [outer, inner, outer]
        return Space((*(range(w) for w in widths), range(len(patterns))), build)

    return space


def check_wall(task: Task) -> Solution:
    rows = len(task.cells)
    bound = shown_max(task.cells) * 2 ** (rows - 1)  # no brick exceeds the top, the top 2^(n−1)·max
    return _solve(task, wall_equations(rows), bound)


# --- Zahlenhaus ------------------------------------------------------------------------

FLOORS = 4


def _house(controls: Controls) -> Space:
    lo, hi = _range(TOPICS_BY_ID["number-house"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        roof, *parts, sides = p
        floors = [1 + a % (roof - 1) for a in parts]
        if len(set(floors)) < FLOORS:
            return None
        rows: list[tuple[int | None, ...]] = [(roof,)]
        solution: list[tuple[int, ...]] = [(roof,)]
        for i, a in enumerate(floors):
            left_blank = sides >> i & 1
            rows.append((None, roof - a) if left_blank else (a, None))
            solution.append((a, roof - a))
        return Task("number-house", "house", tuple(rows), tuple(solution), (), (int(roof > 10),))

    return Space((range(lo, hi + 1), *(range(hi) for _ in range(FLOORS)), range(16)), build)


def check_house(task: Task) -> Solution:
    equations = [
        Equation(((1, (r, 0)), (1, (r, 1)), (-1, (0, 0)))) for r in range(1, len(task.cells))
    ]
    return _solve(task, equations, shown_max(task.cells))  # no floor's number exceeds the roof


# --- Rechendreieck ---------------------------------------------------------------------

# corners (0, 0) top, (0, 1) bottom left, (0, 2) bottom right; sides (1, 0) left = top +
# bottom left, (1, 1) right = top + bottom right, (1, 2) bottom = the two bottom corners
TRIANGLE = (
    Equation(((1, (0, 0)), (1, (0, 1)), (-1, (1, 0)))),
    Equation(((1, (0, 0)), (1, (0, 2)), (-1, (1, 1)))),
    Equation(((1, (0, 1)), (1, (0, 2)), (-1, (1, 2)))),
)


@cache
def triangle_patterns() -> tuple[tuple[frozenset[Cell], int], ...]:
    cells = [(r, c) for r in range(2) for c in range(3)]
    found = []
    for shown in itertools.combinations(cells, 3):
        down = _steps(frozenset(shown), TRIANGLE)
        if down is not None:
            found.append((frozenset(shown), down))
    return tuple(found)


def _triangle(controls: Controls) -> Space:
    lo, hi = _range(TOPICS_BY_ID["number-triangle"], controls)
    patterns = triangle_patterns()

    def build(p: tuple[int, ...]) -> Task | None:
        a, b, c, pattern = p
        full = ((a, b, c), (a + b, a + c, b + c))
        if not lo <= max(full[1]) <= hi:
            return None
        shown, down = patterns[pattern]
        cells = tuple(
            tuple(v if (r, k) in shown else None for k, v in enumerate(row))
            for r, row in enumerate(full)
        )
        return Task("number-triangle", "triangle", cells, full, (), (down,), 0 in (a, b, c))

    return Space((range(hi + 1), range(hi + 1), range(hi + 1), range(len(patterns))), build)


def check_triangle(task: Task) -> Solution:
    return _solve(task, TRIANGLE, 2 * shown_max(task.cells))  # a side is two corners at most


# --- Zauberquadrat ---------------------------------------------------------------------

LO_SHU = ((2, 7, 6), (9, 5, 1), (4, 3, 8))
LINES = (
    *(tuple((r, c) for c in range(3)) for r in range(3)),
    *(tuple((r, c) for r in range(3)) for c in range(3)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)


def square_equations(total: int) -> tuple[Equation, ...]:
    return tuple(Equation(tuple((1, cell) for cell in line), total) for line in LINES)


def _turned(k: int) -> tuple[tuple[int, ...], ...]:
    """The Lo Shu square turned k quarter turns, mirrored for k ≥ 4."""
    square = [list(row) for row in LO_SHU]
    if k >= 4:
        square = [row[::-1] for row in square]
    for _ in range(k % 4):
        square = [list(row) for row in zip(*square[::-1])]
    return tuple(tuple(row) for row in square)


@cache
def square_patterns() -> tuple[tuple[frozenset[Cell], int], ...]:
    cells = [(r, c) for r in range(3) for c in range(3)]
    eqs = square_equations(1)
    found = []
    for n in (4, 3):
        for shown in itertools.combinations(cells, n):
            if _steps(frozenset(shown), eqs) is not None:
                found.append((frozenset(shown), 5 - n))
    return tuple(found)


def _square(controls: Controls) -> Space:
    lo, hi = _range(TOPICS_BY_ID["magic-square"], controls)
    patterns = square_patterns()

    def build(p: tuple[int, ...]) -> Task | None:
        turn, start, step, pattern = p
        full = tuple(tuple(start + step * (v - 1) for v in row) for row in _turned(turn))
        total = sum(full[0])
        if not lo <= total <= hi:
            return None
        shown, level = patterns[pattern]
        cells = tuple(
            tuple(v if (r, c) in shown else None for c, v in enumerate(row))
            for r, row in enumerate(full)
        )
        return Task("magic-square", "square", cells, full, (), (level,), False, total)

    return Space((range(8), range(0, 31), range(1, 11), range(len(patterns))), build)


def check_square(task: Task) -> Solution:
    """Every completion whose rows, columns and diagonals make the printed magic sum."""
    return _solve(task, square_equations(task.note), task.note)  # no cell exceeds the sum


# --- Rechenkette -----------------------------------------------------------------------

CHAIN_STEPS = 4


def _chain(controls: Controls) -> Space:
    lo, hi = _range(TOPICS_BY_ID["number-chain"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        start, *steps = p
        values, ops, amounts = [start], [], []
        for step in steps:
            op, k = "+-*/"[step % 4], 2 + step // 4
            v = values[-1]
            nxt = v + k if op == "+" else v - k if op == "-" else v * k if op == "*" else v // k
            if (op == "/" and v % k) or not 0 <= nxt <= hi:
                return None
            values.append(nxt)
            ops.append(op)
            amounts.append(k)
        if not lo <= max(values) <= hi:
            return None
        hard = sum(op in "*/" for op in ops)
        cells = ((start, *([None] * CHAIN_STEPS)), tuple(amounts))
        solution = (tuple(values), tuple(amounts))
        return Task("number-chain", "chain", cells, solution, tuple(ops), (hard,))

    return Space((range(1, hi + 1), *(range(36) for _ in range(CHAIN_STEPS))), build)


def chain_equations(task: Task) -> tuple[Equation, ...]:
    eqs = []
    for i, (op, k) in enumerate(zip(task.ops, task.cells[1])):
        assert k is not None
        prev, nxt = (0, i), (0, i + 1)
        if op == "+":
            eqs.append(Equation(((1, nxt), (-1, prev)), k))
        elif op == "-":
            eqs.append(Equation(((1, prev), (-1, nxt)), k))
        elif op == "*":
            eqs.append(Equation(((1, nxt), (-k, prev))))
        else:
            eqs.append(Equation(((1, prev), (-k, nxt))))
    return tuple(eqs)


def check_chain(task: Task) -> Solution:
    bound = (shown_max(task.cells[:1]) + 10) * 10 ** len(task.ops)  # each step at most · 10, + 10
    return _solve(task, chain_equations(task), bound)


def _topic(
    id: str,
    de: str,
    en: str,
    klasse: int,
    space: Callable[[Controls], Space],
    check: Callable[[Task], Solution],
    default: tuple[int, int],
    limits: tuple[int, int],
) -> Topic:
    return Topic(id, {"de": de, "en": en}, klasse, "puzzles", ("range",), space, check,
                 default_range=default, limits=limits)  # fmt: skip


TOPICS: tuple[Topic, ...] = (
    _topic("number-house", "Zahlenhaus", "Number house", 1, _house, check_house, (5, 20),
           (5, 100)),
    _topic("number-wall-3", "Rechenmauer (3 Reihen)", "Number wall (3 rows)", 1,
           _wall("number-wall-3", 3), check_wall, (6, 20), (4, 100)),
    _topic("number-wall-4", "Rechenmauer (4 Reihen)", "Number wall (4 rows)", 2,
           _wall("number-wall-4", 4), check_wall, (30, 100), (16, 1000)),
    _topic("number-triangle", "Rechendreieck", "Number triangle", 2, _triangle, check_triangle,
           (6, 20), (4, 100)),
    _topic("magic-square", "Zauberquadrat", "Magic square", 4, _square, check_square, (15, 60),
           (15, 300)),
    _topic("number-chain", "Rechenkette", "Number chain", 4, _chain, check_chain, (10, 100),
           (10, 1000)),
)  # fmt: skip
TOPICS_BY_ID.update({t.id: t for t in TOPICS})
