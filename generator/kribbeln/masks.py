"""Every Kribbeln task as a boolean mask over all rolls of the dice (6^6 for six dice).

A roll is a state of `DistinctDice([6] * n_dice)`: the face index (value − 1)
of every die, die 1 most significant. Each state gets its colour counts (how
many dice show each colour) and its pip sum once per dice set; every task type
is then a few numpy comparisons on the count array. The same code evaluates a
single roll (`fulfilled`), so a hand-written roll tests the masks themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from generator.kribbeln.dice import N_FACES, DiceSet
from generator.kribbeln.tasks import Task

BoolArray = npt.NDArray[np.bool_]
CountArray = npt.NDArray[np.int8]


@dataclass(frozen=True, eq=False)
class RollStates:
    """Colours, colour counts and pip sums of every roll of one dice set, in state order."""

    dice: DiceSet
    colors: CountArray  # (n_states, n_dice): colour index shown by each die
    counts: CountArray  # (n_states, n_colors): dice showing each colour
    by_color: CountArray  # (n_colors, n_states): the same counts, a colour a row
    pips: npt.NDArray[np.int64]  # (n_states,): pip sum of all dice

    @property
    def n_states(self) -> int:
        return len(self.pips)


@lru_cache(maxsize=8)
def roll_states(dice: DiceSet) -> RollStates:
    """The `RollStates` of a dice set (computed once per dice set and process)."""
    n = dice.n_dice
    faces = np.indices((N_FACES,) * n, dtype=np.int8).reshape(n, -1)  # (n_dice, n_states)
    face_colors = np.array([[dice.color_index(c) for c in die] for die in dice.faces], np.int8)
    by_die = face_colors[np.arange(n)[:, None], faces]  # (n_dice, n_states)
    colors = by_die.T
    by_color = _counts(by_die, len(dice.colors))
    counts = by_color.T
    pips = faces.sum(axis=0, dtype=np.int64) + n
    for a in (colors, by_color, pips):
        a.flags.writeable = False
    return RollStates(dice, np.ascontiguousarray(colors), counts, by_color, pips)


def _counts(by_die: npt.NDArray[np.int8], n_colors: int) -> CountArray:
    """(n_colors, n_states): how many dice show each colour, from each die's colours."""
    counts = np.zeros((n_colors, by_die.shape[1]), dtype=np.int8)
    for c in range(n_colors):
        counts[c] = (by_die == c).sum(axis=0, dtype=np.int8)
    return counts


def counts_mask(task: Task, by_color: CountArray, dice: DiceSet) -> BoolArray:
    """Which columns of a colour-count array (n_colors, …) fulfil the task.

    Colour first: a whole roll's table is a few rows, and comparing or adding rows is
    50–100× faster than reducing each state's short row of colours.
    """
    c = np.asarray(by_color)
    idx = [dice.color_index(x) for x in task.colors]
    k = task.count
    col = [c[i] for i in idx]
    match task.type:
        case "none_of":
            return np.logical_and.reduce([x == 0 for x in col])
        case "exactly":
            return col[0] == k
        case "one_and_none":
            return (col[0] == 1) & (col[1] == 0)
        case "some_color_exactly":
            return (c == k).any(axis=0)
        case "no_color_exactly":
            return ~(c == k).any(axis=0)
        case "two_colors_exactly":
            # at least two colours exactly k times: a third pair is allowed
            return (c == k).sum(axis=0, dtype=np.int8) >= 2
        case "distinct_colors":
            return (c > 0).sum(axis=0, dtype=np.int8) == k
        case "more_than":
            return col[0] > col[1]
        case "equal":
            return (col[0] == col[1]) & (col[0] >= (k or 0))
        case "all_different":
            pairs = [(i, j) for i in range(len(col)) for j in range(i + 1, len(col))]
            return np.logical_and.reduce([col[i] != col[j] for i, j in pairs])
        case "most":
            others = np.delete(c, idx[0], axis=0)
            return col[0] > others.max(axis=0)
    raise ValueError(f"unknown task type {task.type!r}")


def task_mask(task: Task, states: RollStates) -> BoolArray:
    """The rolls (n_states,) that fulfil the task."""
    return counts_mask(task, states.by_color, states.dice)


def roll_counts(dice: DiceSet, values: Sequence[int]) -> CountArray:
    """The colour counts of one roll given as the value on die 1…n."""
    shown = dice.roll_colors(values)
    return np.array([shown.count(c) for c in dice.color_ids], dtype=np.int8)


def fulfilled(task: Task, dice: DiceSet, values: Sequence[int]) -> bool:
    """Whether one roll (the value on die 1…n) fulfils the task."""
    return bool(counts_mask(task, roll_counts(dice, values), dice))
