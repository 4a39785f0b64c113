"""Seeded balanced sampling of a Kribbeln block: `pages` sheets of six tasks each, sheet by sheet.

Sheets are drawn one after another, each from its own order: sheet j looks at the
tasks in an order made from the seed, j and the task's id alone (a hash), never
from their place in the file or the other sheets' draws. So a task's text or
figures matter to sheet j only where sheet j looks at that task, and editing one
task leaves the other sheets as they were whenever the pad still meets its
balance (docs/kribbeln.md, "Small edits stay small").

The block-wide constraints become per-sheet windows around fixed targets: every
sheet's area means lie within half of `area_mean_tolerance` of the target area
means, its mean within half of `mean_tolerance` of theirs, so any sheets that meet
their windows meet the block's constraints together, whatever the other sheets
hold. The targets depend on the tasks' figures only (not the seed): the nearest
point of a 0.01 grid to the tasks' typical sheet at which every task of a scarce
family (fewer than two tasks a sheet) still fits on a sheet.

A sheet is searched over classes of tasks (family and p_success: the thirty
"more X than Y" are one class), in the sheet's order, depth first; at a leaf the
class's tasks are taken in the sheet's order of ids, each colour named at most
`max_color_per_sheet` times. A sheet leaves enough tasks of each family, easy
tasks and tasks in range for the sheets after it, and when a sheet cannot be
found the one before it takes its next solution (a bounded repair: a count of
search nodes, never a clock). Only a block that `balance.violations` passes is
returned. When no block is found within the budget (`search: attempts`, each a
further target), the whole-block local search `_Search` is run with each
constraint dropped in turn to name the one that binds; impossible requests that
need no search are refused before searching. Either way the result is a
`CatalogError` pointing at the balance file's key (exit status 2).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from generator.core.errors import CatalogError, InputError, Msg
from generator.kribbeln.balance import (
    AREAS,
    TASKS_PER_SHEET,
    Balance,
    TaskFacts,
    area_means,
    area_violation,
    violations,
)

MAX_PAGES = 100
SOFT = (
    "mean_tolerance",
    "area_mean_tolerance",
    "areas",
    "max_color_per_sheet",
    "families",
    "easy_per_sheet",
)


@dataclass(frozen=True)
class SampledBlock:
    """The sheets of a block: task ids in row order (area 1 task 1, area 1 task 2, area 2 …)."""

    sheets: tuple[tuple[str, ...], ...]
    attempts: int  # search attempts used (1 = the first restart found it)


def _precheck(pool: Sequence[TaskFacts], balance: Balance, pages: int, n_all: int) -> None:
    """Refuse what no search can fix, naming the constraint."""
    easy = sum(1 for t in pool if balance.is_easy(t.p_success))
    need = pages * (TASKS_PER_SHEET - balance.easy_per_sheet)
    if len(pool) - easy < need:
        raise balance.error(
            "p_min",
            Msg(
                "p_min_p_max",
                n_pool=len(pool) - easy,
                n_all=n_all,
                p_min=f"{balance.p_min:g}",
                p_max=f"{balance.p_max:g}",
                pages=pages,
                need=need,
            ),
        )
    if easy < pages * balance.easy_per_sheet:
        raise balance.error(
            "easy_per_sheet",
            Msg(
                "easy_per_sheet_too_few",
                easy=easy,
                p_max=f"{balance.p_max:g}",
                pages=pages,
                per_sheet=balance.easy_per_sheet,
                need=pages * balance.easy_per_sheet,
            ),
        )
    need = pages * TASKS_PER_SHEET
    for fam in balance.families:
        have = sum(1 for t in pool if t.family == fam)
        if have < pages:
            raise balance.error(
                "families",
                Msg(
                    "families_every_sheet_uses",
                    fam=fam,
                    have=have,
                    p_min=f"{balance.p_min:g}",
                    p_max=f"{balance.p_max:g}",
                    pages=pages,
                ),
            )
    k = balance.max_color_per_sheet
    colorless = sum(1 for t in pool if not t.colors)
    named_families = [f for f in balance.families if all(t.colors for t in pool if t.family == f)]
    if k == 0 and (named_families or colorless < need):
        raise balance.error(
            "max_color_per_sheet",
            Msg(
                "max_color_per_sheet",
                colorless=colorless,
                need=need,
                families=named_families,
            ),
        )
    if balance.areas == "rising":
        p = sorted(t.p_success for t in pool)
        widest = (p[-1] + p[-2]) / 2 - (p[0] + p[1]) / 2
        if widest < (AREAS - 1) * balance.area_step - 1e-9:
            raise balance.error(
                "area_step",
                Msg(
                    "area_step_three_rising",
                    value=f"{2 * balance.area_step:g}",
                    widest=f"{widest:.3f}",
                ),
            )


GRID = 0.01  # the targets' grid (p_success)
# the windows' share of the block tolerances: a half guarantees the block's constraints
# (two sheets within half a tolerance of one target are within a tolerance of each other
# and of their mean); wider windows, tried only where no target fits at a half, need the
# whole block checked once more
SHARES = (0.5, 0.75, 1.0)
TARGET_TRIES = 100  # grid points tried for the targets, nearest first
TARGET_NODES = 4_000  # search nodes a scarce task may take to fit a sheet at a target
SHEET_NODES = 30_000  # search nodes per pad attempt (all its sheets and repairs)


def _h(*parts: object) -> bytes:
    """A stable 64-bit key: no salt, the same on every machine and in every run."""
    return hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()


Target = tuple[tuple[float, float, float], float]  # target area means, the windows' share


@dataclass(frozen=True)
class _Class:
    """Tasks alike to every constraint but the colours: one family and one p_success."""

    key: str
    family: str
    p: float
    easy: bool
    tasks: tuple[TaskFacts, ...]


def _classes(pool: Sequence[TaskFacts], balance: Balance) -> tuple[_Class, ...]:
    groups: dict[tuple[str, float], list[TaskFacts]] = {}
    for t in pool:
        groups.setdefault((t.family, round(t.p_success, 9)), []).append(t)
    return tuple(
        _Class(f"{fam}:{p:.9f}", fam, p, balance.is_easy(p), tuple(tasks))
        for (fam, p), tasks in sorted(groups.items())
    )


class _Sheets:
    """Depth-first search for one sheet's classes in row order, within the target windows."""

    def __init__(self, balance: Balance, target: Target) -> None:
        self.b = balance
        self.targets, share = target
        self.mean = sum(self.targets) / AREAS
        self.w = balance.area_mean_tolerance * share
        self.mw = balance.mean_tolerance * share
        self.nodes = 0
        self.partner: dict[tuple[float, int, int], bool] = {}

    def pairs(self, p: float, area: int, order: Sequence[_Class]) -> bool:
        """Whether a task of `p` has a partner that brings area `area` into its window."""
        key = (p, area, len(order))
        if key not in self.partner:
            low = 2 * (self.targets[area] - self.w) - p - 1e-12
            high = 2 * (self.targets[area] + self.w) - p + 1e-12
            self.partner[key] = any(low <= c.p <= high for c in order)
        return self.partner[key]

    def mean_reachable(
        self, chosen: Sequence[_Class], c: _Class, slot: int, low: float, high: float
    ) -> bool:
        """Whether the slots after `slot` can still bring the sheet's mean into its window
        (each later area within its own window, every task within the pool's range)."""
        total = sum(x.p for x in chosen) + c.p
        lo = hi = total
        area = slot // 2
        if not slot % 2:  # the partner of c
            lo += max(2 * (self.targets[area] - self.w) - c.p, low)
            hi += min(2 * (self.targets[area] + self.w) - c.p, high)
            top = (c.p + min(2 * (self.targets[area] + self.w) - c.p, high)) / 2
        else:
            top = (chosen[-1].p + c.p) / 2
        rising = self.b.areas == "rising"
        for a in range(area + 1, AREAS):
            lo += max(2 * (self.targets[a] - self.w), 2 * low)
            cap = min(2 * (self.targets[a] + self.w), 2 * high)
            if rising:  # each later area at least a step harder than this one
                cap = min(cap, 2 * (top - (a - area) * self.b.area_step))
            hi += cap
        n = TASKS_PER_SHEET
        return lo <= n * (self.mean + self.mw) + 1e-9 and hi >= n * (self.mean - self.mw) - 1e-9

    def area_ok(self, means: Sequence[float]) -> bool:
        b = self.b
        if b.areas == "rising":
            return means[-2] - means[-1] >= b.area_step - 1e-9
        return True  # flat: checked once the sheet is whole

    def fits(self, order: Sequence[_Class], left: dict[str, int], budget: int, force: str) -> bool:
        """Whether some sheet holds class `force` (first in its area, in each area in turn)."""
        first = [c for c in order if c.key == force] + [c for c in order if c.key != force]
        return any(
            next(self.search(first, left, budget, force, at=2 * a), None) is not None
            for a in range(AREAS)
        )

    def search(
        self,
        order: Sequence[_Class],
        left: dict[str, int],
        budget: int,
        force: str | None = None,
        at: int = -1,
    ) -> Iterator[list[_Class]]:
        """Sheets (six classes, row order) in the order `order` gives, while nodes last
        (`at`: the slot that must hold class `force`)."""
        b = self.b
        chosen: list[_Class] = []
        taken: dict[str, int] = {}
        n = len(order)
        low = min((c.p for c in order), default=0.0)
        high = max((c.p for c in order), default=0.0)

        def rec(slot: int, lo: int) -> Iterator[list[_Class]]:
            if slot == TASKS_PER_SHEET:
                if b.areas == "flat" and area_violation(area_means([c.p for c in chosen]), b):
                    return
                yield list(chosen)
                return
            area = slot // 2
            for i in range(lo if slot % 2 else 0, n):
                c = order[i]
                self.nodes += 1
                if self.nodes > budget:
                    return
                if taken.get(c.key, 0) >= left[c.key]:
                    continue
                if slot == at and c.key != force:
                    continue
                easy = sum(x.easy for x in chosen) + c.easy
                if easy > b.easy_per_sheet or easy + TASKS_PER_SHEET - 1 - slot < b.easy_per_sheet:
                    continue
                if not slot % 2 and not self.pairs(c.p, area, order):
                    continue
                families = {x.family for x in chosen} | {c.family}
                if sum(f not in families for f in b.families) > TASKS_PER_SHEET - 1 - slot:
                    continue
                if not self.mean_reachable(chosen, c, slot, low, high):
                    continue
                if slot % 2:
                    m = (chosen[-1].p + c.p) / 2
                    if abs(m - self.targets[area]) > self.w + 1e-12:
                        continue
                    if area and not self.area_ok([(chosen[-3].p + chosen[-2].p) / 2, m]):
                        continue
                    if area == AREAS - 1:
                        mean = (sum(x.p for x in chosen) + c.p) / TASKS_PER_SHEET
                        if abs(mean - self.mean) > self.mw + 1e-12:
                            continue
                chosen.append(c)
                taken[c.key] = taken.get(c.key, 0) + 1
                yield from rec(slot + 1, i)
                chosen.pop()
                taken[c.key] -= 1
                if self.nodes > budget:
                    return

        yield from rec(0, 0)


