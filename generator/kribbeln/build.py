"""The Kribbeln block: requests and inputs → sample → build → `Built`.

`generator.kribbeln.load.load_block` is the edge: it reads the dice, the task
catalog and the balance constraints and takes every task's figures from the
solver (cached).
`sample_block_of` draws the balanced sheets (pure, seeded) as a `KribbelnBlock`
— the object the answer key, the manifest, the balance report and the
simulation all use; `build_block` lays out the sheets, the optional rules page
and answer key with the manifest contents (the same figures per task as the
key, so a block can be checked and simulated later).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.core.built import Built, font_warnings, invisible_warnings
from generator.core.errors import CatalogError, Input, InputError, Msg, Note, UserError
from generator.kribbeln.balance import Balance, TaskFacts, area_means, violations
from generator.kribbeln.block import Sheet, sheets_from_ids
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.sampler import MAX_PAGES, sample_block
from generator.kribbeln.solver import TaskFigures
from generator.kribbeln.tasks import TEMPLATE, TaskCatalog, task_text
from generator.text.words import Templates, Texts, comma_names, page_label

MIN_PLAYERS = 2
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 5  # the real game: 2–5 players
_DIGITS = 10


@dataclass(frozen=True)
class BlockRequest:
    """What `dicesheets kribbeln block` was asked for."""

    pages: int = 6
    seed: int = 1
    balance_file: str | None = None
    dice_file: str | None = None
    tasks_file: str | None = None
    players: int | None = None
    names: str | None = None
    lang: str = "de"
    paper: str = "a4"
    landscape: bool = False
    rules: bool = True
    key: bool = True
    sheets_file: str | None = None  # the designer's own sheets instead of sampled ones
    pin: str | None = None  # "2,5": sheets of the last pad kept, the others sampled
    last_pad: str | None = None  # the last pad's manifest (the CLI finds it for --pin)

    @property
    def file_name(self) -> str:
        """The PDF's default name (the manifest beside it is the last pad of a rebuild)."""
        return f"kribbeln-block-{self.seed}-{self.lang}.pdf"


@dataclass(frozen=True)
class KribbelnBlock:
    """A sampled block with everything needed to print, check and simulate it."""

    dice: DiceSet
    catalog: TaskCatalog
    balance: Balance
    sheets: tuple[Sheet, ...]
    figures: dict[str, TaskFigures]
    seed: int
    attempts: int
    templates: Templates

    def facts(self, sheet: Sheet) -> list[TaskFacts]:
        return [
            TaskFacts(t.id, t.family, t.colors, self.figures[t.id].p_success) for t in sheet.tasks
        ]


def player_names(players: int | None, names: str | None) -> tuple[str, ...]:
    """The name of every player column ("" = a blank column to write in)."""
    given = comma_names(names) if names is not None else ()
    count = players if players is not None else (len(given) or DEFAULT_PLAYERS)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InputError(
            "players" if players is not None else "names",
            Msg(
                "range", low=MIN_PLAYERS, high=MAX_PLAYERS, noun="players", found=count, real="2–5"
            ),
        )
    if len(given) > count:
        raise InputError("names", Msg("names_for", names=len(given), players=count))
    return given + ("",) * (count - len(given))


@dataclass(frozen=True)
class BlockInputs:
    """What a block is sampled from: dice, tasks with their figures, balance, templates."""

    dice: DiceSet
    catalog: TaskCatalog
    balance: Balance
    figures: dict[str, TaskFigures]
    warnings: tuple[str, ...]  # the dice file's (home-made dice that are no Latin square)
    templates: Templates
    chosen: tuple[str, tuple[Sheet, ...]] | None = None  # --sheets: its file and its sheets
    pinned: tuple[str, tuple[Sheet, ...]] | None = None  # --pin: the last pad and its sheets


class Unbalanced(CatalogError):
    """No block of that many sheets meets the balance: the sampler's error (at the balance
    file's line, for the designer), with the sheets asked for (a page says it at its field)."""

    def __init__(self, exc: CatalogError, pages: int) -> None:
        super().__init__(exc.msg, file=exc.file, line=exc.line, column=exc.column)
        self.pages = pages


