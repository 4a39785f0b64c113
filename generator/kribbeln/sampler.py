"""Seeded balanced sampling of a Kribbeln block: `pages` sheets of six tasks each.

A block is found by a local search over which tasks go on which sheet: the
cost of a block is how far it is from meeting each constraint (missing
families, colours named too often, area order, sheet means away from the block
mean); moves swap a task for an unused one or exchange tasks between sheets.
How a sheet's six tasks are paired into areas is solved exactly (all 15
pairings). Only a block of cost 0 — checked once more by `balance.violations`
— is ever returned.

When no block is found within the search budget (restarts and seconds, from the
balance file), the search is rerun with one constraint dropped at a time: the
constraint whose removal lets a block be found is named as the one that binds.
Impossible requests that need no search (too few tasks in the p range, a family
too small for the pages) are refused before searching. Either way the result
is a `CatalogError` pointing at the balance file's key (exit status 2).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import CatalogError, OptionError
from generator.kribbeln.balance import (
    AREAS,
    TASKS_PER_SHEET,
    Balance,
    TaskFacts,
    violations,
)

MAX_PAGES = 100
ITERATIONS = 4000  # moves per attempt
RELAX_SHARE = 0.15  # share of the budget each "drop one constraint" probe may take
SCALE = 0.01  # p_success distances are counted in hundredths against the whole-number terms
SOFT = ("mean_tolerance", "areas", "max_color_per_sheet", "families")


def _pairings(items: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    if not items:
        return [()]
    first, rest = items[0], items[1:]
    result = []
    for i, other in enumerate(rest):
        remaining = rest[:i] + rest[i + 1 :]
        result += [((first, other), *p) for p in _pairings(remaining)]
    return result


# all 15 ways to split six positions into three areas of two
PAIRINGS = _pairings(tuple(range(TASKS_PER_SHEET)))


@dataclass(frozen=True)
class SampledBlock:
    """The sheets of a block: task ids in row order (area 1 task 1, area 1 task 2, area 2 …)."""

    sheets: tuple[tuple[str, ...], ...]
    attempts: int  # search attempts used (1 = the first restart found it)


class _Search:
    """Local search state and cost terms over indices into the pool."""

    def __init__(
        self, pool: Sequence[TaskFacts], balance: Balance, pages: int, drop: str | None
    ) -> None:
        self.pool = pool
        self.balance = balance
        self.pages = pages
        self.p = [t.p_success for t in pool]
        self.family = [t.family for t in pool]
        self.colors = [t.colors for t in pool]
        self.use = {c: c != drop for c in SOFT}
        self._memo: dict[tuple[float, ...], float] = {}

    def area_cost(self, tasks: Sequence[int]) -> tuple[float, list[tuple[tuple[int, int], ...]]]:
        """The smallest area-order shortfall over all pairings, and the pairings reaching it."""
        best, chosen = self._area_cost(tuple(self.p[t] for t in tasks))
        return best, chosen

    def area_shortfall(self, tasks: Sequence[int]) -> float:
        # memoised on the sorted p values: the catalog has few distinct p_success levels
        key = tuple(sorted(self.p[t] for t in tasks))
        cost = self._memo.get(key)
        if cost is None:
            cost = self._memo[key] = self._area_cost(key)[0]
        return cost

    def _area_cost(self, p: tuple[float, ...]) -> tuple[float, list[tuple[tuple[int, int], ...]]]:
        b = self.balance
        best, chosen = math.inf, []
        for pairing in PAIRINGS:
            means = sorted(((p[i] + p[j]) / 2 for i, j in pairing), reverse=True)
            if b.areas == "rising":
                cost = sum(max(0.0, b.area_step - (means[a] - means[a + 1])) for a in range(2))
            else:
                mean = sum(means) / AREAS
                cost = sum(max(0.0, abs(m - mean) - b.area_tolerance) for m in means)
            cost = 0.0 if cost < 1e-9 else cost
            if cost < best - 1e-12:
                best, chosen = cost, [pairing]
            elif abs(cost - best) <= 1e-12:
                chosen.append(pairing)
        return best, chosen

    def sheet_cost(self, tasks: Sequence[int]) -> float:
        cost = 0.0
        if self.use["families"]:
            present = {self.family[t] for t in tasks}
            cost += sum(1 for f in self.balance.families if f not in present)
        if self.use["max_color_per_sheet"]:
            counts: dict[str, int] = {}
            for t in tasks:
                for c in self.colors[t]:
                    counts[c] = counts.get(c, 0) + 1
            k = self.balance.max_color_per_sheet
            cost += sum(max(0, n - k) for n in counts.values())
        if self.use["areas"]:
            cost += self.area_shortfall(tasks) / SCALE
        return cost

    def mean_cost(self, means: Sequence[float]) -> float:
        if not self.use["mean_tolerance"]:
            return 0.0
        block = sum(means) / len(means)
        tol = self.balance.mean_tolerance
        cost = sum(max(0.0, abs(m - block) - tol) for m in means) / SCALE
        return 0.0 if cost < 1e-7 else cost

    def run(self, rng: random.Random, iterations: int, deadline: float) -> list[list[int]] | None:
        """One attempt from a random start; the sheets if a block of cost 0 was found."""
        order = list(range(len(self.pool)))
        rng.shuffle(order)
        sheets = [order[s * TASKS_PER_SHEET : (s + 1) * TASKS_PER_SHEET] for s in range(self.pages)]
        unused = order[self.pages * TASKS_PER_SHEET :]
        sheet_costs = [self.sheet_cost(s) for s in sheets]
        sums = [sum(self.p[t] for t in s) for s in sheets]
        means = [x / TASKS_PER_SHEET for x in sums]
        total = sum(sheet_costs) + self.mean_cost(means)
        temperature = 0.3
        for step in range(iterations):
            if total == 0.0:
                return sheets
            if step % 256 == 0 and time.monotonic() > deadline:
                return None
            if self.pages == 1 and not unused:
                return None  # six tasks for one sheet: nothing to move
            s = rng.randrange(self.pages)
            i = rng.randrange(TASKS_PER_SHEET)
            if unused and (self.pages == 1 or rng.random() < 0.6):
                u = rng.randrange(len(unused))
                new = sheets[s][:]
                old_task, new[i] = new[i], unused[u]
                new_cost = self.sheet_cost(new)
                new_means = means[:]
                new_means[s] = (sums[s] - self.p[old_task] + self.p[new[i]]) / TASKS_PER_SHEET
                candidate = total - sheet_costs[s] + new_cost - self.mean_cost(means)
                candidate += self.mean_cost(new_means)
                if candidate <= total or rng.random() < math.exp((total - candidate) / temperature):
                    sheets[s], unused[u] = new, old_task
                    sheet_costs[s], means = new_cost, new_means
                    sums[s] = means[s] * TASKS_PER_SHEET
                    total = candidate
            else:
                t = rng.randrange(self.pages - 1)
                t += t >= s
                j = rng.randrange(TASKS_PER_SHEET)
                a, b = sheets[s][:], sheets[t][:]
                a[i], b[j] = b[j], a[i]
                cost_a, cost_b = self.sheet_cost(a), self.sheet_cost(b)
                new_means = means[:]
                new_means[s] = sum(self.p[x] for x in a) / TASKS_PER_SHEET
                new_means[t] = sum(self.p[x] for x in b) / TASKS_PER_SHEET
                candidate = total - sheet_costs[s] - sheet_costs[t] + cost_a + cost_b
                candidate += self.mean_cost(new_means) - self.mean_cost(means)
                if candidate <= total or rng.random() < math.exp((total - candidate) / temperature):
                    sheets[s], sheets[t] = a, b
                    sheet_costs[s], sheet_costs[t] = cost_a, cost_b
                    means = new_means
                    sums[s], sums[t] = means[s] * TASKS_PER_SHEET, means[t] * TASKS_PER_SHEET
                    total = candidate
            temperature = max(0.02, temperature * 0.999)
            if total < 1e-6:  # running sums drift: recompute before believing a zero
                sums = [sum(self.p[t] for t in x) for x in sheets]
                means = [x / TASKS_PER_SHEET for x in sums]
                total = sum(self.sheet_cost(x) for x in sheets) + self.mean_cost(means)
        return sheets if total == 0.0 else None


def _precheck(pool: Sequence[TaskFacts], balance: Balance, pages: int, n_all: int) -> None:
    """Refuse what no search can fix, naming the constraint."""
    need = pages * TASKS_PER_SHEET
    if len(pool) < need:
        raise balance.error(
            "p_min",
            f"p_min/p_max: {len(pool)} of {n_all} tasks have p_success in "
            f"[{balance.p_min:g}, {balance.p_max:g}], but {pages} sheets need {need} "
            "different tasks (no task twice in a block); widen the range or ask for fewer --pages",
        )
    for fam in balance.families:
        have = sum(1 for t in pool if t.family == fam)
        if have < pages:
            raise balance.error(
                "families",
                f"families: every sheet uses family '{fam}', but only {have} of its tasks have "
                f"p_success in [{balance.p_min:g}, {balance.p_max:g}] and {pages} sheets need "
                f"{pages} (no task twice); widen p_min/p_max, drop '{fam}' "
                "or ask for fewer --pages",
            )
    k = balance.max_color_per_sheet
    colorless = sum(1 for t in pool if not t.colors)
    named_families = [f for f in balance.families if all(t.colors for t in pool if t.family == f)]
    if k == 0 and (named_families or colorless < need):
        raise balance.error(
            "max_color_per_sheet",
            "max_color_per_sheet: 0 allows only tasks that name no colour, "
            f"{colorless} such tasks for {need} places"
            + (f" and none of family {', '.join(named_families)}" if named_families else ""),
        )
    if balance.areas == "rising":
        p = sorted(t.p_success for t in pool)
        widest = (p[-1] + p[-2]) / 2 - (p[0] + p[1]) / 2
        if widest < (AREAS - 1) * balance.area_step - 1e-9:
            raise balance.error(
                "area_step",
                f"area_step: three rising areas need a spread of {2 * balance.area_step:g} in "
                f"mean p_success, the tasks in range allow at most {widest:.3f}",
            )


def _arrange(
    search: _Search, sheets: list[list[int]], rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """Pair each sheet's tasks into areas (a random pairing among the valid ones) in order."""
    out = []
    for tasks in sheets:
        _, pairings = search.area_cost(tasks)
        pairing = rng.choice(pairings)
        areas = [[tasks[i], tasks[j]] for i, j in pairing]
        for area in areas:
            rng.shuffle(area)
        if search.balance.areas == "rising":
            areas.sort(key=lambda a: -(search.p[a[0]] + search.p[a[1]]))  # easiest first
        else:
            rng.shuffle(areas)
        out.append(tuple(search.pool[t].id for area in areas for t in area))
    return tuple(out)


