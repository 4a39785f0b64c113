"""The odds card's solver work: the Kniffel table and the 100,000-game simulation, beside BASE.

Run: `make bench` (or `python -m bench bench_kniffel_chain`). Each side runs in a fresh
process of its own (the code at commit BASE is taken from git into a temporary folder),
in turn; medians over the runs, ratios pair by pair. Processor time is user + system,
the helper process included. Ours: the table and the simulation in one process and on
two (`generator.io.pair`, as `dicesheets all` runs them); BASE: in one process, and its
simulation as two halves side by side (what its `dicesheets all` did: the chain was the
table and then the larger half). Both sides must give the same table and scores.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import source_at

BASE = "939acb1"  # main when this session's work on the chain began
ROOT = Path(__file__).resolve().parent.parent
RUNS = 3
RUN = r"""
import hashlib, json, resource, time
from generator.io.cache import keep_freed_memory  # what the commands do before solving
keep_freed_memory()
import numpy as np
from generator.kniffel.load import load_rules
from generator.kniffel import simulate
from generator.kniffel.solver import Strategy, make_game, solve_values
try:
    from generator.io.pair import PAIR
except ImportError:
    PAIR = None

def cpu():
    r, c = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime

def timed(name, fn):
    t, w = cpu(), time.perf_counter()
    result = fn()
    out[name] = (time.perf_counter() - w, cpu() - t)
    return result

out = {}
game = make_game(load_rules("kniffel"))
values = timed("table", lambda: solve_values(game))
strategy = Strategy(game, values)
scores = timed("simulation", lambda: simulate.simulate_scores(strategy, 100_000, 1))
made = np.nan_to_num(values, nan=-1).tobytes() + scores.tobytes()
out["digest"] = hashlib.sha256(made).hexdigest()
if PAIR is not None:
    shared = timed("table, two processes", lambda: solve_values(game, team=PAIR))
    again = timed("simulation, two processes",
                  lambda: simulate.simulate_scores(strategy, 100_000, 1, team=PAIR))
    assert np.array_equal(shared, values, equal_nan=True) and np.array_equal(again, scores)
else:
    for k in range(2):
        timed(f"half {k}", lambda: simulate.simulate_scores(strategy, 100_000, 1, part=(k, 2)))
print(json.dumps(out))
"""


Times = dict[str, tuple[float, float]]  # per stage: wall and processor seconds


def _run(tree: Path) -> tuple[Times, str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN], cwd=tree, capture_output=True, text=True, check=True
    )
    out = json.loads(done.stdout.splitlines()[-1])
    digest = out.pop("digest")
    return {name: (float(w), float(c)) for name, (w, c) in out.items()}, str(digest)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if not source_at(BASE, base):
            return
        runs = [(_run(ROOT), _run(base)) for _ in range(RUNS)]
    assert all(o[1] == t[1] for o, t in runs), "the table or the scores differ from BASE"
    pairs = [(o[0], t[0]) for o, t in runs]

    def median(values: list[float]) -> float:
        return statistics.median(values)

    for part in ("table", "simulation"):
        two = f"{part}, two processes"
        print(
            f"kniffel {part}, one process (processor time): median "
            f"{median([o[part][1] for o, _ in pairs]):.2f} s | before ({BASE}) "
            f"{median([t[part][1] for _, t in pairs]):.2f} s | ratio "
            f"{median([o[part][1] / t[part][1] for o, t in pairs]):.3g}× | two processes: "
            f"{median([o[two][0] for o, _ in pairs]):.2f} s wall, "
            f"{median([o[two][1] for o, _ in pairs]):.2f} s processor",
            flush=True,
        )
    chain = [o["table, two processes"][0] + o["simulation, two processes"][0] for o, _ in pairs]
    before = [t["table"][0] + max(t["half 0"][0], t["half 1"][0]) for _, t in pairs]
    halves = [median([t[f"half {k}"][1] for _, t in pairs]) for k in range(2)]
    print(
        f"kniffel chain (table, then simulation) on two processors: median {median(chain):.2f} s "
        f"wall | before ({BASE}): table + larger half {median(before):.2f} s (halves "
        f"{halves[0]:.2f} + {halves[1]:.2f} s processor) | ratio "
        f"{median([c / b for c, b in zip(chain, before, strict=True)]):.3g}×",
        flush=True,
    )
    print("table and scores: the same as before (all runs)", flush=True)


if __name__ == "__main__":
    main()