def sample_block_of(inputs: BlockInputs, pages: int, seed: int) -> KribbelnBlock:
    """A balanced block of `pages` sheets for `seed` (pure)."""
    if not 1 <= pages <= MAX_PAGES:
        raise InputError("pages", Msg("range", low=1, high=MAX_PAGES, noun="sheets", found=pages))
    tasks, figures = inputs.catalog, inputs.figures
    facts = [TaskFacts(t.id, t.family, t.colors, figures[t.id].p_success) for t in tasks.tasks]
    pinned = {}
    if inputs.pinned is not None:
        pinned = {s.number: tuple(t.id for t in s.tasks) for s in inputs.pinned[1]}
    try:
        sampled = sample_block(facts, inputs.balance, pages, seed, pinned)
    except CatalogError as exc:
        raise Unbalanced(exc, pages) from None
    sheets = tuple(sheets_from_ids(sampled.sheets, tasks))
    return KribbelnBlock(
        inputs.dice,
        tasks,
        inputs.balance,
        sheets,
        figures,
        seed,
        sampled.attempts,
        inputs.templates,
    )


def block_of_sheets(inputs: BlockInputs, sheets: Sequence[Sheet], seed: int) -> KribbelnBlock:
    """The block of sheets the designer chose (nothing sampled; the balance is only checked)."""
    if not 1 <= len(sheets) <= MAX_PAGES:
        found = len(sheets)
        raise InputError("sheets", Msg("range", low=1, high=MAX_PAGES, noun="sheets", found=found))
    return KribbelnBlock(
        inputs.dice,
        inputs.catalog,
        inputs.balance,
        tuple(sheets),
        inputs.figures,
        seed,
        0,
        inputs.templates,
    )


def missed_constraints(block: KribbelnBlock, file: str, pinned: bool = False) -> tuple[Note, ...]:
    """One warning per balance constraint a block of chosen (or pinned) sheets misses, in
    the order `violations` finds them (the sampler never returns such a block)."""
    found: dict[str, list[str]] = {}
    for v in violations([block.facts(s) for s in block.sheets], block.balance):
        found.setdefault(v.constraint, []).append(str(v).partition(": ")[2])
    return tuple(
        Note(
            Msg("pinned_miss_constraint", file=file, constraint=name, what="; ".join(what))
            if pinned
            else Msg("sheets_miss_constraint", file=file, constraint=name, what="; ".join(what))
        )
        for name, what in found.items()
    )


def task_hashes(catalog: TaskCatalog) -> dict[str, str]:
    """Every task's fingerprint: its type, numbers and family (its words come from them), so
    the next pad can tell a task added or changed since this one."""
    out = {}
    for t in catalog.tasks:
        text = json.dumps([t.type, t.params(), t.family], sort_keys=True, ensure_ascii=False)
        out[t.id] = hashlib.sha256(text.encode()).hexdigest()[:12]
    return out


def news_not_on(
    last: Mapping[str, Any], contents: Mapping[str, Any], last_file: str
) -> tuple[Note, ...]:
    """A warning per task added or changed since the last pad (its manifest's `contents`)
    that this pad does not print (nothing when the last pad recorded no fingerprints)."""
    before = last.get("task_hashes")
    if not isinstance(before, dict):
        return ()
    printed = {t["id"] for sheet in contents["sheets"] for t in sheet["tasks"]}
    notes = []
    for task_id, fingerprint in contents["task_hashes"].items():
        if task_id in printed or before.get(task_id) == fingerprint:
            continue
        if task_id not in before:
            notes.append(Note(Msg("task_added_not_on_pad", task=task_id, last=last_file)))
        else:
            notes.append(Note(Msg("task_changed_not_on_pad", task=task_id, last=last_file)))
    return tuple(notes)


def _r(x: float) -> float:
    return round(float(x), _DIGITS)


