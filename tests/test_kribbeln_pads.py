"""Kribbeln pads as a playtester iterates on them: the seed's game by default, small edits
that stay small, and the balance re-checked from the manifest."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.core.resources import catalog_dir
from generator.kribbeln.balance import Balance
from generator.kribbeln.build import block_contents, sample_block_of
from generator.kribbeln.load import load_balance, load_block, load_dice, load_tasks
from generator.kribbeln.tasks import Task

# the task forms the seed names (type, count, colours named): docs/rules.md, section 1
SEED_FORMS = {
    ("none_of", None, 1), ("none_of", None, 2), ("exactly", 1, 1), ("exactly", 2, 1),
    ("one_and_none", None, 2),
    ("some_color_exactly", 3, 0), ("some_color_exactly", 4, 0), ("no_color_exactly", 2, 0),
    ("no_color_exactly", 3, 0), ("two_colors_exactly", 2, 0), ("distinct_colors", 3, 0),
    ("more_than", None, 2), ("equal", 1, 2), ("all_different", None, 2),
    ("all_different", None, 3), ("most", None, 1),
}  # fmt: skip
# the seed's forms easier than the p_max cap: on a pad only through the easy slot
EASY_FORMS = {("none_of", None, 1), ("no_color_exactly", 3, 0), ("all_different", None, 2)}


def form(task: Task | dict[str, Any]) -> tuple[str, int | None, int]:
    if isinstance(task, dict):  # a manifest's task
        params = task["params"]
        count = params.get("count", params.get("at_least"))
        return (task["type"], count, len(task["colors"]))
    return (task.type, task.count, len(task.colors))


@pytest.fixture(scope="module")
def inputs():  # type: ignore[no-untyped-def]
    return load_block()


def test_the_default_catalog_holds_the_seed_forms_and_nothing_else() -> None:
    tasks = load_tasks(load_dice()[0]).tasks
    assert {form(t) for t in tasks} == SEED_FORMS


def test_the_variants_catalog_is_the_seed_catalog_and_the_other_counts() -> None:
    dice = load_dice()[0]
    seed = load_tasks(dice).tasks
    variants = load_tasks(dice, "variants")
    assert variants.source == "task_catalog/kribbeln/tasks/variants.yaml"
    by_id = {t.id: t for t in variants.tasks}
    assert all(by_id[t.id] == t for t in seed)  # every seed task, unchanged
    extra = {form(t) for t in variants.tasks} - SEED_FORMS
    assert extra == {("distinct_colors", k, 0) for k in (2, 4, 5)}


def test_an_unknown_task_catalog_name_is_refused(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("kribbeln", "block", "--tasks", "varients", "--seed", "1")
    assert result.exit_code == 2
    assert "option --tasks" in result.stderr and "known: variants" in result.stderr


def test_every_seed_form_is_on_some_pad_and_no_other(inputs) -> None:  # type: ignore[no-untyped-def]
    seen: Counter[tuple[str, int | None, int]] = Counter()
    for seed in range(1, 31):
        block = sample_block_of(inputs, 6, seed)
        forms = [form(t) for s in block.sheets for t in s.tasks]
        assert set(forms) <= SEED_FORMS, set(forms) - SEED_FORMS
        for sheet in block.sheets:  # the easy slot: one easy task a sheet
            easy = [t for t in sheet.tasks if inputs.figures[t.id].p_success > 0.95]
            assert len(easy) == 1 and form(easy[0]) in EASY_FORMS
        seen.update(forms)
    assert set(seen) == SEED_FORMS, SEED_FORMS - set(seen)


def check_manifest(contents: dict[str, Any], b: Balance) -> None:
    """Every constraint, read from the manifest's figures (not with the sampler's check)."""
    sheets = contents["sheets"]
    ids = [t["id"] for s in sheets for t in s["tasks"]]
    assert len(ids) == len(set(ids))
    rows = []
    for s in sheets:
        tasks = s["tasks"]
        p = [t["p_success"] for t in tasks]
        assert len(p) == 6 and min(p) >= b.p_min
        assert sum(x > b.p_max for x in p) == b.easy_per_sheet
        assert {t["family"] for t in tasks} >= set(b.families)
        areas = [(p[0] + p[1]) / 2, (p[2] + p[3]) / 2, (p[4] + p[5]) / 2]
        assert areas[0] - areas[1] >= b.area_step - 1e-9
        assert areas[1] - areas[2] >= b.area_step - 1e-9
        assert max(Counter(c for t in tasks for c in t["colors"]).values()) <= 2
        rows.append(areas)
    means = [sum(r) / 3 for r in rows]
    assert max(means) - min(means) <= b.mean_tolerance  # both within it of their mean
    for a in range(3):
        column = [r[a] for r in rows]
        mean = sum(column) / len(column)
        assert all(abs(x - mean) <= b.area_mean_tolerance + 1e-9 for x in column)


def test_the_balance_holds_for_many_seeds(inputs) -> None:  # type: ignore[no-untyped-def]
    b = load_balance()
    for seed in range(100, 160):
        contents = block_contents(sample_block_of(inputs, 6, seed), "de")
        check_manifest(contents, b)


# --- small edits stay small ---------------------------------------------------------------


def _pad(run_cli, tasks: Path, out: Path, seed: int = 1) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    result = run_cli("kribbeln", "block", "--tasks", tasks, "--seed", seed, "--out", out)
    assert result.exit_code == 0, result.stderr
    contents: dict[str, Any] = json.loads(out.with_suffix(".json").read_text("utf-8"))["contents"]
    return contents


def _edited(tmp_path: Path, task_id: str, change: dict[str, Any]) -> Path:
    data = yaml.safe_load((catalog_dir() / "kribbeln" / "tasks.yaml").read_text("utf-8"))
    for task in data["tasks"]:
        if task["id"] == task_id:
            task.update(change)
    path = tmp_path / f"edited-{task_id}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _holding(contents: dict[str, Any], task_id: str) -> int:
    return next(s["number"] for s in contents["sheets"] if task_id in [t["id"] for t in s["tasks"]])


def _only_that_sheet_changed(before: dict, after: dict, sheet: int) -> None:
    assert len(before["sheets"]) == len(after["sheets"])
    for old, new in zip(before["sheets"], after["sheets"]):
        if old["number"] == sheet:
            assert old != new  # the edited task's words or figures
        else:
            assert old == new, old["number"]


def test_a_text_edit_changes_only_the_sheet_holding_the_task(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Another colour in one task's words: the other five sheets stay as they were."""
    shipped = catalog_dir() / "kribbeln" / "tasks.yaml"
    before = _pad(run_cli, shipped, tmp_path / "before.pdf")
    sheet = before["sheets"][1]  # sheet 2's first task of two colours
    task = next(t for t in sheet["tasks"] if len(t["colors"]) == 2)
    named = Counter(c for t in sheet["tasks"] for c in t["colors"])
    colors = ("green", "yellow", "black", "blue", "orange", "red")
    color = min((c for c in colors if c not in task["colors"]), key=lambda c: named[c])
    assert named[color] < 2  # the sheet still names no colour more than twice
    key = "colors" if "colors" in task["params"] else next(iter(task["params"]))
    value: Any = [color, task["colors"][1]] if key == "colors" else color
    after = _pad(run_cli, _edited(tmp_path, task["id"], {key: value}), tmp_path / "after.pdf")
    check_manifest(after, load_balance())
    assert _holding(after, task["id"]) == 2
    _only_that_sheet_changed(before, after, 2)


