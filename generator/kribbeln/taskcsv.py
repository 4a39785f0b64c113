"""Kribbeln task lists as CSV (spreadsheets) and the catalog written back as CSV or YAML.

One row per task under a header row naming the columns: `id`, `type`, the type's
parameters (`colors`, `color`, `count`, `one`, `none`, `more`, `than`, `at_least`)
and `family`; a cell a task does not use stays empty, `colors` lists its colours
separated by spaces or commas. The export adds what the program makes of each task:
its wording (`text_de`, `text_en`, from the templates) and its difficulty
(`p_success`, `expected_pips`, from the solver). Those columns are read back and
left unused (a task's words and figures always come from its type and colours),
so they may be edited, deleted or left stale, and the next export renews them.
Columns may come in any order and only those the tasks need must be there.
Separators `,` `;` (spreadsheets in German) and tabs are recognised from the header
row; a UTF-8 byte-order mark is fine. Rows whose first cell starts with `#` are
comments; `# rolls: N` before the header sets the rolls per turn (default 3).
Empty rows are skipped.

A row becomes the same mapping a YAML task is, each cell remembering its line and
column, so the task loader checks both formats with the same messages.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

import yaml

from generator.core.errors import CatalogError, Msg
from generator.core.fields import LocDict, LocList
from generator.core.problems import Problems
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.tasks import (
    DEFAULT_ROLLS,
    MAX_ROLLS,
    Task,
    TaskCatalog,
    parse_task_items,
)

if TYPE_CHECKING:
    from generator.kribbeln.solver import TaskFigures

TASK_COLUMNS = ("id", "type", "colors", "color", "count", "one", "none", "more", "than",
                "at_least", "family")  # fmt: skip
DERIVED = ("text_de", "text_en", "p_success", "expected_pips")  # made by the program
COLUMNS = TASK_COLUMNS + DERIVED
NUMBER_COLUMNS = ("count", "at_least")
DELIMITERS = (",", ";", "\t")
_ROLLS = re.compile(r"#\s*rolls\s*:\s*(.*?)\s*")

Cell = tuple[str, int, int]  # text, line, column


def _scan(text: str, delimiter: str, label: str) -> Iterator[list[Cell]]:
    """The rows of a CSV text (RFC 4180 quoting), every cell with its line and column."""
    i, line, column, n = 0, 1, 1, len(text)
    row: list[Cell] = []
    while i <= n:
        start = (line, column)
        chars: list[str] = []
        if i < n and text[i] == '"':
            i, column = i + 1, column + 1
            while True:
                if i >= n:
                    raise CatalogError(
                        Msg("quoted_cell_closed"), file=label, line=start[0], column=start[1]
                    )
                c = text[i]
                if c == '"' and text[i + 1 : i + 2] == '"':
                    chars.append('"')
                    i, column = i + 2, column + 2
                elif c == '"':
                    i, column = i + 1, column + 1
                    break
                else:
                    chars.append(c)
                    i += 1
                    line, column = (line + 1, 1) if c == "\n" else (line, column + 1)
        while i < n and text[i] not in (delimiter, "\n", "\r"):
            chars.append(text[i])
            i, column = i + 1, column + 1
        row.append(("".join(chars), *start))
        if i < n and text[i] == delimiter:
            i, column = i + 1, column + 1
            continue
        i += 2 if text[i : i + 2] == "\r\n" else 1
        line, column = line + 1, 1
        yield row
        row = []


def _delimiter(text: str) -> str:
    """The separator the header row uses most (outside quotes)."""
    for raw in text.splitlines():
        if raw.strip() and not raw.lstrip().startswith("#"):
            plain = re.sub(r'"[^"]*"', "", raw)
            return max(DELIMITERS, key=plain.count)
    return ","


def _value(column: str, cell: Cell) -> object:
    text, line, col = cell
    text = text.strip()
    if column == "colors":
        parts = [p for p in re.split(r"[\s,;]+", text) if p]
        colors = LocList(parts)
        colors.file, colors.line, colors.column = "", line, col
        colors.item_pos = [(line, col)] * len(parts)
        return colors
    if column in NUMBER_COLUMNS and re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return text


def task_rows(text: str, label: str) -> tuple[LocList, int | None, tuple[int, int]]:
    """A CSV file's tasks as positioned mappings, the `# rolls:` setting and its place."""
    delimiter = _delimiter(text)
    header: list[tuple[str, int, int]] | None = None
    rolls: int | None = None
    rolls_at = (1, 1)
    items = LocList()
    items.file, items.line, items.column, items.item_pos = label, 1, 1, []
    for row in _scan(text, delimiter, label):
        first, line, col = row[0]
        if all(not cell[0].strip() for cell in row):
            continue
        if first.lstrip().startswith("#"):
            match = _ROLLS.fullmatch(first.strip())
            if match and header is None:
                rolls, rolls_at = _rolls(match.group(1), label, line, col), (line, col)
            continue
        if header is None:
            header = _header(row, label)
            continue
        items.append(_item(row, header, label))
        items.item_pos.append((line, col))
    if header is None:
        raise CatalogError(
            Msg("header_row_expected_columns", columns=", ".join(COLUMNS)), file=label
        )
    return items, rolls, rolls_at


