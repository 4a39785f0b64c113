"""Full Kribbeln games, simulated with the rules of docs/rules.md §1, vectorised over games.

Every player plays every row with an optimal policy from the solver (the same
for every seat: it does not look at the other players' results):

- a task turn (up to three rolls) is played for the goal chosen: `pips`
  (default) maximises the expected score, the pip sum if the task is fulfilled
  and 0 otherwise; `success` maximises the probability of fulfilling it and
  stops as soon as it is;
- the Kribbeln decision rule: a player whose task fails after the third roll
  writes the failed roll's pips into the area's Kribbeln field whenever that is
  allowed — the field is still empty and the value is higher than the player's
  previous Kribbeln value (the first is free) — and at once plays the task
  again; a second failure is an X;
- a Kribbeln row is rolled by every player whose field of that area is still
  empty (and by everybody for the fourth row): only the pip sum counts, played
  for sum × [sum > previous Kribbeln value] (`pips`) or for P(sum > previous)
  (`success`); a value that is not higher is an X (the project's decision);
- every row is scored with rank points (ties: the lowest tied place; X = 0);
  the highest total wins, a tie goes to the higher fourth Kribbeln field.

All games of a sheet run at once as numpy arrays (one row per game and seat);
game g plays sheet g mod pages. One seed gives the same figures every time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from generator.core.store import Store, key_for
from generator.kribbeln.block import FINAL_AREA, MAX_PIPS, N_ROWS, ROWS, Sheet
from generator.kribbeln.dice import N_FACES, DiceSet
from generator.kribbeln.masks import roll_states, task_mask
from generator.kribbeln.solver import (
    CACHE_NAMESPACE,
    POLICY_VERSION,
    SOLVER_VERSION,
    TaskFigures,
    policy_for,
    row_policy,
    task_policy,
)
from generator.kribbeln.tasks import DEFAULT_ROLLS, Task

GOALS = ("pips", "success")
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_GAMES = 1_000_000
_DIGITS = 6
AREA_KRIBBELN_ROW = {r.area: r.number for r in ROWS if r.kind == "kribbeln"}

UInt8Array = npt.NDArray[np.uint8]
IntArray = npt.NDArray[np.int64]
HoldsOf = Callable[[int, IntArray], UInt8Array]


@dataclass(frozen=True)
class Tables:
    """Everything a game needs, precomputed per dice set: masks, pips, hold tables."""

    radix: IntArray  # state index = faces @ radix (die 1 most significant)
    pips: IntArray  # (n_states,) pip sum of every roll
    task_holds: dict[str, UInt8Array]  # task id -> (rolls − 1, n_states) keep masks
    task_masks: dict[str, npt.NDArray[np.bool_]]  # task id -> (n_states,) fulfilled
    row_holds: UInt8Array  # (rolls − 1, MAX_PIPS + 1, n_states): by previous value, 0 = none
    rolls: int


def _row_score_holds(dice: DiceSet, previous: int, rolls: int, store: Store) -> UInt8Array:
    """Keep masks for a Kribbeln row played for sum × [sum > previous] (kept in `store`)."""
    n = dice.n_dice
    key = key_for("row_score_policy", SOLVER_VERSION, POLICY_VERSION, n, previous, rolls)

    def compute() -> dict[str, np.ndarray]:
        pips = roll_states(dice).pips.astype(np.float64)
        policy = policy_for(n, pips * (pips > previous), rolls)
        return {"holds": np.stack(policy.holds)}

    def valid(arrays: dict[str, np.ndarray]) -> bool:
        holds = arrays["holds"]
        shape = (rolls - 1, roll_states(dice).n_states)
        return holds.shape == shape and holds.dtype.kind in "iu" and int(holds.max(initial=0)) < 64

    return store.arrays(CACHE_NAMESPACE, key, compute, valid)["holds"].astype(np.uint8)


def build_tables(
    dice: DiceSet, tasks: Sequence[Task], goal: str, rolls: int, *, store: Store
) -> Tables:
    """Masks and optimal hold tables for the tasks and every Kribbeln-row situation."""
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {GOALS}, got {goal!r}")
    states = roll_states(dice)
    n = dice.n_dice
    radix = (N_FACES ** np.arange(n - 1, -1, -1)).astype(np.int64)
    task_holds, masks = {}, {}
    for task in tasks:
        if task.id in task_holds:
            continue
        policy = task_policy(
            dice, task, "pips" if goal == "pips" else "success", rolls, store=store
        )
        task_holds[task.id] = np.stack(policy.holds)
        masks[task.id] = task_mask(task, states)
    row = np.full((rolls - 1, MAX_PIPS + 1, states.n_states), 2**n - 1, dtype=np.uint8)
    row[:, 0] = np.stack(row_policy(dice, None, rolls, store=store).holds)  # first Kribbeln
    for previous in range(n, N_FACES * n):  # below n always beaten, from 6n never
        if goal == "pips":
            row[:, previous] = _row_score_holds(dice, previous, rolls, store)
        else:
            row[:, previous] = np.stack(row_policy(dice, previous, rolls, store=store).holds)
    return Tables(radix, states.pips.astype(np.int64), task_holds, masks, row, rolls)


def play_turn(rng: np.random.Generator, n: int, holds_of: HoldsOf, tables: Tables) -> IntArray:
    """n turns at once: roll all dice, keep what the policy keeps, re-roll the rest."""
    n_dice = len(tables.radix)
    bits = np.arange(n_dice, dtype=np.uint8)
    faces = rng.integers(0, N_FACES, size=(n, n_dice), dtype=np.int8)
    for left in range(tables.rolls - 1, 0, -1):
        keep = holds_of(left, faces @ tables.radix)
        reroll = ((keep[:, None] >> bits) & 1) == 0
        fresh = rng.integers(0, N_FACES, size=(n, n_dice), dtype=np.int8)
        faces = np.where(reroll, fresh, faces)
    return faces @ tables.radix


@dataclass
class SheetRun:
    """What the games of one sheet produced (arrays over games × seats)."""

    sheet: Sheet
    values: npt.NDArray[np.int16]  # (games, players, rows), 0 = X
    first_fail: npt.NDArray[np.bool_]  # (games, players, tasks): the first attempt failed
    kribbeln_used: npt.NDArray[np.bool_]  # (games, players, tasks): the field was used here
    row_rolled: npt.NDArray[np.bool_]  # (games, players, kribbeln rows): rolled in the row


def play_sheet(
    rng: np.random.Generator, sheet: Sheet, games: int, players: int, tables: Tables
) -> SheetRun:
    """`games` full games of one sheet, every seat playing by the same policy."""
    n = games * players
    values = np.zeros((n, N_ROWS), dtype=np.int16)
    first_fail = np.zeros((n, len(sheet.tasks)), dtype=bool)
    used_at = np.zeros((n, len(sheet.tasks)), dtype=bool)
    rolled = np.zeros((n, 4), dtype=bool)
    previous = np.zeros(n, dtype=np.int64)  # last Kribbeln value written, 0 = none yet
    area_used = np.zeros(n, dtype=bool)
    kribbeln_index = 0
    for row in ROWS:
        if row.kind == "task":
            assert row.task is not None
            task = sheet.tasks[row.task]
            holds, mask = tables.task_holds[task.id], tables.task_masks[task.id]

            def by_task(left: int, state: IntArray, holds: UInt8Array = holds) -> UInt8Array:
                return holds[left - 1, state]

            state = play_turn(rng, n, by_task, tables)
            ok = mask[state]
            pips = tables.pips[state]
            fail = ~ok
            first_fail[:, row.task] = fail
            use = fail & ~area_used & (pips > previous)
            used_at[:, row.task] = use
            area_used |= use
            values[use, AREA_KRIBBELN_ROW[row.area] - 1] = pips[use]
            previous = np.where(use, pips, previous)
            again = np.flatnonzero(use)
            if again.size:
                state2 = play_turn(rng, again.size, by_task, tables)
                ok2 = mask[state2]
                ok[again] = ok2
                pips[again] = tables.pips[state2]
            values[:, row.number - 1] = np.where(ok, pips, 0)
        else:
            roll = ~area_used if row.area != FINAL_AREA else np.ones(n, dtype=bool)
            who = np.flatnonzero(roll)
            rolled[:, kribbeln_index] = roll
            kribbeln_index += 1
            if who.size:
                prev = previous[who]

                def by_row(left: int, state: IntArray, prev: IntArray = prev) -> UInt8Array:
                    return tables.row_holds[left - 1, prev, state]

                pips = tables.pips[play_turn(rng, who.size, by_row, tables)]
                higher = pips > prev
                values[who, row.number - 1] = np.where(higher, pips, 0)
                previous[who] = np.where(higher, pips, prev)
            area_used[:] = False
    shape = (games, players)
    return SheetRun(
        sheet,
        values.reshape(*shape, N_ROWS),
        first_fail.reshape(*shape, -1),
        used_at.reshape(*shape, -1),
        rolled.reshape(*shape, -1),
    )


def rank_points(values: npt.NDArray[np.int16]) -> npt.NDArray[np.int64]:
    """Rank points (games, players, rows): N for the best, ties the lowest tied place, X 0."""
    n = values.shape[1]
    v = values.astype(np.int64)
    at_least = ((v[:, None, :, :] >= v[:, :, None, :]) & (v[:, None, :, :] > 0)).sum(axis=2)
    return np.where(v > 0, n + 1 - at_least, 0)


def outcome(values: npt.NDArray[np.int16]) -> dict[str, np.ndarray]:
    """Totals, winners and tie flags of every game (games, players, rows)."""
    totals = rank_points(values).sum(axis=2)
    top = totals == totals.max(axis=1, keepdims=True)
    tie = top.sum(axis=1) > 1
    fourth = np.where(top, values[:, :, -1].astype(np.int64), -1)  # X = 0 is below any sum
    winners = top & (fourth == fourth.max(axis=1, keepdims=True))
    return {
        "totals": totals,
        "winners": winners,
        "tie": tie,
        "tiebreak": tie & (winners.sum(axis=1) == 1),
        "shared": winners.sum(axis=1) > 1,
    }


TASK_COLS = [r.number - 1 for r in ROWS if r.kind == "task"]
KRIBBELN_COLS = [r.number - 1 for r in ROWS if r.kind == "kribbeln"]
CHUNK_GAMES = 20_000  # games played at once: bounds memory whatever --games is


class SheetStats:
    """Sums over every game of one sheet, added chunk by chunk (memory stays bounded)."""

    def __init__(self, sheet: Sheet, players: int) -> None:
        self.sheet = sheet
        self.players = players
        self.games = 0
        n_tasks, n_kribbeln = len(TASK_COLS), len(KRIBBELN_COLS)
        self.first_fail = np.zeros(n_tasks)
        self.x = np.zeros(n_tasks)
        self.kribbeln_used = np.zeros(n_tasks)
        self.pips_sum = np.zeros(n_tasks)
        self.any_kribbeln = 0.0
        self.task_pips = 0.0
        self.row_rolled = np.zeros(n_kribbeln)
        self.row_x = np.zeros(n_kribbeln)
        self.row_sum = np.zeros(n_kribbeln)
        self.seat_points = np.zeros(players)
        self.seat_wins = np.zeros(players)
        self.totals = self.winning = 0.0
        self.ties = self.tiebreaks = self.shared = 0

    def add(self, run: SheetRun) -> None:
        v = run.values.astype(np.int64)
        out = outcome(run.values)
        self.games += v.shape[0]
        tasks, kribbeln = v[:, :, TASK_COLS], v[:, :, KRIBBELN_COLS]
        self.first_fail += run.first_fail.sum(axis=(0, 1))
        self.x += (tasks == 0).sum(axis=(0, 1))
        self.kribbeln_used += run.kribbeln_used.sum(axis=(0, 1))
        self.pips_sum += tasks.sum(axis=(0, 1))
        self.any_kribbeln += float(run.kribbeln_used.any(axis=2).sum())
        self.task_pips += float(tasks.sum())
        self.row_rolled += run.row_rolled.sum(axis=(0, 1))
        self.row_x += (kribbeln == 0).sum(axis=(0, 1))
        self.row_sum += kribbeln.sum(axis=(0, 1))
        totals, won = out["totals"], out["winners"]
        self.seat_points += totals.sum(axis=0)
        self.seat_wins += (won / won.sum(axis=1, keepdims=True)).sum(axis=0)
        self.totals += float(totals.sum())
        self.winning += float(totals.max(axis=1).sum())
        self.ties += int(out["tie"].sum())
        self.tiebreaks += int(out["tiebreak"].sum())
        self.shared += int(out["shared"].sum())


def simulate(
    dice: DiceSet,
    sheets: Sequence[Sheet],
    players: int,
    games: int,
    seed: int,
    goal: str = "pips",
    rolls: int = DEFAULT_ROLLS,
    figures: dict[str, TaskFigures] | None = None,
    tick: Callable[[int], None] | None = None,
    *,
    store: Store,
) -> Simulation:
    """Play `games` games (game g on sheet g mod pages) and report the figures.

    `tick(n)` is called after every n games (for a progress bar).
    """
    tables = build_tables(dice, [t for s in sheets for t in s.tasks], goal, rolls, store=store)
    rng = np.random.default_rng(seed)
    stats = []
    for i, sheet in enumerate(sheets):
        count = games // len(sheets) + (i < games % len(sheets))
        acc = SheetStats(sheet, players)
        while acc.games < count:
            n = min(CHUNK_GAMES, count - acc.games)
            acc.add(play_sheet(rng, sheet, n, players, tables))
            if tick is not None:
                tick(n)
        if acc.games:
            stats.append(acc)
    return report(stats, players, seed, goal, rolls, figures or {})


def _r(x: float) -> float:
    return round(float(x), _DIGITS)


def _mean(total: float, count: float) -> float | None:
    return _r(total / count) if count else None


@dataclass(frozen=True)
class SeatResult:
    """Points and wins of one seat, over every game."""

    seat: int
    mean_points: float
    win_share: float


@dataclass(frozen=True)
class TaskResult:
    """How one task row of one sheet played (rates per player-game)."""

    sheet: int
    row: int
    area: int
    id: str
    p_success: float | None  # the solver's, for comparison
    first_attempt_fail: float
    x_rate: float
    kribbeln_use: float
    mean_pips: float | None  # over the rows not crossed out


@dataclass(frozen=True)
class KribbelnRowResult:
    """How one Kribbeln row of one sheet played."""

    sheet: int
    row: int
    area: int
    filled_from_task: float
    x_rate: float
    mean_value: float | None


@dataclass(frozen=True)
class SheetResult:
    """The figures of every game played on one sheet."""

    sheet: int
    games: int
    mean_p_success: float | None
    first_attempt_fail: float
    task_x_rate: float
    kribbeln_use: float
    mean_task_pips: float
    mean_total: float
    mean_winning_total: float
    tie_rate: float
    tiebreak_decides: float
    seat_spread: float


@dataclass(frozen=True)
class Simulation:
    """The figures of a simulation: per seat, per task, per Kribbeln row, per sheet.

    A value: `to_json()` gives the JSON of `kribbeln simulate --json` (made at the edge).
    """

    players: int
    games: int
    seed: int
    goal: str
    rolls: int
    kribbeln_rule: str
    seats: tuple[SeatResult, ...]
    tie_rate: float
    tiebreak_decides: float
    shared_wins: float
    sheet_x_rate_spread: float
    sheets: tuple[SheetResult, ...]
    tasks: tuple[TaskResult, ...]
    kribbeln_rows: tuple[KribbelnRowResult, ...]
    sheets_from: str = ""  # where the sheets came from (a file, a block's seed)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def report(
    stats: Sequence[SheetStats],
    players: int,
    seed: int,
    goal: str,
    rolls: int,
    figures: dict[str, TaskFigures],
) -> Simulation:
    """The figures of a simulation: per seat, per task, per Kribbeln row, per sheet."""
    tasks, kribbeln_rows, sheets = [], [], []
    task_rows = [r for r in ROWS if r.kind == "task"]
    kribbeln_specs = [r for r in ROWS if r.kind == "kribbeln"]
    for st in stats:
        n = st.games * players  # player-games
        for k, row in enumerate(task_rows):
            task = st.sheet.tasks[k]
            fig = figures.get(task.id)
            tasks.append(
                TaskResult(
                    sheet=st.sheet.number,
                    row=row.number,
                    area=row.area,
                    id=task.id,
                    p_success=None if fig is None else _r(fig.p_success),
                    first_attempt_fail=_r(st.first_fail[k] / n),
                    x_rate=_r(st.x[k] / n),
                    kribbeln_use=_r(st.kribbeln_used[k] / n),
                    mean_pips=_mean(st.pips_sum[k], n - st.x[k]),
                )
            )
        for k, row in enumerate(kribbeln_specs):
            kribbeln_rows.append(
                KribbelnRowResult(
                    sheet=st.sheet.number,
                    row=row.number,
                    area=row.area,
                    filled_from_task=_r(1 - st.row_rolled[k] / n),
                    x_rate=_r(st.row_x[k] / n),
                    mean_value=_mean(st.row_sum[k], n - st.row_x[k]),
                )
            )
        p = [figures[t.id].p_success for t in st.sheet.tasks if t.id in figures]
        per_seat = st.seat_points / st.games
        sheets.append(
            SheetResult(
                sheet=st.sheet.number,
                games=st.games,
                mean_p_success=_r(float(np.mean(p))) if p else None,
                first_attempt_fail=_r(st.first_fail.sum() / (n * len(task_rows))),
                task_x_rate=_r(st.x.sum() / (n * len(task_rows))),
                kribbeln_use=_r(st.any_kribbeln / n),
                mean_task_pips=_r(st.task_pips / n),
                mean_total=_r(st.totals / n),
                mean_winning_total=_r(st.winning / st.games),
                tie_rate=_r(st.ties / st.games),
                tiebreak_decides=_r(st.tiebreaks / st.games),
                seat_spread=_r(per_seat.max() - per_seat.min()),
            )
        )
    played = sum(st.games for st in stats)
    seat_points = sum((st.seat_points for st in stats), np.zeros(players))
    seat_wins = sum((st.seat_wins for st in stats), np.zeros(players))
    x_rates = [s.task_x_rate for s in sheets]
    return Simulation(
        players=players,
        games=played,
        seed=seed,
        goal=goal,
        rolls=rolls,
        kribbeln_rule="use the area's field after a failed task whenever allowed",
        seats=tuple(
            SeatResult(i + 1, _r(seat_points[i] / played), _r(seat_wins[i] / played))
            for i in range(players)
        ),
        tie_rate=_r(sum(st.ties for st in stats) / played),
        tiebreak_decides=_r(sum(st.tiebreaks for st in stats) / played),
        shared_wins=_r(sum(st.shared for st in stats) / played),
        sheet_x_rate_spread=_r(max(x_rates) - min(x_rates)) if x_rates else 0.0,
        sheets=tuple(sheets),
        tasks=tuple(tasks),
        kribbeln_rows=tuple(kribbeln_rows),
    )
