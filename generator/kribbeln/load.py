"""The Kribbeln edge: dice, tasks, balance, pages, manifests and score files from disk.

Everything here reads (the catalog's files, a user's files, the on-disk solver
cache) and hands `generator.kribbeln` frozen values; the commands' work
(`report.analyze`, `playtest.play` …) gets the disk cache as its `store`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import CatalogError, InputError, Msg, shown
from generator.core.problems import Problems
from generator.core.resources import catalog_dir
from generator.io.cache import DISK
from generator.io.catalog import Catalog, find_file
from generator.io.progress import progress
from generator.io.userfiles import read_text
from generator.io.yamlload import MAX_BYTES, load_file
from generator.kribbeln.balance import DEFAULT_FILE as BALANCE_FILE
from generator.kribbeln.balance import Balance, parse_balance
from generator.kribbeln.block import (
    MAX_MANIFEST_BYTES,
    Sheet,
    manifest_sheets,
    parse_pages,
    parse_sheet_lines,
)
from generator.kribbeln.build import BlockInputs, BlockRequest, sample_block_of
from generator.kribbeln.dice import DEFAULT_FILE as DICE_FILE
from generator.kribbeln.dice import DiceSet, parse_dice
from generator.kribbeln.playtest import DEFAULT_PAGES, check_game_options, play
from generator.kribbeln.scorefile import ScoreSheet, parse_score_file, score_report
from generator.kribbeln.solver import analyze_tasks
from generator.kribbeln.taskcsv import parse_csv_tasks, tasks_csv, tasks_yaml
from generator.kribbeln.tasks import CATALOGS_DIR as TASKS_DIR
from generator.kribbeln.tasks import CSV_FILE as TASKS_CSV
from generator.kribbeln.tasks import DEFAULT_FILE as TASKS_FILE
from generator.kribbeln.tasks import DEFAULT_ROLLS, TaskCatalog, parse_tasks, task_text
from generator.kribbeln.tasks import TEMPLATE as TASK_TEMPLATE
from generator.text.words import LANGS, Texts

if TYPE_CHECKING:
    from generator.kribbeln.simulate import Simulation


# --- dice, tasks, balance ----------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def shipped_looks() -> Mapping[str, tuple[str, str]]:
    """Symbol and pattern of each shipped colour: the first choice for a colour of that id."""
    path = catalog_dir() / DICE_FILE
    dice, _ = parse_dice(load_file(path, f"task_catalog/{DICE_FILE}"), "shipped")
    return {c.id: (c.symbol, c.pattern) for c in dice.colors}


def load_dice_file(
    path: Path, label: str, problems: Problems | None = None
) -> tuple[DiceSet, list[str]]:
    """Read and validate one dice file; returns the dice and warnings ("file:line: …")."""
    return parse_dice(load_file(path, label), label, problems, shipped_looks)


def load_dice(file: str | None = None, catalog: Catalog | None = None) -> tuple[DiceSet, list[str]]:
    """The shipped dice (`file` None) or a user's dice file; returns the dice and warnings."""
    path, label = find_file(DICE_FILE, file, "dice", "dice file", catalog)
    return load_dice_file(path, label)


def load_balance_file(path: Path, label: str) -> Balance:
    """Read and validate one balance file."""
    return parse_balance(load_file(path, label), label)


def load_balance(file: str | None = None, catalog: Catalog | None = None) -> Balance:
    """The shipped balance constraints (`file` None) or a user's balance file."""
    path, label = find_file(BALANCE_FILE, file, "balance", "balance file", catalog)
    return load_balance_file(path, label)


def load_tasks_file(
    path: Path, label: str, dice: DiceSet, problems: Problems | None = None
) -> TaskCatalog:
    """Read and validate one task file (YAML, or CSV by its suffix) against the dice."""
    if path.suffix.lower() == ".csv":
        text = read_text(path, label, MAX_BYTES, advice="save the sheet as 'CSV UTF-8'")
        return parse_csv_tasks(text, label, dice, problems)
    return parse_tasks(load_file(path, label), label, dice, problems)


def task_catalog_names(catalog: Catalog | None = None) -> list[str]:
    """The task catalogs `--tasks` takes by name besides the default (`variants`)."""
    return (catalog or Catalog.default()).names(TASKS_DIR)


