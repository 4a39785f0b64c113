"""The odds card's solver work: the Kniffel table and the 100,000-game simulation, beside BASE.

Run: `make bench` (or `python -m bench bench_kniffel_chain`). Each side runs in a fresh
process of its own (the code at commit BASE is taken from git into a temporary folder),
in turn, and reports the processor time (user + system) of the table, of the whole
simulation and of each half of it (`dicesheets all` plays the halves side by side);
medians over the runs, ratios pair by pair. Both sides must give the same scores.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASE = "ac8702d"  # main when this session's speed work began
ROOT = Path(__file__).resolve().parent.parent
RUNS = 3
RUN = r"""
import hashlib, json, resource, sys
try:
    from generator.heap import keep_freed_memory  # what the commands do before solving
    keep_freed_memory()
except ImportError:
    pass
import numpy as np
try:
    from generator.load.kniffel import load_rules
except ImportError:
    from generator.kniffel.rules import load_rules
from generator.kniffel import simulate
from generator.kniffel.solver import Strategy, make_game, solve_values

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

out = {}
game = make_game(load_rules("kniffel"))
t = cpu(); values = solve_values(game); out["table"] = cpu() - t
strategy = Strategy(game, values)
t = cpu(); scores = simulate.simulate_scores(strategy, 100_000, 1); out["simulation"] = cpu() - t
out["scores"] = hashlib.sha256(np.bincount(scores).tobytes()).hexdigest()
if "part" in simulate.simulate_scores.__code__.co_varnames:
    halves = []
    for k in range(2):
        t = cpu(); simulate.simulate_scores(strategy, 100_000, 1, part=(k, 2))
        halves.append(cpu() - t)
    out["half"] = max(halves)
print(json.dumps(out))
"""


def _run(tree: Path) -> dict[str, float | str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN], cwd=tree, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASE], capture_output=True, check=False
        )
        if archive.returncode != 0:
            print(f"baseline {BASE} not in git history here: skipped")
            return
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        pairs = [(_run(ROOT), _run(base)) for _ in range(RUNS)]
    ours, theirs = zip(*pairs)
    assert all(o["scores"] == t["scores"] for o, t in pairs), "the scores differ from BASE"
    for part in ("table", "simulation"):
        a = statistics.median(float(o[part]) for o in ours)
        b = statistics.median(float(t[part]) for t in theirs)
        ratio = statistics.median(float(o[part]) / float(t[part]) for o, t in pairs)
        print(
            f"kniffel {part} (processor time): median {a:.2f} s | before ({BASE}) {b:.2f} s "
            f"| ratio {ratio:.3g}×",
            flush=True,
        )
    half = statistics.median(float(o["half"]) for o in ours)
    print(f"kniffel simulation, the larger half of 100,000 games: median {half:.2f} s", flush=True)
    print("scores: the same as before (all runs)", flush=True)


if __name__ == "__main__":
    main()
