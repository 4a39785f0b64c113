"""`kniffel advise` (one position, warm cache, a fresh process) beside yatzy-solver's same call.

Run: `make bench` (installs the peer, the `yatzy-solver` wheel from PyPI, through the
`bench` extra) or `python -m bench bench_kniffel_advise`. The peer solves Yahtzee with the
free-choice joker ("american"); ours is `--rules yahtzee --joker free`. Both start from a
table on disk: ours the solver cache (warmed first), the peer's a table file it writes
once (f64, ~15 s). The commands run in turn in fresh processes (a bare interpreter
beside them), the ratios round by round. Without the peer installed, ours is set against
the peer's figure recorded in bench/peer_figures.json (then the ratio is only a guide:
another machine, another load).

Then the web coach's server time: the coach's build in a worker (the same function the
pool runs per click), warm — the table mapped, the answer computed — median of 50 calls.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.common import dicesheets, run_once, user_env

ROLL = (1, 3, 3, 5, 6)
OURS = ["kniffel", "advise", "--rules", "yahtzee", "--joker", "free", "--roll", "13356"]
SITUATION = "dice 1 3 3 5 6 | rolls 2 | upper 0 | filled -"
PEER = (
    "import sys, yatzy_solver as ys\n"
    "solver = ys.Solver.load(sys.argv[1], ys.Variant('american'))\n"
    f"solver.option_values({SITUATION!r})\n"
)
ROUNDS = 15
RECORDED = Path(__file__).with_name("peer_figures.json")


def peer_table(folder: Path) -> Path | None:
    """The peer's table file (written once per run), or None without the peer."""
    try:
        import yatzy_solver as ys
    except ImportError:
        return None
    path = folder / "american.f64"
    ys.Solver.build_table(ys.Variant("american"), str(path), precision="f64")
    return path


def agreement(table: Path) -> float:
    """The largest difference between our keep values and the peer's at ROLL (expected points)."""
    import yatzy_solver as ys

    from generator.kniffel.coach import advise, make_position
    from generator.kniffel.load import load_rules, load_table
    from generator.kniffel.table import with_joker

    rules = with_joker(load_rules("yahtzee"), "free")
    ours = advise(load_table(rules), make_position(rules, "", None), ROLL, 2)
    theirs = dict(ys.Solver.load(str(table), ys.Variant("american")).option_values(SITUATION))
    keeps = {f"keep {' '.join(map(str, o.keep or ()))}".strip(): o.expected for o in ours.options}
    common = [k for k in keeps if k in theirs]
    return max(abs(keeps[k] - theirs[k]) for k in common)


def web_coach() -> None:
    from generator.web import products

    job = products.Job(
        "coach",
        {"rules": "yahtzee", "joker": "free", "filled": "", "roll": "1 3 3 5 6", "rolls_left": 2},
        "advise",
    )
    build = products.BUILDERS["coach"]
    build(job)  # warm: the rule set read, the table mapped
    times = []
    for _ in range(50):
        start = time.perf_counter()
        build(job)
        times.append(time.perf_counter() - start)
    median = statistics.median(times) * 1000
    goal = "met" if median <= 20 else "MISSED"
    print(f"web coach, one answer (warm worker): median {median:.1f} ms (aim ≤ 20 ms: {goal})")


def main() -> None:
    env = user_env()
    run_once(dicesheets(*OURS), env)  # warm the solver cache (a cold solve once)
    with tempfile.TemporaryDirectory() as tmp:
        table = peer_table(Path(tmp))
        commands = [dicesheets(*OURS), [sys.executable, "-c", "pass"]]
        if table is not None:
            commands.append([sys.executable, "-c", PEER, str(table)])
        for cmd in commands:
            run_once(cmd, env)
        rounds: list[list[tuple[float, float]]] = [[] for _ in commands]
        for _ in range(ROUNDS):
            for i, cmd in enumerate(commands):
                rounds[i].append(run_once(cmd, env))
        ours, bare = rounds[0], rounds[1]
        wall = statistics.median(t[0] for t in ours) * 1000
        cpu = statistics.median(t[1] for t in ours) * 1000
        print(
            f"kniffel advise, fresh process: median {wall:.1f} ms (CPU {cpu:.1f}) | a bare "
            f"interpreter {statistics.median(t[0] for t in bare) * 1000:.1f} ms",
            flush=True,
        )
        if table is not None:
            peer = rounds[2]
            ratio = statistics.median(a[0] / b[0] for a, b in zip(ours, peer))
            cpu_ratio = statistics.median(a[1] / b[1] for a, b in zip(ours, peer))
            peer_ms = statistics.median(t[0] for t in peer) * 1000
            source = "measured"
            print(f"the coach and yatzy-solver differ by at most {agreement(table):.2g} points")
        else:
            recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["yatzy-solver advise"]
            peer_ms = recorded["wall_ms"]
            ratio = wall / peer_ms
            cpu_ratio = cpu / recorded["cpu_ms"]
            source = f"recorded ({recorded['measured']}; yatzy-solver not installed)"
        goal = "met" if ratio <= 3 else "MISSED"
        print(
            f"yatzy-solver, the same call: {peer_ms:.1f} ms, {source} | ratio {ratio:.3g}× wall, "
            f"{cpu_ratio:.3g}× CPU (aim ≤ 3×: {goal})",
            flush=True,
        )
    web_coach()


if __name__ == "__main__":
    main()
