"""`dicesheets numbers solve` as a whole command beside the pure-Python countdown-numbers-solver.

Run: `make bench` (installs the baseline through the `bench` extra). Every command runs in a
fresh process, in turn (ours, theirs, ours before — the code of `BASE` —, a bare
interpreter, …, one warm-up each); ratios are taken round by round, medians printed, wall
and processor time. The baseline prints every solution it finds, so ours runs with `--all`.

Ours is started the way a user starts it, by the console script, whose wrapper (written by
the installer) imports `re` before our code runs; theirs is a library called from
`python -c`. The floors say what is left to cut: a bare interpreter, the interpreter with
the wrapper's import, and what a plain solve imports on top of it.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.common import dicesheets, run_once, source_at, user_env

BASE = "939acb1"  # main when this session's start-up work began
INSTANCES = [
    ((3, 1, 2), 8),
    ((1, 3, 7, 10, 25, 50), 765),
    ((100, 25, 8, 3, 1, 1), 984),
    ((75, 50, 2, 3, 8, 7), 812),
]
ROUNDS = 7
Times = list[tuple[float, float]]  # (wall, processor) seconds of one command, round by round
# what the console script's wrapper does before our code (pip's template), then our imports
WRAPPER = "import re, sys"
SOLVE_IMPORTS = (
    "import generator.io.signals, generator.cli.fastpath, generator.numbers.batch, "
    "generator.numbers.report"
)
# the console script's wrapper around an older tree of the project
OLD_SCRIPT = (
    "import re, sys\n"
    "sys.path.insert(0, sys.argv.pop(1))\n"
    "from generator.__main__ import run\n"
    "sys.argv[0] = 'dicesheets'\n"
    "sys.exit(run())\n"
)


def rounds(commands: Sequence[Sequence[str]], repeat: int = ROUNDS) -> list[Times]:
    """(wall, processor) seconds of each command, `repeat` rounds of all of them in turn.

    Processor time is user + system of the child; bytecode is written and reused as on a
    user's machine (PYTHONDONTWRITEBYTECODE is dropped).
    """
    env = user_env()
    for cmd in commands:
        run_once(cmd, env)
    times: list[Times] = [[] for _ in commands]
    for _ in range(repeat):
        for i, cmd in enumerate(commands):
            times[i].append(run_once(cmd, env))
    return times


def median(times: Times, which: int) -> float:
    return statistics.median(t[which] for t in times)


def ratio(a: Times, b: Times, which: int) -> float:
    """The median of the round-by-round ratios a/b."""
    return statistics.median(x[which] / y[which] for x, y in zip(a, b))


def floors() -> None:
    """Print the start-up floors: what every command pays before its own work."""
    py = sys.executable
    bare, wrapper, solve, click = rounds(
        [
            [py, "-c", "pass"],
            [py, "-c", WRAPPER],
            [py, "-c", f"{WRAPPER}; {SOLVE_IMPORTS}"],
            [py, "-c", f"{WRAPPER}; import generator.cli.root"],
        ]
    )
    b, w, s, c = (median(t, 0) * 1000 for t in (bare, wrapper, solve, click))
    print(
        f"start-up floors (wall, median of {ROUNDS}): a bare interpreter {b:.1f} ms | "
        f"+ the console script's `{WRAPPER}` {w:.1f} ms | + what a plain solve imports "
        f"{s:.1f} ms ({s - w:.1f} ms of ours) | the click CLI's imports instead {c:.1f} ms",
        flush=True,
    )
    print(
        f"half a bare interpreter is {b / 2:.1f} ms: less than the interpreter's own start, so "
        f"no command it runs can take ≤ 0.5× of it (the console script alone is "
        f"{w / b:.2f}×)",
        flush=True,
    )


def main() -> None:
    try:
        import countdown_numbers_solver  # noqa: F401
    except ImportError:
        print("countdown-numbers-solver is not installed (pip install -e '.[bench]'): skipped")
        return
    floors()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        if not source_at(BASE, base):
            return
        for numbers, target in INSTANCES:
            args = ["numbers", "solve", *map(str, numbers), "--target", str(target), "--all"]
            theirs = f"import countdown_numbers_solver as c; c.solve({list(numbers)}, {target})"
            ours, them, before, bare = rounds(
                [
                    dicesheets(*args),
                    [sys.executable, "-c", theirs],
                    [sys.executable, "-c", OLD_SCRIPT, str(base), *args],
                    [sys.executable, "-c", "pass"],
                ]
            )
            wall = ratio(ours, them, 0)
            goal = "met" if wall <= 0.5 else "MISSED"
            print(
                f"numbers solve {' '.join(map(str, numbers))} → {target} --all: median "
                f"{median(ours, 0) * 1000:.1f} ms (CPU {median(ours, 1) * 1000:.1f}) | "
                f"countdown-numbers-solver {median(them, 0) * 1000:.1f} ms "
                f"(CPU {median(them, 1) * 1000:.1f}) | ratio {wall:.3g}× wall, "
                f"{ratio(ours, them, 1):.3g}× CPU (aim ≤ 0.5×: {goal}) | before ({BASE}) "
                f"{median(before, 0) * 1000:.1f} ms, ours/before {ratio(ours, before, 0):.3g}× | "
                f"ours / a bare interpreter {ratio(ours, bare, 0):.3g}×",
                flush=True,
            )


if __name__ == "__main__":
    main()
