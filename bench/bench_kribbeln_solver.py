"""Kribbeln task solver: the whole shipped catalog from a cold and a warm cache, and the
solver against a plain Python brute force.

The brute force (explicit enumeration of every hold and every re-roll outcome,
keep expectations memoised, dicts of states) needs about half a minute per
goal on the real six dice, so the ratio is measured on a reduced instance in
the same run: the first four of the shipped dice, every eighth catalog task,
both goals; the figures of both are checked to agree.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from itertools import product

from bench.bench_rollhold import _plain_distinct
from bench.common import line, median_time
from generator.io.cache import DISK
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.load import load_dice, load_tasks
from generator.kribbeln.masks import roll_states
from generator.kribbeln.solver import analyze_tasks, compute_figures
from generator.kribbeln.tasks import Task

AIM_SECONDS = 3.0
REDUCED_DICE = 4
EVERY = 8


def _cold(dice: DiceSet, tasks: tuple[Task, ...], rolls: int) -> None:
    """One analysis from an empty cache folder and no per-process state."""
    old = os.environ.get("DICESHEETS_CACHE")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DICESHEETS_CACHE"] = folder
        roll_states.cache_clear()
        try:
            analyze_tasks(dice, tasks, rolls, store=DISK)
        finally:
            if old is None:
                os.environ.pop("DICESHEETS_CACHE", None)
            else:
                os.environ["DICESHEETS_CACHE"] = old


def _holds(task: Task, colors: tuple[str, ...], palette: tuple[str, ...]) -> bool:
    """The task on one roll, in plain Python (as the tests write it)."""
    n = Counter(colors)
    a, b = (*task.colors, None, None)[:2]
    k = task.count
    counts = [n[x] for x in palette]
    return {
        "none_of": lambda: not any(n[x] for x in task.colors),
        "exactly": lambda: n[a] == k,
        "one_and_none": lambda: n[a] == 1 and n[b] == 0,
        "some_color_exactly": lambda: k in counts,
        "no_color_exactly": lambda: k not in counts,
        "two_colors_exactly": lambda: counts.count(k) >= 2,
        "distinct_colors": lambda: len(n) == k,
        "more_than": lambda: n[a] > n[b],
        "equal": lambda: n[a] == n[b] and n[a] >= k,
        "all_different": lambda: len({n[x] for x in task.colors}) == len(task.colors),
        "most": lambda: all(n[a] > n[x] for x in palette if x != a),
    }[task.type]()


def _plain(n_dice: int, terminal: dict[tuple[int, ...], float], rolls: int) -> float:
    """The plain per-state DP of bench_rollhold, on values 1–6 instead of face indices."""
    by_face = {tuple(v - 1 for v in state): x for state, x in terminal.items()}
    return _plain_distinct([6] * n_dice, by_face, rolls)


def _brute_force(dice: DiceSet, tasks: list[Task], rolls: int) -> list[tuple[float, float]]:
    palette = dice.color_ids
    results = []
    for task in tasks:
        success = {
            s: float(_holds(task, dice.roll_colors(s), palette))
            for s in product(range(1, 7), repeat=dice.n_dice)
        }
        pips = {s: sum(s) * ok for s, ok in success.items()}
        results.append(tuple(_plain(dice.n_dice, goal, rolls) for goal in (success, pips)))
    return results


def main() -> None:
    dice, _ = load_dice()
    catalog = load_tasks(dice)
    tasks, rolls = catalog.tasks, catalog.rolls

    cold, _ = median_time(lambda: _cold(dice, tasks, rolls), repeat=3)
    line(
        f"kribbeln analyze shipped catalog ({len(tasks)} tasks, {rolls} rolls), cold cache",
        cold,
        f"{cold / len(tasks) * 1000:.2f} ms per task; aim ≤ {AIM_SECONDS:.0f} s: "
        + ("met" if cold <= AIM_SECONDS else "MISSED"),
    )
    with tempfile.TemporaryDirectory() as folder:
        old = os.environ.get("DICESHEETS_CACHE")
        os.environ["DICESHEETS_CACHE"] = folder
        try:
            analyze_tasks(dice, tasks, rolls, store=DISK)
            warm, _ = median_time(lambda: analyze_tasks(dice, tasks, rolls, store=DISK), repeat=5)
        finally:
            if old is None:
                os.environ.pop("DICESHEETS_CACHE", None)
            else:
                os.environ["DICESHEETS_CACHE"] = old
    line("kribbeln analyze shipped catalog, warm cache", warm, f"{warm / cold:.2%} of cold")

    reduced = DiceSet(dice.colors, dice.faces[:REDUCED_DICE])
    sample = list(tasks[::EVERY])
    fast, figures = median_time(lambda: compute_figures(reduced, sample, rolls), repeat=5)
    plain, expected = median_time(lambda: _brute_force(reduced, sample, rolls), repeat=1)
    for fig, (p, pips) in zip(figures, expected):
        assert abs(fig.p_success - p) <= 1e-12 and abs(fig.expected_pips - pips) <= 1e-9
    line(
        f"kribbeln solver, reduced instance ({REDUCED_DICE} dice, {len(sample)} tasks × 2 goals)",
        fast,
        f"{plain / fast:.0f}× faster than plain Python brute force {plain * 1000:.0f} ms "
        "(same instance, same figures)",
    )


if __name__ == "__main__":
    main()
