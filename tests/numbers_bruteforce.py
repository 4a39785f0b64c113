"""An independent, slow brute force for the numbers solver, used only by the tests.

It shares no code with `generator.numbers`: it builds every binary expression tree over
every subset of the numbers (by position, in every order, with every allowed operation),
keeps the trees that are legal as written under the rules (exact Fractions), and
deduplicates them by its own canonical form: nested tuples
("add", sorted added terms, sorted subtracted terms), ("mul", sorted multiplied
factors, sorted divided factors), ("n", value), flattened through + − and × ÷.
A class of trees counts when at least one of its trees is legal. Forms that differ only
by an extra × 1 or ÷ 1 are grouped by `unit_classes` (restated here on these tuples).

Which operations count: with `ops_filter="tree"` a tree may use only the allowed
operations; with "printed" (the solver's definition) any tree may be used, but the
class is kept only if its written form — added terms, then subtracted ones; multiplied
factors, then divided ones — uses allowed operations only. The two agree whenever the
allowed set contains + and − and, if it contains ÷, also ×.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

Complexity = tuple[int, int, bool, bool, bool]
"""(numbers used, operations, uses ÷, uses ×, needs brackets) of the written canonical form."""


def brute_force(
    numbers: tuple[int, ...],
    *,
    ops: str = "+-*/",
    rational: bool = False,
    use_all: bool = False,
    allow_zero: bool = True,
    ops_filter: str = "tree",
) -> dict[Fraction, dict[tuple, Complexity]]:
    """Every value that can be made, mapped to its distinct canonical forms and their complexity."""
    if ops_filter == "tree":
        return _brute_force(tuple(numbers), ops, rational, use_all, allow_zero)
    everything = _brute_force(tuple(numbers), "+-*/", rational, use_all, allow_zero)
    kept: dict[Fraction, dict[tuple, Complexity]] = {}
    for value, forms in everything.items():
        for form, cost in forms.items():
            if printed_ops(form) <= set(ops):
                kept.setdefault(value, {})[form] = cost
    return kept


def printed_ops(form: tuple) -> set[str]:
    """The operations the written canonical form uses."""
    used: set[str] = set()
    stack = [form]
    while stack:
        node = stack.pop()
        if node[0] == "n":
            continue
        many, inverse = ("+", "-") if node[0] == "add" else ("*", "/")
        if len(node[1]) >= 2:
            used.add(many)
        if node[2]:
            used.add(inverse)
        stack.extend(node[1] + node[2])
    return used


@lru_cache(maxsize=256)
def _brute_force(
    numbers: tuple[int, ...], ops: str, rational: bool, use_all: bool, allow_zero: bool
) -> dict[Fraction, dict[tuple, Complexity]]:
    n = len(numbers)
    memo: dict[int, list[tuple[Fraction, tuple]]] = {}

    def legal(value: Fraction) -> bool:
        if rational:
            return True
        return value.denominator == 1 and (value > 0 or (allow_zero and value == 0))

    def trees(mask: int) -> list[tuple[Fraction, tuple]]:
        if mask in memo:
            return memo[mask]
        members = [i for i in range(n) if mask >> i & 1]
        if len(members) == 1:
            out = [(Fraction(numbers[members[0]]), ("n", numbers[members[0]]))]
            memo[mask] = out
            return out
        out = []
        left = (mask - 1) & mask
        while left:  # every non-empty proper subset as the left operand
            right = mask ^ left
            if right:
                for va, ta in trees(left):
                    for vb, tb in trees(right):
                        for op in ops:
                            if op == "+":
                                v = va + vb
                            elif op == "-":
                                v = va - vb
                            elif op == "*":
                                v = va * vb
                            else:
                                if vb == 0:
                                    continue
                                v = va / vb
                            if legal(v):
                                out.append((v, (op, ta, tb)))
            left = (left - 1) & mask
        memo[mask] = out
        return out

    result: dict[Fraction, dict[tuple, Complexity]] = {}
    masks = [(1 << n) - 1] if use_all else range(1, 1 << n)
    for mask in masks:
        for value, tree in trees(mask):
            form = canonical(tree)
            result.setdefault(value, {})[form] = complexity(form)
    return result


def solutions(numbers: tuple[int, ...], target: int, **rules: object) -> dict[tuple, Complexity]:
    """The distinct canonical forms that make `target`, with their complexity."""
    return brute_force(tuple(numbers), **rules).get(Fraction(target), {})  # type: ignore[arg-type]


def canonical(tree: tuple) -> tuple:
    """Flatten + − and × ÷ chains into sorted signed multisets."""
    if tree[0] == "n":
        return tree
    family = "+-" if tree[0] in "+-" else "*/"
    pos: list[tuple] = []
    neg: list[tuple] = []
    stack = [(tree, True)]
    while stack:
        node, positive = stack.pop()
        if node[0] in family:
            stack.append((node[1], positive))
            stack.append((node[2], positive if node[0] == family[0] else not positive))
        else:
            (pos if positive else neg).append(canonical(node))
    tag = "add" if family == "+-" else "mul"
    return (tag, tuple(sorted(pos)), tuple(sorted(neg)))


def complexity(form: tuple) -> Complexity:
    """Numbers, operations, ÷, ×, brackets of the form written as added-then-subtracted."""
    leaves = 0
    div = mul = brackets = False
    stack = [(form, None)]
    while stack:
        node, parent = stack.pop()
        if node[0] == "n":
            leaves += 1
            continue
        if node[0] == "mul":
            div = div or bool(node[2])
            mul = mul or len(node[1]) >= 2
        elif parent == "mul":
            brackets = True
        stack.extend((child, node[0]) for child in node[1] + node[2])
    return (leaves, leaves - 1, div, mul, brackets)


def class_enumeration(
    numbers: tuple[int, ...],
    target: int,
    *,
    rational: bool = False,
    allow_zero: bool = True,
    use_all: bool = False,
) -> set[tuple]:
    """The canonical forms that make `target` (all four operations), found class by class.

    Same result as `solutions`, far faster when few classes are legal (Countdown): for
    each subset of positions it keeps the set of legal canonical forms, built from the
    forms of its two parts at the root of some legal tree.
    """
    n = len(numbers)
    full = (1 << n) - 1
    forms: dict[int, dict[tuple, Fraction]] = {}
    for mask in sorted(range(1, full + 1), key=lambda m: bin(m).count("1")):
        members = [i for i in range(n) if mask >> i & 1]
        if len(members) == 1:
            forms[mask] = {("n", numbers[members[0]]): Fraction(numbers[members[0]])}
            continue
        found: dict[tuple, Fraction] = {}
        left = (mask - 1) & mask
        while left:
            for ka, va in forms[left].items():
                for kb, vb in forms[mask ^ left].items():
                    for op in "+-*/":
                        if op == "+":
                            v = va + vb
                        elif op == "-":
                            v = va - vb
                        elif op == "*":
                            v = va * vb
                        elif vb == 0:
                            continue
                        else:
                            v = va / vb
                        if not rational and (v.denominator != 1 or v < (0 if allow_zero else 1)):
                            continue
                        if mask == full and v != target:
                            continue  # nothing is built on top of the whole set
                        found[_combine(op, ka, kb)] = v
            left = (left - 1) & mask
        forms[mask] = found
    masks = [full] if use_all else list(forms)
    return {k for m in masks for k, v in forms[m].items() if v == target}


def _combine(op: str, a: tuple, b: tuple) -> tuple:
    tag = "add" if op in "+-" else "mul"
    pos: list[tuple] = []
    neg: list[tuple] = []
    for node, positive in ((a, True), (b, op in "+*")):
        if node[0] == tag:
            pos += node[1] if positive else node[2]
            neg += node[2] if positive else node[1]
        else:
            (pos if positive else neg).append(node)
    return (tag, tuple(sorted(pos)), tuple(sorted(neg)))


# --- unit variants: an extra × 1 or ÷ 1 is not a new solution ---------------------------
# Restated on the brute force's own forms, step by step: a form loses one unit factor at a
# time (a 1 among the divided factors, or among several multiplied ones), the result is
# flattened again, and this goes on until no unit factor is left. Two solutions are the
# same when they end in the same form.


def normalized(form: tuple) -> tuple:
    """Flatten nested sums into sums and products into products; a product of one factor
    is that factor."""
    if form[0] == "n":
        return form
    tag = form[0]
    pos: list[tuple] = []
    neg: list[tuple] = []
    for children, positive in ((form[1], True), (form[2], False)):
        for child in map(normalized, children):
            if child[0] == tag:
                pos += child[1] if positive else child[2]
                neg += child[2] if positive else child[1]
            else:
                (pos if positive else neg).append(child)
    if tag == "mul" and len(pos) == 1 and not neg:
        return pos[0]
    return (tag, tuple(sorted(pos)), tuple(sorted(neg)))


def one_unit_less(form: tuple) -> set[tuple]:
    """Every form with exactly one unit factor taken out (not yet flattened)."""
    if form[0] == "n":
        return set()
    tag, pos, neg = form
    found: set[tuple] = set()
    if tag == "mul":
        if ("n", 1) in neg:
            rest = list(neg)
            rest.remove(("n", 1))
            found.add((tag, pos, tuple(rest)))
        if ("n", 1) in pos and len(pos) >= 2:
            rest = list(pos)
            rest.remove(("n", 1))
            found.add((tag, tuple(rest), neg))
    for side in (1, 2):
        children = form[side]
        for i, child in enumerate(children):
            for smaller in one_unit_less(child):
                changed = (*children[:i], smaller, *children[i + 1 :])
                found.add((tag, changed, neg) if side == 1 else (tag, pos, changed))
    return found


def unit_free(form: tuple) -> tuple:
    """The form every chain of unit removals ends in (checked to be one form)."""
    ends: set[tuple] = set()
    frontier = {form}
    while frontier:
        step: set[tuple] = set()
        for f in frontier:
            smaller = {normalized(g) for g in one_unit_less(f)}
            if not smaller:
                ends.add(f)
            step |= smaller
        frontier = step
    assert len(ends) == 1, (form, ends)
    return ends.pop()


def unit_classes(forms: Iterable[tuple]) -> dict[tuple, list[tuple]]:
    """The forms grouped by the form they end in once every unit factor is gone."""
    classes: dict[tuple, list[tuple]] = {}
    for form in forms:
        classes.setdefault(unit_free(form), []).append(form)
    return classes
