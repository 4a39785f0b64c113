"""The Kribbeln solver against independent brute forces, closed forms and a Monte Carlo
of its own policy; the cache's keys and its recovery from corrupted entries."""

from __future__ import annotations

import math
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, pairwise, product
from pathlib import Path

import numpy as np
import pytest

from generator.core.rollhold import single_roll_probability, start_value
from generator.core.store import NO_STORE
from generator.io.cache import DISK
from generator.kribbeln import solver
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.load import load_dice, load_tasks
from generator.kribbeln.masks import roll_states, task_mask
from generator.kribbeln.solver import (
    analyze_tasks,
    compute_figures,
    dice_space,
    hold_options,
    row_figures,
    row_policy,
    task_policy,
    task_terminal,
)
from generator.kribbeln.tasks import Task

T = Task
TASKS = [
    T("none_red", "none_of", "exact", ("red",)),
    T("none_red_blue", "none_of", "exact", ("red", "blue")),
    T("exactly2_green", "exactly", "exact", ("green",), 2),
    T("one_red_none_blue", "one_and_none", "exact", ("red", "blue")),
    T("some_color_3", "some_color_exactly", "free", (), 3),
    T("no_color_2", "no_color_exactly", "free", (), 2),
    T("two_pairs", "two_colors_exactly", "free", (), 2),
    T("distinct_3", "distinct_colors", "free", (), 3),
    T("more_red_than_blue", "more_than", "comparison", ("red", "blue")),
    T("equal_red_blue", "equal", "comparison", ("red", "blue"), 1),
    T("different_rbg", "all_different", "comparison", ("red", "blue", "green")),
    T("most_yellow", "most", "comparison", ("yellow",)),
]


@pytest.fixture(scope="module")
def dice() -> DiceSet:
    return load_dice()[0]


def holds(task: Task, colors: tuple[str, ...], palette: tuple[str, ...]) -> bool:
    """The task on one roll's colours, written out again from docs/rules.md (not from masks)."""
    n = Counter(colors)
    a, b = (*task.colors, None, None)[:2]
    k = task.count
    match task.type:
        case "none_of":
            return not any(n[x] for x in task.colors)
        case "exactly":
            return n[a] == k
        case "one_and_none":
            return n[a] == 1 and n[b] == 0
        case "some_color_exactly":
            return k in [n[x] for x in palette]
        case "no_color_exactly":
            return k not in [n[x] for x in palette]
        case "two_colors_exactly":
            return [n[x] for x in palette].count(k) >= 2
        case "distinct_colors":
            return len(n) == k
        case "more_than":
            return n[a] > n[b]
        case "equal":
            return n[a] == n[b] and n[a] >= k
        case "all_different":
            counts = [n[x] for x in task.colors]
            return len(set(counts)) == len(counts)
        case "most":
            return all(n[a] > n[x] for x in palette if x != a)
    raise AssertionError(task.type)


def test_every_catalog_mask_is_the_task_written_out(dice: DiceSet) -> None:
    """The masks (colour-count rows compared whole) against `holds`, roll by roll."""
    catalog = load_tasks(dice)
    states = roll_states(dice)
    sample = np.random.default_rng(3).choice(states.n_states, 400, replace=False)
    space = dice_space()
    rolls = [tuple(f + 1 for f in space.state(int(i))) for i in sample]
    shown = [dice.roll_colors(values) for values in rolls]
    for task in catalog.tasks:
        mask = task_mask(task, states)
        assert mask.shape == (states.n_states,), task.id
        expected = [holds(task, colors, dice.color_ids) for colors in shown]
        assert list(mask[sample]) == expected, task.id


# --- brute force 1: p_success over colour multisets, all three rolls -------------------


