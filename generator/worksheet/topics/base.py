"""What every worksheet topic shares: the task model, the controls and the seeded dealer.

A topic (`Topic`) declares its ID, names, Klasse and controls, a parameter space
(`space(controls)`: ranges and a `build` that turns one choice of parameters into a
`Task` or None) and an independent `check(task)` that recomputes the completion.
The dealer enumerates a small space completely and draws a large one at random
(seeded), removes duplicates, and deals every version the same multiset of
difficulty classes (`Task.cls`: digits, carries, position of the blank — the model
each topic documents), so version A is no easier than version B.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from generator.core.errors import InputError

Row = tuple[int | None, ...]
Cells = tuple[Row, ...]
Solution = tuple[tuple[int, ...], ...]

ENUMERATE_UP_TO = 15_000  # a space this small is listed completely (exact counts)
DRAWS_PER_SLOT = 40  # a larger space: this many random draws per problem asked


@dataclass(frozen=True)
class Task:
    """One problem of a topic: the shown rows (None: a blank) and the completed rows."""

    topic: str
    shape: str  # how it is drawn: equation, remainder, round, column, wall, house, …
    cells: Cells
    solution: Solution
    ops: tuple[str, ...] = ()  # "+", "-", "*", "/" of an equation, a column or a chain
    cls: tuple[int | str, ...] = ()  # the difficulty class: equal multisets in every version
    trivial: bool = False  # + 0, − 0, · 1, : 1, · 0: only when the range forces it
    note: int = 0  # rounding: the place (10, 100); magic square: the magic sum
    carry: bool | None = None  # a carry (or borrow) in some column, where the topic asks

    @property
    def key(self) -> tuple[object, ...]:
        """Equal for the same problem (3 + 4 and its Tauschaufgabe 4 + 3 are two problems)."""
        return (self.shape, self.ops, self.cells, self.note)

    @property
    def blanks(self) -> int:
        return sum(v is None for row in self.cells for v in row)


@dataclass(frozen=True)
class Controls:
    """The topic controls of the command line (None: the topic's default)."""

    range: tuple[int, int] | None = None
    carry: str | None = None  # yes | no | mixed
    unknown: str | None = None  # result | operand | mixed
    rows: tuple[int, ...] | None = None  # times tables 1–10
    dice: bool = False  # Klasse 1: small numbers as dice pips

    def as_json(self) -> dict[str, object]:
        return {
            "range": f"{self.range[0]}-{self.range[1]}" if self.range else None,
            "carry": self.carry,
            "unknown": self.unknown,
            "rows": list(self.rows) if self.rows else None,
            "dice": self.dice,
        }


Build = Callable[[tuple[int, ...]], Task | None]


@dataclass(frozen=True)
class Space:
    """Every problem of a topic under its controls: one `build` per choice of parameters."""

    params: tuple[range, ...]
    build: Build
    mixed: tuple[str, ...] = ()  # the controls set to "mixed": their halves alternate

    @property
    def size(self) -> int:
        n = 1
        for p in self.params:
            n *= len(p)
        return n


@dataclass(frozen=True)
class Topic:
    """One row of the topic table."""

    id: str
    name: dict[str, str]  # de, en
    klasse: int
    family: str  # drills, written, puzzles, chance
    controls: tuple[str, ...]  # of "range", "carry", "unknown", "rows", "dice"
    space: Callable[[Controls], Space]
    check: Callable[[Task], Solution]  # the independent solver: the one completion
    instruction: dict[str, str] = field(default_factory=dict)
    default_range: tuple[int, int] | None = None
    limits: tuple[int, int] = (0, 1000)  # the ranges --range may ask for
    carry: str | None = None  # a fixed carry (yes / no): --carry may only repeat it
    default_problems: int = 20  # without --problems

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "klasse": self.klasse,
            "family": self.family,
            "controls": list(self.controls),
            "range": f"{self.default_range[0]}-{self.default_range[1]}"
            if self.default_range
            else None,
        }


# --- carries, digit by digit -------------------------------------------------------------


def digits(n: int) -> int:
    return len(str(abs(n)))


