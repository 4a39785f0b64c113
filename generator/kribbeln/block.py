"""A Kribbeln block as data: sheets of six tasks, the ten rows of a sheet, and reading sheets back.

A sheet is played top to bottom in ten rows (docs/rules.md, section 1): three colour
areas of (task, task, Kribbeln row), then the fourth, final Kribbeln row. The
six tasks of a sheet are stored in row order. Sheets can be read back from a
pages file (YAML, task ids per sheet), from a list of sheets (CSV or plain text: one
line of six task ids per sheet) or from the manifest of a generated block, so the
simulator plays exactly what was printed and `kribbeln block --sheets` prints it again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.core.errors import CatalogError, Msg, shown
from generator.core.fields import Fields, position
from generator.kribbeln.balance import AREAS, TASKS_PER_AREA, TASKS_PER_SHEET
from generator.kribbeln.tasks import Task, TaskCatalog

FINAL_AREA = AREAS + 1  # the fourth Kribbeln row belongs to no colour area
MAX_PIPS = 36  # six dice: the highest pip sum
MIN_PIPS = 6  # … and the lowest
MAX_MANIFEST_BYTES = 5_000_000  # a block's manifest is ~100 kB; anything far larger is not one


@dataclass(frozen=True)
class Row:
    """One row of a sheet: a task row or a Kribbeln row, in colour area 1–3 (4: the final row)."""

    number: int  # 1–10, top to bottom
    kind: str  # "task" | "kribbeln"
    area: int  # 1–3, or FINAL_AREA for the fourth Kribbeln row
    task: int | None = None  # index into Sheet.tasks for a task row


def _rows() -> tuple[Row, ...]:
    rows: list[Row] = []
    for area in range(1, AREAS + 1):
        for k in range(TASKS_PER_AREA):
            rows.append(Row(len(rows) + 1, "task", area, (area - 1) * TASKS_PER_AREA + k))
        rows.append(Row(len(rows) + 1, "kribbeln", area))
    rows.append(Row(len(rows) + 1, "kribbeln", FINAL_AREA))
    return tuple(rows)


ROWS = _rows()
N_ROWS = len(ROWS)  # 10
KRIBBELN_ROWS = tuple(r.number for r in ROWS if r.kind == "kribbeln")  # 3, 6, 9, 10
FINAL_ROW = ROWS[-1].number


@dataclass(frozen=True)
class Sheet:
    """One task sheet: its number in the block and its six tasks in row order."""

    number: int
    tasks: tuple[Task, ...]

    def area_tasks(self, area: int) -> tuple[Task, ...]:
        """The two tasks of colour area 1–3."""
        return self.tasks[(area - 1) * TASKS_PER_AREA : area * TASKS_PER_AREA]


def sheets_from_ids(
    ids: Sequence[Sequence[str]], catalog: TaskCatalog, where: str = "sheets"
) -> list[Sheet]:
    """Sheets from task ids (six per sheet, row order), looked up in the catalog."""
    sheets = []
    for s, sheet_ids in enumerate(ids, start=1):
        if len(sheet_ids) != TASKS_PER_SHEET:
            raise CatalogError(
                Msg(
                    "sheet_expected_task_ids",
                    s=s,
                    tasks_per_sheet=TASKS_PER_SHEET,
                    n_sheet_ids=len(sheet_ids),
                ),
                file=where,
            )
        tasks = []
        for task_id in sheet_ids:
            try:
                tasks.append(catalog.task(str(task_id)))
            except KeyError:
                raise CatalogError(
                    Msg("sheet_task", s=s, task_id=task_id, source=catalog.source), file=where
                ) from None
        sheets.append(Sheet(s, tuple(tasks)))
    return sheets


def parse_pages(data: Any, file: str, catalog: TaskCatalog) -> list[Sheet]:
    """Sheets from a pages file's data:

    sheets:
      - [none_red_blue, exactly1_green, …]   # six task ids, row order
    """
    f = Fields(data, file)
    f.unknown_keys({"sheets"})
    raw = f.get("sheets", list)
    if not raw:
        raise f.error("sheets", Msg("sheets_expected_least_one"))
    sheets = []
    for s, item in enumerate(raw):
        line, col = position(raw, s)
        if not isinstance(item, list) or len(item) != TASKS_PER_SHEET:
            raise CatalogError(
                Msg("sheets_expected_list_task", s=s, tasks_per_sheet=TASKS_PER_SHEET),
                file=file,
                line=line,
                column=col,
            )
        for task_id in item:
            if not isinstance(task_id, str):
                raise CatalogError(
                    Msg("sheets_expected_task_ids", s=s, task_id=f"{task_id!r}"),
                    file=file,
                    line=line,
                    column=col,
                )
            try:
                catalog.task(task_id)
            except KeyError:
                raise CatalogError(
                    Msg("sheets_task", s=s, task_id=task_id, source=catalog.source),
                    file=file,
                    line=line,
                    column=col,
                ) from None
        sheets.append(Sheet(s + 1, tuple(catalog.task(t) for t in item)))
    return sheets


_CELL = re.compile(r"[^,;\t ]+")  # a task id: what lies between separators (, ; tab space)


def parse_sheet_lines(text: str, file: str, catalog: TaskCatalog) -> list[Sheet]:
    """Sheets from a list of sheets, one line of six task ids (row order) per sheet.

    The ids are separated by commas, semicolons (German spreadsheets), tabs or spaces;
    empty cells (a spreadsheet's trailing separators), empty lines and lines starting
    with `#` are skipped, and a UTF-8 byte-order mark is fine.
    """
    sheets: list[Sheet] = []
    for line_no, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [(m.group().strip('"'), m.start() + 1) for m in _CELL.finditer(line)]
        cells = [(c, col) for c, col in cells if c]
        s = len(sheets) + 1
        if len(cells) != TASKS_PER_SHEET:
            raise CatalogError(
                Msg(
                    "sheet_expected_task_ids",
                    s=s,
                    tasks_per_sheet=TASKS_PER_SHEET,
                    n_sheet_ids=len(cells),
                ),
                file=file,
                line=line_no,
            )
        tasks = []
        for task_id, column in cells:
            try:
                tasks.append(catalog.task(task_id))
            except KeyError:
                raise CatalogError(
                    Msg("sheet_task", s=s, task_id=shown(task_id), source=catalog.source),
                    file=file,
                    line=line_no,
                    column=column,
                ) from None
        sheets.append(Sheet(s, tuple(tasks)))
    if not sheets:
        raise CatalogError(Msg("sheets_expected_least_one"), file=file)
    return sheets


def _line_of(text: str, task_id: str) -> int | None:
    """The line of a manifest that names task `task_id` (for the message of a missing task)."""
    found = text.find(json.dumps(task_id, ensure_ascii=False))
    return text.count("\n", 0, found) + 1 if found >= 0 else None


def manifest_sheets(text: str, file: str, catalog: TaskCatalog) -> list[Sheet]:
    """The sheets of a block from the text of the manifest `kribbeln block` wrote beside it."""
    try:
        data: Any = json.loads(text)
        contents = data["contents"]
        if contents.get("kind") != "kribbeln-block":
            raise CatalogError(
                Msg("kribbeln_block_manifest_kind", get=shown(contents.get("kind"))), file=file
            )
        ids = [[t["id"] for t in sheet["tasks"]] for sheet in contents["sheets"]]
    except json.JSONDecodeError as exc:
        raise CatalogError(Msg("not_json", msg=exc.msg), file=file, line=exc.lineno) from None
    except RecursionError:
        raise CatalogError(Msg("kribbeln_block_manifest_nested"), file=file) from None
    except (KeyError, TypeError, AttributeError):
        raise CatalogError(Msg("kribbeln_block_manifest_expected"), file=file) from None
    if not ids:
        raise CatalogError(Msg("manifest_lists_sheets"), file=file)
    try:
        return sheets_from_ids(ids, catalog, where=file)
    except CatalogError as exc:  # a task the catalog no longer has: at its line
        missing = exc.msg.params.get("task_id")
        line = _line_of(text, str(missing)) if missing is not None else None
        if line is None:
            raise
        raise CatalogError(exc.msg, file=file, line=line) from None