def test_a_numbers_edit_changes_only_the_sheet_holding_the_task(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """ "No colour exactly four times" for three: easier still, and the pad still balanced."""
    shipped = catalog_dir() / "kribbeln" / "tasks.yaml"
    before = _pad(run_cli, shipped, tmp_path / "before.pdf")
    after = _pad(run_cli, _edited(tmp_path, "no_color_3", {"count": 4}), tmp_path / "after.pdf")
    check_manifest(after, load_balance())
    sheet = _holding(before, "no_color_3")
    assert _holding(after, "no_color_3") == sheet
    _only_that_sheet_changed(before, after, sheet)


def test_the_same_seed_gives_the_same_bytes(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for name in ("a", "b"):
        result = run_cli("kribbeln", "block", "--seed", "4", "--out", tmp_path / f"{name}.pdf")
        assert result.exit_code == 0, result.stderr
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    a, b = (json.loads((tmp_path / f"{n}.json").read_text("utf-8")) for n in ("a", "b"))
    assert a.pop("pdf") == "a.pdf" and b.pop("pdf") == "b.pdf"  # the one line that differs
    assert a == b


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [("de", "Der älteste Spieler beginnt"), ("en", "the oldest player begins")],
)
def test_the_rules_page_has_the_oldest_player_begin(
    run_cli, tmp_path: Path, lang: str, sentence: str
) -> None:  # type: ignore[no-untyped-def]
    from tests.pdfcheck import page_texts

    out = tmp_path / "pad.pdf"
    result = run_cli("kribbeln", "block", "--seed", "1", "--lang", lang, "--out", out)
    assert result.exit_code == 0, result.stderr
    rules = json.loads(out.with_suffix(".json").read_text("utf-8"))["contents"]["rules_pages"]
    text = " ".join(" ".join(page_texts(out)[p - 1] for p in rules).split())
    assert sentence in text