def _center(classes: Sequence[_Class], balance: Balance) -> tuple[float, float, float]:
    """A typical sheet's area means: the pool's quantiles, easy tasks first, in pairs."""
    easy = sorted((c.p for c in classes if c.easy for _ in c.tasks), reverse=True)
    band = sorted((c.p for c in classes if not c.easy for _ in c.tasks), reverse=True)
    k = balance.easy_per_sheet if easy else 0

    def quantiles(values: list[float], count: int) -> list[float]:
        return [values[int((i + 0.5) / count * len(values))] for i in range(count)] if count else []

    p = quantiles(easy, k) + quantiles(band, TASKS_PER_SHEET - k)
    means = area_means(p)
    if balance.areas == "flat":
        mean = sum(means) / AREAS
        return (mean, mean, mean)
    return (means[0], means[1], means[2])


def _target_candidates(
    center: tuple[float, float, float], balance: Balance
) -> Iterator[tuple[float, float, float]]:
    """Grid points nearest `center` first (ties in a fixed order), meeting the area order.

    Rising areas: any three area means a step apart. Flat areas: a sheet mean and a
    spread d, the areas at mean + d, mean, mean − d (d within the area tolerance)."""
    base = [round(x / GRID) for x in center]
    reach = 12
    points: list[tuple[int, tuple[int, ...], tuple[float, ...]]] = []
    if balance.areas == "rising":
        for step in itertools.product(range(-reach, reach + 1), repeat=AREAS):
            t = tuple(round((base[a] + step[a]) * GRID, 6) for a in range(AREAS))
            if t[0] - t[1] < balance.area_step - 1e-9 or t[1] - t[2] < balance.area_step - 1e-9:
                continue
            points.append((sum(abs(x) for x in step), step, t))
    else:
        spread = int(balance.area_tolerance / GRID + 1e-9)
        for m in range(-reach, reach + 1):
            for d in range(spread + 1):
                t = tuple(round((base[1] + m + k * d) * GRID, 6) for k in (1, 0, -1))
                points.append((abs(m) + d, (m, d), t))
    points.sort()
    for _, _, t in points[:TARGET_TRIES]:
        yield (t[0], t[1], t[2])


