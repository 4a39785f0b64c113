"""The figures the docs quote, kept in `docs/figures/*.json` and checked against a fresh build.

The docs include each file verbatim (tests/test_docs.py checks the copy), so a figure
lives in one place and no test reads prose.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.io.cache import DISK
from generator.kribbeln.balance import area_means
from generator.kribbeln.build import sample_block_of
from generator.kribbeln.load import load_block
from generator.kribbeln.playtest import play

FIGURES = Path(__file__).resolve().parent.parent / "docs" / "figures"


def figures(name: str) -> dict[str, Any]:
    """One figures file of the docs."""
    path = FIGURES / name
    if not path.exists():
        pytest.skip("no docs/ beside the tests (an installed package)")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _pct(x: float) -> float:
    return round(100 * x, 1)


def kribbeln_seed_1() -> dict[str, Any]:
    """The figures of the seed-1 pad (`dicesheets all`'s) and of 10,000 games on it."""
    block = sample_block_of(load_block(), 6, 1)
    p = [[block.figures[t.id].p_success for t in s.tasks] for s in block.sheets]
    pips = [block.figures[t.id].expected_pips for s in block.sheets for t in s.tasks]
    means = [sum(x) / len(x) for x in p]
    sim = play(
        block.dice, block.sheets, block.catalog.rolls, 4, 10_000, 1, "pips",
        "kribbeln block --seed 1", store=DISK,
    )  # fmt: skip
    shares = [s.win_share for s in sim.seats]
    x_rates = [s.task_x_rate for s in sim.sheets]
    fails = [s.first_attempt_fail for s in sim.sheets]
    return {
        "block": {
            "command": "dicesheets kribbeln block --seed 1",
            "sheet_mean_pct": [_pct(min(means)), _pct(max(means))],
            "block_mean_pct": _pct(sum(means) / len(means)),
            "expected_pips_per_task": round(sum(pips) / len(pips), 1),
            "sheet_1_area_means_pct": [_pct(m) for m in area_means(p[0])],
        },
        "simulate": {
            "command": "dicesheets kribbeln simulate --players 4 --games 10000 --seed 1",
            "mean_points_per_seat": [round(s.mean_points, 2) for s in sim.seats],
            "win_share_pct": [_pct(min(shares)), _pct(max(shares))],
            "top_total_tied_pct": _pct(sim.tie_rate),
            "fourth_kribbeln_field_decides_pct": _pct(sim.tiebreak_decides),
            "shared_wins_pct": _pct(sim.shared_wins),
            "task_x_rate_per_sheet_pct": [_pct(min(x_rates)), _pct(max(x_rates))],
            "first_attempt_fail_pct": [_pct(min(fails)), _pct(max(fails))],
            "sheet_x_rate_spread_points": _pct(sim.sheet_x_rate_spread),
        },
    }


def test_the_kribbeln_figures_are_what_block_and_simulate_give() -> None:
    assert figures("kribbeln-seed-1.json") == kribbeln_seed_1()


if __name__ == "__main__":  # python -m tests.test_doc_figures: the file as built now
    print(json.dumps(kribbeln_seed_1(), ensure_ascii=False, indent=2))