def _is_name(text: str) -> bool:
    """A bare catalog name: no folder, no suffix (anything else is a file's path)."""
    return bool(text) and "/" not in text and "\\" not in text and "." not in text


def load_tasks(
    dice: DiceSet,
    file: str | None = None,
    catalog: Catalog | None = None,
    problems: Problems | None = None,
) -> TaskCatalog:
    """The catalog's task file (`file` None), a user's task file, or a task catalog of the
    catalog by name (`kribbeln/tasks/NAME.yaml`: "variants"), checked against `dice`.

    A catalog folder may hold its tasks as `kribbeln/tasks.csv` instead of `tasks.yaml`.
    """
    catalog = catalog or Catalog.default()
    if file is not None and not Path(file).is_file() and _is_name(file):
        # a task catalog of the catalog by name (`--tasks variants`); a file wins
        named = catalog.path(f"{TASKS_DIR}/{file}.yaml")
        if named is None:
            known = ", ".join(task_catalog_names(catalog)) or "-"
            raise InputError("tasks", Msg("no_task_catalog", name=shown(file), known=known))
        return load_tasks_file(named, catalog.label(named), dice, problems)
    if file is None:
        for folder in catalog.dirs:
            found = [folder / rel for rel in (TASKS_FILE, TASKS_CSV) if (folder / rel).is_file()]
            if len(found) == 2:
                raise CatalogError(Msg("two_task_files"), file=catalog.label(found[1]))
            if found:
                return load_tasks_file(found[0], catalog.label(found[0]), dice, problems)
    path, label = find_file(TASKS_FILE, file, "tasks", "task catalog", catalog)
    return load_tasks_file(path, label, dice, problems)


def load_files(
    dice_file: str | None, tasks_file: str | None, catalog: Catalog | None
) -> tuple[DiceSet, TaskCatalog, list[str]]:
    """The dice and tasks: the user's files, else those of the run's catalog."""
    dice, warnings = load_dice(dice_file, catalog)
    return dice, load_tasks(dice, tasks_file, catalog), warnings


# --- sheets from files -------------------------------------------------------------------


def load_pages_file(file: str, catalog: TaskCatalog) -> list[Sheet]:
    """Sheets from a pages file (six task ids per sheet, row order)."""
    path = Path(file)
    if not path.is_file():
        raise InputError("pages", Msg("not_a_file", path=file))
    return parse_pages(load_file(path, file), file, catalog)


def load_block_manifest(file: str, catalog: TaskCatalog) -> list[Sheet]:
    """The sheets of a block from the manifest `dicesheets kribbeln block` wrote beside it."""
    path = Path(file)
    if not path.is_file():
        raise InputError("block", Msg("not_a_file", path=shown(file)))
    return manifest_sheets(read_text(path, file, MAX_MANIFEST_BYTES), file, catalog)


def load_sheets_file(file: str, catalog: TaskCatalog) -> list[Sheet]:
    """The sheets `kribbeln block --sheets FILE` prints, by the file's suffix: a pad's
    manifest (.json), a pages file (.yaml/.yml, `sheets:`) or a list of sheets (.csv or
    any other text: one line of six task ids per sheet)."""
    path = Path(file)
    if not path.is_file():
        raise InputError("sheets", Msg("not_a_file", path=shown(file)))
    suffix = path.suffix.lower()
    if suffix == ".json":
        return manifest_sheets(read_text(path, file, MAX_MANIFEST_BYTES), file, catalog)
    if suffix in (".yaml", ".yml"):
        return parse_pages(load_file(path, file), file, catalog)
    text = read_text(path, file, MAX_BYTES, advice="save the sheet as 'CSV UTF-8'")
    return parse_sheet_lines(text, file, catalog)


def pin_numbers(text: str) -> tuple[int, ...]:
    """The sheet numbers of `--pin 2,5`: whole numbers from 1, in order, each once."""
    parts = [p.strip() for p in text.split(",")]
    if not parts or not all(p.isdigit() and p.isascii() and int(p) >= 1 for p in parts):
        raise InputError("pin", Msg("pin_numbers", found=shown(text)))
    return tuple(sorted({int(p) for p in parts}))


