"""`dicesheets numbers solve` as a whole command beside the pure-Python countdown-numbers-solver.

Run: `make bench` (installs the baseline through the `bench` extra). Both run in a fresh
process each time, in turn; the ratio is ours / theirs, pair by pair. The baseline prints
every solution it finds, so ours runs with `--all`.
"""

from __future__ import annotations

import sys

from bench.common import dicesheets, process_times

INSTANCES = [
    ((3, 1, 2), 8),
    ((1, 3, 7, 10, 25, 50), 765),
    ((100, 25, 8, 3, 1, 1), 984),
    ((75, 50, 2, 3, 8, 7), 812),
]


def main() -> None:
    try:
        import countdown_numbers_solver  # noqa: F401
    except ImportError:
        print("countdown-numbers-solver is not installed (pip install -e '.[bench]'): skipped")
        return
    # the floors: what a plain `numbers solve` imports (read without click), what every
    # other command imports (the click CLI), beside a bare interpreter
    solve_floor = (
        "import generator.interrupts, generator.cli.fastpath, generator.numbers.batch, "
        "generator.numbers.report"
    )
    click_floor = "import generator.cli.root"
    for label, code in (("numbers solve", solve_floor), ("the click CLI", click_floor)):
        floor, bare, ratio, *_ = process_times(
            [sys.executable, "-c", code], [sys.executable, "-c", "pass"], 7
        )
        print(
            f"start-up floor of {label} (python -c '{code}'): median {floor * 1000:.1f} ms | "
            f"a bare interpreter {bare * 1000:.1f} ms | ratio {ratio:.3g}×",
            flush=True,
        )
    for numbers, target in INSTANCES:
        ours = dicesheets("numbers", "solve", *map(str, numbers), "--target", str(target), "--all")
        theirs = [
            sys.executable,
            "-c",
            f"import countdown_numbers_solver as c; c.solve({list(numbers)}, {target})",
        ]
        t_ours, t_theirs, ratio, *_ = process_times(ours, theirs, repeat=7)
        goal = "met" if ratio <= 0.5 else "MISSED"
        print(
            f"numbers solve {' '.join(map(str, numbers))} → {target} --all: median "
            f"{t_ours * 1000:.1f} ms | countdown-numbers-solver {t_theirs * 1000:.1f} ms | "
            f"ratio {ratio:.3g}× (aim ≤ 0.5×: {goal})",
            flush=True,
        )


if __name__ == "__main__":
    main()