def _targets(classes: tuple[_Class, ...], balance: Balance, pages: int) -> Iterator[Target]:
    """Targets, best first: every class of a scarce family fits on some sheet at them.

    The grid points nearest the typical sheet come first, with windows of half the
    tolerances; after them the same points with wider windows."""
    by_family: dict[str, int] = {}
    for c in classes:
        by_family[c.family] = by_family.get(c.family, 0) + len(c.tasks)
    scarce = [
        c.key for c in classes if c.family in balance.families and by_family[c.family] < 2 * pages
    ]
    left = {c.key: len(c.tasks) for c in classes}
    center = _center(classes, balance)
    for share in SHARES:
        for t in _target_candidates(center, balance):
            search = _Sheets(balance, (t, share))
            if all(search.fits(classes, left, search.nodes + TARGET_NODES, k) for k in scarce):
                yield (t, share)


_TARGETS: dict[tuple[object, ...], tuple[list[Target], Iterator[Target]]] = {}


def _known_targets(classes: tuple[_Class, ...], balance: Balance, pages: int) -> Iterator[Target]:
    """`_targets`, remembered in this process (a pure function of the classes' figures)."""
    key = (
        tuple((c.family, c.p, c.easy, len(c.tasks)) for c in classes),
        tuple(sorted((k, str(v)) for k, v in balance.settings().items())),
        pages,
    )
    if key not in _TARGETS:
        if len(_TARGETS) > 64:
            _TARGETS.clear()
        _TARGETS[key] = ([], _targets(classes, balance, pages))
    found, more = _TARGETS[key]
    i = 0
    while True:
        if i == len(found):
            t = next(more, None)
            if t is None:
                return
            found.append(t)
        yield found[i]
        i += 1


