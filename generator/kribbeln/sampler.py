"""Seeded balanced sampling of a Kribbeln block: `pages` sheets of six tasks each.

A block is found by a local search over which tasks go on which sheet: the
cost of a block is how far it is from meeting each constraint (missing
families, colours named too often, area order, sheet means and per-area means
away from the block's); moves swap a task for an unused one, exchange tasks
between sheets or swap two tasks of different areas on one sheet — a sheet is
kept in row order, so its pairing into areas is part of what the search
chooses. Only a block of cost 0 — checked once more by `balance.violations`
— is ever returned.

The search is bounded by a count, never by a clock: at most `attempts` restarts
(from the balance file) of `MOVES` moves each, so a seed gives the same block on
any machine under any load. When no block is found within that many restarts,
the search is rerun with one constraint dropped at a time: the constraint whose
removal lets a block be found is named as the one that binds.
Impossible requests that need no search (too few tasks in the p range, a family
too small for the pages) are refused before searching. Either way the result
is a `CatalogError` pointing at the balance file's key (exit status 2).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from generator.core.errors import CatalogError, InputError, Msg
from generator.kribbeln.balance import (
    AREAS,
    TASKS_PER_SHEET,
    Balance,
    TaskFacts,
    violations,
)

MAX_PAGES = 100
MOVES = 4000  # moves per attempt (restart); a default block is found in 1–3 attempts
RELAX_SHARE = 3  # each "drop one constraint" probe makes a third of the attempts
SCALE = 0.01  # p_success distances are counted in hundredths against the whole-number terms
SOFT = ("mean_tolerance", "area_mean_tolerance", "areas", "max_color_per_sheet", "families")


@dataclass(frozen=True)
class SampledBlock:
    """The sheets of a block: task ids in row order (area 1 task 1, area 1 task 2, area 2 …)."""

    sheets: tuple[tuple[str, ...], ...]
    attempts: int  # search attempts used (1 = the first restart found it)


class _Search:
    """Local search state and cost terms over indices into the pool.

    A sheet is six pool indices in row order: positions 0–1 are area 1, 2–3 area 2,
    4–5 area 3, so the pairing into areas is part of the state (moves may swap two
    tasks of one sheet) and the per-area means the block terms look at are exact.
    """

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

    def areas_of(self, tasks: Sequence[int]) -> list[float]:
        """The mean p_success of each area of a sheet."""
        p = self.p
        return [(p[tasks[2 * a]] + p[tasks[2 * a + 1]]) / 2 for a in range(AREAS)]

    def area_shortfall(self, means: Sequence[float]) -> float:
        """How far a sheet's area means (in row order) are from the area-order constraint."""
        b = self.balance
        if b.areas == "rising":
            cost = sum(max(0.0, b.area_step - (means[a] - means[a + 1])) for a in range(AREAS - 1))
        else:
            mean = sum(means) / AREAS
            cost = sum(max(0.0, abs(m - mean) - b.area_tolerance) for m in means)
        return 0.0 if cost < 1e-9 else cost

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
            cost += self.area_shortfall(self.areas_of(tasks)) / SCALE
        return cost

    def block_cost(self, areas: Sequence[Sequence[float]]) -> float:
        """The block-wide terms: sheet means and per-area means away from the block's."""
        cost = 0.0
        n = len(areas)
        if self.use["mean_tolerance"]:
            means = [sum(a) / AREAS for a in areas]
            block = sum(means) / n
            tol = self.balance.mean_tolerance
            cost += sum(max(0.0, abs(m - block) - tol) for m in means)
        if self.use["area_mean_tolerance"]:
            tol = self.balance.area_mean_tolerance
            for a in range(AREAS):
                block = sum(x[a] for x in areas) / n
                cost += sum(max(0.0, abs(x[a] - block) - tol) for x in areas)
        cost /= SCALE
        return 0.0 if cost < 1e-7 else cost

    def run(self, rng: random.Random, moves: int) -> list[list[int]] | None:
        """One attempt from a random start; the sheets if a block of cost 0 was found."""
        order = list(range(len(self.pool)))
        rng.shuffle(order)
        sheets = [order[s * TASKS_PER_SHEET : (s + 1) * TASKS_PER_SHEET] for s in range(self.pages)]
        unused = order[self.pages * TASKS_PER_SHEET :]
        sheet_costs = [self.sheet_cost(s) for s in sheets]
        areas = [self.areas_of(s) for s in sheets]
        total = sum(sheet_costs) + self.block_cost(areas)
        temperature = 0.3
        for _ in range(moves):
            if total == 0.0:
                return sheets
            s = rng.randrange(self.pages)
            i = rng.randrange(TASKS_PER_SHEET)
            move = rng.random()
            freed = None  # the replace move: (index into unused, the task it frees)
            if unused and (move < 0.5 or (self.pages == 1 and move < 0.7)):
                # put an unused task in place of one on a sheet
                u = rng.randrange(len(unused))
                new = sheets[s][:]
                freed, new[i] = (u, new[i]), unused[u]
                changed = {s: new}
            elif self.pages > 1 and move < 0.85:
                # exchange two tasks between sheets
                t = rng.randrange(self.pages - 1)
                t += t >= s
                j = rng.randrange(TASKS_PER_SHEET)
                a, b = sheets[s][:], sheets[t][:]
                a[i], b[j] = b[j], a[i]
                changed = {s: a, t: b}
            else:
                # swap two tasks of different areas on one sheet (another pairing or order)
                j = rng.randrange(TASKS_PER_SHEET - 2)
                j += 2 if j >= i - i % 2 else 0
                new = sheets[s][:]
                new[i], new[j] = new[j], new[i]
                changed = {s: new}
            new_costs = sheet_costs[:]
            new_areas = areas[:]
            for x, tasks in changed.items():
                new_costs[x] = self.sheet_cost(tasks)
                new_areas[x] = self.areas_of(tasks)
            new_block = self.block_cost(new_areas)
            candidate = sum(new_costs) + new_block
            if candidate <= total or rng.random() < math.exp((total - candidate) / temperature):
                if freed is not None:
                    unused[freed[0]] = freed[1]
                for x, tasks in changed.items():
                    sheets[x] = tasks
                sheet_costs, areas, total = new_costs, new_areas, candidate
            temperature = max(0.02, temperature * 0.999)
        return sheets if total == 0.0 else None


