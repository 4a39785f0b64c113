"""The exhaustive solver of the blanks: every completion in whole numbers 0…bound.

A puzzle is a set of linear equations over its cells (a brick is the sum of the two
below it, a side of a triangle the sum of its corners, a row of a magic square the
magic sum, a step of a chain `next = prev · k`). The search tries every value of a
blank where no equation decides it, and takes the one value an equation with a
single blank leaves (or none, when that is not a whole number in range) — so it
counts every completion, never only the one the generator had in mind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Cell = tuple[int, int]  # (row, column) of a puzzle's cells


@dataclass(frozen=True)
class Equation:
    """sum(coefficient · cell) == constant."""

    terms: tuple[tuple[int, Cell], ...]
    constant: int = 0


def completions(
    cells: Sequence[Sequence[int | None]],
    equations: Sequence[Equation],
    bound: int,
    limits: dict[Cell, int] | None = None,
    most: int = 2,
) -> list[tuple[tuple[int, ...], ...]]:
    """Up to `most` completions of the blanks (None) with values 0…bound (a cell of
    `limits` at most its limit) that satisfy every equation."""
    values: dict[Cell, int] = {}
    blanks: list[Cell] = []
    for r, row in enumerate(cells):
        for c, v in enumerate(row):
            if v is None:
                blanks.append((r, c))
            else:
                values[(r, c)] = v
    caps = {cell: min(bound, (limits or {}).get(cell, bound)) for cell in blanks}
    found: list[tuple[tuple[int, ...], ...]] = []

    def state(eq: Equation) -> tuple[int, list[tuple[int, Cell]]]:
        known = eq.constant
        unknown = []
        for coef, cell in eq.terms:
            if cell in values:
                known -= coef * values[cell]
            else:
                unknown.append((coef, cell))
        return known, unknown

    def search() -> None:
        if len(found) >= most:
            return
        forced: tuple[Cell, int] | None = None
        for eq in equations:
            rest, unknown = state(eq)
            if not unknown:
                if rest != 0:
                    return
            elif len(unknown) == 1 and forced is None:
                coef, cell = unknown[0]
                if rest % coef:
                    return
                forced = (cell, rest // coef)
        if forced is not None:
            cell, v = forced
            if not 0 <= v <= caps[cell]:
                return
            values[cell] = v
            search()
            del values[cell]
            return
        open_cells = [cell for cell in blanks if cell not in values]
        if not open_cells:
            found.append(
                tuple(tuple(values[(r, c)] for c in range(len(row))) for r, row in enumerate(cells))
            )
            return
        cell = open_cells[0]
        for v in range(caps[cell] + 1):
            values[cell] = v
            search()
            del values[cell]
            if len(found) >= most:
                break

    search()
    return found


def the_completion(
    cells: Sequence[Sequence[int | None]],
    equations: Sequence[Equation],
    bound: int,
    limits: dict[Cell, int] | None = None,
) -> tuple[tuple[int, ...], ...] | None:
    """The one completion, or None when there is none or more than one."""
    found = completions(cells, equations, bound, limits)
    return found[0] if len(found) == 1 else None


def shown_max(cells: Sequence[Sequence[int | None]]) -> int:
    return max((v for row in cells for v in row if v is not None), default=0)
