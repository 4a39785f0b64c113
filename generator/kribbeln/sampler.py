"""Seeded balanced sampling of a Kribbeln block: `pages` sheets of six tasks each.

A block is found sheet by sheet, so a small edit stays small: every sheet has its
own order of the tasks, drawn from the seed, the sheet's number and each task's id
(a hash, not one shuffle of the whole catalog), and takes the first six tasks in
that order — searched depth first, row by row — that meet every constraint. A task
whose figures change therefore changes only the sheets that hold it (or whose
search now stops at it earlier), while the pad still meets its balance.

The constraints across sheets (every sheet's mean and area means near the block's)
are met through targets: one sheet — the anchor, the one holding the hardest task
it must hold — is found first with the per-sheet constraints alone, and every other
sheet keeps its three area means within half of `area_mean_tolerance` and its mean
within half of `mean_tolerance` of the anchor's, so any two sheets, and each sheet
and the block, are within the whole tolerance. When no sheet of that kind exists
for some sheet, the anchor's next sheet is tried, at most `attempts` anchors.

A family with fewer tasks in range than two per sheet (the original's free-colours
family has six, one per sheet) is dealt first: its tasks go to the sheets in the
order of their hash, one each, so no sheet is left without one.

The search is bounded by counts, never by a clock: `attempts` anchors and `NODES`
steps of each sheet's search, so a seed gives the same block on any machine under
any load. When no block is found, the search is rerun with one constraint dropped
at a time: the constraint whose removal lets a block be found is named as the one
that binds. Impossible requests that need no search (too few tasks in the p range,
a family too small for the pages) are refused before searching. Either way the
result is a `CatalogError` pointing at the balance file's key (exit status 2).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from generator.core.errors import CatalogError, InputError, Msg
from generator.kribbeln.balance import (
    AREAS,
    TASKS_PER_AREA,
    TASKS_PER_SHEET,
    Balance,
    TaskFacts,
    area_violation,
    violations,
)

MAX_PAGES = 100
NODES = 400_000  # steps of one sheet's search (a count: no clock decides)
SCARCE = 2  # a family with fewer tasks than this many per sheet is dealt out first
SOFT = (
    "mean_tolerance",
    "area_mean_tolerance",
    "areas",
    "max_color_per_sheet",
    "families",
    "easy_per_sheet",
)
_EPS = 1e-9


@dataclass(frozen=True)
class SampledBlock:
    """The sheets of a block: task ids in row order (area 1 task 1, area 1 task 2, area 2 …)."""

    sheets: tuple[tuple[str, ...], ...]
    attempts: int  # anchors tried (1 = the first anchor sheet let every sheet be found)


def rank(seed: int, sheet: int, task_id: str) -> int:
    """A task's place in a sheet's order: a hash of the seed, the sheet and the task id."""
    digest = hashlib.blake2b(f"{seed}:{sheet}:{task_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class _Sheets:
    """The search for one sheet: three areas of two tasks, over indices into the pool."""

    def __init__(self, pool: Sequence[TaskFacts], balance: Balance, drop: str | None) -> None:
        self.pool = pool
        self.balance = balance
        self.p = [t.p_success for t in pool]
        self.family = [t.family for t in pool]
        self.colors = [t.colors for t in pool]
        self.easy = [balance.is_easy(t.p_success) for t in pool]
        self.use = {c: c != drop for c in SOFT}

    def sheets(
        self,
        order: Sequence[int],
        forced: frozenset[int],
        targets: Sequence[float] | None,
        diverse: bool = False,
    ) -> Iterator[list[int]]:
        """Every sheet (row order) of tasks from `order` holding `forced`, first in `order`.

        `diverse`: only the first sheet of each first area (an anchor's candidates: the
        next one differs in its easiest area, not in a single task).

        An area is a pair of tasks, the earlier in the sheet's order first; the areas are
        chosen top to bottom, each pair list in the sheet's order, so the first sheet is the
        one whose tasks come first.
        """
        b, use, p = self.balance, self.use, self.p
        families = set(b.families) if use["families"] else set()
        with_targets = targets is not None
        half_area = b.area_mean_tolerance / 2 if use["area_mean_tolerance"] else 2.0
        half_mean = b.mean_tolerance / 2 if use["mean_tolerance"] else 2.0
        limit_color = b.max_color_per_sheet if use["max_color_per_sheet"] else TASKS_PER_SHEET
        limit_easy = b.easy_per_sheet if use["easy_per_sheet"] else TASKS_PER_SHEET
        rising = use["areas"] and b.areas == "rising"
        flat = use["areas"] and b.areas == "flat"
        step = b.area_step - _EPS

        def pair_ok(i: int, j: int) -> bool:
            if self.easy[i] and self.easy[j] and limit_easy < 2:
                return False
            named = [*self.colors[i], *self.colors[j]]
            return all(named.count(c) <= limit_color for c in set(named))

        pairs = [
            (i, j, (p[i] + p[j]) / 2)
            for x, i in enumerate(order)
            for j in order[x + 1 :]
            if pair_ok(i, j)
        ]
        if with_targets:
            assert targets is not None
            lists = [
                [q for q in pairs if abs(q[2] - targets[a]) <= half_area + _EPS]
                for a in range(AREAS)
            ]
            mean_target = sum(targets) / AREAS
        else:
            lists = [pairs] * AREAS
            mean_target = 0.0
        # which areas each forced task can go in at all
        places = {f: {a for a in range(AREAS) if any(f in q[:2] for q in lists[a])} for f in forced}
        # the last area's pairs that hold a forced task: where the search looks when one is left
        holding = {f: [q for q in lists[2] if f in q[:2]] for f in forced}
        budget = [NODES]

        def colors_ok(tasks: Sequence[int]) -> bool:
            named: dict[str, int] = {}
            for t in tasks:
                for c in self.colors[t]:
                    named[c] = named.get(c, 0) + 1
            return all(n <= limit_color for n in named.values())

        def ok_so_far(tasks: Sequence[int], area: int) -> bool:
            if len(set(tasks)) != len(tasks):
                return False
            if sum(1 for t in tasks if self.easy[t]) > limit_easy or not colors_ok(tasks):
                return False
            later = set(range(area + 1, AREAS))
            return all(f in tasks or places[f] & later for f in forced)

        for first in lists[0]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            one = first[:2]
            if not ok_so_far(one, 0):
                continue
            yielded = False
            for second in lists[1]:
                if yielded:
                    break
                budget[0] -= 1
                if budget[0] < 0:
                    return
                if rising and first[2] - second[2] < step:
                    continue
                two = (*one, *second[:2])
                if not ok_so_far(two, 1):
                    continue
                need = {f for f in forced if f not in two}
                missing = families - {self.family[t] for t in two}
                if len(need) > TASKS_PER_AREA or len(missing) > TASKS_PER_AREA:
                    continue
                named: dict[str, int] = {}
                for t in two:
                    for c in self.colors[t]:
                        named[c] = named.get(c, 0) + 1
                easy_two = sum(1 for t in two if self.easy[t])
                low, high = -1.0, 2.0
                if with_targets:
                    rest = AREAS * mean_target - first[2] - second[2]
                    low, high = rest - AREAS * half_mean, rest + AREAS * half_mean
                for third in holding[min(need)] if need else lists[2]:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return
                    m = third[2]
                    if not low - _EPS <= m <= high + _EPS:
                        continue
                    if rising and second[2] - m < step:
                        continue
                    if not need <= set(third[:2]):
                        continue
                    i, j = third[0], third[1]
                    if missing - {self.family[i], self.family[j]}:
                        continue
                    if i in two or j in two or easy_two + self.easy[i] + self.easy[j] > limit_easy:
                        continue
                    more = [*self.colors[i], *self.colors[j]]
                    if any(named.get(c, 0) + more.count(c) > limit_color for c in more):
                        continue
                    tasks = [*two, i, j]
                    if flat and area_violation([first[2], second[2], m], b):
                        continue
                    yield tasks
                    if diverse:
                        yielded = True
                        break


def _precheck(pool: Sequence[TaskFacts], balance: Balance, pages: int, n_all: int) -> None:
    """Refuse what no search can fix, naming the constraint."""
    need = pages * TASKS_PER_SHEET
    easy = sum(1 for t in pool if balance.is_easy(t.p_success))
    usable = len(pool) - easy + min(easy, pages * balance.easy_per_sheet)
    if usable < need:
        raise balance.error(
            "p_min",
            Msg(
                "p_min_p_max",
                n_pool=usable,
                n_all=n_all,
                p_min=f"{balance.p_min:g}",
                p_max=f"{balance.p_top:g}",
                pages=pages,
                need=need,
            ),
        )
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


def hard_below(balance: Balance) -> float:
    """A hard task's p_success is below this: the lowest third of the p range."""
    return balance.p_min + (balance.p_max - balance.p_min) / 3


