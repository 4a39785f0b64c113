"""The Kribbeln seed-1 figures the README quotes, read from the README and rebuilt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.io.cache import DISK
from generator.kribbeln.balance import area_means
from generator.kribbeln.build import sample_block_of
from generator.kribbeln.load import load_block
from generator.kribbeln.playtest import play

README = Path(__file__).resolve().parent.parent / "README.md"
NUMBER = r"(\d+(?:\.\d+)?)"


@pytest.fixture(scope="module")
def readme() -> str:
    if not README.exists():
        pytest.skip("no README.md beside the tests (an installed package)")
    return " ".join(README.read_text(encoding="utf-8").split())


def _one(pattern: str, text: str) -> tuple[str, ...]:
    found = re.findall(pattern, text)
    assert len(found) == 1, f"the README should say this once: {pattern}"
    return found[0] if isinstance(found[0], tuple) else (found[0],)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def test_the_block_figures_are_what_the_key_prints(readme: str) -> None:
    said = _one(
        rf"Seed 1: sheet means {NUMBER}–{NUMBER} % \(block {NUMBER} %, {NUMBER} expected pips "
        rf"per task\); area means e\.g\. {NUMBER} → {NUMBER} → {NUMBER} % on sheet 1",
        readme,
    )
    block = sample_block_of(load_block(), 6, 1)  # what `dicesheets all` prints
    p = [[block.figures[t.id].p_success for t in s.tasks] for s in block.sheets]
    pips = [block.figures[t.id].expected_pips for s in block.sheets for t in s.tasks]
    means = [sum(x) / len(x) for x in p]
    built = (
        _pct(min(means)),
        _pct(max(means)),
        _pct(sum(means) / len(means)),
        f"{sum(pips) / len(pips):.1f}",
        *(_pct(m) for m in area_means(p[0])),
    )
    assert said == built


def test_the_simulated_figures_are_what_simulate_prints(readme: str) -> None:
    said = _one(
        rf"mean points per seat {NUMBER} / {NUMBER} / {NUMBER} / {NUMBER} \(win shares "
        rf"{NUMBER}–{NUMBER} %\), top total tied in {NUMBER} % of games, the fourth Kribbeln "
        rf"field decides {NUMBER} %, shared wins {NUMBER} %; task X rate per sheet "
        rf"{NUMBER}–{NUMBER} % \(first attempts fail {NUMBER}–{NUMBER} %",
        readme,
    )
    block = sample_block_of(load_block(), 6, 1)
    source = "kribbeln block --seed 1"
    rolls = block.catalog.rolls
    sim = play(block.dice, block.sheets, rolls, 4, 10_000, 1, "pips", source, store=DISK)
    shares = [s.win_share for s in sim.seats]
    x_rates = [s.task_x_rate for s in sim.sheets]
    fails = [s.first_attempt_fail for s in sim.sheets]
    built = (
        *(f"{s.mean_points:.2f}" for s in sim.seats),
        _pct(min(shares)),
        _pct(max(shares)),
        _pct(sim.tie_rate),
        _pct(sim.tiebreak_decides),
        _pct(sim.shared_wins),
        _pct(min(x_rates)),
        _pct(max(x_rates)),
        _pct(min(fails)),
        _pct(max(fails)),
    )
    assert said == built
    assert f"within {100 * sim.sheet_x_rate_spread:.1f} points" in readme
