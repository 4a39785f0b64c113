"""What `dicesheets kribbeln simulate` does (no click): play the sheets, format the figures.

The sheets come from a pages file (`--pages`), from a block's manifest
(`--block`), or — with neither — from the block `dicesheets kribbeln block
--seed S` would print with the same files; the edge reads them
(`generator.kribbeln.load.playtest`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from generator.core.errors import InputError
from generator.core.store import Store
from generator.kribbeln.block import Sheet
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.solver import analyze_tasks

if TYPE_CHECKING:
    from generator.kribbeln.simulate import Simulation

DEFAULT_PAGES = 6


def check_game_options(players: int, games: int, goal: str = "pips") -> None:
    """InputError unless players, games and goal are ones the simulation can play."""
    from generator.kribbeln.simulate import GOALS, MAX_GAMES, MAX_PLAYERS, MIN_PLAYERS

    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(
            "players",
            f"expected {MIN_PLAYERS}–{MAX_PLAYERS} players (2–5 in the real game), found {players}",
        )
    if not 1 <= games <= MAX_GAMES:
        raise InputError("games", f"expected 1–{MAX_GAMES:,} games, found {games}")
    if goal not in GOALS:
        raise InputError("goal", f"expected one of {', '.join(GOALS)}, found '{goal}'")


def play(
    dice: DiceSet,
    sheets: Sequence[Sheet],
    rolls: int,
    players: int,
    games: int,
    seed: int,
    goal: str,
    source: str,
    tick: Callable[[int], None] | None = None,
    *,
    store: Store,
) -> Simulation:
    """Play `games` games on exactly `sheets`; the figures, with `sheets_from` = `source`.

    `tick(n)` is called after every n games (for a progress bar).
    """
    from generator.kribbeln.simulate import simulate

    check_game_options(players, games, goal)
    figures = analyze_tasks(dice, [t for s in sheets for t in s.tasks], rolls, store=store)
    result = simulate(dice, sheets, players, games, seed, goal, rolls, figures, tick, store=store)
    return dataclasses.replace(result, sheets_from=source)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    cells = [[str(x) for x in header], *[[str(x) for x in r] for r in rows]]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    return ["  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip() for row in cells]


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def format_result(r: Simulation) -> str:
    """Plain-text tables of a simulation."""
    goal = {"pips": "the expected pips", "success": "the probability of success"}[r.goal]
    lines = [
        f"{r.games} games, {r.players} players, seed {r.seed}, sheets: {r.sheets_from}",
        f"tasks and Kribbeln rows played for {goal} ({r.rolls} rolls); "
        f"Kribbeln rule: {r.kribbeln_rule}",
        "",
    ]
    lines += _table(
        ("seat", "mean points", "wins"),
        [(s.seat, _num(s.mean_points), _pct(s.win_share)) for s in r.seats],
    )
    lines += [
        "",
        f"top total tied: {_pct(r.tie_rate)} of games; the fourth Kribbeln field decides "
        f"{_pct(r.tiebreak_decides)}; still level (shared win): {_pct(r.shared_wins)}",
        "",
        "per sheet (1st fail: first attempts failed; X: task rows crossed out):",
    ]
    lines += _table(
        ("sheet", "games", "mean p", "1st fail", "X", "Kribbeln used", "task pips",
         "mean total", "winner", "ties", "seat spread"),
        [
            (s.sheet, s.games, _pct(s.mean_p_success), _pct(s.first_attempt_fail),
             _pct(s.task_x_rate), _pct(s.kribbeln_use), _num(s.mean_task_pips, 1),
             _num(s.mean_total), _num(s.mean_winning_total), _pct(s.tie_rate),
             _num(s.seat_spread))
            for s in r.sheets
        ],
    )  # fmt: skip
    lines += [
        f"spread of the task X rate between sheets: {_pct(r.sheet_x_rate_spread)}",
        "",
        "per task (1 − p: the solver's first-attempt failure rate when playing for success):",
    ]
    lines += _table(
        ("sheet", "row", "task", "1 − p", "1st fail", "X", "Kribbeln", "mean pips"),
        [
            (t.sheet, t.row, t.id,
             _pct(None if t.p_success is None else 1 - t.p_success),
             _pct(t.first_attempt_fail), _pct(t.x_rate), _pct(t.kribbeln_use),
             _num(t.mean_pips, 1))
            for t in r.tasks
        ],
    )  # fmt: skip
    lines += ["", "Kribbeln rows:"]
    lines += _table(
        ("sheet", "row", "filled from a task", "X", "mean value"),
        [
            (k.sheet, k.row, _pct(k.filled_from_task), _pct(k.x_rate),
             _num(k.mean_value, 1))
            for k in r.kribbeln_rows
        ],
    )  # fmt: skip
    return "\n".join(lines)