def multiset_p_success(task: Task, palette: tuple[str, ...], n_dice: int, rolls: int) -> float:
    """Optimal success probability by explicit recursion over colour multisets.

    A different formulation from the solver's: every die shows each colour on one
    face, so a roll is n independent uniform colours and only the multiset
    matters. A hold is a sub-multiset; the re-rolled dice give a multiset with
    its multinomial probability.
    """
    m = len(palette)

    def outcomes(size: int) -> list[tuple[tuple[str, ...], float]]:
        result = []
        for o in combinations_with_replacement(palette, size):
            ways = math.factorial(size)
            for c in Counter(o).values():
                ways //= math.factorial(c)
            result.append((o, ways / m**size))
        return result

    rerolls = [outcomes(s) for s in range(n_dice + 1)]

    @cache
    def value(state: tuple[str, ...], r: int) -> float:
        best = float(holds(task, state, palette))
        if r == 1:
            return best
        counts = sorted(Counter(state).items())
        for taken in product(*(range(c + 1) for _, c in counts)):
            keep = tuple(x for (x, _), t in zip(counts, taken) for _ in range(t))
            best = max(best, expect(keep, r - 1))
        return best

    @cache
    def expect(keep: tuple[str, ...], r: int) -> float:
        return math.fsum(
            p * value(tuple(sorted(keep + o)), r) for o, p in rerolls[n_dice - len(keep)]
        )

    return expect((), rolls)


def test_p_success_matches_the_multiset_brute_force(dice: DiceSet) -> None:
    figures = compute_figures(dice, TASKS, 3)
    for task, fig in zip(TASKS, figures):
        expected = multiset_p_success(task, dice.color_ids, 6, 3)
        assert abs(fig.p_success - expected) <= 1e-12, task.id


# --- brute force 2: both goals on a reduced instance (4 of the dice), all three rolls ----------


def ordered_brute_force(dice: DiceSet, goal, rolls: int) -> float:
    """The turn value by explicit recursion over ordered faces, every hold, every re-roll.

    A hold is the tuple of faces with None for a re-rolled die; its expectation
    (the mean over every outcome of the re-rolled dice) is memoised.
    """
    n = dice.n_dice
    faces = range(1, 7)

    @cache
    def value(state: tuple[int, ...], r: int) -> float:
        best = goal(state)
        if r == 1:
            return best
        for mask in range(2**n - 1):  # every proper subset of dice to hold
            keep = tuple(v if mask >> i & 1 else None for i, v in enumerate(state))
            best = max(best, expect(keep, r - 1))
        return best

    @cache
    def expect(keep: tuple[int | None, ...], r: int) -> float:
        free = [i for i in range(n) if keep[i] is None]
        total = []
        for outcome in product(faces, repeat=len(free)):
            new = list(keep)
            for i, v in zip(free, outcome):
                new[i] = v
            total.append(value(tuple(new), r))
        return math.fsum(total) / 6 ** len(free)

    return expect((None,) * n, rolls)


@pytest.fixture(scope="module")
def four_dice(dice: DiceSet) -> DiceSet:
    return DiceSet(dice.colors, dice.faces[:4])


@pytest.mark.parametrize("task", [TASKS[i] for i in (2, 6, 9, 11)], ids=lambda t: t.id)
def test_both_goals_match_the_ordered_brute_force_on_four_dice(four_dice, task: Task) -> None:
    palette = four_dice.color_ids

    def success(values: tuple[int, ...]) -> float:
        return float(holds(task, four_dice.roll_colors(values), palette))

    def pips(values: tuple[int, ...]) -> float:
        return sum(values) * success(values)

    (fig,) = compute_figures(four_dice, [task], 3)
    assert abs(fig.p_success - ordered_brute_force(four_dice, success, 3)) <= 1e-12
    assert abs(fig.expected_pips - ordered_brute_force(four_dice, pips, 3)) <= 1e-10


# --- brute force 3: the real six dice, one re-roll left, from given rolls -------------------


def test_hold_values_match_explicit_enumeration_on_six_dice(dice: DiceSet) -> None:
    """With one re-roll left, every hold's value is the mean over all its re-roll outcomes."""
    palette = dice.color_ids
    task = TASKS[9]  # equal red blue
    success = {
        values: holds(task, dice.roll_colors(values), palette)
        for values in product(range(1, 7), repeat=6)
    }
    for goal, roll in [("success", (3, 5, 1, 6, 2, 2)), ("pips", (6, 2, 4, 3, 5, 1))]:
        options = hold_options(dice, task, roll, rolls_left=1, goal=goal)
        assert len(options) == 64
        for option in options:
            free = [i for i in range(6) if i not in option.held]
            total = 0
            for outcome in product(range(1, 7), repeat=len(free)):
                new = list(roll)
                for i, v in zip(free, outcome):
                    new[i] = v
                new = tuple(new)
                total += success[new] * (sum(new) if goal == "pips" else 1)
            assert abs(option.value - total / 6 ** len(free)) <= 1e-9, (roll, option)
        values = [o.value for o in options]
        assert all(a >= b - 1e-12 for a, b in pairwise(values))