def _assign(
    sheet: list[_Class], free: dict[str, list[TaskFacts]], balance: Balance
) -> list[TaskFacts] | None:
    """The tasks of a sheet's classes: each class's first free tasks in the sheet's order
    that name no colour more than `max_color_per_sheet` times (depth first, small)."""
    out: list[TaskFacts] = []
    counts: dict[str, int] = {}
    k = balance.max_color_per_sheet

    def rec(slot: int) -> bool:
        if slot == len(sheet):
            return True
        for t in free[sheet[slot].key]:
            if t in out or any(counts.get(c, 0) >= k for c in t.colors):
                continue
            out.append(t)
            for c in t.colors:
                counts[c] = counts.get(c, 0) + 1
            if rec(slot + 1):
                return True
            out.pop()
            for c in t.colors:
                counts[c] -= 1
        return False

    return out if rec(0) else None


def _pad(
    classes: tuple[_Class, ...],
    balance: Balance,
    numbers: Sequence[int],
    seed: int,
    targets: Target,
) -> list[list[TaskFacts]] | None:
    """The sheets `numbers` for one target, sheet by sheet, each in its own order (made from
    its number, so a sheet drawn beside pinned ones looks where it would without them);
    None past the budget."""
    pages = len(numbers)
    search = _Sheets(balance, targets)
    # a class stands where its first task stands in the sheet's order of ids: moving one
    # task to another class (its figures edited) leaves the other classes in place
    orders = [
        sorted(classes, key=lambda c: min(_h(seed, j, t.id) for t in c.tasks)) for j in numbers
    ]
    left = {c.key: len(c.tasks) for c in classes}
    family_left: dict[str, int] = {}
    for c in classes:
        family_left[c.family] = family_left.get(c.family, 0) + len(c.tasks)
    easy_left = sum(len(c.tasks) for c in classes if c.easy)
    band_left = sum(len(c.tasks) for c in classes if not c.easy)
    used: set[str] = set()
    sheets: list[list[TaskFacts]] = []
    k = balance.easy_per_sheet

    def enough(after: int) -> bool:
        """Whether the sheets after this one still have what each needs."""
        if any(family_left.get(f, 0) < after for f in balance.families):
            return False
        return easy_left >= k * after and band_left >= (TASKS_PER_SHEET - k) * after

    def rec(j: int) -> bool:
        nonlocal easy_left, band_left
        if j == pages:
            return True
        for found in search.search(orders[j], left, SHEET_NODES):
            free = {
                c.key: sorted(
                    (t for t in c.tasks if t.id not in used),
                    key=lambda t: _h(seed, numbers[j], t.id),
                )
                for c in found
            }
            tasks = _assign(found, free, balance)
            if tasks is None:
                continue
            for c in found:
                left[c.key] -= 1
                family_left[c.family] -= 1
            easy = sum(c.easy for c in found)
            easy_left -= easy
            band_left -= TASKS_PER_SHEET - easy
            if enough(pages - j - 1):
                used.update(t.id for t in tasks)
                sheets.append(tasks)
                if rec(j + 1):
                    return True
                sheets.pop()
                used.difference_update(t.id for t in tasks)
            for c in found:
                left[c.key] += 1
                family_left[c.family] += 1
            easy_left += easy
            band_left += TASKS_PER_SHEET - easy
            if search.nodes > SHEET_NODES:
                return False
        return False

    return sheets if rec(0) else None


