"""What `dicesheets kribbeln analyze|hold|row` report: the results as values, and plain tables.

No click and no file here: each function takes the dice and the task catalog (read
at the edge, `generator.kribbeln.load`) and the option values, asks the solver and
returns a frozen result; its `to_json()` is the command's `--json` output.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.core.errors import InputError, Msg
from generator.core.store import Store
from generator.kribbeln.dice import N_FACES, DiceSet
from generator.kribbeln.masks import fulfilled
from generator.kribbeln.solver import GOALS, HoldOption, analyze_tasks, hold_options, row_figures
from generator.kribbeln.tasks import FAMILIES, TEMPLATE, Task, TaskCatalog, task_text
from generator.text.words import LANGS, Templates, Texts

SORTS = ("catalog", "p_success", "expected_pips", "id", "family")
_DIGITS = 10  # JSON figures are rounded so that output is identical across machines


def _r(x: float) -> float:
    return round(x, _DIGITS)


@dataclass(frozen=True)
class TaskInWords:
    """A task and its text in every language."""

    task: Task
    text: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        t = self.task
        return {
            "id": t.id,
            "family": t.family,
            "type": t.type,
            "params": t.params(),
            "colors": list(t.colors),
            "text": dict(self.text),
        }


def _in_words(task: Task, dice: DiceSet, texts: dict[str, Texts]) -> TaskInWords:
    return TaskInWords(task, {lang: task_text(task, dice, lang, texts[lang]) for lang in LANGS})


@dataclass(frozen=True)
class TaskResult:
    """One task of `analyze`: its words and its two figures under optimal play."""

    task: TaskInWords
    p_success: float
    expected_pips: float

    def to_json(self) -> dict[str, Any]:
        return {
            **self.task.to_json(),
            "p_success": _r(self.p_success),
            "expected_pips": _r(self.expected_pips),
        }


@dataclass(frozen=True)
class TaskAnalysis:
    """What `dicesheets kribbeln analyze` reports: every task with its figures, in order."""

    dice_file: str
    task_file: str
    rolls: int
    sort: str
    tasks: tuple[TaskResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON of `kribbeln analyze --json` (made at the edge)."""
        return {
            "dice_file": self.dice_file,
            "task_file": self.task_file,
            "rolls": self.rolls,
            "sort": self.sort,
            "tasks": [t.to_json() for t in self.tasks],
        }


def analyze(
    dice: DiceSet,
    catalog: TaskCatalog,
    templates: Templates,
    sort: str = "catalog",
    *,
    store: Store,
) -> TaskAnalysis:
    """Every task of the catalog with its text, family, p_success and expected_pips."""
    if sort not in SORTS:
        raise InputError("sort", Msg("one_of", known=", ".join(SORTS), found=sort))
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=store)
    texts = {lang: Texts(TEMPLATE, lang, templates) for lang in LANGS}
    rows = [
        TaskResult(
            _in_words(task, dice, texts),
            figures[task.id].p_success,
            figures[task.id].expected_pips,
        )
        for task in catalog.tasks
    ]
    order = {
        "catalog": lambda r: 0,
        # sorted by the printed (rounded) figures, as the JSON shows them
        "p_success": lambda r: -_r(r.p_success),
        "expected_pips": lambda r: -_r(r.expected_pips),
        "id": lambda r: r.task.task.id,
        "family": lambda r: FAMILIES.index(r.task.task.family),
    }[sort]
    rows.sort(key=order)  # stable: ties stay in catalog order
    return TaskAnalysis(dice.source, catalog.source, catalog.rolls, sort, tuple(rows))