# --- closed forms -----------------------------------------------------------------------------


def test_single_roll_without_red_is_five_sixths_to_the_sixth(dice: DiceSet) -> None:
    none_red = TASKS[0]
    mask = task_mask(none_red, roll_states(dice))
    assert mask.sum() == 5**6
    assert abs(single_roll_probability(dice_space(), mask) - (5 / 6) ** 6) <= 1e-14
    (one_roll,) = compute_figures(dice, [none_red], 1)
    assert abs(one_roll.p_success - (5 / 6) ** 6) <= 1e-14
    # three rolls: keep the dice that are not red, so each die fails only if red three times
    (three,) = compute_figures(dice, [none_red], 3)
    assert abs(three.p_success - (1 - 1 / 216) ** 6) <= 1e-12


def test_kribbeln_row_closed_forms(dice: DiceSet) -> None:
    row = row_figures(dice, 3, store=NO_STORE)
    # the dice are independent: a die kept at 5 or 6 with two rolls left, at 4–6 with one,
    # is worth 14/3, so six dice 28
    assert abs(row.expected_max - 28) <= 1e-9
    assert row.p_beat(5) == 1.0 and row.p_beat(-1) == 1.0
    assert abs(row.p_beat(35) - (1 - (5 / 6) ** 3) ** 6) <= 1e-12  # six sixes: keep every 6
    assert row.p_beat(36) == 0.0 and row.p_beat(99) == 0.0
    assert all(a >= b for a, b in zip(row.p_above, row.p_above[1:]))
    one = row_figures(dice, 1, store=NO_STORE)
    assert abs(one.expected_max - 21) <= 1e-12
    assert abs(one.p_beat(35) - 6**-6) <= 1e-14


# --- Monte Carlo of the optimal policy ----------------------------------------------------------


def play(dice: DiceSet, policy, rng: np.random.Generator, games: int) -> np.ndarray:
    """Final rolls (games × 6 values) when every game follows the policy."""
    values = rng.integers(1, 7, size=(games, 6))
    stopped = np.zeros(games, dtype=bool)
    weights = 6 ** np.arange(5, -1, -1)
    for r in range(policy.rolls - 1, 0, -1):
        state = (values - 1) @ weights
        mask = policy.holds[r - 1][state].astype(np.int64)
        held = (mask[:, None] >> np.arange(6)) & 1 == 1
        stopped |= held.all(axis=1)
        reroll = ~held & ~stopped[:, None]
        values = np.where(reroll, rng.integers(1, 7, size=values.shape), values)
    return values


@pytest.mark.parametrize("task", [TASKS[3], TASKS[11]], ids=lambda t: t.id)
def test_monte_carlo_of_the_policy_agrees_with_the_solver(dice: DiceSet, task: Task) -> None:
    rng = np.random.default_rng(20160)
    games = 20_000
    palette = dice.color_ids
    memo: dict[tuple[int, ...], bool] = {}

    def ok(values: tuple[int, ...]) -> bool:
        if values not in memo:
            memo[values] = holds(task, dice.roll_colors(values), palette)
        return memo[values]

    (fig,) = compute_figures(dice, [task], 3)
    final = play(dice, task_policy(dice, task, "success", store=DISK), rng, games)
    hits = np.array([ok(tuple(int(v) for v in row)) for row in final])
    p = fig.p_success
    assert abs(hits.mean() - p) <= 4 * math.sqrt(p * (1 - p) / games)

    final = play(dice, task_policy(dice, task, "pips", store=DISK), rng, games)
    score = np.array([sum(row) * ok(tuple(int(v) for v in row)) for row in final], dtype=float)
    assert abs(score.mean() - fig.expected_pips) <= 4 * score.std() / math.sqrt(games)
    # playing for pips never succeeds more often than playing for success
    assert (score > 0).mean() <= p + 4 * math.sqrt(p * (1 - p) / games)