def sample_block(
    tasks: Sequence[TaskFacts],
    balance: Balance,
    pages: int,
    seed: int,
    pinned: Mapping[int, Sequence[str]] | None = None,
) -> SampledBlock:
    """`pages` sheets of six different tasks meeting every constraint of `balance`.

    `pinned`: sheets kept as they are (number → task ids in row order); the others are
    drawn without their tasks, and only they are held to the constraints (the caller
    checks the whole block).
    Deterministic for a seed: the search is bounded by counts of nodes and targets alone.
    Raises `CatalogError` naming the binding constraint when no block is found.
    """
    if not 1 <= pages <= MAX_PAGES:
        raise InputError("pages", Msg("range", low=1, high=MAX_PAGES, noun="sheets", found=pages))
    pinned = pinned or {}
    on_pins = {i for ids in pinned.values() for i in ids}
    numbers = [j for j in range(1, pages + 1) if j not in pinned]
    if not numbers:
        return SampledBlock(tuple(tuple(pinned[j]) for j in range(1, pages + 1)), 0)
    pool = [t for t in tasks if balance.drawable(t.p_success) and t.id not in on_pins]
    free = len(numbers)
    _precheck(pool, balance, free, len(tasks))
    classes = _classes(pool, balance)
    for attempt, targets in enumerate(_known_targets(classes, balance, free), start=1):
        if attempt > balance.attempts:
            break
        found = _pad(classes, balance, numbers, seed, targets)
        if found is None:
            continue
        sheets = []
        for j, sheet in zip(numbers, found, strict=True):
            # which tasks share an area and the areas' order are the search's; the order
            # inside an area is the sheet's own chance
            rng = random.Random(f"{seed}:{j}")
            areas = [sheet[2 * a : 2 * a + 2] for a in range(AREAS)]
            for area in areas:
                rng.shuffle(area)
            sheets.append(tuple(t.id for area in areas for t in area))
        facts = {t.id: t for t in pool}
        if violations([[facts[i] for i in sheet] for sheet in sheets], balance):
            # possible with windows wider than half the tolerances (never with a half:
            # tests check it); the next target is the repair
            if targets[1] > SHARES[0]:
                continue
            raise AssertionError("sheets within half windows break the block's constraints")
        drawn = iter(sheets)
        block = tuple(tuple(pinned[j]) if j in pinned else next(drawn) for j in range(1, pages + 1))
        return SampledBlock(block, attempt)
    raise _infeasible(pool, balance, free, seed)


