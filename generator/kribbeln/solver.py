"""Exact optimal play of Kribbeln tasks and Kribbeln rows on the shared roll-and-hold solver.

A turn is up to `rolls` rolls of the six dice (`DistinctDice([6] * 6)`: die 1…6
each showing a value, its colour fixed by the dice set), keeping any dice and
stopping at will (`generator.core.rollhold`). Two goals per task:

- `p_success`: the probability of fulfilling the task, playing to maximise it;
- `expected_pips`: the expected score, playing to maximise it, where the score
  is the pip sum of all dice if the task is fulfilled and 0 otherwise.

Kribbeln rows have no task: `row_figures` gives the expected pip sum playing for
the highest sum, and for every previous value k the probability of ending
above k when playing for exactly that.

p_success does not depend on the layout of the dice: every die shows each of
the six colours on one face, so the colours of a roll are independent and
uniform whatever the layout, and renaming the colours maps a task onto another
task with the same probability. Tasks that differ only in which colours they
name are solved once for p_success (`_symmetry_key`); expected_pips depends
on which values carry which colour and is solved per task.

Figures are cached on disk (`generator.io.cache`) task by task, in one table per
dice faces, rules and `SOLVER_VERSION`, keyed by the task's type and parameters.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.core.rollhold import DistinctDice, best_keeps, policy, solve, start_value
from generator.core.store import Store, key_for
from generator.kribbeln.dice import N_FACES, DiceSet
from generator.kribbeln.masks import roll_states, task_mask
from generator.kribbeln.tasks import DEFAULT_ROLLS, Task

# Bump when a change alters any cached figure (masks, goals, solver).
SOLVER_VERSION = 1
# Bump when the stored policies change (2: rollhold's tie rule, lexicographic holds).
POLICY_VERSION = 2
CACHE_NAMESPACE = "kribbeln"
GOALS = ("success", "pips")
# Rows per solver chunk: the turn values are summed a chunk at a time, so the stored figures
# round by it (keep it); the steps themselves run on two chunks at once (rollhold).
_CHUNK = 8
_GOALS_AT_ONCE = 2 * _CHUNK  # goals made at once (whole chunks: the same values)

FloatArray = npt.NDArray[np.float64]
PackedMask = npt.NDArray[np.uint8]  # a task's mask, 8 rolls a byte (`np.packbits`)


@lru_cache(maxsize=4)
def dice_space(n_dice: int = 6) -> DistinctDice:
    """The roll-and-hold space of `n_dice` distinguishable six-sided dice."""
    return DistinctDice([N_FACES] * n_dice)


@dataclass(frozen=True)
class TaskFigures:
    """A task's difficulty under optimal play."""

    p_success: float
    expected_pips: float


@dataclass(frozen=True)
class RowFigures:
    """A Kribbeln row (no task): the pip sum under optimal play."""

    expected_max: float  # expected pip sum, playing for the highest sum
    p_above: tuple[float, ...]  # p_above[k]: P(sum > k) playing for that, k = 0 … 6·n_dice

    def p_beat(self, previous: int) -> float:
        """P(ending strictly above the previous Kribbeln value), playing for it."""
        if previous < 0:
            return 1.0
        if previous >= len(self.p_above):
            return 0.0
        return self.p_above[previous]


@dataclass(frozen=True)
class HoldOption:
    """One way to go on from a roll: the dice kept (0-based) and the value of keeping them."""

    held: tuple[int, ...]
    value: float
    stop: bool  # all dice kept: stop and score this roll


def task_terminal(dice: DiceSet, task: Task, goal: str = "success") -> FloatArray:
    """The value of ending a turn on every roll: 1/0 (success) or pips if fulfilled (pips)."""
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, got {goal!r}")
    states = roll_states(dice)
    mask = task_mask(task, states)
    return np.asarray(mask * (states.pips if goal == "pips" else 1.0), dtype=np.float64)