def test_row_policy_plays_for_the_highest_sum(dice: DiceSet) -> None:
    rng = np.random.default_rng(7)
    final = play(dice, row_policy(dice, store=DISK), rng, 20_000)
    sums = final.sum(axis=1)
    assert abs(sums.mean() - 28) <= 4 * sums.std() / math.sqrt(len(sums))
    beat = play(dice, row_policy(dice, previous=30, store=DISK), rng, 20_000).sum(axis=1) > 30
    p = row_figures(dice, store=DISK).p_beat(30)
    assert abs(beat.mean() - p) <= 4 * math.sqrt(p * (1 - p) / len(beat))


def test_policy_agrees_with_the_best_hold(dice: DiceSet) -> None:
    task = TASKS[10]
    policy = task_policy(dice, task, "success", store=DISK)
    for roll in [(3, 5, 1, 6, 2, 2), (1, 2, 3, 4, 5, 6), (6, 6, 6, 1, 1, 1)]:
        for left in (1, 2):
            best = hold_options(dice, task, roll, left)[0]
            assert policy.hold(roll, left) == best.held


# --- structure: symmetry, layouts, batching -----------------------------------------------------


def test_colour_renaming_shares_p_success_but_not_expected_pips(dice: DiceSet) -> None:
    """Solved alone, tasks that differ only in their colours have the same p_success."""
    home = DiceSet(dice.colors, (dice.faces[0], dice.faces[0], *dice.faces[2:]))  # not Latin
    pairs = [
        (T("a", "most", "comparison", ("red",)), T("b", "most", "comparison", ("black",))),
        (T("a", "more_than", "comparison", ("red", "blue")),
         T("b", "more_than", "comparison", ("green", "orange"))),
    ]  # fmt: skip
    for d in (dice, home):
        for x, y in pairs:
            (fx,), (fy,) = compute_figures(d, [x], 3), compute_figures(d, [y], 3)
            assert abs(fx.p_success - fy.p_success) <= 1e-12
            batched = compute_figures(d, [x, y], 3)
            assert batched[0].p_success == batched[1].p_success  # solved once
            assert abs(batched[0].p_success - fx.p_success) <= 1e-12
            assert abs(batched[1].expected_pips - fy.expected_pips) <= 1e-9
    # the layout changes the pips: on the home-made dice red comes with the same value twice
    x = pairs[0][0]
    assert abs(compute_figures(dice, [x], 3)[0].expected_pips
               - compute_figures(home, [x], 3)[0].expected_pips) > 1e-3  # fmt: skip


def test_batched_catalog_matches_tasks_solved_alone(dice: DiceSet) -> None:
    """The batch shares p_success between renamed tasks: the last task of every shared
    group, solved on its own, must get the same figures."""
    catalog = load_tasks(dice)
    batched = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    last = {(t.type, t.count, len(t.colors)): t for t in catalog.tasks}
    assert len(last) >= 15
    for task in last.values():
        (alone,) = compute_figures(dice, [task], catalog.rolls)
        assert abs(batched[task.id].p_success - alone.p_success) <= 1e-12, task.id
        assert abs(batched[task.id].expected_pips - alone.expected_pips) <= 1e-9, task.id


def test_catalog_figures_are_those_of_the_plain_kernels_bit_for_bit(dice: DiceSet) -> None:
    """`start_value` on the six dice takes the fast layout; the plain kernels, chunk by chunk
    as the solver batches its rows, must give the same numbers, not only close ones."""
    catalog = load_tasks(dice)
    pips = roll_states(dice).pips
    goals = np.array([task_mask(t, roll_states(dice)) * pips for t in catalog.tasks[:11]], float)
    space = dice_space()
    plain = []
    for lo in range(0, len(goals), solver._CHUNK):  # as the solver batches, the last one short
        v = goals[lo : lo + solver._CHUNK].T
        for _ in range(catalog.rolls - 1):
            v = space._best(space._expect(v))
        plain.extend(space.probabilities @ v)
    fast = start_value(space, goals, catalog.rolls, chunk=solver._CHUNK)
    assert np.array_equal(fast, plain)


def test_terminal_values(dice: DiceSet) -> None:
    states = roll_states(dice)
    success = task_terminal(dice, TASKS[0], "success")
    pips = task_terminal(dice, TASKS[0], "pips")
    assert set(np.unique(success)) <= {0.0, 1.0}
    assert np.array_equal(pips, success * states.pips)
    with pytest.raises(ValueError):
        task_terminal(dice, TASKS[0], "points")


