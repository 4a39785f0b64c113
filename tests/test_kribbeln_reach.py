"""No task dropped in silence: `validate` and the balance report list every task no pad uses."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.core.resources import catalog_dir
from generator.core.store import NO_STORE
from generator.io.catalog import Catalog
from generator.kribbeln.build import sample_block_of
from generator.kribbeln.load import load_block
from generator.kribbeln.reach import unreachable
from generator.validate.checks import validate

# a new task far harder than the band (5 of 6 dice red: the solver gives about 0.03)
NEW = "  - {id: five_red, type: exactly, color: red, count: 5, family: exact}\n"


def _catalog(tmp_path: Path, extra: str = NEW) -> Path:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    text = (catalog_dir() / "kribbeln" / "tasks.yaml").read_text(encoding="utf-8")
    (folder / "tasks.yaml").write_text(text + extra, encoding="utf-8")
    shutil.copy(catalog_dir() / "kribbeln" / "dice.yaml", folder / "dice.yaml")
    return tmp_path / "mine"


def test_validate_lists_a_task_outside_the_band_with_its_figure(tmp_path: Path) -> None:
    folder = _catalog(tmp_path)
    inputs = load_block(catalog=Catalog.default(folder))
    p = inputs.figures["five_red"].p_success
    assert p < 0.45
    report = validate(folder)
    assert report.errors == [] and report.warnings == []
    lines = (folder / "kribbeln" / "tasks.yaml").read_text(encoding="utf-8").count("\n")
    assert (
        f"kribbeln/tasks.yaml:{lines}:5: task 'five_red' is on no pad: p_success {p:.3f} is "
        "below the band 0.45–0.95 (p_min)"
    ) in [n.split("mine/", 1)[-1] for n in report.notes]
    # and every shipped task above the cap, with its figure: "kein Würfel zeigt Rot" (0.973)
    assert any("task 'none_red' is on no pad: p_success 0.973 is above" in n for n in report.notes)
    # a task some pad uses is not listed
    assert not any("'exactly2_red'" in n for n in report.notes)


def test_validate_prints_the_notes_and_they_count_as_no_problem(run_cli, tmp_path: Path) -> None:
    folder = _catalog(tmp_path)
    result = run_cli("validate", "--catalog", str(folder), "--strict")
    assert result.exit_code == 0, result.output
    notes = [ln for ln in result.stderr.splitlines() if ln.startswith("note: ")]
    assert any("task 'five_red' is on no pad" in n for n in notes)
    assert result.stdout.endswith(": 0 problems, 0 warnings\n")


def test_a_task_never_drawn_is_listed_with_the_samples() -> None:
    inputs = load_block(catalog=Catalog.default())
    drawn = {t.id for s in sample_block_of(inputs, 6, 1).sheets for t in s.tasks}
    found = {u.id: u for u in unreachable(inputs, samples=1, store=NO_STORE)}
    b = inputs.balance
    in_band = [t.id for t in inputs.catalog.tasks
               if b.p_min <= inputs.figures[t.id].p_success <= b.p_max]  # fmt: skip
    never = [i for i in in_band if i not in drawn]
    assert never and all(found[i].reason == "never_drawn" for i in never)
    assert not drawn & set(found)
    u = found[never[0]]
    assert u.samples == 1
    assert u.msg(b.p_min, b.p_max).say("en") == (
        f"task '{u.id}' (p_success {u.p_success:.3f}) was on none of 1 sampled pads of 6 "
        "sheets: the other constraints leave it no place"
    )


def test_the_default_samples_draw_every_shipped_task_in_the_band() -> None:
    inputs = load_block(catalog=Catalog.default())
    reasons = {u.reason for u in unreachable(inputs, store=NO_STORE)}
    assert reasons == {"below", "above"}  # nothing in the band is left out by the search


def test_the_balance_report_lists_every_task_no_pad_uses(tmp_path: Path) -> None:
    from generator.registry import PRODUCTS

    folder = _catalog(tmp_path)
    built = PRODUCTS["report"].make(
        {"game": "kribbeln", "games": 200, "lang": "en"}, Catalog.default(folder)
    )
    listed = {u["id"]: u for u in built.contents["unreachable"]}
    inputs = load_block(catalog=Catalog.default(folder))
    assert listed["five_red"] == {
        "id": "five_red",
        "reason": "below",
        "p_success": round(inputs.figures["five_red"].p_success, 10),
    }
    assert listed["none_red"]["reason"] == "above"
    assert set(listed) == {u.id for u in unreachable(inputs, store=NO_STORE)}
    assert built.contents["unreachable_samples"] == 40
    figures = dict(built.contents["figures"])
    assert figures["tasks on no pad"] == f"{len(listed)}, 0 of them never drawn"
