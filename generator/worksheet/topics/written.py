"""Written arithmetic (schriftliches Rechnen) on the 5 mm Kästchen grid with a carry row.

Difficulty model: the number of addends, the digits of the largest number and the
carries (borrows) counted digit by digit (0, 1, 2, 3 or more); multiplication by
the digits of the second factor and its carries; division by the digits of the
dividend and whether the first digit is smaller than the divisor.
"""

from __future__ import annotations

from generator.worksheet.topics.base import (
    Controls,
    Solution,
    Space,
    Task,
    Topic,
    add_carries,
    check_range,
    digits,
    mul_carries,
    sub_borrows,
)

TOPICS_BY_ID: dict[str, Topic] = {}


def _carry_ok(mode: str, carries: int) -> bool:
    return mode == "mixed" or (mode == "yes") == (carries > 0)


def _mixed(controls: Controls) -> tuple[str, ...]:
    return ("carry",) if (controls.carry or "mixed") == "mixed" else ()


def _column_add(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["column-add"], controls)
    mode = controls.carry or "mixed"

    def build(p: tuple[int, ...]) -> Task | None:
        a, b, c, three = p
        addends = (a, b, c) if three else (a, b)
        total = sum(addends)
        if not lo <= total <= hi or min(addends) < 10:
            return None
        carries = add_carries(*addends)
        if not _carry_ok(mode, carries):
            return None
        cls = (len(addends), digits(total), min(carries, 3))
        return Task("column-add", "column", ((*addends, None),), ((*addends, total),), ("+",),
                    cls, False, 0, carries > 0)  # fmt: skip

    return Space((range(hi + 1), range(hi + 1), range(hi + 1), range(2)), build, _mixed(controls))


def _column_sub(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["column-sub"], controls)
    mode = controls.carry or "mixed"

    def build(p: tuple[int, ...]) -> Task | None:
        a, b = p
        if not lo <= a <= hi or b < 10 or b >= a:
            return None
        borrows = sub_borrows(a, b)
        if not _carry_ok(mode, borrows):
            return None
        cls = (digits(a), digits(b), min(borrows, 3))
        return Task("column-sub", "column", ((a, b, None),), ((a, b, a - b),), ("-",), cls,
                    False, 0, borrows > 0)  # fmt: skip

    return Space((range(hi + 1), range(hi + 1)), build, _mixed(controls))


def _column_times(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["column-times"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        a, b = p
        product = a * b
        if a < 10 or b < 2 or b % 10 == 0 or not lo <= product <= hi:
            return None
        cls = (digits(b), digits(a), min(mul_carries(a, b), 3))
        return Task("column-times", "column", ((a, b, None),), ((a, b, product),), ("*",), cls)

    return Space((range(10, 10000), range(2, 100)), build)


def _column_divide(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["column-divide"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        q, b = p
        a = q * b
        if not lo <= a <= hi or q < 10:
            return None
        first_small = int(int(str(a)[0]) < b)
        return Task("column-divide", "column", ((a, b, None),), ((a, b, q),), ("/",),
                    (digits(a), first_small))  # fmt: skip

    return Space((range(hi // 2 + 1), range(2, 10)), build)


def check_column(task: Task) -> Solution:
    """The result recomputed: the sum, the difference, the product or the exact quotient."""
    (row,) = task.cells
    shown = [v for v in row if v is not None]
    op = task.ops[0]
    if op == "+":
        result = sum(shown)
    elif op == "-":
        result = shown[0] - shown[1]
    elif op == "*":
        result = shown[0] * shown[1]
    else:
        result, rest = divmod(shown[0], shown[1])
        if rest:
            raise ValueError(f"{task.cells}: leaves a remainder")
    if result < 0:
        raise ValueError(f"{task.cells}: below zero")
    return ((*shown, result),)


TOPICS: tuple[Topic, ...] = (
    Topic("column-add", {"de": "Schriftliche Addition", "en": "Column addition"}, 3, "written",
          ("range", "carry"), _column_add, check_column, default_range=(100, 1000),
          limits=(20, 99999)),
    Topic("column-sub", {"de": "Schriftliche Subtraktion", "en": "Column subtraction"}, 3,
          "written", ("range", "carry"), _column_sub, check_column, default_range=(100, 1000),
          limits=(20, 99999)),
    Topic("column-times", {"de": "Schriftliche Multiplikation", "en": "Long multiplication"},
          4, "written", ("range",), _column_times, check_column, default_range=(100, 99999),
          limits=(20, 999999)),
    Topic("column-divide", {"de": "Schriftliche Division", "en": "Long division"}, 4,
          "written", ("range",), _column_divide, check_column, default_range=(100, 9999),
          limits=(20, 99999)),
)  # fmt: skip
TOPICS_BY_ID.update({t.id: t for t in TOPICS})
