"""`dicesheets --help` and a command's `--help`, since the commands are made from the registry.

Run: `python -m bench bench_help`. Each help runs in a fresh process, in rounds (a bare
interpreter, ours, then the same from the tree of `BASE`, before the registry), one warm-up
each; medians of wall and processor time, ratios to the bare interpreter of the same round.
The target of the start-up work is at most 4× `python -c pass` for `--help`.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from bench.common import run_once, source_at, user_env

BASE = "a787252"  # main before the registry: hand-written click commands
HELPS = (["--help"], ["worksheet", "--help"], ["kniffel", "block", "--help"])
ROUNDS = 9
SCRIPT = (
    "import sys\nsys.path.insert(0, sys.argv.pop(1))\nfrom generator.__main__ import run\nrun()\n"
)


def main() -> None:
    here = str(Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"ours": here}
        if source_at(BASE, Path(tmp)):
            trees[BASE] = tmp
        commands = [[sys.executable, "-c", "pass"]] + [
            [sys.executable, "-c", SCRIPT, tree, *args] for tree in trees.values() for args in HELPS
        ]
        env = user_env()
        for cmd in commands:
            run_once(cmd, env)
        times: list[list[tuple[float, float]]] = [[] for _ in commands]
        for _ in range(ROUNDS):
            for i, cmd in enumerate(commands):
                times[i].append(run_once(cmd, env))
    names = ["python -c pass"] + [
        f"{' '.join(['dicesheets', *args])} ({tree})" for tree in trees for args in HELPS
    ]
    for name, runs, bare in zip(names, times, [times[0]] * len(times), strict=True):
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        ratio = statistics.median(w / b for (w, _), (b, _) in zip(runs, bare, strict=True))
        print(f"{name:48s} {wall * 1000:6.1f} ms wall, {cpu * 1000:6.1f} ms cpu, "
              f"{ratio:4.2f}x python -c pass", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
