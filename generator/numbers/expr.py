"""Arithmetic expressions: the canonical form, printing, parsing and checked evaluation.

Canonical form (what "distinct solutions" means)
------------------------------------------------
Two expressions are the same solution when they differ only by commutativity or
associativity of + and ×, or by the matching rewrites of − and ÷. To decide that,
every expression is flattened into an `Expr` tree with three kinds of node:

- a **number** (a leaf; one die, card or tile);
- a **sum** of added terms P and subtracted terms N — two multisets, |P| ≥ 1,
  |P| + |N| ≥ 2, and no term is itself a sum;
- a **product** of multiplied factors M and divided factors D — two multisets,
  |M| ≥ 1, |M| + |D| ≥ 2, and no factor is itself a product.

Flattening pushes signs and exponents through brackets: a − (b − c) becomes the sum
P = {a, c}, N = {b}, the same node as a − b + c or c + a − b; a ÷ (b ÷ c) becomes
M = {a, c}, D = {b}, the same as a × c ÷ b. Within a node the order of terms is
forgotten (multisets), so a + b = b + a and a × b × c in any grouping or order are
one node, and two equal dice are interchangeable because leaves are keyed by value.
Nothing else is done: no distributivity, no cancelling, no identities, so
2 × (3 + 1) and 2 × 3 + 2 × 1, or a and a × 1, or a + b − b and a, are different.
Over three different numbers, using all three, this gives exactly 68 expressions.

Unit variants. One identity is applied on top, when solutions are counted: a solution
that differs from another only by an extra × 1 or ÷ 1 (a number 1 among the multiplied
factors beside others, or among the divided ones) is the same solution. `unit_free_key`
is the key of a form with every such 1 taken out (and the brackets it leaves flattened):
6 × 1 + 3, (6 + 3) ÷ 1 and 6 + 3 all have the key of 6 + 3; 4 × 6 × 1 × 1 and
4 × 6 ÷ 1 ÷ 1 share one (under use-all rules, where 4 × 6 alone is no solution). Only
the number 1 counts, not a part worth 1 such as (3 − 2): that is a different idea using
two more dice. A 1 that is the only multiplied factor (1 ÷ 4) stays.

Each node has a `key`, a string that is equal for two nodes exactly when they are the
same canonical form: a number's key is its decimal digits; a sum's key is
"S(" + sorted keys of P joined by "," + "|" + sorted keys of N + ")", a product's
"P(…|…)" likewise.

Printing: the terms of a sum are written added ones first, then the subtracted ones;
the factors of a product multiplied ones first, then the divided ones; within each
group compound terms come before numbers, larger values before smaller. Brackets appear
only around a sum that is a factor of a product: `(3 + 1) × 2`, `8 ÷ (3 − 8 ÷ 3)`.
Written that way and read left to right, every intermediate result of a solution that
is valid under integer rules is itself a non-negative whole number (the subtractions
and divisions come last, and each partial quotient is the final value times the
divisors not yet used).

The same solution can be written as several binary trees; a canonical form is legal
under the rules when at least one of them is (for integer rules: when the printed one
is, see above), and it is allowed when its printed form uses only the allowed
operations (so with ops "-" alone, 7 − (3 − 1) is not offered: it prints as 7 + 1 − 3).
`evaluate` checks one written expression exactly as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.core.errors import Msg, UserError

if TYPE_CHECKING:
    from fractions import Fraction

    from generator.numbers.rules import Rules

    Value = int | Fraction
    """A value of a solve: `fractions` is imported by the first quotient that is not whole."""

PLUS = "+"
MINUS = "\u2212"  # − minus sign
TIMES = "\u00d7"  # × multiplication sign
DIVIDE = "\u00f7"  # ÷ division sign
SYMBOLS = {"+": PLUS, "-": MINUS, "*": TIMES, "/": DIVIDE}
"""The printed symbol of each operation."""

NUMBER, SUM, PRODUCT = "number", "sum", "product"


def normalize(value: Value) -> Value:
    """A whole-number Fraction as a plain int; anything else unchanged."""
    if type(value) is not int and value.denominator == 1:  # a Value that is no int: a Fraction
        return value.numerator
    return value


def divide(a: Value, b: Value) -> Value:
    """Exact a ÷ b: an int when it divides evenly, else a Fraction (b must not be 0)."""
    if type(a) is int and type(b) is int:
        q, r = divmod(a, b)
        return q if r == 0 else (_Fraction or _fraction())(a, b)
    return normalize((_Fraction or _fraction())(a) / b)


_Fraction: type[Fraction] | None = None


def _fraction() -> type[Fraction]:
    """`Fraction`, imported by the first quotient that is not whole: `fractions` takes 2 ms to
    import, integer rules never need it, and an import statement in `divide` costs 1 µs a call."""
    global _Fraction
    from fractions import Fraction

    _Fraction = Fraction
    return Fraction


class Expr:
    """A node of the canonical form (see the module docstring); build with the classmethods."""

    __slots__ = (
        "key",
        "kind",
        "minus",
        "needs_brackets",
        "numbers",
        "plus",
        "text",
        "uses_division",
        "uses_multiplication",
        "value",
    )

    kind: str
    value: Value
    key: str
    text: str
    plus: tuple[Expr, ...]  # sum: added terms; product: multiplied factors
    minus: tuple[Expr, ...]  # sum: subtracted terms; product: divided factors
    numbers: tuple[int, ...]  # the leaves, sorted
    uses_division: bool  # the printed form contains ÷
    uses_multiplication: bool  # the printed form contains ×
    needs_brackets: bool  # the printed form contains brackets

    @classmethod
    def number(cls, n: int) -> Expr:
        """A leaf."""
        node = cls._new(NUMBER, n, str(n), (), ())
        node.text = node.key
        node.numbers = (n,)
        node.uses_division = node.uses_multiplication = node.needs_brackets = False
        return node

    @classmethod
    def sum(cls, plus: tuple[Expr, ...], minus: tuple[Expr, ...] = ()) -> Expr:
        """Σ plus − Σ minus; the terms must be numbers or products."""
        if not plus or len(plus) + len(minus) < 2 or any(t.kind == SUM for t in plus + minus):
            raise ValueError("a sum needs ≥ 1 added and ≥ 2 terms in all, none of them sums")
        value: Value = 0
        for t in plus:
            value += t.value
        for t in minus:
            value -= t.value
        node = cls._node(SUM, normalize(value), plus, minus)
        node.text = " ".join(
            [f" {PLUS} ".join(t.text for t in node.plus)]
            + [f"{MINUS} {t.text}" for t in node.minus]
        )
        return node

    @classmethod
    def product(cls, plus: tuple[Expr, ...], minus: tuple[Expr, ...] = ()) -> Expr:
        """Π plus ÷ Π minus; the factors must be numbers or sums, the divisors non-zero."""
        if not plus or len(plus) + len(minus) < 2 or any(f.kind == PRODUCT for f in plus + minus):
            raise ValueError(
                "a product needs ≥ 1 multiplied and ≥ 2 factors, none of them products"
            )
        num: Value = 1
        den: Value = 1
        for f in plus:
            num *= f.value
        for f in minus:
            den *= f.value
        if den == 0:
            raise ZeroDivisionError(f"dividing by zero in {plus} ÷ {minus}")
        node = cls._node(PRODUCT, divide(num, den), plus, minus)
        node.text = " ".join(
            [f" {TIMES} ".join(_factor_text(f) for f in node.plus)]
            + [f"{DIVIDE} {_factor_text(f)}" for f in node.minus]
        )
        node.uses_division = node.uses_division or bool(minus)
        node.uses_multiplication = node.uses_multiplication or len(plus) >= 2
        node.needs_brackets = node.needs_brackets or any(f.kind == SUM for f in plus + minus)
        return node

    @classmethod
    def _new(
        cls, kind: str, value: Value, key: str, plus: tuple[Expr, ...], minus: tuple[Expr, ...]
    ) -> Expr:
        node = object.__new__(cls)
        node.kind, node.value, node.key, node.plus, node.minus = kind, value, key, plus, minus
        return node

    @classmethod
    def _node(
        cls, kind: str, value: Value, plus: tuple[Expr, ...], minus: tuple[Expr, ...]
    ) -> Expr:
        tag = "S" if kind == SUM else "P"
        key = "{}({}|{})".format(
            tag, ",".join(sorted(t.key for t in plus)), ",".join(sorted(t.key for t in minus))
        )
        node = cls._new(
            kind,
            value,
            key,
            tuple(sorted(plus, key=_print_order)),
            tuple(sorted(minus, key=_print_order)),
        )
        children = plus + minus
        node.numbers = tuple(sorted(n for c in children for n in c.numbers))
        node.uses_division = any(c.uses_division for c in children)
        node.uses_multiplication = any(c.uses_multiplication for c in children)
        node.needs_brackets = any(c.needs_brackets for c in children)
        return node

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expr) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Expr({self.text!r} = {self.value})"


def unit_free_key(node: Expr) -> str:
    """The key of `node` without its × 1 and ÷ 1 (see "Unit variants" above)."""
    return _unit_free(node)[1]


_Reduced = tuple[str, str, tuple["_Reduced", ...], tuple["_Reduced", ...]]
"""(kind, key, plus, minus) of a form with its unit factors removed."""


def _unit_free(node: Expr) -> _Reduced:
    if node.kind == NUMBER:
        return (NUMBER, node.key, (), ())
    plus = [_unit_free(c) for c in node.plus]
    minus = [_unit_free(c) for c in node.minus]
    if node.kind == PRODUCT:
        kept = [f for f in plus if f[1] != "1"]
        minus = [f for f in minus if f[1] != "1"]
        plus = kept or [plus[0]]  # a lone 1 over divisors (1 ÷ 4) is no extra factor
        if len(plus) == 1 and not minus:
            return plus[0]
        return _reduced(PRODUCT, plus, minus)
    flat_plus: list[_Reduced] = []
    flat_minus: list[_Reduced] = []
    for terms, same, other in ((plus, flat_plus, flat_minus), (minus, flat_minus, flat_plus)):
        for term in terms:
            if term[0] == SUM:  # (a + b) × 1 inside a sum: its brackets go
                same.extend(term[2])
                other.extend(term[3])
            else:
                same.append(term)
    return _reduced(SUM, flat_plus, flat_minus)


def _reduced(kind: str, plus: list[_Reduced], minus: list[_Reduced]) -> _Reduced:
    tag = "S" if kind == SUM else "P"
    key = "{}({}|{})".format(
        tag, ",".join(sorted(t[1] for t in plus)), ",".join(sorted(t[1] for t in minus))
    )
    return (kind, key, tuple(plus), tuple(minus))


def _print_order(node: Expr) -> tuple[bool, Value, str]:
    return (node.kind == NUMBER, -node.value, node.key)


def _factor_text(node: Expr) -> str:
    return f"({node.text})" if node.kind == SUM else node.text


def reading_text(node: Expr) -> str:
    """`node` as a pupil reads it, left to right without Punkt vor Strich: its printed
    form with brackets round every product in a sum but the first term ("4 − (6 ÷ 6)",
    not "4 − 6 ÷ 6"). Added terms come before subtracted ones and factors before
    divisors, so read so no step goes below the end result (whole steps stay whole)."""
    if node.kind == NUMBER:
        return node.text
    if node.kind == PRODUCT:

        def factor(f: Expr) -> str:
            return f"({reading_text(f)})" if f.kind == SUM else reading_text(f)

        return " ".join(
            [f" {TIMES} ".join(factor(f) for f in node.plus)]
            + [f"{DIVIDE} {factor(f)}" for f in node.minus]
        )

    def term(t: Expr, first: bool) -> str:
        return reading_text(t) if first or t.kind != PRODUCT else f"({reading_text(t)})"

    return " ".join(
        [f" {PLUS} ".join(term(t, k == 0) for k, t in enumerate(node.plus))]
        + [f"{MINUS} {term(t, False)}" for t in node.minus]
    )


# --- written expressions: binary trees as a person writes them --------------------------


@dataclass(frozen=True, slots=True)
class Num:
    """A number written in an expression."""

    value: int


@dataclass(frozen=True, slots=True)
class BinOp:
    """`left op right` with op one of "+-*/"."""

    op: str
    left: Tree
    right: Tree


Tree = Num | BinOp

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_TOKEN = r"\s*(?:(\d+)|(.))"  # compiled on the first parse (a solve parses nothing)
# ASCII, the printed signs, and German school notation (· or ⋅ for ×, : for ÷)
_OP_TOKENS = {"+": "+", "-": "-", MINUS: "-", "*": "*", TIMES: "*", "\u00b7": "*", "\u22c5": "*",
              "/": "/", DIVIDE: "/", ":": "/"}  # fmt: skip


def parse(text: str) -> Tree:
    """Read a written expression such as `(3 + 1) × 2` (ASCII + - * /, and · : work too).

    Usual precedence, left to right within a level. Raises `UserError` if it is not an
    expression.
    """
    tokens = _tokenize(text)
    tree, pos = _parse_sum(tokens, 0, text)
    if pos != len(tokens):
        raise UserError(Msg("unexpected", token=f"{tokens[pos]!r}", text=f"{text!r}"))
    return tree


def _tokenize(text: str) -> list[str | int]:
    import re

    tokens: list[str | int] = []
    for match in re.finditer(_TOKEN, text.rstrip()):
        digits, other = match.groups()
        if digits is not None:
            tokens.append(int(digits))
        elif other in _OP_TOKENS:
            tokens.append(_OP_TOKENS[other])
        elif other in "()":
            tokens.append(other)
        else:
            raise UserError(Msg("unexpected_character", other=f"{other!r}", text=f"{text!r}"))
    return tokens


def _parse_sum(tokens: list[str | int], pos: int, text: str) -> tuple[Tree, int]:
    tree, pos = _parse_product(tokens, pos, text)
    while pos < len(tokens) and tokens[pos] in ("+", "-"):
        op = str(tokens[pos])
        right, pos = _parse_product(tokens, pos + 1, text)
        tree = BinOp(op, tree, right)
    return tree, pos


def _parse_product(tokens: list[str | int], pos: int, text: str) -> tuple[Tree, int]:
    tree, pos = _parse_atom(tokens, pos, text)
    while pos < len(tokens) and tokens[pos] in ("*", "/"):
        op = str(tokens[pos])
        right, pos = _parse_atom(tokens, pos + 1, text)
        tree = BinOp(op, tree, right)
    return tree, pos


def _parse_atom(tokens: list[str | int], pos: int, text: str) -> tuple[Tree, int]:
    if pos >= len(tokens):
        raise UserError(Msg("ends_too_early", text=f"{text!r}"))
    token = tokens[pos]
    if isinstance(token, int):
        return Num(token), pos + 1
    if token == "(":
        tree, pos = _parse_sum(tokens, pos + 1, text)
        if pos >= len(tokens) or tokens[pos] != ")":
            raise UserError(Msg("missing_paren", text=f"{text!r}"))
        return tree, pos + 1
    raise UserError(Msg("unexpected", token=f"{token!r}", text=f"{text!r}"))


def format_tree(tree: Tree) -> str:
    """Write a tree with the real symbols and only the brackets it needs.

    a − (b + c) and a ÷ (b × c) keep theirs; (a − b) + c and (a × b) ÷ c lose them.
    """
    if isinstance(tree, Num):
        return str(tree.value)
    level = _PRECEDENCE[tree.op]
    left = format_tree(tree.left)
    if isinstance(tree.left, BinOp) and _PRECEDENCE[tree.left.op] < level:
        left = f"({left})"
    right = format_tree(tree.right)
    if isinstance(tree.right, BinOp):
        inner = _PRECEDENCE[tree.right.op]
        if inner < level or (inner == level and tree.op in "-/"):
            right = f"({right})"
    return f"{left} {SYMBOLS[tree.op]} {right}"


def canonical(tree: Tree) -> Expr:
    """The canonical form of a written expression (raises ZeroDivisionError on ÷ 0)."""
    if isinstance(tree, Num):
        return Expr.number(tree.value)
    if tree.op in "+-":
        plus: list[Expr] = []
        minus: list[Expr] = []
        _flatten(tree, "+-", True, plus, minus)
        return Expr.sum(tuple(plus), tuple(minus))
    plus, minus = [], []
    _flatten(tree, "*/", True, plus, minus)
    return Expr.product(tuple(plus), tuple(minus))


def _flatten(tree: Tree, ops: str, positive: bool, plus: list[Expr], minus: list[Expr]) -> None:
    if isinstance(tree, BinOp) and tree.op in ops:
        _flatten(tree.left, ops, positive, plus, minus)
        _flatten(tree.right, ops, positive == (tree.op == ops[0]), plus, minus)
    else:
        (plus if positive else minus).append(canonical(tree))


def numbers_in(expression: str | Tree | Expr) -> tuple[int, ...]:
    """The numbers an expression uses, sorted (with repeats)."""
    if isinstance(expression, Expr):
        return expression.numbers
    tree = parse(expression) if isinstance(expression, str) else expression
    found: list[int] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Num):
            found.append(node.value)
        else:
            stack += [node.left, node.right]
    return tuple(sorted(found))


def evaluate(expression: str | Tree | Expr, rules: Rules) -> Value:
    """The value of an expression exactly as written, checked against `rules`.

    A string is parsed first; an `Expr` is checked in its printed form. Raises `UserError`
    when the expression uses an operation the rules do not allow, divides by zero, or
    (integer rules) has an intermediate result that is negative, fractional, or zero when
    zero is not allowed. `use_all` is not checked: an expression does not know its numbers.
    """
    if isinstance(expression, Expr):
        expression = expression.text
    tree = parse(expression) if isinstance(expression, str) else expression
    return _evaluate(tree, rules)


def _evaluate(tree: Tree, rules: Rules) -> Value:
    if isinstance(tree, Num):
        return tree.value
    if tree.op not in rules.ops:
        raise UserError(Msg("allowed_here", symbols=SYMBOLS[tree.op], tree=format_tree(tree)))
    a, b = _evaluate(tree.left, rules), _evaluate(tree.right, rules)
    if tree.op == "+":
        result = a + b
    elif tree.op == "-":
        result = a - b
    elif tree.op == "*":
        result = a * b
    elif b == 0:
        raise UserError(Msg("division_zero", tree=format_tree(tree)))
    else:
        result = divide(a, b)
    result = normalize(result)
    if not rules.rational:
        if type(result) is not int:
            raise UserError(Msg("not_whole_result", tree=format_tree(tree), result=result))
        if result < 0 or (result == 0 and not rules.allow_zero):
            raise UserError(
                Msg("intermediate_result_allowed", result=result, tree=format_tree(tree))
            )
    return result
