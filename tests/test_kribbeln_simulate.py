"""Kribbeln game simulator: determinism, agreement with solver and scoring, the rules, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from generator.io.cache import DISK
from generator.kribbeln.block import KRIBBELN_ROWS, Sheet, sheets_from_ids
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.load import load_dice, load_tasks
from generator.kribbeln.scoring import kribbeln_breaches, row_points, winners
from generator.kribbeln.simulate import build_tables, outcome, play_sheet, rank_points, simulate
from generator.kribbeln.solver import analyze_tasks
from generator.kribbeln.tasks import TaskCatalog

# one sheet, hard and easy tasks of all three families (row order: area 1, 2, 3)
SHEET = [
    "exactly1_red",
    "more_blue_than_green",
    "distinct_3",
    "equal_black_yellow",
    "some_color_4",
    "most_orange",
]


@pytest.fixture(scope="module")
def dice() -> DiceSet:
    return load_dice()[0]


@pytest.fixture(scope="module")
def catalog(dice: DiceSet) -> TaskCatalog:
    return load_tasks(dice)


@pytest.fixture(scope="module")
def sheets(catalog: TaskCatalog) -> list[Sheet]:
    return sheets_from_ids([SHEET], catalog)


def test_simulation_is_deterministic_per_seed(dice: DiceSet, sheets: list[Sheet]) -> None:
    a = simulate(dice, sheets, 3, 300, seed=7, goal="success", store=DISK).to_json()
    b = simulate(dice, sheets, 3, 300, seed=7, goal="success", store=DISK).to_json()
    c = simulate(dice, sheets, 3, 300, seed=8, goal="success", store=DISK).to_json()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(a, sort_keys=True) != json.dumps(c, sort_keys=True)
    assert a["games"] == 300 and len(a["seats"]) == 3


def test_first_attempt_failures_match_the_solver(
    dice: DiceSet, catalog: TaskCatalog, sheets: list[Sheet]
) -> None:
    """Playing for success, a first attempt fails with probability 1 − p_success exactly."""
    figures = analyze_tasks(dice, sheets[0].tasks, catalog.rolls, store=DISK)
    games, players = 2500, 4
    result = simulate(
        dice, sheets, players, games, seed=3, goal="success", figures=figures, store=DISK
    ).to_json()
    n = games * players
    for row in result["tasks"]:
        q = 1 - figures[row["id"]].p_success
        sigma = math.sqrt(q * (1 - q) / n)
        assert abs(row["first_attempt_fail"] - q) < 4.5 * sigma + 1e-3, row
        # with the Kribbeln retry a task ends in X less often than it first fails
        assert row["x_rate"] <= row["first_attempt_fail"] + 1e-12
    # the hard task really is hard, the easy one easy
    by_id = {r["id"]: r for r in result["tasks"]}
    assert by_id["some_color_4"]["first_attempt_fail"] > 0.45
    assert by_id["exactly1_red"]["first_attempt_fail"] < 0.15


def test_simulated_games_follow_the_rules(dice: DiceSet, sheets: list[Sheet]) -> None:
    tables = build_tables(dice, sheets[0].tasks, "pips", 3, store=DISK)
    run = play_sheet(np.random.default_rng(5), sheets[0], 400, 4, tables)
    v = run.values
    assert ((v == 0) | ((v >= 6) & (v <= 36))).all()
    # every Kribbeln value a player writes is higher than the previous one: no breaches
    for game in v[:150]:
        rows = [[None if x == 0 else int(x) for x in game[:, r]] for r in range(10)]
        assert kribbeln_breaches(rows) == []
    # the Kribbeln field is used only after a failed first attempt, at most once per area
    assert not (run.kribbeln_used & ~run.first_fail).any()
    per_area = run.kribbeln_used.reshape(400, 4, 3, 2).sum(axis=3)
    assert per_area.max() <= 1
    # whoever used the field during the area does not roll the Kribbeln row; all roll row 10
    assert (run.row_rolled[:, :, :3] == (per_area == 0)).all()
    assert run.row_rolled[:, :, 3].all()
    # a task row can only be X if the first attempt failed
    task_cols = [0, 1, 3, 4, 6, 7]
    assert not ((v[:, :, task_cols] == 0) & ~run.first_fail).any()
    # some Kribbeln fields were filled during a task, some rolled, some X
    kribbeln = v[:, :, [r - 1 for r in KRIBBELN_ROWS]]
    assert run.kribbeln_used.any() and (kribbeln == 0).any() and (kribbeln > 0).any()


def test_vectorised_scoring_agrees_with_the_scoring_module() -> None:
    rng = np.random.default_rng(11)
    for players in (2, 4, 5):
        values = rng.integers(5, 12, size=(200, players, 10)).astype(np.int16)
        values[values == 5] = 0  # X
        values[:, :, 9] = rng.integers(0, 3, size=(200, players)) * 10  # level fourth fields
        points = rank_points(values)
        out = outcome(values)
        for g in range(200):
            for r in range(10):
                row = [None if x == 0 else int(x) for x in values[g, :, r]]
                assert list(points[g, :, r]) == row_points(row)
            fourth = [None if x == 0 else int(x) for x in values[g, :, 9]]
            won, tie = winners(list(out["totals"][g]), fourth)
            assert tuple(np.flatnonzero(out["winners"][g])) == won
            assert bool(out["tie"][g]) == tie
            assert bool(out["tiebreak"][g]) == (tie and len(won) == 1)


def test_seats_are_fair(dice: DiceSet, sheets: list[Sheet]) -> None:
    result = simulate(dice, sheets, 4, 2000, seed=1, goal="success", store=DISK).to_json()
    points = [s["mean_points"] for s in result["seats"]]
    assert max(points) - min(points) < 0.6  # the policy never looks at the other seats
    assert abs(sum(s["win_share"] for s in result["seats"]) - 1) < 1e-6
    assert 0 < result["tiebreak_decides"] <= result["tie_rate"] < 0.5


def test_simulate_cli(run_cli, tmp_path: Path) -> None:
    pages = tmp_path / "pages.yaml"
    pages.write_text("sheets:\n  - [" + ", ".join(SHEET) + "]\n", encoding="utf-8")
    result = run_cli(
        "kribbeln", "simulate", "--pages", pages, "--games", 200, "--players", 3,
        "--goal", "success", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and data["games"] == 200 and len(data["tasks"]) == 6
    assert data["sheets_from"] == str(pages)
    text = run_cli("kribbeln", "simulate", "--pages", pages, "--games", 50, "--goal", "success")
    assert text.exit_code == 0 and "mean points" in text.output and "most_orange" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "expected 2–8 players"),
        (["--players", "9"], "expected 2–8 players"),
        (["--games", "0"], "expected 1–1,000,000 games"),
    ],
)
def test_simulate_bad_options_exit_2(run_cli, args: list[str], message: str) -> None:
    result = run_cli("kribbeln", "simulate", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_simulate_bad_pages_file_exit_2(run_cli, tmp_path: Path) -> None:
    pages = tmp_path / "pages.yaml"
    pages.write_text("sheets:\n  - [none_red, nope, a, b, c, d]\n", encoding="utf-8")
    result = run_cli("kribbeln", "simulate", "--pages", pages)
    assert result.exit_code == 2 and "no task 'nope'" in result.stderr
    assert "pages.yaml:2" in result.stderr