def block_contents(block: KribbelnBlock, lang: str) -> dict[str, Any]:
    """The manifest contents: per sheet and task the same figures the answer key prints."""
    texts = Texts(TEMPLATE, lang, block.templates)
    sheets = []
    means_p, means_pips = [], []
    for sheet in block.sheets:
        rows = []
        p = [block.figures[t.id].p_success for t in sheet.tasks]
        pips = [block.figures[t.id].expected_pips for t in sheet.tasks]
        means_p.append(sum(p) / len(p))
        means_pips.append(sum(pips) / len(pips))
        for i, task in enumerate(sheet.tasks):
            fig = block.figures[task.id]
            area = i // 2 + 1
            rows.append(
                {
                    "row": 3 * (area - 1) + i % 2 + 1,
                    "area": area,
                    "id": task.id,
                    "family": task.family,
                    "type": task.type,
                    "params": task.params(),
                    "colors": list(task.colors),
                    "text": task_text(task, block.dice, lang, texts),
                    "p_success": _r(fig.p_success),
                    "expected_pips": _r(fig.expected_pips),
                    "stars": block.balance.stars_of(fig.p_success),
                }
            )
        sheets.append(
            {
                "number": sheet.number,
                "page": sheet.number,
                "mean_p_success": _r(means_p[-1]),
                "mean_expected_pips": _r(means_pips[-1]),
                "area_mean_p_success": [_r(m) for m in area_means(p)],
                "tasks": rows,
            }
        )
    broken = violations([block.facts(s) for s in block.sheets], block.balance)
    return {
        "kind": "kribbeln-block",
        "lang": lang,
        "pages": len(block.sheets),
        "dice_file": block.dice.source,
        "task_file": block.catalog.source,
        "balance_file": block.balance.source,
        "rolls": block.catalog.rolls,
        "balance": block.balance.settings(),
        "constraints_met": not broken,
        "violations": [str(v) for v in broken],
        "sampler_attempts": block.attempts,
        "block_mean_p_success": _r(sum(means_p) / len(means_p)),
        "block_mean_expected_pips": _r(sum(means_pips) / len(means_pips)),
        "sheets": sheets,
        "task_hashes": task_hashes(block.catalog),
    }


def build_block(inputs: BlockInputs, req: BlockRequest) -> Built:
    """The block's sheets, rules page and answer key: layout document and manifest (pure)."""
    from generator.kribbeln.layout import layout_block
    from generator.kribbeln.pages import key_view, rules_story, sheet_view

    names = player_names(req.players, req.names)
    missed: tuple[Note, ...] = ()
    if inputs.chosen is not None:
        file, chosen = inputs.chosen
        block = block_of_sheets(inputs, chosen, req.seed)
        missed = missed_constraints(block, file)
    else:
        block = sample_block_of(inputs, req.pages, req.seed)
        if inputs.pinned is not None:  # the drawn sheets meet the balance; with the pinned?
            missed = missed_constraints(block, inputs.pinned[0], pinned=True)
    rolls, templates, lang = block.catalog.rolls, inputs.templates, req.lang
    views = [
        sheet_view(s, len(block.sheets), block.dice, names, lang, req.seed, rolls, templates)
        for s in block.sheets
    ]
    rules = (
        rules_story(block.dice, len(block.sheets), lang, rolls, templates) if req.rules else None
    )
    missed_names = tuple(m.msg.params["constraint"] for m in missed)
    key = (
        key_view(
            block.sheets, block.dice, block.figures, block.balance, lang, req.seed, rolls,
            templates, missed_names,
        )
        if req.key
        else None
    )  # fmt: skip
    rules_footer = Texts("kribbeln_rules", lang, templates)("footer", seed=req.seed)
    layout = layout_block(
        views, rules, key, req.paper, req.landscape, views[0].words["title"], rules_footer,
        page_label(lang, templates),
    )  # fmt: skip
    doc = layout.document
    contents = block_contents(block, lang)
    first_rules = layout.sheet_pages + 1
    first_key = first_rules + layout.rules_pages
    contents.update(
        {
            "players": len(names),
            "names": [n for n in names if n],
            "pdf_pages": len(doc.pages),
            "sheet_pages": list(range(1, layout.sheet_pages + 1)),
            "rules_pages": list(range(first_rules, first_key)),
            "key_pages": list(range(first_key, first_key + layout.key_pages)),
            "page_size_pt": [round(doc.width, 2), round(doc.height, 2)],
            "sheets_chosen": inputs.chosen is not None,
            "pinned": [s.number for s in inputs.pinned[1]] if inputs.pinned else [],
            "warnings": [str(m) for m in missed],
        }
    )
    options = {
        "pages": len(block.sheets),
        "sheets": req.sheets_file,
        "pin": req.pin,
        "balance": req.balance_file,
        "dice": req.dice_file,
        "tasks": req.tasks_file,
        "players": len(names),
        "names": req.names,
        "lang": lang,
        "paper": req.paper,
        "landscape": req.landscape,
        "rules": req.rules,
        "key": req.key,
    }
    name = req.file_name
    warnings: tuple[str | UserError, ...] = (
        *inputs.warnings,
        *missed,
        *font_warnings((Input("names"), n) for n in names),
        *invisible_warnings([(Input("names"), req.names)]),
    )
    return Built("kribbeln block", name, doc, options, req.seed, contents, warnings)