def format_analysis(result: TaskAnalysis, lang: str) -> str:
    """An aligned plain-text table of `analyze`, task texts in `lang`."""
    header = ("id", "family", "p_success", "expected_pips", "task")
    rows = [
        (
            r.task.task.id,
            r.task.task.family,
            f"{_r(r.p_success):.4f}",
            f"{_r(r.expected_pips):.2f}",
            r.task.text[lang],
        )
        for r in result.tasks
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
    ok = len(parts) == n_dice and all(
        p.isascii() and p.isdigit() and 1 <= int(p) <= N_FACES for p in parts
    )
    if not ok:
        raise InputError(
            "roll",
            Msg("expected_values_value_die", n_dice=n_dice, n_faces=N_FACES, text=text),
        )
    return tuple(int(p) for p in parts)


def _find_task(catalog: TaskCatalog, task_id: str) -> Task:
    try:
        return catalog.task(task_id)
    except KeyError:
        close = difflib.get_close_matches(task_id, [t.id for t in catalog.tasks], n=3)
        raise InputError(
            "task",
            Msg(
                "task_dicesheets_kribbeln_analyze",
                task_id=task_id,
                source=catalog.source,
                close=close,
            ),
        ) from None


@dataclass(frozen=True)
class DieShown:
    die: int  # 1…n
    value: int
    color: str
    color_name: dict[str, str]


@dataclass(frozen=True)
class HoldAdvice:
    """What `dicesheets kribbeln hold` reports: the roll and every choice of dice to keep."""

    task: TaskInWords
    roll: tuple[DieShown, ...]
    fulfilled: bool
    rolls_left: int
    goal: str
    options: tuple[HoldOption, ...]  # best first

    def to_json(self) -> dict[str, Any]:
        """The JSON of `kribbeln hold --json` (made at the edge)."""
        n = len(self.roll)
        return {
            "task": self.task.to_json(),
            "roll": [
                {"die": d.die, "value": d.value, "color": d.color, "color_name": d.color_name}
                for d in self.roll
            ],
            "fulfilled": self.fulfilled,
            "rolls_left": self.rolls_left,
            "goal": self.goal,
            "options": [
                {
                    "keep": [d + 1 for d in o.held],
                    "reroll": [d + 1 for d in range(n) if d not in o.held],
                    "stop": o.stop,
                    "value": _r(o.value),
                }
                for o in self.options
            ],
        }


def hold(
    dice: DiceSet,
    catalog: TaskCatalog,
    templates: Templates,
    task_id: str,
    roll: str,
    rolls_left: int,
    goal: str = "success",
) -> HoldAdvice:
    """The options to keep dice from a roll, best first, with their values."""
    if goal not in GOALS:
        raise InputError("goal", Msg("one_of", known=", ".join(GOALS), found=goal))
    task = _find_task(catalog, task_id)
    values = parse_roll(roll, dice.n_dice)
    if not 0 <= rolls_left < catalog.rolls:
        raise InputError(
            "rolls_left",
            Msg(
                "expected_re_rolls_left",
                rolls=catalog.rolls - 1,
                rolls2=catalog.rolls,
                rolls_left=rolls_left,
            ),
        )
    colors = dice.roll_colors(values)
    options = hold_options(dice, task, values, rolls_left, goal, catalog.rolls)
    texts = {lang: Texts(TEMPLATE, lang, templates) for lang in LANGS}
    return HoldAdvice(
        _in_words(task, dice, texts),
        tuple(
            DieShown(d + 1, v, c, dice.color(c).name)
            for d, (v, c) in enumerate(zip(values, colors))
        ),
        fulfilled(task, dice, values),
        rolls_left,
        goal,
        tuple(options),
    )


def format_hold(advice: HoldAdvice, lang: str) -> str:
    """Plain text for `hold`: the roll, then one line per option, best first."""

    def face(d: int) -> str:  # d: 0-based
        die = advice.roll[d]
        return f"{die.die}:{die.value} {die.color_name[lang]}"

    task = advice.task
    n = len(advice.roll)
    status = "fulfilled" if advice.fulfilled else "not fulfilled"
    value_name = "P(success)" if advice.goal == "success" else "E[pips]"
    lines = [
        f"task {task.task.id} ({task.task.family}): {task.text[lang]}",
        f"roll (die:value color): {', '.join(face(d) for d in range(n))} — {status}",
    ]
    if advice.rolls_left == 0:  # nothing to choose: a table would hold only "all (stop)"
        pips = sum(die.value for die in advice.roll)
        said = Msg("hold_no_reroll_left", fulfilled=advice.fulfilled, pips=pips).say(lang)
        return "\n".join([*lines, said])
    lines += [f"{advice.rolls_left} re-roll(s) left; value = {value_name} playing on optimally", ""]
    header = (value_name, "keep", "re-roll")
    digits = 4 if advice.goal == "success" else 2
    rows = [
        (
            f"{_r(o.value):.{digits}f}",
            "all (stop)" if o.stop else ", ".join(face(d) for d in o.held) or "none",
            ", ".join(str(d + 1) for d in range(n) if d not in o.held) or "—",
        )
        for o in advice.options
    ]
    return "\n".join(lines) + _table(header, rows, right={0})


@dataclass(frozen=True)
class RowReport:
    """What `dicesheets kribbeln row` reports: the expected best sum and P(beating k)."""

    rolls: int
    expected_max: float
    p_above: tuple[float, ...]  # index k: P(best sum > k)

    def to_json(self) -> dict[str, Any]:
        """The JSON of `kribbeln row --json` (made at the edge)."""
        return {
            "rolls": self.rolls,
            "expected_max": _r(self.expected_max),
            "p_beat": {str(k): _r(p) for k, p in enumerate(self.p_above)},
        }


def row(dice: DiceSet, catalog: TaskCatalog, *, store: Store) -> RowReport:
    """Kribbeln-row figures: expected best pip sum and P(beating k) for every k."""
    fig = row_figures(dice, catalog.rolls, store=store)
    return RowReport(catalog.rolls, fig.expected_max, fig.p_above)


def format_row(report: RowReport) -> str:
    """Plain text for `row`: the expected sum, then P(sum > k) for the k that matter."""
    lines = [f"expected pip sum, playing for the highest: {_r(report.expected_max):.4f}", ""]
    rows = [(k, f"{_r(p):.6f}") for k, p in enumerate(report.p_above) if 0.0 < _r(p) < 1.0]
    return "\n".join(lines) + _table(("previous value k", "P(sum > k)"), rows, right={0, 1})