def _dropped(balance: Balance, constraint: str) -> Balance:
    """The balance without one constraint (for naming the one that binds)."""
    off: dict[str, dict[str, object]] = {
        "mean_tolerance": {"mean_tolerance": 1.0},
        "area_mean_tolerance": {"area_mean_tolerance": 1.0},
        "areas": {"areas": "flat", "area_tolerance": 1.0},
        "max_color_per_sheet": {"max_color_per_sheet": TASKS_PER_SHEET},
        "families": {"families": ()},
        "easy_per_sheet": {"easy_per_sheet": 0, "p_max": 1.0},
    }
    return dataclasses.replace(balance, **off[constraint])  # type: ignore[arg-type]


def _found(pool: Sequence[TaskFacts], balance: Balance, pages: int, seed: int) -> bool:
    """Whether the search finds a block (within the budget) for these constraints."""
    pool = [t for t in pool if balance.drawable(t.p_success)]
    try:
        _precheck(pool, balance, pages, len(pool))
    except CatalogError:
        return False
    classes = _classes(pool, balance)
    targets = itertools.islice(_known_targets(classes, balance, pages), balance.attempts)
    numbers = range(1, pages + 1)
    return any(_pad(classes, balance, numbers, seed, t) is not None for t in targets)


def _infeasible(pool: Sequence[TaskFacts], balance: Balance, pages: int, seed: int) -> CatalogError:
    """The error for a search that failed: which constraint binds, found by dropping each."""
    freed = [c for c in SOFT if _found(pool, _dropped(balance, c), pages, seed)]
    key = {"areas": "area_step" if balance.areas == "rising" else "area_tolerance"}
    where = Msg("no_block_meets", pages=pages, attempts=balance.attempts, moves=SHEET_NODES)
    if len(freed) == 1:
        name = freed[0]
        return balance.error(
            key.get(name, name),
            Msg("without_block_found_so", name=name, where=where, setting=_setting(name, balance)),
        )
    if freed:
        names = ", ".join(freed)
        return balance.error(
            key.get(freed[0], freed[0]),
            Msg(
                "dropping_one_would_let",
                freed=freed[0],
                where=where,
                names=names,
                value="; ".join(_setting(n, balance) for n in freed),
            ),
        )
    return balance.error(
        "p_min",
        Msg("dropping_single_constraint_does", where=where),
    )


def _setting(name: str, balance: Balance) -> str:
    if name == "areas":
        if balance.areas == "rising":
            return f"areas: rising, area_step {balance.area_step:g}"
        return f"areas: flat, area_tolerance {balance.area_tolerance:g}"
    if name == "families":
        return f"families {', '.join(balance.families)}"
    return f"{name} {getattr(balance, name):g}"
