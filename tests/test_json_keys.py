"""The --json outputs are a file format: results are dataclasses now, their JSON keys stay.

The key paths below were taken from the commands' output before the results became
dataclasses (`kribbeln analyze|hold|row|score`, `kniffel score`); a key renamed,
dropped or added by a `to_json()` fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.kribbeln.load import load_files
from generator.kribbeln.report import analyze, hold, row

BOXES = ("chance", "fives", "four_of_a_kind", "fours", "full_house", "kniffel", "large_straight",
         "ones", "sixes", "small_straight", "three_of_a_kind", "threes", "twos")  # fmt: skip
GAME_KEYS = ("bonus", "grand_total", "lower_total", "upper_sum", "upper_total", "yahtzee_bonus",
             "yahtzee_bonus_ticks")  # fmt: skip
KNIFFEL_SCORE = {
    "best_total", "players", "players[].games", "players[].games[].boxes",
    *(f"players[].games[].boxes.{b}" for b in BOXES),
    *(f"players[].games[].{k}" for k in GAME_KEYS),
    "players[].name", "players[].total", "rules", "winners",
}  # fmt: skip
KRIBBELN_SCORE = {
    "breaches", "breaches[].name", "breaches[].previous", "breaches[].previous_row",
    "breaches[].row", "breaches[].value", "fourth_kribbeln", "fourth_kribbeln.*", "names",
    "rows", "rows[].area", "rows[].kind", "rows[].points", "rows[].row", "rows[].scored",
    "rows[].written", "sheet", "tie", "tiebreak_decided", "totals", "totals.*", "winners",
}  # fmt: skip
TASK = ("colors", "family", "id", "params", "text", "text.de", "text.en", "type")
ANALYZE = {
    "dice_file", "rolls", "sort", "task_file", "tasks", "tasks[].expected_pips",
    "tasks[].p_success", *(f"tasks[].{k}" for k in TASK),
    *(f"tasks[].params.{p}" for p in
      ("at_least", "color", "colors", "count", "more", "none", "one", "than")),
}  # fmt: skip
HOLD = {
    "fulfilled", "goal", "options", "options[].keep", "options[].reroll", "options[].stop",
    "options[].value", "roll", "roll[].color", "roll[].color_name", "roll[].color_name.de",
    "roll[].color_name.en", "roll[].die", "roll[].value", "rolls_left", "task",
    *(f"task.{k}" for k in TASK), "task.params.colors",
}  # fmt: skip
ROW = {"expected_max", "p_beat", "p_beat.*", "rolls"}
NAMES = {"Anna", "Ben", "Cem", "Dora", "Zoë", "Jörg"}


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of a JSON value: `a.b`, `a[].b`; names and numbers as keys are `*`."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            part = "*" if key.isdigit() or key in NAMES else key
            path = f"{prefix}.{part}" if prefix else part
            found |= {path} | key_paths(item, path)
    elif isinstance(value, list):
        for item in value:
            found |= key_paths(item, prefix + "[]")
    return found


def test_the_check_sees_a_renamed_key() -> None:
    assert key_paths({"a": [{"b": 1}, {"c": {"Anna": 2}}], "p": {"7": 0.5}}) == {
        "a", "a[].b", "a[].c", "a[].c.*", "p", "p.*"
    }  # fmt: skip


@pytest.fixture(scope="module")
def files() -> Any:
    catalog = Catalog.default()
    dice, tasks, _ = load_files(None, None, catalog)
    return dice, tasks, catalog.templates()


def test_kribbeln_analyze_hold_row_keys(files: Any) -> None:
    dice, tasks, templates = files
    assert key_paths(analyze(dice, tasks, templates, store=DISK).to_json()) == ANALYZE
    task = next(t for t in tasks.tasks if len(t.colors) > 1)
    advice = hold(dice, tasks, templates, task.id, "3 5 1 6 2 2", 1)
    assert key_paths(advice.to_json()) == HOLD
    assert key_paths(row(dice, tasks, store=DISK).to_json()) == ROW


def test_score_files_keys(run_cli, tmp_path: Path) -> None:
    kribbeln = tmp_path / "k.yaml"
    rows = [[23, "X", 18, 23], [20, 22, "X", 17], [14, 19, 21, "X"], *[[20, 21, 22, 23]] * 5,
            [24, 22, 20, 19], [25, 27, "X", 30]]  # fmt: skip
    kribbeln.write_text(
        "names: [Anna, Ben, Cem, Dora]\nsheet: 3\nrows:\n"
        + "".join(f"  - [{', '.join(map(str, r))}]\n" for r in rows),
        encoding="utf-8",
    )
    result = run_cli("kribbeln", "score", str(kribbeln), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["breaches"]  # the rising rule broken at least once: its keys are seen
    assert key_paths(data) == KRIBBELN_SCORE
    game = ", ".join(f"{b}: 0" for b in BOXES)
    kniffel = tmp_path / "g.yaml"
    kniffel.write_text(
        f"rules: kniffel\nplayers:\n  - name: Zoë\n    games:\n      - {{{game}}}\n"
        f"  - name: Jörg\n    games:\n      - {{{game}}}\n      - {{{game}}}\n",
        encoding="utf-8",
    )
    result = run_cli("kniffel", "score", str(kniffel), "--json")
    assert result.exit_code == 0, result.stderr
    assert key_paths(json.loads(result.stdout)) == KNIFFEL_SCORE
