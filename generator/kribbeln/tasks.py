"""Kribbeln tasks: the eleven task types, the task catalog loader, and task wording.

The types and their parameter names are the file format (docs/rules.md, section 1):

    none_of             colors: [X] or [X, Y]        no die shows X (nor Y)
    exactly             color: X, count: k           exactly k dice show X
    one_and_none        one: X, none: Y              exactly one die shows X, none shows Y
    some_color_exactly  count: k                     some colour appears exactly k times
    no_color_exactly    count: k                     no colour appears exactly k times
    two_colors_exactly  count: 2                     two colours appear exactly k times each
                                                     (the other dice are free: a third pair is fine)
    distinct_colors     count: k (3)                 exactly k different colours appear
    more_than           more: X, than: Y             more dice show X than Y
    equal               colors: [X, Y], at_least: 1  as many dice show X as Y, at least a each
    all_different       colors: [X, Y] or [X, Y, Z]  the colours all appear a different number
                                                     of times (0 is a number)
    most                color: X                     X appears more often than every other colour

Counts are over all six dice. Every task has an id, a type, its parameters and
a family (exact / free / comparison; taken from the type when absent). The
wording comes from `templates/<lang>/kribbeln_tasks.j2`, one macro per type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import CatalogError, Msg
from generator.core.fields import Fields, position
from generator.core.problems import Problems, each, report_problem
from generator.kribbeln.dice import SUBDIR, DiceSet
from generator.text.words import Texts

FAMILIES = ("exact", "free", "comparison")
DEFAULT_FILE = f"{SUBDIR}/tasks.yaml"
CSV_FILE = f"{SUBDIR}/tasks.csv"  # a catalog folder's tasks from a spreadsheet
CATALOGS_DIR = f"{SUBDIR}/tasks"  # further task catalogs, by name: `--tasks variants`
DEFAULT_ROLLS = 3
MAX_ROLLS = 6
TEMPLATE = "kribbeln_tasks"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class TaskType:
    """What a task type takes: colour keys, a colour list, a count, and its family."""

    name: str
    family: str
    color_keys: tuple[str, ...] = ()  # one colour each, in this order
    color_list: tuple[int, int] | None = None  # key "colors": (fewest, most) colours
    count_key: str | None = None
    count_range: tuple[int, int] = (0, 0)
    count_default: int | None = None  # None: the count is required

    @property
    def keys(self) -> set[str]:
        keys = set(self.color_keys)
        if self.color_list:
            keys.add("colors")
        if self.count_key:
            keys.add(self.count_key)
        return keys


TASK_TYPES: dict[str, TaskType] = {
    t.name: t
    for t in (
        TaskType("none_of", "exact", color_list=(1, 2)),
        TaskType("exactly", "exact", ("color",), count_key="count", count_range=(1, 6)),
        TaskType("one_and_none", "exact", ("one", "none")),
        TaskType("some_color_exactly", "free", count_key="count", count_range=(1, 6)),
        TaskType("no_color_exactly", "free", count_key="count", count_range=(1, 6)),
        TaskType(
            "two_colors_exactly", "free", count_key="count", count_range=(1, 3), count_default=2
        ),
        TaskType("distinct_colors", "free", count_key="count", count_range=(1, 6), count_default=3),
        TaskType("more_than", "comparison", ("more", "than")),
        TaskType(
            "equal",
            "comparison",
            color_list=(2, 2),
            count_key="at_least",
            count_range=(0, 3),
            count_default=1,
        ),
        TaskType("all_different", "comparison", color_list=(2, 3)),
        TaskType("most", "comparison", ("color",)),
    )
}


@dataclass(frozen=True)
class Task:
    """One task of the catalog, validated against the dice it will be played with."""

    id: str
    type: str
    family: str
    colors: tuple[str, ...]  # the colour ids the task names, in the order of its parameters
    count: int | None = None  # the type's count (`count`, or `at_least` for equal)
    # where the task stood (messages only: the same task read from YAML or CSV is equal)
    source: str = field(default="", compare=False)  # "file:line"
    line: int | None = field(default=None, compare=False)
    column: int | None = field(default=None, compare=False)

    @property
    def spec(self) -> TaskType:
        return TASK_TYPES[self.type]

    def params(self) -> dict[str, Any]:
        """The parameters as the file writes them (type-specific keys)."""
        spec = self.spec
        params: dict[str, Any] = {}
        if spec.color_list:
            params["colors"] = list(self.colors)
        for key, color in zip(spec.color_keys, self.colors):
            params[key] = color
        if spec.count_key:
            params[spec.count_key] = self.count
        return params

    def key(self) -> dict[str, Any]:
        """What the task's figures depend on (no id, no family): part of cache keys."""
        return {"type": self.type, **self.params()}