def _attempts(
    search: _Search, seed: int, attempts: int, deadline: float
) -> tuple[list[list[int]] | None, int, random.Random]:
    rng = random.Random(seed)
    for attempt in range(1, attempts + 1):
        found = search.run(rng, ITERATIONS, deadline)
        if found is not None:
            return found, attempt, rng
        if time.monotonic() > deadline:
            break
    return None, attempts, rng


def sample_block(
    tasks: Sequence[TaskFacts], balance: Balance, pages: int, seed: int
) -> SampledBlock:
    """`pages` sheets of six different tasks meeting every constraint of `balance`.

    Deterministic for a seed (the time limit only ends a search that would fail).
    Raises `CatalogError` naming the binding constraint when no block is found.
    """
    if not 1 <= pages <= MAX_PAGES:
        raise OptionError("--pages", f"expected 1–{MAX_PAGES} sheets, found {pages}")
    pool = [t for t in tasks if balance.p_min - 1e-12 <= t.p_success <= balance.p_max + 1e-12]
    _precheck(pool, balance, pages, len(tasks))
    start = time.monotonic()
    search = _Search(pool, balance, pages, drop=None)
    main_deadline = start + balance.seconds
    found, used, rng = _attempts(search, seed, balance.attempts, main_deadline)
    if found is None:
        raise _infeasible(pool, balance, pages, seed, time.monotonic() - start)
    sheets = _arrange(search, found, rng)
    facts = {t.id: t for t in pool}
    broken = violations([[facts[i] for i in sheet] for sheet in sheets], balance)
    if broken:  # pragma: no cover - the search cost and the check disagree: a bug
        raise AssertionError(f"sampled block breaks {broken[0]}")
    return SampledBlock(sheets, used)


