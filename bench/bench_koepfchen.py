"""Benchmark of Köpfchen boards: sample + analyse + render one board, and 100 boards in a batch.

Run: `make bench` (or `python -m bench bench_koepfchen`). Aims: one board < 2 s, 100 distinct
boards < 60 s. The fixed classic board (no sampling) is the baseline of the ratios.
"""

from __future__ import annotations

import statistics
import time

from bench.common import line, median_time
from generator.koepfchen.analysis import race_exact, turn_stats
from generator.koepfchen.build import BoardRequest, build_board
from generator.koepfchen.load import load_board, load_profile
from generator.koepfchen.sampler import sample_board

SAMPLED = ("plus-minus", "einmaleins", "challenge")


def render_board(req: BoardRequest) -> tuple[bytes, dict, tuple[int, ...]]:
    """Load, build and draw one board: the PDF bytes, the manifest contents, the targets."""
    from generator.render.draw import render_pdf

    built = build_board(load_board(req), req)
    contents = dict(built.contents)
    return render_pdf(built.document), contents, tuple(f["target"] for f in contents["fields"])


def main() -> None:
    start = time.perf_counter()
    render_board(BoardRequest("einmaleins", 1))
    line("first board, cold caches (odds, solver)", time.perf_counter() - start)

    t_classic, _ = median_time(lambda: render_board(BoardRequest("classic", 1)), repeat=5)
    line("classic board: analyse + render (baseline)", t_classic)
    for name in SAMPLED:
        seeds = iter(range(100, 200))
        t_board, (pdf, contents, _) = median_time(
            lambda name=name, seeds=seeds: render_board(BoardRequest(name, next(seeds))), repeat=5
        )
        extra = f"{len(contents['pages'])} pages, {len(pdf) // 1024} KiB"
        line(f"{name} board: sample + analyse + render", t_board, extra, baseline=t_classic)

    profile = load_profile("challenge")
    seeds = iter(range(1000))
    t_sample, _ = median_time(lambda: sample_board(profile, next(seeds)), repeat=9)
    line("challenge: sample only (60 fields)", t_sample, baseline=t_classic)
    board = sample_board(profile, 1)
    t_exact, _ = median_time(
        lambda: (turn_stats(board.success), [race_exact(board.success, n) for n in range(2, 7)]),
        repeat=9,
    )
    line("challenge: exact game length + races 2–6", t_exact, baseline=t_classic)

    per_board = []
    targets = set()
    start = time.perf_counter()
    for i in range(100):
        name = SAMPLED[i % len(SAMPLED)]
        t0 = time.perf_counter()
        _, contents, board_targets = render_board(BoardRequest(name, 5000 + i))
        per_board.append(time.perf_counter() - t0)
        targets.add((name, board_targets))
    total = time.perf_counter() - start
    assert len(targets) == 100, "the batch must hold 100 distinct boards"
    line(
        "batch of 100 distinct boards (3 profiles): per board",
        statistics.median(per_board),
        f"total {total:.1f} s (aim < 60 s), slowest {max(per_board) * 1000:.0f} ms",
        baseline=t_classic,
    )


if __name__ == "__main__":
    main()
