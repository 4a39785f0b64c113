"""`kribbeln block` warns when a task added or changed since the last pad is not on the new one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from generator.core.resources import catalog_dir

OLD = "  - {id: exactly2_red, type: exactly, color: red, count: 2, family: exact}\n"
# far harder than the band: never on a pad
EDITED = "  - {id: exactly2_red, type: exactly, color: red, count: 5, family: exact}\n"
NEW = "  - {id: five_blue, type: exactly, color: blue, count: 5, family: exact}\n"


def _warnings(result) -> list[str]:
    return [ln for ln in result.stderr.splitlines() if ln.startswith("dicesheets: warning:")]


def test_an_edited_or_new_task_not_on_the_pad_is_named(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    tasks = folder / "tasks.yaml"
    shipped = (catalog_dir() / "kribbeln" / "tasks.yaml").read_text(encoding="utf-8")
    assert OLD in shipped
    tasks.write_text(shipped, encoding="utf-8")
    shutil.copy(catalog_dir() / "kribbeln" / "dice.yaml", folder / "dice.yaml")
    build = ("kribbeln", "block", "--catalog", "mine", "--seed", "4", "--out", "pad.pdf")
    first = run_cli(*build)
    assert first.exit_code == 0 and _warnings(first) == [], first.output
    manifest = json.loads((tmp_path / "pad.json").read_text())["contents"]
    assert len(manifest["task_hashes"]) == shipped.count("  - {id: ")
    # the designer edits one task and adds one; neither can be on a pad (p far below the band)
    tasks.write_text(shipped.replace(OLD, EDITED) + NEW, encoding="utf-8")
    second = run_cli(*build)
    assert second.exit_code == 0, second.output
    assert _warnings(second) == [
        "dicesheets: warning: task 'exactly2_red' was changed since the last pad (pad.json) "
        "and is not on this one; dicesheets validate says why",
        "dicesheets: warning: task 'five_blue' is new since the last pad (pad.json) and not on "
        "this one; dicesheets validate says why",
    ]
    # the pad's manifest stays what the command and seed make (no word of the last pad)
    again = json.loads((tmp_path / "pad.json").read_text())
    assert "warnings" in again["contents"] and again["contents"]["warnings"] == []
    # nothing changed since: nothing said
    third = run_cli(*build)
    assert third.exit_code == 0 and _warnings(third) == [], third.output


def test_the_last_pad_is_the_newest_in_the_folder_without_one_beside(
    run_cli, tmp_path: Path
) -> None:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    tasks = folder / "tasks.yaml"
    shipped = (catalog_dir() / "kribbeln" / "tasks.yaml").read_text(encoding="utf-8")
    tasks.write_text(shipped, encoding="utf-8")
    assert run_cli("kribbeln", "block", "--catalog", "mine", "--seed", "2").exit_code == 0
    tasks.write_text(shipped + NEW, encoding="utf-8")
    other = run_cli("kribbeln", "block", "--catalog", "mine", "--seed", "3")
    assert _warnings(other) == [
        "dicesheets: warning: task 'five_blue' is new since the last pad "
        "(output/kribbeln-block-2-de.json) and not on this one; dicesheets validate says why"
    ]