def load_pinned(req: BlockRequest, catalog: TaskCatalog) -> tuple[str, tuple[Sheet, ...]]:
    """The sheets `--pin` keeps: those of the last pad's manifest (`req.last_pad`) it names."""
    assert req.pin is not None
    numbers = pin_numbers(req.pin)
    if req.last_pad is None:  # the CLI names the folder it looked in
        raise InputError("pin", Msg("pin_no_last_pad", folder="."))
    last = load_block_manifest(req.last_pad, catalog)
    for n in numbers:
        if n > len(last):
            raise InputError(
                "pin", Msg("pin_past_last", number=n, last=shown(req.last_pad), sheets=len(last))
            )
        if n > req.pages:
            raise InputError("pin", Msg("pin_past_pages", number=n, pages=req.pages))
    return req.last_pad, tuple(last[n - 1] for n in numbers)


def check_score_file(path: str | Path) -> ScoreSheet:
    """Read a filled sheet and score it: points per row, totals, winner, breaches."""
    file = str(path)
    names, rows, sheet = parse_score_file(load_file(Path(path), file), file)
    return score_report(names, rows, sheet)


# --- what the commands read before they work ------------------------------------------


def load_block(req: BlockRequest | None = None, catalog: Catalog | None = None) -> BlockInputs:
    """Read the dice, tasks and balance files (the user's, else the catalog's) and the figures."""
    req = req or BlockRequest()
    catalog = catalog or Catalog.default()
    balance = load_balance(req.balance_file, catalog)
    dice, warnings = load_dice(req.dice_file, catalog)
    tasks = load_tasks(dice, req.tasks_file, catalog)
    chosen = None
    if req.sheets_file is not None:  # the designer's own sheets, printed as they are
        chosen = (req.sheets_file, tuple(load_sheets_file(req.sheets_file, tasks)))
    pinned = None
    if req.pin is not None:  # sheets of the last pad kept
        pinned = load_pinned(req, tasks)
    figures = analyze_tasks(dice, tasks.tasks, tasks.rolls, store=DISK)
    return BlockInputs(
        dice, tasks, balance, figures, tuple(warnings), catalog.templates(), chosen, pinned
    )


def export_tasks(
    fmt: str,
    dice_file: str | None = None,
    tasks_file: str | None = None,
    files: Catalog | None = None,
) -> tuple[str, list[str]]:
    """The task catalog in force (`files`' (the run's catalog), or `tasks_file`) as CSV or YAML."""
    dice, warnings = load_dice(dice_file, files)
    catalog = load_tasks(dice, tasks_file, files)
    if fmt == "csv":  # with each task's words and figures, for the designer to sort by
        templates = (files or Catalog.default()).templates()
        words = {lang: Texts(TASK_TEMPLATE, lang, templates) for lang in LANGS}
        texts = {
            t.id: {lang: task_text(t, dice, lang, words[lang]) for lang in LANGS}
            for t in catalog.tasks
        }
        figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
        return tasks_csv(catalog.tasks, catalog.rolls, DEFAULT_ROLLS, texts, figures), warnings
    return tasks_yaml(catalog.tasks, catalog.rolls), warnings


def playtest(
    players: int,
    games: int,
    seed: int,
    goal: str = "pips",
    pages_file: str | None = None,
    block_file: str | None = None,
    balance_file: str | None = None,
    dice_file: str | None = None,
    tasks_file: str | None = None,
    files: Catalog | None = None,
) -> tuple[Simulation, list[str]]:
    """Simulate `games` games; the figures and the dice file's warnings."""
    check_game_options(players, games, goal)
    if pages_file and block_file:
        raise InputError("block", Msg("pages_and_block"))
    dice, warnings = load_dice(dice_file, files)
    catalog = load_tasks(dice, tasks_file, files)
    sheets: Sequence[Sheet]
    if pages_file:
        sheets, source = load_pages_file(pages_file, catalog), pages_file
    elif block_file:
        sheets, source = load_block_manifest(block_file, catalog), block_file
    else:
        req = BlockRequest(DEFAULT_PAGES, seed, balance_file, dice_file, tasks_file)
        block = sample_block_of(load_block(req, files), DEFAULT_PAGES, seed)
        sheets, source = block.sheets, f"kribbeln block --seed {seed}"
    with progress(games, "simulating games") as tick:
        result = play(
            dice, sheets, catalog.rolls, players, games, seed, goal, source, tick, store=DISK
        )
    return result, warnings