def _deal(
    pool: Sequence[TaskFacts], balance: Balance, free: Sequence[int], seed: int, taken: set[int]
) -> dict[int, set[int]]:
    """The tasks of scarce families, one per sheet in the order of their hash: sheet → tasks."""
    dealt: dict[int, set[int]] = {s: set() for s in free}
    for fam in balance.families:
        tasks = [i for i, t in enumerate(pool) if t.family == fam and i not in taken]
        if not free or len(tasks) >= SCARCE * len(free):
            continue
        tasks.sort(key=lambda i: (rank(seed, 0, f"{fam}:{pool[i].id}"), pool[i].id))
        for sheet, task in zip(free, tasks):
            dealt[sheet].add(task)
    # the hard tasks (the lowest third of the p range) are as scarce in the original's
    # catalog (six "X most often" and one "some colour four times"): one to each sheet
    # that has none yet, or the first sheets would take them all
    low = hard_below(balance)
    given = {t for tasks in dealt.values() for t in tasks}
    hard = [i for i, t in enumerate(pool) if t.p_success < low and i not in taken | given]
    lacking = [s for s in free if not any(pool[t].p_success < low for t in dealt[s])]
    if lacking and len(hard) < SCARCE * len(lacking):
        hard.sort(key=lambda i: (rank(seed, 0, f"hard:{pool[i].id}"), pool[i].id))
        for sheet, task in zip(lacking, hard):
            dealt[sheet].add(task)
    return dealt