def add_carries(*numbers: int) -> int:
    """How many columns of a written addition carry (a column's sum of digits with the
    incoming carry reaches 10)."""
    carries, carry, place = 0, 0, 1
    while any(n // place for n in numbers) or carry:
        column = sum(n // place % 10 for n in numbers) + carry
        carry = column // 10
        carries += carry > 0
        place *= 10
    return carries


def sub_borrows(a: int, b: int) -> int:
    """How many columns of a written subtraction a − b borrow (the top digit, less the
    borrow, is smaller than the bottom one)."""
    borrows, borrow, place = 0, 0, 1
    while a // place or b // place:
        top, bottom = a // place % 10 - borrow, b // place % 10
        borrow = 1 if top < bottom else 0
        borrows += borrow
        place *= 10
    return borrows


def mul_carries(a: int, b: int) -> int:
    """Carries of a written multiplication by each digit of b, digit by digit of a."""
    carries, place = 0, 1
    while b // place:
        d, carry, p = b // place % 10, 0, 1
        while a // p or carry:
            column = a // p % 10 * d + carry
            carry = column // 10
            carries += carry > 0
            p *= 10
        place *= 10
    return carries


# --- dealing -----------------------------------------------------------------------------


class NotEnough(Exception):
    """Fewer different problems than asked: how many exist (exactly, when listed)."""

    def __init__(self, found: int, exact: bool) -> None:
        super().__init__(found)
        self.found, self.exact = found, exact


def candidates(space: Space, rng: random.Random, wanted: int) -> tuple[list[Task], bool]:
    """Every problem of a small space, or random draws of a large one (no duplicates);
    and whether the list is complete."""
    seen: dict[tuple[object, ...], Task] = {}
    exhaustive = space.size <= ENUMERATE_UP_TO
    choices: Iterator[tuple[int, ...]]
    if exhaustive:
        choices = itertools.product(*space.params)
    else:
        choices = (
            tuple(rng.choice(p) for p in space.params) for _ in range(DRAWS_PER_SLOT * wanted)
        )
    for choice in choices:
        task = space.build(choice)
        if task is not None and task.key not in seen:
            seen[task.key] = task
    return list(seen.values()), exhaustive


def _wants(space: Space, slot: int) -> Callable[[Task], bool]:
    """The halves of the "mixed" controls a slot belongs to (they alternate)."""
    need: dict[str, object] = {}
    step = 1
    for control in space.mixed:
        half = slot // step % 2
        if control == "carry":
            need["carry"] = half == 0
        else:
            need["blank"] = "result" if half == 0 else "operand"
        step *= 2

    def fits(task: Task) -> bool:
        if "carry" in need and task.carry is not need["carry"]:
            return False
        return not ("blank" in need and blank_side(task) != need["blank"])

    return fits


def blank_side(task: Task) -> str:
    """Where the blank of an equation is: the result or an operand."""
    row = task.cells[0]
    return "result" if row[-1] is None else "operand"


@dataclass(frozen=True)
class Dealt:
    versions: tuple[tuple[Task, ...], ...]
    pool: int  # different problems the controls allow
    exhaustive: bool
    disjoint: bool
    profile: tuple[tuple[int | str, ...], ...]


def deal(
    space: Space, problems: int, versions: int, seed: str, taken: set[object] | None = None
) -> Dealt:
    """`versions` lists of `problems` different tasks with the same classes, easy to hard
    (none of `taken`, the problems of the sections above)."""
    rng = random.Random(seed)
    pool, exhaustive = candidates(space, rng, problems * versions)
    if taken:
        pool = [t for t in pool if t.key not in taken]
    plain = [t for t in pool if not t.trivial]
    if len(plain) >= problems:
        pool = plain  # + 0, · 1 only when the range leaves too few others
    pool.sort(key=lambda t: repr(t.key))  # the draw order must not depend on set order
    rng.shuffle(pool)
    pool.sort(key=lambda t: t.trivial)  # a forced + 0 is taken last
    first: list[Task] = []
    used: set[tuple[object, ...]] = set()
    for slot in range(problems):
        fits = _wants(space, slot)
        pick = next((t for t in pool if t.key not in used and fits(t)), None)
        if pick is None:
            raise NotEnough(len({t.key for t in pool if fits(t)}) or len(used), exhaustive)
        first.append(pick)
        used.add(pick.key)
    profile = Counter(t.cls for t in first)
    by_class: dict[tuple[int | str, ...], list[Task]] = {}
    for t in pool:
        by_class.setdefault(t.cls, []).append(t)
    dealt = [first]
    disjoint = True
    everywhere = set(used)  # taken by some version
    for _ in range(1, versions):
        mine: set[tuple[object, ...]] = set()
        version: list[Task] = []
        for cls, count in sorted(profile.items(), key=lambda kv: repr(kv[0])):
            group = by_class[cls]
            fresh = [t for t in group if t.key not in everywhere]
            reused = [t for t in group if t.key in everywhere and t.key not in mine]
            take = (fresh + reused)[:count]
            disjoint = disjoint and len(fresh) >= count
            version += take
            mine.update(t.key for t in take)
        everywhere |= mine
        dealt.append(version)
    ordered = tuple(tuple(sorted(v, key=lambda t: _order(t.cls))) for v in dealt)  # stable: seeded
    profile_list = tuple(t.cls for t in ordered[0])
    return Dealt(ordered, len(pool), exhaustive, disjoint, profile_list)


def _order(cls: Sequence[int | str]) -> tuple[str, ...]:
    """Easy to hard: classes compare as their printed parts (numbers padded)."""
    return tuple(f"{c:06d}" if isinstance(c, int) else c for c in cls)


def check_range(topic: Topic, controls: Controls) -> tuple[int, int]:
    """The range of the problems' largest number, within what the topic allows."""
    lo, hi = controls.range or topic.default_range or topic.limits
    if not topic.limits[0] <= lo <= hi <= topic.limits[1]:
        raise InputError(
            "range",
            f"{lo}-{hi} with topic {topic.id} "
            f"(expected a range within {topic.limits[0]}-{topic.limits[1]})",
        )
    return lo, hi