@dataclass(frozen=True)
class TaskCatalog:
    """The tasks of one file, in file order, and the rules they are played with."""

    tasks: tuple[Task, ...]
    rolls: int = DEFAULT_ROLLS
    source: str = ""

    def task(self, task_id: str) -> Task:
        """The task with this id (KeyError if there is none)."""
        for t in self.tasks:
            if t.id == task_id:
                return t
        raise KeyError(task_id)

    def rules(self) -> dict[str, Any]:
        """The rule settings the figures depend on: part of cache keys."""
        return {"rolls": self.rolls}


def _color_value(f: Fields, key: str, value: object, dice: DiceSet, label: str) -> str:
    if not isinstance(value, str) or value not in dice.color_ids:
        raise f.error(
            key,
            Msg(
                "key_unknown_color",
                label=label,
                value=f"{value!r}",
                color_ids=", ".join(dice.color_ids),
            ),
        )
    return value


def _task(data: object, index: int, file: str, dice: DiceSet) -> Task:
    context = f"tasks[{index}]"
    f = Fields(data, file, context)
    task_type = f.choice("type", tuple(TASK_TYPES))
    spec = TASK_TYPES[task_type]
    f.unknown_keys({"id", "type", "family"} | spec.keys)
    task_id = f.get("id", str)
    if not _ID.fullmatch(task_id):
        raise f.error("id", Msg("key_id_plain_id", context=context, task_id=task_id))
    colors: list[str] = []
    if spec.color_list:
        raw = f.get("colors", list)
        low, high = spec.color_list
        if not low <= len(raw) <= high:
            amount = str(low) if low == high else f"{low}–{high}"
            raise f.error(
                "colors",
                Msg(
                    "key_colors_takes_colors",
                    context=context,
                    task_type=task_type,
                    amount=amount,
                    n_raw=len(raw),
                ),
            )
        colors += [_color_value(f, "colors", c, dice, f"{context}.colors") for c in raw]
    for key in spec.color_keys:
        colors.append(_color_value(f, key, f.get(key, str), dice, f"{context}.{key}"))
    for i, c in enumerate(colors):
        if c in colors[:i]:
            raise f.error(
                "colors" if spec.color_list else spec.color_keys[i],
                Msg("color_named_twice_task", context=context, c=c),
            )
    count = None
    if spec.count_key:
        low, high = spec.count_range
        if spec.count_default is None:
            count = f.int_in(spec.count_key, low, high)
        else:
            count = f.int_in(spec.count_key, low, high, spec.count_default)
    family = f.choice("family", FAMILIES, spec.family)
    line, column = f.position()
    source = f"{file}:{line}" if line else file
    return Task(task_id, task_type, family, tuple(colors), count, source, line, column)


def parse_tasks(
    data: Any, label: str, dice: DiceSet, problems: Problems | None = None
) -> TaskCatalog:
    """Validate one YAML task file's data against the dice."""
    top = Fields(data, label)
    top.unknown_keys({"rolls", "tasks"})
    rolls = top.int_in("rolls", 1, MAX_ROLLS, DEFAULT_ROLLS)
    raw = top.get("tasks", list)
    if not raw:
        raise top.error("tasks", Msg("tasks_expected_least_one"))
    return TaskCatalog(
        tasks=parse_task_items(raw, label, dice, problems), rolls=rolls, source=label
    )


def parse_task_items(
    raw: list, label: str, dice: DiceSet, problems: Problems | None
) -> tuple[Task, ...]:
    """Every item (of a YAML list or CSV rows) as a task; a repeated id is a problem of its
    item like any other.

    The problems come in the order of the lines: the first is raised, or (while
    given `problems`, for `validate`) all are recorded and the tasks without problems
    returned, so a duplicate id shows up beside the other problems.
    """
    seen: dict[str, int] = {}
    repeated: set[int] = set()
    found = Problems()
    for i, item in enumerate(raw):
        task_id = item.get("id") if isinstance(item, dict) else None
        if not isinstance(task_id, str):
            continue
        if task_id in seen:
            line, col = position(item, "id")
            message = Msg("task_id_twice", i=i, task_id=task_id, first=seen[task_id])
            report_problem(CatalogError(message, file=label, line=line, column=col), found)
            repeated.add(i)
        else:
            seen[task_id] = i
    parsed = each(raw, lambda i, item: (i, _task(item, i, label, dice)), found)
    for problem in sorted(found, key=lambda p: (p.line or 0, p.column or 0)):
        report_problem(problem, problems)
    return tuple(task for i, task in parsed if i not in repeated)


def task_text(task: Task, dice: DiceSet, lang: str, texts: Texts) -> str:
    """The task in words, naming its colours by their names in `lang` (`texts`: TEMPLATE's)."""
    names = [dice.color(c).name[lang] for c in task.colors]
    return texts(task.type, colors=names, count=task.count)


def family_name(family: str, lang: str, texts: Texts) -> str:
    """The family's heading in `lang` ("Genaue Farben", "Exact colours" …)."""
    return texts(f"family_{family}")