def test_shipped_catalog_figures_are_sane(dice: DiceSet) -> None:
    catalog = load_tasks(dice)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    for task in catalog.tasks:
        fig = figures[task.id]
        assert 0.3 < fig.p_success < 1.0, task.id
        # the score is at most 36 and 0 on failure
        assert fig.expected_pips <= 36 * fig.p_success + 1e-9
        assert fig.expected_pips > 6 * fig.p_success * 0.5


def test_stopping_on_a_fulfilled_roll_is_the_best_option(dice: DiceSet) -> None:
    task = TASKS[0]  # no red
    good = (2, 1, 1, 1, 1, 1)
    assert "red" not in dice.roll_colors(good)
    options = hold_options(dice, task, good, rolls_left=2, goal="success")
    assert options[0].stop and options[0].held == (0, 1, 2, 3, 4, 5)
    assert options[0].value == 1.0
    assert [o.stop for o in hold_options(dice, task, good, rolls_left=0)] == [True]


# --- the cache ------------------------------------------------------------------------------------


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DICESHEETS_CACHE", str(folder))
    return folder


def test_figures_are_kept_task_by_task_in_one_table_and_survive_a_damaged_one(
    dice: DiceSet, own_cache: Path, monkeypatch
) -> None:
    tasks = TASKS[:3]
    calls = []
    real = solver.compute_figures

    def counting(d, ts, rolls):
        calls.append([t.id for t in ts])
        return real(d, ts, rolls)

    monkeypatch.setattr(solver, "compute_figures", counting)
    first = analyze_tasks(dice, tasks[:2], store=DISK)
    (table,) = (own_cache / solver.CACHE_NAMESPACE).glob("*.json")
    # a batch with one more task solves only that one and adds it to the same table
    both = analyze_tasks(dice, tasks, store=DISK)
    assert calls == [[t.id for t in tasks[:2]], [tasks[2].id]]
    assert {k: both[k] for k in first} == first
    assert sorted((own_cache / solver.CACHE_NAMESPACE).glob("*.json")) == [table]
    calls.clear()
    assert analyze_tasks(dice, tasks[1:], store=DISK) == {t.id: both[t.id] for t in tasks[1:]}
    assert calls == []  # warm: nothing solved, whichever batch solved a task

    for damage in (b"\x00garbage{", b'{"p_success": "x"}'):
        table.write_bytes(damage)
        calls.clear()
        again = analyze_tasks(dice, tasks, store=DISK)
        assert calls == [[t.id for t in tasks]]
        for t in tasks:  # (solved in another batch: the last bits may differ)
            assert again[t.id].p_success == pytest.approx(both[t.id].p_success, abs=1e-12)
            assert again[t.id].expected_pips == pytest.approx(both[t.id].expected_pips, abs=1e-9)
        assert analyze_tasks(dice, tasks, store=DISK) == again  # repaired
        assert len(calls) == 1


def test_cache_keys_depend_on_dice_task_and_rules(dice: DiceSet) -> None:
    task = TASKS[0]
    home = DiceSet(dice.colors, (dice.faces[1], dice.faces[0], *dice.faces[2:]))
    other = T("other_id", "none_of", "comparison", ("red",))  # same task, other id and family
    tables = {solver._table_key(dice, 3), solver._table_key(home, 3), solver._table_key(dice, 2)}
    assert len(tables) == 3
    assert solver._task_key(task) != solver._task_key(TASKS[1])
    assert solver._task_key(other) == solver._task_key(task)


def test_corrupted_policy_entry_is_recomputed(dice: DiceSet, own_cache: Path) -> None:
    task = TASKS[5]
    first = task_policy(dice, task, store=DISK)
    (entry,) = (own_cache / solver.CACHE_NAMESPACE).glob("*.npz")
    entry.write_bytes(b"not a zip file")
    again = task_policy(dice, task, store=DISK)
    assert all(np.array_equal(a, b) for a, b in zip(first.holds, again.holds))
    np.savez(entry, start=np.array(0.5), hold1=np.zeros(3, dtype=np.uint8))  # wrong shape
    third = task_policy(dice, task, store=DISK)
    assert all(np.array_equal(a, b) for a, b in zip(first.holds, third.holds))
