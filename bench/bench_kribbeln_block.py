"""Kribbeln blocks and games: a six-sheet block with key from a warm cache, and 10,000
simulated four-player games.

Baselines in the same run:
- block: the same pipeline with the six sheets drawn at random (no balance
  constraints, no search), so the ratio is what balancing costs;
- games: a plain per-game Python loop over the same policies (one turn, one
  roll at a time), timed on a few hundred games and scaled to 10,000; the
  ratio is what the vectorised simulator gains.
A cold run (empty solver cache: task figures and every policy) is shown once.
"""

from __future__ import annotations

import os
import random
import tempfile
from typing import Any

from bench.common import line, median_time
from generator.io.cache import DISK
from generator.kribbeln.block import ROWS, Sheet, sheets_from_ids
from generator.kribbeln.build import BlockRequest, build_block, sample_block_of
from generator.kribbeln.load import load_block
from generator.kribbeln.masks import roll_states
from generator.kribbeln.scoring import score_game
from generator.kribbeln.simulate import Tables, build_tables, simulate

BLOCK_AIM = 3.0
GAMES_AIM = 30.0
GAMES = 10_000
PLAYERS = 4
LOOP_GAMES = 300


def _block() -> bytes:
    from generator.render.draw import render_pdf

    req = BlockRequest(pages=6, seed=1, players=4, names="Anna,Ben,Cem,Dora")
    return render_pdf(build_block(load_block(req), req).document)


def _random_block() -> bytes:
    """Baseline: six sheets of random tasks through the same layout and PDF code."""
    import generator.kribbeln.sheet as sheet_module

    real = sheet_module.sample_block

    def unbalanced(tasks: Any, balance: Any, pages: int, seed: int) -> Any:
        from generator.kribbeln.sampler import SampledBlock

        ids = [t.id for t in random.Random(seed).sample(list(tasks), 6 * pages)]
        return SampledBlock(tuple(tuple(ids[i : i + 6]) for i in range(0, len(ids), 6)), 1)

    sheet_module.sample_block = unbalanced
    try:
        return _block()
    finally:
        sheet_module.sample_block = real


def _loop_games(tables: Tables, sheet: Sheet, games: int, seed: int) -> int:
    """The rules of `simulate`, one player-turn and one roll at a time (plain Python)."""
    rng = random.Random(seed)
    pips = tables.pips
    radix = [int(r) for r in tables.radix]
    winners = 0

    def turn(holds: Any) -> int:
        faces = [rng.randrange(6) for _ in range(6)]
        for left in range(tables.rolls - 1, 0, -1):
            keep = int(holds(left, sum(f * r for f, r in zip(faces, radix))))
            faces = [f if keep >> d & 1 else rng.randrange(6) for d, f in enumerate(faces)]
        return sum(f * r for f, r in zip(faces, radix))

    for _ in range(games):
        rows: list[list[int | None]] = [[None] * PLAYERS for _ in ROWS]
        for p in range(PLAYERS):
            previous, used = 0, False
            for row in ROWS:
                if row.kind == "task":
                    task = sheet.tasks[row.task or 0]
                    holds, mask = tables.task_holds[task.id], tables.task_masks[task.id]
                    state = turn(lambda left, s, h=holds: h[left - 1, s])
                    if not mask[state] and not used and pips[state] > previous:
                        used, previous = True, int(pips[state])
                        rows[3 * row.area - 1][p] = previous
                        state = turn(lambda left, s, h=holds: h[left - 1, s])
                    rows[row.number - 1][p] = int(pips[state]) if mask[state] else None
                else:
                    if not used or row.area == 4:
                        prev = previous
                        state = turn(lambda left, s, k=prev: tables.row_holds[left - 1, k, s])
                        value = int(pips[state])
                        rows[row.number - 1][p] = value if value > prev else None
                        previous = max(previous, value)
                    used = False
        winners += len(score_game(rows).winners)
    return winners


def _cold_block_and_games() -> float:
    """Seconds for block + simulation from an empty cache (figures and policies solved)."""
    import time

    old = os.environ.get("DICESHEETS_CACHE")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DICESHEETS_CACHE"] = folder
        roll_states.cache_clear()
        start = time.perf_counter()
        try:
            block = sample_block_of(load_block(), 6, 1)
            simulate(block.dice, block.sheets, PLAYERS, GAMES, 1, figures=block.figures, store=DISK)
        finally:
            if old is None:
                os.environ.pop("DICESHEETS_CACHE", None)
            else:
                os.environ["DICESHEETS_CACHE"] = old
        return time.perf_counter() - start


def main() -> None:
    _block()  # warm the solver cache and the fonts
    t_block, pdf = median_time(_block, repeat=5)
    t_random, _ = median_time(_random_block, repeat=5)
    verdict = "meets" if t_block < BLOCK_AIM else "misses"
    line(
        "kribbeln block, 6 sheets + rules + key (warm cache)",
        t_block,
        f"{len(pdf) / 1024:.0f} KiB, {verdict} the {BLOCK_AIM:.0f} s aim "
        "(baseline: random sheets, no balancing)",
        baseline=t_random,
    )
    block = sample_block_of(load_block(), 6, 1)
    sheets = block.sheets

    def games() -> dict[str, Any]:
        return simulate(block.dice, sheets, PLAYERS, GAMES, 1, figures=block.figures, store=DISK)

    games()  # policies into the cache
    t_games, result = median_time(games, repeat=3)
    tables = build_tables(block.dice, [t for s in sheets for t in s.tasks], "pips", 3, store=DISK)
    one = sheets_from_ids([[t.id for t in sheets[0].tasks]], block.catalog)[0]
    t_loop, _ = median_time(lambda: _loop_games(tables, one, LOOP_GAMES, 1), repeat=3)
    t_loop_full = t_loop * GAMES / LOOP_GAMES
    verdict = "meets" if t_games < GAMES_AIM else "misses"
    seats = ", ".join(f"{s['mean_points']:.2f}" for s in result["seats"])
    line(
        f"kribbeln simulate, {GAMES:,} four-player games (warm cache)",
        t_games,
        f"{GAMES / t_games:,.0f} games/s, {verdict} the {GAMES_AIM:.0f} s aim; mean points per "
        f"seat {seats}; tie {100 * result['tie_rate']:.1f}%, tiebreak decides "
        f"{100 * result['tiebreak_decides']:.1f}% (baseline: plain Python loop, "
        f"{LOOP_GAMES} games scaled)",
        baseline=t_loop_full,
    )
    cold = _cold_block_and_games()
    print(f"kribbeln block + {GAMES:,} games from a cold cache: {cold:.1f} s", flush=True)