def _search(
    pool: Sequence[TaskFacts],
    balance: Balance,
    pages: int,
    seed: int,
    pinned: Mapping[int, Sequence[int]],
    drop: str | None,
    attempts: int,
) -> tuple[dict[int, list[int]] | None, int]:
    """The sheets (number → pool indices in row order) and the anchors tried, or None."""
    search = _Sheets(pool, balance, drop)
    taken = {t for tasks in pinned.values() for t in tasks}
    free = [s for s in range(1, pages + 1) if s not in pinned]
    dealt = _deal(pool, balance, free, seed, taken)
    reserved = {t for tasks in dealt.values() for t in tasks}

    # every task has a home sheet (a hash): a sheet looks at its own tasks first, so two
    # sheets rarely want the same task and a sheet that changes seldom moves another
    home = {i: rank(seed, -1, t.id) % pages + 1 for i, t in enumerate(pool)}

    def order(sheet: int, used: set[int]) -> list[int]:
        # a sheet's own order: its dealt tasks and every task no other sheet holds or was dealt
        mine = dealt.get(sheet, set())
        ids = [i for i in range(len(pool)) if i not in used and (i not in reserved or i in mine)]
        return sorted(ids, key=lambda i: (home[i] != sheet, rank(seed, sheet, pool[i].id), i))

    def own(sheet: int, used: set[int]) -> list[int]:
        return [i for i in order(sheet, used) if home[i] == sheet or i in dealt[sheet]]

    def rest(targets: Sequence[float], used: set[int], sheets: list[int]) -> dict | None:
        found: dict[int, list[int]] = {}
        # first every sheet from its own tasks alone: what one sheet finds does not depend
        # on any other sheet, so an edit moves no sheet but the one whose task it is
        for sheet in sheets:
            tasks = next(search.sheets(own(sheet, used), frozenset(dealt[sheet]), targets), None)
            if tasks is not None:
                found[sheet] = tasks
        # a sheet its own tasks cannot fill then takes from the tasks no sheet holds
        used = used | {t for tasks in found.values() for t in tasks}
        for sheet in sheets:
            if sheet in found:
                continue
            gen = search.sheets(order(sheet, used), frozenset(dealt[sheet]), targets)
            tasks = next(gen, None)
            if tasks is None:
                return None
            found[sheet] = tasks
            used = used | set(tasks)
        return found

    if pinned:
        targets = [
            sum(
                (pool[t[2 * a]].p_success + pool[t[2 * a + 1]].p_success) / 2
                for t in pinned.values()
            )
            / len(pinned)
            for a in range(AREAS)
        ]
        found = rest(targets, set(taken), free)
        return (
            {**{s: list(t) for s, t in pinned.items()}, **found} if found is not None else None
        ), 1
    # the anchor: the sheet dealt the hardest task (it has the fewest sheets to choose from)
    anchor = min(free, key=lambda s: (min((pool[t].p_success for t in dealt[s]), default=2.0), s))
    half = balance.area_mean_tolerance / 2 if drop != "area_mean_tolerance" else 2.0
    # partners a dealt task may count on: neither dealt nor hard (the spare hard tasks are
    # too few to pair every sheet's hard task with another)
    low = hard_below(balance)
    p = sorted(
        {t.p_success for i, t in enumerate(pool) if i not in reserved and t.p_success >= low}
    )

    def placeable(targets: Sequence[float], task: int) -> bool:
        # a task dealt to another sheet has a partner for some area within the targets' band
        mine = pool[task].p_success
        return any(abs((mine + q) / 2 - m) <= half + _EPS for m in targets for q in p)

    candidates = itertools.chain(
        search.sheets(own(anchor, set()), frozenset(dealt[anchor]), None, True),
        search.sheets(order(anchor, set()), frozenset(dealt[anchor]), None, True),
    )
    tried: set[tuple[float, ...]] = set()
    attempt = 0
    while attempt < attempts:
        first = next(candidates, None)
        if first is None:
            break
        targets = [(pool[first[2 * a]].p_success + pool[first[2 * a + 1]].p_success) / 2
                   for a in range(AREAS)]  # fmt: skip
        # an anchor like one tried already, or one some dealt task cannot join, is skipped
        # without counting: the next anchor worth trying is searched for
        seen = tuple(round(m, 2) for m in targets)
        others = [s for s in free if s != anchor]
        if seen in tried or not all(placeable(targets, t) for s in others for t in dealt[s]):
            continue
        tried.add(seen)
        attempt += 1
        found = rest(targets, set(first), others)
        if found is not None:
            return {anchor: first, **found}, attempt
    return None, attempt


