"""Which values each part of the numbers can make: the subset DP under the solver.

Numbers are handled as multisets (sorted tuples), so equal dice are one case, and a
table computed for (2, 3) serves every roll that contains a 2 and a 3.

For a multiset S, `tables(S, arith)` holds the values of the canonical forms (see
`generator.numbers.expr`) that use exactly the numbers of S and are legal under the
rules, grouped by what the solver needs to rebuild them:

- `sums`, `products`: forms whose top node is a sum, resp. a product;
- `nonsum` = numbers and products (what can be a term of a sum), `nonproduct` = numbers
  and sums (what can be a factor of a product);
- `added`: the totals of one or more non-sum terms that split S between them (the added
  side of a sum); `subtracted` the same for the subtracted side, which may have several
  terms even when + is not allowed (a − b − c);
- `multiplied`, `divided`: the same for the factors of a product;
- `all` = `sums` ∪ `products` ∪ the number itself.

A sum over S is an added side over some A and a subtracted side over the rest B, so
sums(S) = added₂(S) ∪ {x − y : x ∈ added(A), y ∈ subtracted(B)}, with added₂ the totals of
two or more terms; with integer rules only differences ≥ 0 (> 0 without zero) are kept,
which is exactly when some way of writing that sum is legal. Products likewise, with
integer rules keeping only quotients that are whole numbers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from generator.numbers.expr import divide, normalize

if TYPE_CHECKING:
    from generator.numbers.expr import Value
    from generator.numbers.rules import Rules

Multiset = tuple[int, ...]
Arith = tuple[str, bool, bool]
"""What the tables depend on: (ops, rational, allow_zero); `use_all` does not matter here."""


def arith_of(rules: Rules) -> Arith:
    """The part of `rules` that decides which values are legal."""
    return (rules.ops, rules.rational, rules.allow_zero)


@lru_cache(maxsize=4096)
def sub_multisets(ms: Multiset) -> tuple[Multiset, ...]:
    """Every distinct non-empty sub-multiset of `ms`, `ms` itself included."""
    return (*(a for a, b in _complements(ms) if a and b), ms)


@lru_cache(maxsize=4096)
def splits(ms: Multiset) -> tuple[tuple[Multiset, Multiset], ...]:
    """Every ordered way (A, B) to split `ms` into two non-empty sub-multisets."""
    return tuple((a, b) for a, b in _complements(ms) if a and b)


@lru_cache(maxsize=4096)
def first_blocks(ms: Multiset) -> tuple[tuple[Multiset, Multiset], ...]:
    """The splits (A, B) whose A holds the smallest number: each partition of `ms` into
    blocks has at least one block of this kind, so recursion over them finds them all."""
    return tuple((a, b) for a, b in splits(ms) if a[0] == ms[0])


def _complements(ms: Multiset) -> list[tuple[Multiset, Multiset]]:
    """Every (A, B) with A + B = `ms`, A taking 0…all of each distinct number in turn."""
    pairs: list[tuple[Multiset, Multiset]] = [((), ())]
    for v in sorted(set(ms)):  # the first number's share changes slowest
        c = ms.count(v)
        runs = [(v,) * k for k in range(c + 1)]
        pairs = [(a + runs[k], b + runs[c - k]) for a, b in pairs for k in range(c + 1)]
    return pairs


class Tables:
    """The values one multiset can make, by kind (see the module docstring).

    (A slotted class rather than a `typing.NamedTuple`: a solve's start imports no `typing`.)
    """

    __slots__ = (
        "added",
        "all",
        "divided",
        "multiplied",
        "nonproduct",
        "nonsum",
        "products",
        "subtracted",
        "sums",
    )

    def __init__(
        self,
        sums: frozenset[Value],
        products: frozenset[Value],
        nonsum: frozenset[Value],
        nonproduct: frozenset[Value],
        added: frozenset[Value],
        subtracted: frozenset[Value],
        multiplied: frozenset[Value],
        divided: frozenset[Value],
        all: frozenset[Value],
    ) -> None:
        self.sums, self.products = sums, products
        self.nonsum, self.nonproduct = nonsum, nonproduct
        self.added, self.subtracted = added, subtracted
        self.multiplied, self.divided = multiplied, divided
        self.all = all


@lru_cache(maxsize=4096)
def tables(ms: Multiset, arith: Arith) -> Tables:
    """The value tables of the multiset `ms` under `arith` (computed from its parts)."""
    if len(ms) == 1:
        leaf = frozenset(ms)
        empty: frozenset[Value] = frozenset()
        return Tables(empty, empty, leaf, leaf, leaf, leaf, leaf, leaf, leaf)
    ops, rational, allow_zero = arith
    plus, minus, times, over = ("+" in ops), ("-" in ops), ("*" in ops), ("/" in ops)
    lowest = 0 if allow_zero else 1
    sums: set[Value] = set()
    products: set[Value] = set()
    added2: set[Value] = set()  # two or more added terms
    subtracted2: set[Value] = set()  # two or more subtracted terms, when + is not allowed
    multiplied2: set[Value] = set()
    divided2: set[Value] = set()
    for a, b in splits(ms):
        ta, tb = tables(a, arith), tables(b, arith)
        if a <= b:  # + and × do not care about order: each unordered split once
            if plus:
                added2.update([x + y for x in ta.added for y in tb.added])
            elif minus:
                subtracted2.update([x + y for x in ta.subtracted for y in tb.subtracted])
            if times:
                multiplied2.update([x * y for x in ta.multiplied for y in tb.multiplied])
            elif over:
                divided2.update([x * y for x in ta.divided for y in tb.divided])
        if minus:
            if rational:
                sums.update([x - y for x in ta.added for y in tb.subtracted])
            else:
                sums.update([d for x in ta.added for y in tb.subtracted if (d := x - y) >= lowest])
        if over:  # one comprehension per split, not one per divisor: most of the time is calls
            divisors = [y for y in tb.divided if y != 0]
            if rational:
                products.update([divide(x, y) for y in divisors for x in ta.multiplied])
            else:
                products.update([x // y for y in divisors for x in ta.multiplied if x % y == 0])
    sums |= added2
    products |= multiplied2
    if rational:
        sums, products = _normalized(sums), _normalized(products)
        added2, subtracted2 = _normalized(added2), _normalized(subtracted2)
        multiplied2, divided2 = _normalized(multiplied2), _normalized(divided2)
    nonsum, nonproduct = frozenset(products), frozenset(sums)
    added = nonsum | added2
    subtracted = added if plus else nonsum | subtracted2
    multiplied = nonproduct | multiplied2
    divided = multiplied if times else nonproduct | divided2
    return Tables(
        nonproduct,
        nonsum,
        nonsum,
        nonproduct,
        added,
        subtracted,
        multiplied,
        divided,
        nonsum | nonproduct,
    )


def _normalized(values: set[Value]) -> set[Value]:
    return {normalize(v) for v in values}