def _table_key(dice: DiceSet, rolls: int) -> str:
    """The cache entry holding the figures of every task solved on these dice and rules."""
    return key_for("tasks", SOLVER_VERSION, dice.fingerprint(), {"rolls": rolls})


def _task_key(task: Task) -> str:
    """A task's place in the table: what its figures depend on besides dice and rules."""
    return key_for(task.key())


def _color_symmetric(dice: DiceSet) -> bool:
    """Every die shows every colour once: colour renaming keeps probabilities."""
    every = set(dice.color_ids)
    return all(set(die) == every and len(die) == len(every) for die in dice.faces)


def _symmetry_key(task: Task) -> tuple[Any, ...]:
    """Tasks with the same key have the same p_success on colour-symmetric dice.

    Colours within a task are all different (the loader checks), so any two
    tasks of one type and count naming the same number of colours map onto
    each other by renaming colours.
    """
    return (task.type, task.count, len(task.colors))


def compute_figures(dice: DiceSet, tasks: Sequence[Task], rolls: int) -> list[TaskFigures]:
    """p_success and expected_pips of every task, computed now (no cache)."""
    if not tasks:
        return []
    states = roll_states(dice)
    space = dice_space(dice.n_dice)
    masks = [np.packbits(task_mask(t, states)) for t in tasks]  # a bit a roll, 8× less memory

    symmetric = _color_symmetric(dice)
    p_rows: dict[Any, int] = {}
    pip_rows: dict[bytes, int] = {}
    p_of, pips_of = [], []
    for t, m in zip(tasks, masks):
        key = _symmetry_key(t) if symmetric else m.tobytes()
        p_of.append(p_rows.setdefault(key, len(p_rows)))
        pips_of.append(pip_rows.setdefault(m.tobytes(), len(pip_rows)))
    p_masks: list[Any] = [None] * len(p_rows)
    pip_masks: list[Any] = [None] * len(pip_rows)
    for m, i, j in zip(masks, p_of, pips_of):
        p_masks[i] = m
        pip_masks[j] = m

    p = _turn_values(space, p_masks, None, rolls)
    pips = _turn_values(space, pip_masks, states.pips.astype(np.float64), rolls)
    return [TaskFigures(float(p[i]), float(pips[j])) for i, j in zip(p_of, pips_of)]


def _turn_values(
    space: DistinctDice, masks: Sequence[PackedMask], pips: FloatArray | None, rolls: int
) -> list[float]:
    """`start_value` of every goal (a packed mask, × the pips if given), a few chunks at once.

    The chunks are those `start_value` cuts the whole batch into (a multiple of `_CHUNK`
    goals at a time), so the values are the same bit for bit; only a few chunks' goals
    are made at once (all 158 tasks' would be 59 MB, and fresh memory is slow to come by:
    writing 59 MB of it took 0.1 s on the 2-core test machine).
    """
    values: list[float] = []
    for lo in range(0, len(masks), _GOALS_AT_ONCE):
        bits = np.unpackbits(
            np.array(masks[lo : lo + _GOALS_AT_ONCE]), axis=1, count=space.n_states
        )
        goals = bits.astype(np.float64)
        if pips is not None:
            goals *= pips
        values.extend(start_value(space, goals, rolls, chunk=_CHUNK).tolist())
    return values


class _Missing(Exception):
    """A cache lookup found nothing (raised instead of computing)."""


def _raise_missing() -> Any:
    raise _Missing


def _is_number(x: Any, low: float, high: float) -> bool:
    return type(x) in (int, float) and low <= x <= high


def _valid_table(entry: Any) -> bool:
    return isinstance(entry, dict) and all(
        isinstance(figures, list)
        and len(figures) == 2
        and _is_number(figures[0], 0, 1)
        and _is_number(figures[1], 0, 36)
        for figures in entry.values()
    )


_TABLE_LIMIT = 4096  # tasks one table keeps (a catalog has 158)