def sample_block(
    tasks: Sequence[TaskFacts],
    balance: Balance,
    pages: int,
    seed: int,
    pinned: Mapping[int, Sequence[str]] | None = None,
) -> SampledBlock:
    """`pages` sheets of six different tasks meeting every constraint of `balance`.

    `pinned`: sheets (number → task ids in row order) kept as they are; the others are
    sampled around them. Deterministic for a seed: the search is bounded by counts alone.
    Raises `CatalogError` naming the binding constraint when no block is found.
    """
    if not 1 <= pages <= MAX_PAGES:
        raise InputError("pages", Msg("range", low=1, high=MAX_PAGES, noun="sheets", found=pages))
    pinned = dict(pinned or {})
    pool = [t for t in tasks if balance.in_band(t.p_success)]
    kept = {t.id for ids in pinned.values() for t in tasks if t.id in ids}
    pool += [t for t in tasks if t.id in kept and not balance.in_band(t.p_success)]
    index = {t.id: i for i, t in enumerate(pool)}
    pins = {s: [index[i] for i in ids] for s, ids in pinned.items()}
    _precheck(pool, balance, pages, len(tasks))
    found, used = _search(pool, balance, pages, seed, pins, None, balance.attempts)
    if found is None:
        raise _infeasible(pool, balance, pages, seed, pins)
    sheets = tuple(tuple(pool[t].id for t in found[s]) for s in range(1, pages + 1))
    facts = {t.id: t for t in pool}
    broken = violations([[facts[i] for i in sheet] for sheet in sheets], balance)
    if broken and not pinned:  # pragma: no cover - the search and the check disagree: a bug
        raise AssertionError(f"sampled block breaks {broken[0]}")
    return SampledBlock(sheets, used)


def _infeasible(
    pool: Sequence[TaskFacts],
    balance: Balance,
    pages: int,
    seed: int,
    pinned: Mapping[int, Sequence[int]],
) -> CatalogError:
    """The error for a search that failed: which constraint binds, found by dropping each."""
    attempts = balance.attempts  # as many anchors as the search had: a fair comparison
    freed = []
    for constraint in SOFT:
        found, _ = _search(pool, balance, pages, seed, pinned, constraint, attempts)
        if found is not None:
            freed.append(constraint)
    key = {"areas": "area_step" if balance.areas == "rising" else "area_tolerance"}
    where = Msg("no_block_meets", pages=pages, attempts=balance.attempts, moves=NODES)
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
