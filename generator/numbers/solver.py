"""The target solver: every distinct way to make a target from some numbers.

`solve` lists all distinct solutions (distinct canonical forms, see
`generator.numbers.expr`, with unit variants — an extra × 1 or ÷ 1 — merged into
the simplest form of their class), simplest first. It works in two steps:

1. the value tables of every proper part of the numbers (`generator.numbers.values`),
   a DP over sub-multisets;
2. a backward search from the target that builds only canonical forms that reach it:
   a sum over S is an added side over A and a subtracted side over S − A whose totals
   differ by the target, each side a set partition into non-sum terms whose values are
   looked up in the tables; products likewise. Every level is memoised and deduplicated
   by canonical key, so each form is built once.

Simplest first means: fewer numbers, then fewer operations, then without ÷, then
without ×, then without brackets (all judged on the printed form), then by text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from generator.numbers.expr import Expr, divide, normalize, unit_free_key
from generator.numbers.rules import KOEPFCHEN, Rules, validate_numbers, validate_target
from generator.numbers.values import arith_of, first_blocks, splits, sub_multisets, tables

if TYPE_CHECKING:
    from collections.abc import Iterable

    from generator.numbers.expr import Value
    from generator.numbers.values import Arith, Multiset

    Pair = tuple[Value, Value]

_CACHE_SIZE = 1 << 17


@dataclass(frozen=True, slots=True)
class Solution:
    """One distinct solution, as printed on an answer key (equal and shown without `expr`)."""

    numbers_used: tuple[int, ...]  # sorted, with repeats
    n_ops: int
    uses_division: bool
    uses_multiplication: bool
    needs_brackets: bool
    text: str  # e.g. "(3 + 1) × 2"
    value: Value
    key: str  # the canonical key: equal exactly for equal solutions
    expr: Expr = field(compare=False, repr=False)

    @classmethod
    def of(cls, expr: Expr) -> Solution:
        """The solution written by a canonical expression."""
        return cls(
            numbers_used=expr.numbers,
            n_ops=len(expr.numbers) - 1,
            uses_division=expr.uses_division,
            uses_multiplication=expr.uses_multiplication,
            needs_brackets=expr.needs_brackets,
            text=expr.text,
            value=expr.value,
            key=expr.key,
            expr=expr,
        )

    @property
    def complexity(self) -> tuple[int, int, bool, bool, bool]:
        """What "simplest" compares, before the text: smaller is simpler."""
        return (
            len(self.numbers_used),
            self.n_ops,
            self.uses_division,
            self.uses_multiplication,
            self.needs_brackets,
        )

    @property
    def equation(self) -> str:
        """The full equation, e.g. "(3 + 1) × 2 = 8"."""
        return equation_text(self)


def equation_text(solution: Solution) -> str:
    """`solution` as an equation: "(3 + 1) × 2 = 8"."""
    return f"{solution.text} = {solution.value}"


def _order(solution: Solution) -> tuple[int, int, bool, bool, bool, str]:
    return (*solution.complexity, solution.text)


def solve(numbers: Iterable[int], target: int, rules: Rules = KOEPFCHEN) -> list[Solution]:
    """All distinct solutions that make `target` from `numbers`, simplest first.

    Each number is used at most once (all of them if `rules.use_all`). A single number
    equal to the target counts as a solution (with no operation) unless `use_all` asks
    for more numbers. Raises `UserError` for bad numbers or a bad target.
    """
    return without_unit_variants(all_forms(numbers, target, rules))


def all_forms(numbers: Iterable[int], target: int, rules: Rules = KOEPFCHEN) -> list[Solution]:
    """Every canonical form that makes `target`, unit variants included, simplest first."""
    ms = validate_numbers(numbers)
    target = validate_target(target)
    arith = arith_of(rules)
    found = [
        Solution.of(e) for part in _parts(ms, target, rules) for e in _forms(part, target, arith)
    ]
    found.sort(key=_order)
    return found


def _parts(ms: Multiset, target: Value, rules: Rules) -> tuple[Multiset, ...]:
    """The parts of `ms` a solution for `target` may use (all of `ms` under `use_all`).

    A proper part whose value table lacks the target has no form of it, so its search is
    skipped (the tables are there already: the whole's search needs every part's).
    """
    if rules.use_all:
        return (ms,)
    arith = arith_of(rules)
    return tuple(p for p in sub_multisets(ms) if p == ms or target in tables(p, arith).all)


def without_unit_variants(forms: list[Solution]) -> list[Solution]:
    """The simplest form of each class of forms that differ only by × 1 or ÷ 1."""
    seen: set[str] = set()
    kept = []
    for form in forms:  # simplest first, so the first of a class is kept
        key = unit_free_key(form.expr)
        if key not in seen:
            seen.add(key)
            kept.append(form)
    return kept


def count_solutions(numbers: Iterable[int], target: int, rules: Rules = KOEPFCHEN) -> int:
    """How many distinct solutions make `target` from `numbers`."""
    ms = validate_numbers(numbers)
    target = validate_target(target)
    arith = arith_of(rules)
    parts = _parts(ms, target, rules)
    return len({unit_free_key(e) for part in parts for e in _forms(part, target, arith)})


def simplest(numbers: Iterable[int], target: int, rules: Rules = KOEPFCHEN) -> Solution | None:
    """The simplest solution, or None when the target cannot be made."""
    found = solve(numbers, target, rules)
    return found[0] if found else None


def reachable_targets(numbers: Iterable[int], rules: Rules = KOEPFCHEN) -> frozenset[int]:
    """Every whole-number target ≥ 0 that can be made from `numbers` under `rules`."""
    return _reachable(validate_numbers(numbers), rules)


@lru_cache(maxsize=4096)
def _reachable(ms: Multiset, rules: Rules) -> frozenset[int]:
    arith = arith_of(rules)
    parts = (ms,) if rules.use_all else sub_multisets(ms)
    return frozenset(
        v for part in parts for v in tables(part, arith).all if type(v) is int and v >= 0
    )


def expressions(numbers: Iterable[int], rules: Rules = KOEPFCHEN) -> list[Solution]:
    """Every distinct legal expression over `numbers`, whatever its value, simplest first.

    Values may be negative or fractions under rational rules. Meant for small inputs
    (three or four numbers): the list grows very fast.
    """
    ms = validate_numbers(numbers)
    arith = arith_of(rules)
    parts = (ms,) if rules.use_all else sub_multisets(ms)
    found = [
        Solution.of(e)
        for part in parts
        for value in tables(part, arith).all
        for e in _forms(part, value, arith)
    ]
    found.sort(key=_order)
    return found


def clear_caches() -> None:
    """Forget all memoised tables and forms (for benchmarks that want a cold start)."""
    for cached in (
        tables,
        sub_multisets,
        splits,
        first_blocks,
        _reachable,
        _forms,
        _sums,
        _products,
        _nonsum,
        _nonproduct,
        _sides,
        _multi,
    ):
        cached.cache_clear()


# --- the backward search ----------------------------------------------------------------
# Every function below returns the canonical forms over exactly the multiset `ms` with
# value `value`; callers only ask for values that the tables of `ms` contain (except at
# the top, where `ms` is the whole input and has no table of its own).


def _legal(value: Value, arith: Arith) -> bool:
    _, rational, allow_zero = arith
    return rational or (type(value) is int and value >= (0 if allow_zero else 1))


@lru_cache(maxsize=_CACHE_SIZE)
def _forms(ms: Multiset, value: Value, arith: Arith) -> tuple[Expr, ...]:
    """All forms: a number, sums and products."""
    if not _legal(value, arith):
        return ()
    leaf = (Expr.number(ms[0]),) if len(ms) == 1 and ms[0] == value else ()
    if len(ms) == 1:
        return leaf
    return leaf + _sums(ms, value, arith) + _products(ms, value, arith)


@lru_cache(maxsize=_CACHE_SIZE)
def _nonsum(ms: Multiset, value: Value, arith: Arith) -> tuple[Expr, ...]:
    """Numbers and products: what may be a term of a sum."""
    if len(ms) == 1:
        return (Expr.number(ms[0]),) if ms[0] == value else ()
    return _products(ms, value, arith)


@lru_cache(maxsize=_CACHE_SIZE)
def _nonproduct(ms: Multiset, value: Value, arith: Arith) -> tuple[Expr, ...]:
    """Numbers and sums: what may be a factor of a product."""
    if len(ms) == 1:
        return (Expr.number(ms[0]),) if ms[0] == value else ()
    return _sums(ms, value, arith)


@lru_cache(maxsize=_CACHE_SIZE)
def _sums(ms: Multiset, value: Value, arith: Arith) -> tuple[Expr, ...]:
    """Sums: several added terms, or added terms over A minus subtracted ones over the rest."""
    ops = arith[0]
    if not _legal(value, arith):
        return ()
    found: dict[str, Expr] = {}
    if "+" in ops:
        for terms in _multi(ms, value, "added", arith):
            _keep(found, Expr.sum(terms))
    if "-" in ops:
        for a, b in splits(ms):
            ta, tb = tables(a, arith), tables(b, arith)
            for x, y in _differences(ta.added, tb.subtracted, value):
                for plus in _sides(a, x, "added", arith):
                    for minus in _sides(b, y, "subtracted", arith):
                        _keep(found, Expr.sum(plus, minus))
    return tuple(found.values())


@lru_cache(maxsize=_CACHE_SIZE)
def _products(ms: Multiset, value: Value, arith: Arith) -> tuple[Expr, ...]:
    """Products: several factors, or multiplied factors over A divided by those over the rest."""
    ops, rational, _ = arith
    if not _legal(value, arith):
        return ()
    found: dict[str, Expr] = {}
    if "*" in ops:
        for factors in _multi(ms, value, "multiplied", arith):
            _keep(found, Expr.product(factors))
    if "/" in ops:
        for a, b in splits(ms):
            ta, tb = tables(a, arith), tables(b, arith)
            for x, y in _quotients(ta.multiplied, tb.divided, value, rational):
                for plus in _sides(a, x, "multiplied", arith):
                    for minus in _sides(b, y, "divided", arith):
                        _keep(found, Expr.product(plus, minus))
    return tuple(found.values())


def _keep(found: dict[str, Expr], expr: Expr) -> None:
    found.setdefault(expr.key, expr)


_ADDITIVE = ("added", "subtracted")


@lru_cache(maxsize=_CACHE_SIZE)
def _sides(ms: Multiset, total: Value, side: str, arith: Arith) -> tuple[tuple[Expr, ...], ...]:
    """All ways to fill one side of a node over exactly `ms` with the given total.

    `side` is "added", "subtracted" (terms of a sum) or "multiplied", "divided" (factors
    of a product): one term alone, or several when the printed form allows it.
    """
    if total not in getattr(tables(ms, arith), side):
        return ()
    single = _nonsum if side in _ADDITIVE else _nonproduct
    return tuple((e,) for e in single(ms, total, arith)) + _multi(ms, total, side, arith)


@lru_cache(maxsize=_CACHE_SIZE)
def _multi(ms: Multiset, total: Value, side: str, arith: Arith) -> tuple[tuple[Expr, ...], ...]:
    """Two or more terms (or factors) that split `ms` between them, each sorted by key."""
    ops, rational, _ = arith
    additive = side in _ADDITIVE
    # several added terms are joined by +, several multiplied factors by ×
    if len(ms) < 2 or (side == "added" and "+" not in ops):
        return ()
    if side == "multiplied" and "*" not in ops:
        return ()
    single = _nonsum if additive else _nonproduct
    found: dict[tuple[str, ...], tuple[Expr, ...]] = {}
    for block, rest in first_blocks(ms):
        tb, tr = tables(block, arith), tables(rest, arith)
        if additive:
            pairs = _sum_splits(tb.nonsum, getattr(tr, side), total)
        else:
            pairs = _product_splits(tb.nonproduct, getattr(tr, side), total, rational)
        for head, tail_total in pairs:
            heads = single(block, head, arith)
            for tail in _sides(rest, tail_total, side, arith):
                for h in heads:
                    terms = tuple(sorted((h, *tail), key=_by_key))
                    found.setdefault(tuple(t.key for t in terms), terms)
    return tuple(found.values())


def _by_key(expr: Expr) -> str:
    return expr.key


# --- pairs of table values that combine to a wanted value --------------------------------
# Each loops over the smaller of the two tables and looks the partner up in the other.


def _differences(xs: frozenset[Value], ys: frozenset[Value], value: Value) -> list[Pair]:
    """(x, y) with x − y = value."""
    if len(xs) <= len(ys):
        return [(x, y) for x in xs if (y := normalize(x - value)) in ys]
    return [(x, y) for y in ys if (x := normalize(y + value)) in xs]


def _quotients(
    xs: frozenset[Value], ys: frozenset[Value], value: Value, rational: bool
) -> list[Pair]:
    """(x, y) with x ÷ y = value and y ≠ 0."""
    if value == 0:
        return [(0, y) for y in ys if y != 0] if 0 in xs else []
    if len(ys) <= len(xs):
        return [(x, y) for y in ys if y != 0 and (x := normalize(value * y)) in xs]
    return [
        (x, y) for x in xs if (y := _exact(x, value, rational)) is not None and y != 0 and y in ys
    ]


def _sum_splits(heads: frozenset[Value], tails: frozenset[Value], total: Value) -> list[Pair]:
    """(h, t) with h + t = total."""
    if len(heads) <= len(tails):
        return [(h, t) for h in heads if (t := normalize(total - h)) in tails]
    return [(h, t) for t in tails if (h := normalize(total - t)) in heads]


def _product_splits(
    heads: frozenset[Value], tails: frozenset[Value], total: Value, rational: bool
) -> list[Pair]:
    """(h, t) with h × t = total."""
    if total == 0:
        pairs = [(0, t) for t in tails] if 0 in heads else []
        return pairs + ([(h, 0) for h in heads if h != 0] if 0 in tails else [])
    if len(heads) <= len(tails):
        return [(h, t) for h in heads if h != 0 and (t := _exact(total, h, rational)) in tails]
    return [(h, t) for t in tails if t != 0 and (h := _exact(total, t, rational)) in heads]


def _exact(a: Value, b: Value, rational: bool) -> Value | None:
    """a ÷ b if allowed (b ≠ 0): exact in rational mode, only whole quotients otherwise."""
    if rational:
        return divide(a, b)
    return a // b if a % b == 0 else None