def _rolls(text: str, label: str, line: int, column: int) -> int:
    if not re.fullmatch(r"\d+", text):
        raise CatalogError(
            Msg("rolls_expects_whole_number", text=text),
            file=label,
            line=line,
            column=column,
        )
    return int(text)


def _header(row: list[Cell], label: str) -> list[Cell]:
    names: list[Cell] = []
    for text, line, col in row:
        name = text.strip().lower()
        if name and name not in COLUMNS:
            raise CatalogError(
                Msg("unknown_column_expected_some", strip=text.strip(), columns=", ".join(COLUMNS)),
                file=label,
                line=line,
                column=col,
            )
        if name and name in [n for n, _, _ in names]:
            raise CatalogError(
                Msg("column_appears_twice", name=name), file=label, line=line, column=col
            )
        names.append((name, line, col))
    for needed in ("id", "type"):
        if needed not in [n for n, _, _ in names]:
            line, col = row[0][1:]
            raise CatalogError(
                Msg("header_has_column_expected", needed=needed, columns=", ".join(COLUMNS)),
                file=label,
                line=line,
                column=col,
            )
    return names


def _item(row: list[Cell], header: list[Cell], label: str) -> LocDict:
    item = LocDict()
    item.file, (item.line, item.column), item.key_pos = label, row[0][1:], {}
    for index, cell in enumerate(row):
        if index >= len(header) or not header[index][0]:
            if cell[0].strip():
                raise CatalogError(
                    Msg("cell_outside_named_columns", strip=cell[0].strip()),
                    file=label,
                    line=cell[1],
                    column=cell[2],
                )
            continue
        name = header[index][0]
        if cell[0].strip() and name not in DERIVED:
            value = _value(name, cell)
            if isinstance(value, LocList):
                value.file = label
            item[name] = value
            item.key_pos[name] = cell[1:]
    return item


def parse_csv_tasks(
    text: str, label: str, dice: DiceSet, problems: Problems | None = None
) -> TaskCatalog:
    """Validate one CSV task file's text against the dice."""
    raw, rolls, (line, column) = task_rows(text, label)
    if rolls is None:
        rolls = DEFAULT_ROLLS
    elif not 1 <= rolls <= MAX_ROLLS:
        message = Msg("rolls_comment_range", most=MAX_ROLLS, found=rolls)
        raise CatalogError(message, file=label, line=line, column=column)
    if not raw:
        raise CatalogError(Msg("expected_least_one_task"), file=label)
    return TaskCatalog(
        tasks=parse_task_items(raw, label, dice, problems), rolls=rolls, source=label
    )


def tasks_csv(
    tasks: Sequence[Task],
    rolls: int,
    default_rolls: int,
    texts: Mapping[str, Mapping[str, str]] | None = None,
    figures: Mapping[str, TaskFigures] | None = None,
) -> str:
    """The tasks as CSV (read back by `task_rows` to equal tasks); with `texts` (task id →
    language → words) and `figures` (task id → the solver's), their columns too, with the
    figures as `kribbeln analyze` prints them."""
    out = io.StringIO()
    if rolls != default_rolls:
        out.write(f"# rolls: {rolls}\n")
    writer = csv.writer(out, lineterminator="\n")
    columns = TASK_COLUMNS + (DERIVED if texts is not None and figures is not None else ())
    writer.writerow(columns)
    for task in tasks:
        cells = {"id": task.id, "type": task.type, "family": task.family}
        for key, value in task.params().items():
            cells[key] = " ".join(value) if isinstance(value, list) else str(value)
        if texts is not None and figures is not None:
            cells["text_de"], cells["text_en"] = texts[task.id]["de"], texts[task.id]["en"]
            cells["p_success"] = f"{round(figures[task.id].p_success, 6):.4f}"
            cells["expected_pips"] = f"{round(figures[task.id].expected_pips, 6):.2f}"
        writer.writerow([cells.get(column, "") for column in columns])
    return out.getvalue()


def tasks_yaml(tasks: Sequence[Task], rolls: int) -> str:
    """The tasks as a YAML task catalog, one task a line as in the shipped file."""
    lines = [
        "# Kribbeln task catalog (format: task_catalog/kribbeln/tasks.yaml)",
        f"rolls: {rolls}",
        "tasks:",
    ]
    for task in tasks:
        mapping = {"id": task.id, "type": task.type, **task.params(), "family": task.family}
        flow = yaml.safe_dump(mapping, default_flow_style=True, sort_keys=False, width=10**6)
        lines.append(f"  - {flow.strip()}")
    return "\n".join(lines) + "\n"
