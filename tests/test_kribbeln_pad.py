"""The default pad is the seed's game, and a small edit stays small (sheet by sheet sampling)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from generator.core.resources import catalog_dir
from generator.io.cache import DISK
from generator.kribbeln.balance import TaskFacts
from generator.kribbeln.load import load_balance, load_dice, load_tasks
from generator.kribbeln.sampler import sample_block
from generator.kribbeln.solver import analyze_tasks

# the task forms of the German original (seeds: "Die Aufgaben"), as (type, count or colours)
SEED_FORMS = {
    ("none_of", 1), ("none_of", 2),                       # keine Würfel einer/zweier Farben
    ("exactly", 1), ("exactly", 2),                       # genau ein oder zwei Würfel
    ("one_and_none", 2),                                  # eine genau einmal, eine gar nicht
    ("some_color_exactly", 3), ("some_color_exactly", 4),  # eine Farbe genau 3x oder 4x
    ("no_color_exactly", 2), ("no_color_exactly", 3),     # keine Farbe genau 2x oder 3x
    ("two_colors_exactly", 2),                            # zwei Farben genau 2x
    ("distinct_colors", 3),                               # genau drei verschiedene Farben
    ("more_than", 2), ("equal", 2),                       # mehr als; gleich viele
    ("all_different", 2), ("all_different", 3),           # zwei oder drei unterschiedlich oft
    ("most", 1),                                          # öfter als alle anderen
}  # fmt: skip
COUNTED = {"exactly", "some_color_exactly", "no_color_exactly", "two_colors_exactly",
           "distinct_colors"}  # fmt: skip


def form(task) -> tuple[str, int]:
    return (task.type, task.count if task.type in COUNTED else len(task.colors))


@pytest.fixture(scope="module")
def shipped():
    dice = load_dice()[0]
    catalog = load_tasks(dice)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    facts = [TaskFacts(t.id, t.family, t.colors, figures[t.id].p_success) for t in catalog.tasks]
    return catalog, facts


def test_the_default_catalog_has_exactly_the_seed_forms(shipped) -> None:
    catalog, _ = shipped
    assert {form(t) for t in catalog.tasks} == SEED_FORMS


def test_the_variants_catalog_holds_the_rest(run_cli, tmp_path: Path) -> None:
    dice = load_dice()[0]
    variants = load_tasks(dice, "variants")
    assert variants.source == "task_catalog/kribbeln/variants.yaml"
    extra = {form(t) for t in variants.tasks} - SEED_FORMS
    assert extra == {("distinct_colors", 2), ("distinct_colors", 4), ("distinct_colors", 5)}
    result = run_cli("kribbeln", "block", "--tasks", "variants", "--seed", "3", "--no-key",
                     "--out", tmp_path / "v.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "v.json").read_text(encoding="utf-8"))
    assert manifest["contents"]["task_file"] == "task_catalog/kribbeln/variants.yaml"


def test_every_seed_form_appears_on_some_pad(shipped) -> None:
    """Easy forms too ("kein Würfel zeigt X", 0.97): the easy slot gives them their place."""
    catalog, facts = shipped
    balance = load_balance()
    seen = set()
    for seed in range(1, 13):
        seen |= {form(catalog.task(i)) for sheet in sample_block(facts, balance, 6, seed).sheets
                 for i in sheet}  # fmt: skip
    assert seen == SEED_FORMS


def _changed(facts, balance, seed: int, task_id: str) -> tuple[list[int], list[int]]:
    """The sheets holding `task_id`, and the sheets that differ once its p_success moves."""
    before = sample_block(facts, balance, 6, seed).sheets
    edited = [dataclasses.replace(t, p_success=t.p_success - 0.01) if t.id == task_id else t
              for t in facts]  # fmt: skip
    after = sample_block(edited, balance, 6, seed).sheets
    holders = [n for n, sheet in enumerate(before, 1) if task_id in sheet]
    return holders, [n for n in range(1, 7) if before[n - 1] != after[n - 1]]


@pytest.mark.parametrize("seed", [1, 2, 4, 5, 6])
def test_an_edited_task_moves_only_its_own_sheet(shipped, seed: int) -> None:
    _, facts = shipped
    balance = load_balance()
    task = sample_block(facts, balance, 6, seed).sheets[1][2]  # sheet 2, row 3
    holders, changed = _changed(facts, balance, seed, task)
    assert set(changed) <= set(holders) == {2}


@pytest.mark.parametrize("seed", range(1, 9))
def test_an_edited_task_no_sheet_holds_moves_nothing(shipped, seed: int) -> None:
    _, facts = shipped
    balance = load_balance()
    on = {i for sheet in sample_block(facts, balance, 6, seed).sheets for i in sheet}
    task = [t.id for t in facts if t.id not in on][3 * seed]
    assert _changed(facts, balance, seed, task) == ([], [])


def test_the_shipped_tasks_file_names_no_variant() -> None:
    text = (catalog_dir() / "kribbeln" / "tasks.yaml").read_text(encoding="utf-8")
    assert "distinct_2" not in text and "distinct_4" not in text and "distinct_5" not in text
