"""Drills: plus and minus with Zehnerübergang control, bonds, times tables, missing numbers,
division with remainder and rounding — one equation a pupil completes in each problem.

Difficulty model (the class every version gets equally often): plus and minus by the
carries (borrows) counted digit by digit, the digits of the largest number and the
place of the blank (result or operand); tables by the row (2, 5, 10 easy; 3, 4
middle; 6–9 hard) and the place of the blank; division with remainder by the row;
rounding by the place and the digits.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.worksheet.topics.base import (
    Controls,
    Solution,
    Space,
    Task,
    Topic,
    add_carries,
    check_range,
    digits,
    sub_borrows,
)
from generator.worksheet.topics.solve import Equation, the_completion

BLANK_RESULT, BLANK_FIRST, BLANK_SECOND = 0, 1, 2


def _blanks(unknown: str | None, default: str) -> range:
    mode = unknown or default
    if mode == "result":
        return range(0, 1)
    if mode == "operand":
        return range(1, 3)
    return range(0, 3)


def _mixed(controls: Controls, carry_default: str | None, unknown_default: str) -> tuple[str, ...]:
    mixed = []
    if (controls.carry or carry_default) == "mixed":
        mixed.append("carry")
    if (controls.unknown or unknown_default) == "mixed":
        mixed.append("unknown")
    return tuple(mixed)


def tier(row: int) -> int:
    """How hard a times-table row is: 1, 2, 5, 10 → 0; 3, 4 → 1; 6–9 → 2."""
    return 0 if row in (1, 2, 5, 10) else 1 if row in (3, 4) else 2


def equation(
    topic: str,
    a: int,
    op: str,
    b: int,
    c: int,
    blank: int,
    cls: tuple[int | str, ...],
    carry: bool | None = None,
) -> Task:
    row: list[int | None] = [a, b, c]
    row[(blank + 2) % 3] = None  # 0: the result, 1: the first, 2: the second operand
    trivial = (op in "+-" and b == 0) or (op in "*/" and b == 1) or (op == "*" and 1 in (a, b))
    return Task(
        topic, "equation", (tuple(row),), ((a, b, c),), (op,), cls, trivial or a == 0, 0, carry
    )


def check_equation(task: Task) -> Solution:
    """The one completion of `a op b = c` by trying every whole number up to a bound no
    completion can pass (the sum, or the product, of the shown numbers)."""
    (row,) = task.cells
    op = task.ops[0]
    shown = [v for v in row if v is not None]
    bound = sum(shown) if op in "+-" else max(1, max(shown)) * max(1, min(shown)) + max(shown)
    a, b, c = (0, 0), (0, 1), (0, 2)
    if op == "+":
        eq = Equation(((1, a), (1, b), (-1, c)))
    elif op == "-":
        eq = Equation(((1, a), (-1, b), (-1, c)))
    elif op == "*":
        eq = _product(row)
    else:  # a : b = c  ⇔  b · c = a, with b ≥ 1
        if row[1] == 0:
            raise ValueError(f"{task.cells}: division by zero")
        turned = (row[1], row[2], row[0])
        found = the_completion([turned], [_product(turned)], bound)
        if found is None or found[0][0] == 0:
            raise ValueError(f"{task.cells}: not exactly one completion")
        bb, cc, aa = found[0]
        return ((aa, bb, cc),)
    found = the_completion([row], [eq], bound)
    if found is None:
        raise ValueError(f"{task.cells}: not exactly one completion")
    return found


def _product(row: tuple[int | None, ...]) -> Equation:
    """x · y = z as a linear equation in its one blank (the other factor known)."""
    x, y, _z = row
    if x is None:
        return Equation(((y or 0, (0, 0)), (-1, (0, 2))))
    if y is None:
        return Equation(((x, (0, 1)), (-1, (0, 2))))
    return Equation(((-1, (0, 2)),), -(x * y))


# --- plus and minus ----------------------------------------------------------------------


def plus_minus(
    topic: str, op: str, lo_hi: tuple[int, int], carry: str, unknown: str, mixed: tuple[str, ...]
) -> Space:
    lo, hi = lo_hi

    def build(p: tuple[int, ...]) -> Task | None:
        x, y, blank = p
        if op == "+":
            a, b, c = x, y, x + y
            biggest, carries = c, add_carries(x, y)
        else:
            a, b, c = x, y, x - y
            biggest, carries = a, sub_borrows(x, y)
        if c < 0 or not lo <= biggest <= hi:
            return None
        if (carry == "yes" and not carries) or (carry == "no" and carries):
            return None
        cls = (min(carries, 2), digits(biggest), "result" if blank == 0 else "operand")
        return equation(topic, a, op, b, c, blank, cls, carries > 0)

    return Space((range(0, hi + 1), range(0, hi + 1), _blanks(unknown, "result")), build, mixed)


def _plus_minus_topic(
    id: str,
    de: str,
    en: str,
    klasse: int,
    op: str,
    default: tuple[int, int],
    limits: tuple[int, int],
    carry: str | None,
    controls_of: tuple[str, ...],
) -> Topic:
    def space(controls: Controls) -> Space:
        rng = check_range(TOPICS_BY_ID[id], controls)
        free = "carry" in controls_of and not carry  # within 10 carries are no subject
        mode = carry or controls.carry or ("mixed" if free else "any")
        return plus_minus(id, op, rng, mode, controls.unknown or "result",
                          _mixed(controls, "mixed" if free else None, "result"))  # fmt: skip

    return Topic(id, {"de": de, "en": en}, klasse, "drills", controls_of, space, check_equation,
                 default_range=default, limits=limits, carry=carry)  # fmt: skip


TOPICS_BY_ID: dict[str, Topic] = {}


def _bonds(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["bonds-10"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        total, a, blank = p
        if a > total:
            return None
        b = total - a
        # Verliebte Zahlen: the blank is always a partner, first or second
        return equation("bonds-10", a, "+", b, total, blank, (blank, digits(total)))

    return Space((range(lo, hi + 1), range(0, hi + 1), range(1, 3)), build)


def _table(id: str, op: str) -> Callable[[Controls], Space]:
    def space(controls: Controls) -> Space:
        rows = controls.rows or tuple(range(1, 11))
        unknown = controls.unknown or "result"

        def build(p: tuple[int, ...]) -> Task | None:
            k, row, blank = p
            if row not in rows:
                return None
            cls = (tier(row), "result" if blank == 0 else "operand")
            if op == "*":
                task = equation(id, k, "*", row, k * row, blank, cls)
            else:
                task = equation(id, k * row, "/", row, k, blank, cls)
            if task.cells[0][1] is None and task.cells[0][0] == 0:
                return None  # 0 : __ = 0 has every completion
            return task

        return Space((range(1, 11), range(1, 11), _blanks(unknown, "result")), build,
                     ("unknown",) if unknown == "mixed" else ())  # fmt: skip

    return space


def _missing(controls: Controls) -> Space:
    """7 + __ = 15, 23 − __ = 8, __ · 4 = 28, 36 : __ = 9: one operand blank."""
    lo, hi = check_range(TOPICS_BY_ID["missing-number"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        which, x, y, blank = p
        op = "+-*/"[which]
        if op in "+-":
            c = x + y if op == "+" else x - y
            top = c if op == "+" else x
            if c < 0 or not lo <= top <= hi or x > hi or y > hi:
                return None
            carry = (add_carries(x, y) if op == "+" else sub_borrows(x, y)) > 0
            return equation("missing-number", x, op, y, c, blank, (op, int(carry), blank), carry)
        x, y = 1 + x % 10, 1 + y % 10  # the tables: both numbers 1–10
        if op == "*":
            return equation("missing-number", x, "*", y, x * y, blank, (op, tier(y), blank))
        return equation("missing-number", x * y, "/", y, x, blank, (op, tier(y), blank))

    return Space((range(4), range(0, hi + 1), range(0, hi + 1), range(1, 3)), build)


# --- division with remainder, rounding ---------------------------------------------------


def _remainder(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["divide-remainder"], controls)
    rows = controls.rows or tuple(range(2, 10))

    def build(p: tuple[int, ...]) -> Task | None:
        b, q, r = p
        a = q * b + r
        if b not in rows or r >= b or not lo <= a <= hi:
            return None
        return Task("divide-remainder", "remainder", ((a, b, None, None),), ((a, b, q, r),),
                    ("/",), (tier(b), int(q >= 10)), b == 1)  # fmt: skip

    return Space((range(1, 11), range(1, 11), range(1, 10)), build)


def check_remainder(task: Task) -> Solution:
    """a : b = q R r with 0 ≤ r < b, every q from 0 to a tried."""
    (a, b, _, _), *_ = task.cells
    assert a is not None and b is not None
    eq = Equation(((1, (0, 0)), (-b, (0, 2)), (-1, (0, 3))))
    found = the_completion(task.cells, [eq], a, {(0, 3): b - 1})
    if found is None:
        raise ValueError(f"{task.cells}: not exactly one completion")
    return found


def _rounding(controls: Controls) -> Space:
    lo, hi = check_range(TOPICS_BY_ID["rounding"], controls)

    def build(p: tuple[int, ...]) -> Task | None:
        n, to_hundred = p
        place = 100 if to_hundred else 10
        if not lo <= n <= hi or n % place == 0 or (place == 100 and n < 100):
            return None
        rounded = (n + place // 2) // place * place  # ab 5 wird aufgerundet
        cls = (place, digits(n))
        return Task("rounding", "round", ((n, None),), ((n, rounded),), (), cls, False, place)

    return Space((range(lo, hi + 1), range(2)), build)


def check_rounding(task: Task) -> Solution:
    """The multiple of the place nearest to n, the larger one when both are as near."""
    (n, _), *_ = task.cells
    assert n is not None
    place = task.note
    best = min(range(0, n + place + 1, place), key=lambda m: (abs(n - m), -m))
    return ((n, best),)


TOPICS: tuple[Topic, ...] = (
    _plus_minus_topic("add-10", "Plus bis 10", "Adding up to 10", 1, "+", (0, 10), (0, 10), None,
                      ("range", "unknown", "dice")),
    _plus_minus_topic("sub-10", "Minus bis 10", "Subtracting within 10", 1, "-", (0, 10), (0, 10),
                      None, ("range", "unknown", "dice")),
    _plus_minus_topic("add-20-nocarry", "Plus bis 20 ohne Zehnerübergang",
                      "Adding to 20 without bridging ten", 1, "+", (11, 20), (0, 20), "no",
                      ("range", "carry", "unknown", "dice")),
    _plus_minus_topic("sub-20-noborrow", "Minus bis 20 ohne Zehnerübergang",
                      "Subtracting within 20 without bridging ten", 1, "-", (11, 20), (0, 20),
                      "no", ("range", "carry", "unknown", "dice")),
    Topic("bonds-10", {"de": "Verliebte Zahlen", "en": "Number bonds to 10"}, 1, "drills",
          ("range", "dice"), _bonds, check_equation, default_range=(10, 10), limits=(2, 20)),
    _plus_minus_topic("add-20-carry", "Plus bis 20 mit Zehnerübergang",
                      "Adding to 20 bridging ten", 2, "+", (11, 19), (0, 20), "yes",
                      ("range", "carry", "unknown")),
    _plus_minus_topic("sub-20-borrow", "Minus bis 20 mit Zehnerübergang",
                      "Subtracting within 20 bridging ten", 2, "-", (11, 20), (0, 20), "yes",
                      ("range", "carry", "unknown")),
    _plus_minus_topic("add-100", "Plus bis 100", "Adding to 100", 2, "+", (20, 100), (0, 100),
                      None, ("range", "carry", "unknown")),
    _plus_minus_topic("sub-100", "Minus bis 100", "Subtracting within 100", 2, "-", (20, 100),
                      (0, 100), None, ("range", "carry", "unknown")),
    Topic("times-table", {"de": "Kleines Einmaleins", "en": "Times tables"}, 2, "drills",
          ("rows", "unknown"), _table("times-table", "*"), check_equation),
    Topic("divide-table", {"de": "Geteilt durch (Einmaleins)", "en": "Division facts"}, 2,
          "drills", ("rows", "unknown"), _table("divide-table", "/"), check_equation),
    Topic("missing-number", {"de": "Platzhalteraufgaben", "en": "Missing numbers"}, 2, "drills",
          ("range",), _missing, check_equation, default_range=(10, 100), limits=(0, 100)),
    _plus_minus_topic("add-1000", "Plus bis 1000", "Adding to 1000", 3, "+", (100, 1000),
                      (0, 1000), None, ("range", "carry", "unknown")),
    _plus_minus_topic("sub-1000", "Minus bis 1000", "Subtracting within 1000", 3, "-",
                      (100, 1000), (0, 1000), None, ("range", "carry", "unknown")),
    Topic("divide-remainder", {"de": "Geteilt mit Rest", "en": "Division with remainder"}, 3,
          "drills", ("range", "rows"), _remainder, check_remainder, default_range=(10, 99),
          limits=(2, 109)),
    Topic("rounding", {"de": "Runden auf Zehner und Hunderter",
                       "en": "Rounding to tens and hundreds"}, 3, "drills", ("range",),
          _rounding, check_rounding, default_range=(11, 999), limits=(1, 9999)),
)  # fmt: skip
TOPICS_BY_ID.update({t.id: t for t in TOPICS})