def analyze_tasks(
    dice: DiceSet, tasks: Sequence[Task], rolls: int = DEFAULT_ROLLS, *, store: Store
) -> dict[str, TaskFigures]:
    """p_success and expected_pips of every task by id, from `store` where possible.

    Tasks not in the store are solved together in one batch and added to it. The
    figures of all tasks on the same dice and rules are one entry (the catalog's 158 tasks
    as as many files took 50 ms to write, a fifth of solving them); a task found there is
    never solved again, whichever batch it was solved in.
    """
    table_key, keys = _table_key(dice, rolls), [_task_key(t) for t in tasks]
    try:
        table = store.json(CACHE_NAMESPACE, table_key, _raise_missing, _valid_table)
    except _Missing:
        table = {}  # missing or malformed: solved and written below
    todo = [i for i, key in enumerate(keys) if key not in table]
    if todo:
        computed = compute_figures(dice, [tasks[i] for i in todo], rolls)
        fresh = {keys[i]: [fig.p_success, fig.expected_pips] for i, fig in zip(todo, computed)}
        merged = {**table, **fresh}
        if len(merged) > _TABLE_LIMIT:  # a full table starts afresh with this batch's tasks
            merged = {key: merged[key] for key in keys}

        def holds_all(entry: Any) -> bool:  # the entry found lacks tasks: it is replaced
            return _valid_table(entry) and all(key in entry for key in keys)

        table = store.json(CACHE_NAMESPACE, table_key, functools.partial(dict, merged), holds_all)
    return {
        t.id: TaskFigures(float(table[key][0]), float(table[key][1])) for t, key in zip(tasks, keys)
    }


def row_figures(dice: DiceSet, rolls: int = DEFAULT_ROLLS, *, store: Store) -> RowFigures:
    """Expected best pip sum and P(sum > k) for every k, for a Kribbeln row.

    Only the values 1–6 of every die matter, not the colours.
    """
    n = dice.n_dice

    def compute() -> dict[str, Any]:
        pips = roll_states(dice).pips.astype(np.float64)
        ks = range(n, N_FACES * n)  # below n always beaten, from 6n never
        goals = np.array([pips, *[(pips > k).astype(np.float64) for k in ks]])
        values = start_value(dice_space(n), goals, rolls, chunk=_CHUNK)
        p_above = [1.0] * n + [float(v) for v in values[1:]] + [0.0]
        return {"expected_max": float(values[0]), "p_above": p_above}

    def valid(data: Any) -> bool:
        p_above = data["p_above"]
        return (
            set(data) == {"expected_max", "p_above"}
            and _is_number(data["expected_max"], n, N_FACES * n)
            and isinstance(p_above, list)
            and len(p_above) == N_FACES * n + 1
            and all(_is_number(p, 0, 1) for p in p_above)
        )

    key = key_for("row", SOLVER_VERSION, n, {"rolls": rolls})
    data = store.json(CACHE_NAMESPACE, key, compute, valid)
    return RowFigures(float(data["expected_max"]), tuple(float(p) for p in data["p_above"]))


def hold_options(
    dice: DiceSet,
    task: Task,
    values: Sequence[int],
    rolls_left: int,
    goal: str = "success",
    rolls: int = DEFAULT_ROLLS,
) -> list[HoldOption]:
    """Every choice of dice to keep from a roll (value on die 1…n), best first, with its value.

    `rolls_left` is the number of re-rolls still allowed (0 … rolls − 1). The
    value is the probability of success (goal "success") or the expected
    score (goal "pips") when playing on optimally; keeping all dice is
    stopping and is worth the roll itself.
    """
    dice.roll_colors(values)  # validates
    if not 0 <= rolls_left < rolls:
        raise ValueError(f"rolls_left must be in 0..{rolls - 1}, got {rolls_left}")
    space = dice_space(dice.n_dice)
    result = solve(space, task_terminal(dice, task, goal), rolls_left + 1)
    state = tuple(v - 1 for v in values)
    return [
        HoldOption(held, value, len(held) == dice.n_dice)
        for held, value in best_keeps(space, result, state, rolls_left)
    ]


