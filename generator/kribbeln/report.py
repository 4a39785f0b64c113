"""What `dicesheets kribbeln analyze|hold|row` report: the data (for --json) and plain tables.

No click here: each function takes the option values, loads the files, asks
the solver and returns JSON-ready data plus the dice file's warnings.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from generator.errors import InputError
from generator.io.catalog import Catalog
from generator.kribbeln.dice import N_FACES, DiceSet, load_dice
from generator.kribbeln.masks import fulfilled
from generator.kribbeln.solver import GOALS, analyze_tasks, hold_options, row_figures
from generator.kribbeln.tasks import FAMILIES, TEMPLATE, Task, TaskCatalog, load_tasks, task_text
from generator.text import LANGS, Texts

SORTS = ("catalog", "p_success", "expected_pips", "id", "family")
_DIGITS = 10  # JSON figures are rounded so that output is identical across machines


def _load(
    dice_file: str | None, tasks_file: str | None, files: Catalog | None
) -> tuple[DiceSet, TaskCatalog, list[str]]:
    """The dice and tasks: the user's files, else those of the run's catalog `files`."""
    dice, warnings = load_dice(dice_file, files)
    return dice, load_tasks(dice, tasks_file, files), warnings


def _task_data(task: Task, dice: DiceSet, texts: dict[str, Texts]) -> dict[str, Any]:
    return {
        "id": task.id,
        "family": task.family,
        "type": task.type,
        "params": task.params(),
        "colors": list(task.colors),
        "text": {lang: task_text(task, dice, lang, texts[lang]) for lang in LANGS},
    }


def analyze(
    dice_file: str | None,
    tasks_file: str | None,
    sort: str = "catalog",
    files: Catalog | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Every task of the catalog with its text, family, p_success and expected_pips."""
    if sort not in SORTS:
        raise InputError("sort", f"expected one of {', '.join(SORTS)}, found '{sort}'")
    dice, catalog, warnings = _load(dice_file, tasks_file, files)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls)
    texts = {lang: Texts(TEMPLATE, lang) for lang in LANGS}
    rows = []
    for task in catalog.tasks:
        fig = figures[task.id]
        row = _task_data(task, dice, texts)
        row["p_success"] = round(fig.p_success, _DIGITS)
        row["expected_pips"] = round(fig.expected_pips, _DIGITS)
        rows.append(row)
    order = {
        "catalog": lambda r: 0,
        "p_success": lambda r: -r["p_success"],
        "expected_pips": lambda r: -r["expected_pips"],
        "id": lambda r: r["id"],
        "family": lambda r: FAMILIES.index(r["family"]),
    }[sort]
    rows.sort(key=order)  # stable: ties stay in catalog order
    data = {
        "dice_file": dice.source,
        "task_file": catalog.source,
        "rolls": catalog.rolls,
        "sort": sort,
        "tasks": rows,
    }
    return data, warnings


def format_analysis(data: dict[str, Any], lang: str) -> str:
    """An aligned plain-text table of `analyze` data, task texts in `lang`."""
    header = ("id", "family", "p_success", "expected_pips", "task")
    rows = [
        (
            r["id"],
            r["family"],
            f"{r['p_success']:.4f}",
            f"{r['expected_pips']:.2f}",
            r["text"][lang],
        )
        for r in data["tasks"]
    ]
    return _table(header, rows, right={2, 3})