def _infeasible(
    pool: Sequence[TaskFacts], balance: Balance, pages: int, seed: int, spent: float
) -> CatalogError:
    """The error for a search that failed: which constraint binds, found by dropping each."""
    budget = max(0.2, balance.seconds * RELAX_SHARE)
    attempts = max(1, balance.attempts // 3)
    freed = []
    for constraint in SOFT:
        probe = _Search(pool, balance, pages, drop=constraint)
        found, _, _ = _attempts(probe, seed, attempts, time.monotonic() + budget)
        if found is not None:
            freed.append(constraint)
    key = {"areas": "area_step" if balance.areas == "rising" else "area_tolerance"}
    where = f"no block of {pages} sheets meets every constraint " + (
        f"(searched {balance.attempts} restarts / {spent:.1f} s)"
    )
    if len(freed) == 1:
        name = freed[0]
        return balance.error(
            key.get(name, name),
            f"{name}: {where}; without '{name}' a block is found, so it is the constraint "
            f"that binds ({_setting(name, balance)}) — loosen it or ask for fewer --pages",
        )
    if freed:
        names = ", ".join(freed)
        return balance.error(
            key.get(freed[0], freed[0]),
            f"{freed[0]}: {where}; dropping any one of {names} would let a block be found "
            f"({'; '.join(_setting(n, balance) for n in freed)}) — loosen one of them",
        )
    return balance.error(
        "p_min",
        f"{where}, and dropping any single constraint does not help: the constraints bind "
        "together; widen p_min/p_max, loosen several constraints or ask for fewer --pages",
    )


def _setting(name: str, balance: Balance) -> str:
    if name == "areas":
        if balance.areas == "rising":
            return f"areas: rising, area_step {balance.area_step:g}"
        return f"areas: flat, area_tolerance {balance.area_tolerance:g}"
    if name == "families":
        return f"families {', '.join(balance.families)}"
    return f"{name} {getattr(balance, name):g}"