@dataclass(frozen=True, eq=False)
class Policy:
    """An optimal policy: which dice to keep from every roll with r re-rolls left.

    `holds[r - 1][state]` is a bit mask of the dice to keep (bit i = die i,
    0-based) with r re-rolls left; all bits set means stop. `start` is the
    value of the turn before its first roll. States are `dice_space` indices.
    """

    rolls: int
    holds: tuple[npt.NDArray[np.uint8], ...]
    start: float

    def hold(self, values: Sequence[int], rolls_left: int) -> tuple[int, ...]:
        """The dice (0-based) to keep from a roll given as the value on die 1…n."""
        if not 1 <= rolls_left < self.rolls:
            raise ValueError(f"rolls_left must be in 1..{self.rolls - 1}, got {rolls_left}")
        state = dice_space(len(values)).index(tuple(v - 1 for v in values))
        mask = int(self.holds[rolls_left - 1][state])
        return tuple(i for i in range(len(values)) if mask >> i & 1)


@lru_cache(maxsize=2)
def _hold_masks(n_dice: int) -> npt.NDArray[np.uint8]:
    """The hold bit mask of every column of the space's option table (tie order)."""
    held = dice_space(n_dice).option_table[1][0]
    return np.array([sum(1 << i for i in dice) for dice in held], dtype=np.uint8)


def policy_for(n_dice: int, terminal: npt.ArrayLike, rolls: int) -> Policy:
    """The optimal policy for terminal values (n_states,) with up to `rolls` rolls.

    The choices are `rollhold.Policy`'s, so ties follow the one rule of `best_keeps`.
    """
    plan = policy(dice_space(n_dice), terminal, rolls, chunk=_CHUNK)
    masks = _hold_masks(n_dice)
    holds = tuple(masks[plan.choices(r)] for r in range(1, rolls))
    return Policy(rolls, holds, float(plan.result.start_value()))


def task_policy(
    dice: DiceSet, task: Task, goal: str = "success", rolls: int = DEFAULT_ROLLS, *, store: Store
) -> Policy:
    """The optimal policy for a task (kept in `store`)."""
    key = key_for(
        "policy", SOLVER_VERSION, POLICY_VERSION, dice.fingerprint(), task.key(), goal, rolls
    )
    return _cached_policy(key, dice.n_dice, lambda: task_terminal(dice, task, goal), rolls, store)


def row_policy(
    dice: DiceSet, previous: int | None = None, rolls: int = DEFAULT_ROLLS, *, store: Store
) -> Policy:
    """The optimal policy for a Kribbeln row: the highest sum, or beating `previous` (kept)."""
    n = dice.n_dice
    key = key_for("row_policy", SOLVER_VERSION, POLICY_VERSION, n, previous, rolls)

    def terminal() -> FloatArray:
        pips = roll_states(dice).pips.astype(np.float64)
        return pips if previous is None else (pips > previous).astype(np.float64)

    return _cached_policy(key, n, terminal, rolls, store)


def _cached_policy(key: str, n_dice: int, terminal: Any, rolls: int, store: Store) -> Policy:
    def compute() -> dict[str, np.ndarray]:
        p = policy_for(n_dice, terminal(), rolls)
        return {"start": np.array(p.start), **{f"hold{r}": h for r, h in enumerate(p.holds, 1)}}

    def valid(data: dict[str, np.ndarray]) -> bool:
        n_states = dice_space(n_dice).n_states
        holds = [data[f"hold{r}"] for r in range(1, rolls)]
        return (
            set(data) == {"start", *(f"hold{r}" for r in range(1, rolls))}
            and data["start"].shape == ()
            and bool(np.isfinite(data["start"]))
            and all(h.shape == (n_states,) and h.dtype.kind in "iu" for h in holds)
            and all(int(h.max(initial=0)) < 2**n_dice for h in holds)
        )

    data = store.arrays(CACHE_NAMESPACE, key, compute, valid)
    holds = tuple(np.asarray(data[f"hold{r}"], dtype=np.uint8) for r in range(1, rolls))
    return Policy(rolls, holds, float(data["start"]))