def _table(header: tuple[str, ...], rows: Sequence[Sequence[Any]], right: set[int]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = []
    for row in (header, *rows):
        cells = [
            str(x).rjust(w) if i in right else str(x).ljust(w)
            for i, (x, w) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def parse_roll(text: str, n_dice: int) -> tuple[int, ...]:
    """The value on die 1…n from "3 5 1 6 2 2" (spaces or commas)."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    ok = len(parts) == n_dice and all(p.isdigit() and 1 <= int(p) <= N_FACES for p in parts)
    if not ok:
        raise InputError(
            "roll",
            f"expected {n_dice} values 1–{N_FACES}, the value on die 1…{n_dice} "
            f"(e.g. \"3 5 1 6 2 2\"), found '{text}'",
        )
    return tuple(int(p) for p in parts)


def _find_task(catalog: TaskCatalog, task_id: str) -> Task:
    try:
        return catalog.task(task_id)
    except KeyError:
        close = difflib.get_close_matches(task_id, [t.id for t in catalog.tasks], n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InputError(
            "task",
            f"no task '{task_id}' in {catalog.source}{hint}; "
            "`dicesheets kribbeln analyze` lists them",
        ) from None


def hold(
    task_id: str,
    roll: str,
    rolls_left: int,
    goal: str = "success",
    dice_file: str | None = None,
    tasks_file: str | None = None,
    files: Catalog | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """The options to keep dice from a roll, best first, with their values."""
    if goal not in GOALS:
        raise InputError("goal", f"expected one of {', '.join(GOALS)}, found '{goal}'")
    dice, catalog, warnings = _load(dice_file, tasks_file, files)
    task = _find_task(catalog, task_id)
    values = parse_roll(roll, dice.n_dice)
    if not 0 <= rolls_left < catalog.rolls:
        raise InputError(
            "rolls_left",
            f"expected 0–{catalog.rolls - 1} re-rolls left ({catalog.rolls} rolls per turn), "
            f"found {rolls_left}",
        )
    colors = dice.roll_colors(values)
    options = hold_options(dice, task, values, rolls_left, goal, catalog.rolls)
    texts = {lang: Texts(TEMPLATE, lang) for lang in LANGS}
    data = {
        "task": _task_data(task, dice, texts),
        "roll": [
            {"die": d + 1, "value": v, "color": c, "color_name": dice.color(c).name}
            for d, (v, c) in enumerate(zip(values, colors))
        ],
        "fulfilled": fulfilled(task, dice, values),
        "rolls_left": rolls_left,
        "goal": goal,
        "options": [
            {
                "keep": [d + 1 for d in o.held],
                "reroll": [d + 1 for d in range(dice.n_dice) if d not in o.held],
                "stop": o.stop,
                "value": round(o.value, _DIGITS),
            }
            for o in options
        ],
    }
    return data, warnings


def format_hold(data: dict[str, Any], lang: str) -> str:
    """Plain text for `hold` data: the roll, then one line per option, best first."""

    def face(d: int) -> str:
        die = data["roll"][d - 1]
        return f"{d}:{die['value']} {die['color_name'][lang]}"

    task = data["task"]
    status = "fulfilled" if data["fulfilled"] else "not fulfilled"
    value_name = "P(success)" if data["goal"] == "success" else "E[pips]"
    lines = [
        f"task {task['id']} ({task['family']}): {task['text'][lang]}",
        f"roll (die:value colour): {', '.join(face(d['die']) for d in data['roll'])} — {status}",
        f"{data['rolls_left']} re-roll(s) left; value = {value_name} playing on optimally",
        "",
    ]
    header = (value_name, "keep", "re-roll")
    digits = 4 if data["goal"] == "success" else 2
    rows = [
        (
            f"{o['value']:.{digits}f}",
            "all (stop)" if o["stop"] else ", ".join(face(d) for d in o["keep"]) or "none",
            ", ".join(str(d) for d in o["reroll"]) or "—",
        )
        for o in data["options"]
    ]
    return "\n".join(lines) + _table(header, rows, right={0})


def row(
    dice_file: str | None, tasks_file: str | None, files: Catalog | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Kribbeln-row figures: expected best pip sum and P(beating k) for every k."""
    dice, catalog, warnings = _load(dice_file, tasks_file, files)
    fig = row_figures(dice, catalog.rolls)
    data = {
        "rolls": catalog.rolls,
        "expected_max": round(fig.expected_max, _DIGITS),
        "p_beat": {str(k): round(p, _DIGITS) for k, p in enumerate(fig.p_above)},
    }
    return data, warnings


def format_row(data: dict[str, Any]) -> str:
    """Plain text for `row` data: the expected sum, then P(sum > k) for the k that matter."""
    lines = [f"expected pip sum, playing for the highest: {data['expected_max']:.4f}", ""]
    rows = [(k, f"{p:.6f}") for k, p in data["p_beat"].items() if 0.0 < p < 1.0]
    return "\n".join(lines) + _table(("previous value k", "P(sum > k)"), rows, right={0, 1})