def _precheck(pool: Sequence[TaskFacts], balance: Balance, pages: int, n_all: int) -> None:
    """Refuse what no search can fix, naming the constraint."""
    need = pages * TASKS_PER_SHEET
    if len(pool) < need:
        raise balance.error(
            "p_min",
            Msg(
                "p_min_p_max",
                n_pool=len(pool),
                n_all=n_all,
                p_min=f"{balance.p_min:g}",
                p_max=f"{balance.p_max:g}",
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


def _arrange(
    search: _Search, sheets: list[list[int]], rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """The sheets as task ids in row order; the two tasks of an area in a random order.

    The search fixed which tasks share an area and the order of the areas (the
    area-order and per-area constraints look at both), so only the order inside an
    area is left to chance.
    """
    out = []
    for tasks in sheets:
        areas = [tasks[2 * a : 2 * a + 2] for a in range(AREAS)]
        for area in areas:
            rng.shuffle(area)
        out.append(tuple(search.pool[t].id for area in areas for t in area))
    return tuple(out)


def _attempts(
    search: _Search, seed: int, attempts: int
) -> tuple[list[list[int]] | None, int, random.Random]:
    rng = random.Random(seed)
    for attempt in range(1, attempts + 1):
        found = search.run(rng, MOVES)
        if found is not None:
            return found, attempt, rng
    return None, attempts, rng


def sample_block(
    tasks: Sequence[TaskFacts], balance: Balance, pages: int, seed: int
) -> SampledBlock:
    """`pages` sheets of six different tasks meeting every constraint of `balance`.

    Deterministic for a seed: the search is bounded by its count of attempts alone.
    Raises `CatalogError` naming the binding constraint when no block is found.
    """
    if not 1 <= pages <= MAX_PAGES:
        raise InputError("pages", Msg("range", low=1, high=MAX_PAGES, noun="sheets", found=pages))
    pool = [t for t in tasks if balance.p_min - 1e-12 <= t.p_success <= balance.p_max + 1e-12]
    _precheck(pool, balance, pages, len(tasks))
    search = _Search(pool, balance, pages, drop=None)
    found, used, rng = _attempts(search, seed, balance.attempts)
    if found is None:
        raise _infeasible(pool, balance, pages, seed)
    sheets = _arrange(search, found, rng)
    facts = {t.id: t for t in pool}
    broken = violations([[facts[i] for i in sheet] for sheet in sheets], balance)
    if broken:  # pragma: no cover - the search cost and the check disagree: a bug
        raise AssertionError(f"sampled block breaks {broken[0]}")
    return SampledBlock(sheets, used)


def _infeasible(pool: Sequence[TaskFacts], balance: Balance, pages: int, seed: int) -> CatalogError:
    """The error for a search that failed: which constraint binds, found by dropping each."""
    attempts = max(1, balance.attempts // RELAX_SHARE)
    freed = []
    for constraint in SOFT:
        probe = _Search(pool, balance, pages, drop=constraint)
        found, _, _ = _attempts(probe, seed, attempts)
        if found is not None:
            freed.append(constraint)
    key = {"areas": "area_step" if balance.areas == "rising" else "area_tolerance"}
    where = Msg("no_block_meets", pages=pages, attempts=balance.attempts, moves=MOVES)
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
