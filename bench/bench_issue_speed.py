"""Every figure of the speed aims in one run: cold `all`, the coach, every `--help`, the devices.

Run: `python -m bench.bench_issue_speed [--write]` (the `bench` extra installed: `make bench`
installs it; 2–4 minutes on the quiet 2-core machine, 14 at load 30). Each
figure comes from fresh processes run in turn with their baseline of the same run (one
warm-up each), medians of wall and processor time and the median of the round-by-round
ratios; the 1-minute load average is printed before and after each part. `--write` puts
the figures into docs/figures/speed.json and its copy in docs/performance.md.

- cold `dicesheets all` (an empty solver cache) beside the warm run: aim ≤ 2.5×;
- `kniffel advise` (Yahtzee, free joker, warm cache) beside yatzy-solver's same call, both
  fresh processes: aim ≤ 3×; the web coach's answer in a warm worker: aim ≤ 20 ms;
- every group's and command's `--help` beside `python -c pass`: aim ≤ 4×; the first help
  after a plain `pip install` (an empty cache: the shipped copy all the same) beside it;
- `numbers solve` (984, `--all`) beside countdown-numbers-solver, and its error path;
- what each device of `generator.io.startup` saves (`bench_devices`: turned off in turn).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_cold_all import shell
from bench.bench_devices import entry, pairs
from bench.bench_kniffel_advise import OURS, PEER, agreement, peer_table
from bench.common import dicesheets, process_times, run_once, user_env

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures" / "speed.json"
PAGE = ROOT / "docs" / "performance.md"
ROUNDS = 9
DEVICES = [
    ("quick end off", ["kniffel", "advise", "--roll", "13356"]),
    ("quick end off", ["all", "--out", "{out}"]),
    ("stored help off", ["--help"]),
    ("stored help off", ["kniffel", "advise", "--help"]),
    ("fast path off", ["numbers", "solve", "100", "25", "8", "3", "1", "1", "--target", "984"]),
    ("fast path off", ["kniffel", "advise", "--roll", "13356"]),
]


def load() -> float:
    return round(os.getloadavg()[0], 2)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def rounds(commands: list[list[str]], env: dict[str, str], repeat: int = ROUNDS) -> list[Any]:
    """(wall, cpu) of each command, `repeat` rounds of all of them in turn (a warm-up first)."""
    for cmd in commands:
        run_once(cmd, env)
    got: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(repeat):
        for i, cmd in enumerate(commands):
            got[i].append(run_once(cmd, env))
    return got


def med(times: list[tuple[float, float]], which: int = 0) -> float:
    return statistics.median(t[which] for t in times)


def ratio(a: list[tuple[float, float]], b: list[tuple[float, float]], which: int = 0) -> float:
    return round(statistics.median(x[which] / y[which] for x, y in zip(a, b)), 3)


def part(name: str, figures: dict[str, Any], run: Any) -> None:
    before = load()
    start = time.perf_counter()
    result = run()
    result["load"] = [before, load()]
    result["took_s"] = round(time.perf_counter() - start, 1)
    figures[name] = result
    print(f"{name}: {json.dumps(result, ensure_ascii=False)}", flush=True)


def cold_all(tmp: Path) -> dict[str, Any]:
    ours = dicesheets("all", "--out", f"{tmp / 'out'}/")
    cache = tmp / "cache-all"
    pair = process_times(shell(ours, cache, cold=True), shell(ours, cache), 5)
    return {
        "cold_s": round(pair.a, 2),
        "cold_cpu_s": round(pair.a_cpu, 2),
        "warm_s": round(pair.b, 2),
        "warm_cpu_s": round(pair.b_cpu, 2),
        "ratio_wall": round(pair.ratio, 3),
        "ratio_cpu": round(pair.cpu_ratio, 3),
        "aim": "≤ 2.5×",
    }


def coach(tmp: Path) -> dict[str, Any]:
    env = user_env({"DICESHEETS_CACHE": str(tmp / "cache-coach")})
    run_once(dicesheets(*OURS), env)  # the table solved and stored once
    table = peer_table(tmp)
    bare = [sys.executable, "-c", "pass"]
    out: dict[str, Any] = {}
    if table is not None:
        ours, peer, plain = rounds(
            [dicesheets(*OURS), [sys.executable, "-c", PEER, str(table)], bare], env, 15
        )
        out.update(
            advise_ms=ms(med(ours)),
            advise_cpu_ms=ms(med(ours, 1)),
            peer_ms=ms(med(peer)),
            peer_cpu_ms=ms(med(peer, 1)),
            bare_ms=ms(med(plain)),
            ratio_wall=ratio(ours, peer),
            ratio_cpu=ratio(ours, peer, 1),
            agree_points=float(f"{agreement(table):.2g}"),
            aim="≤ 3×",
        )
    else:
        out["peer"] = "yatzy-solver not installed (pip install -e '.[bench]')"
    os.environ["DICESHEETS_CACHE"] = str(tmp / "cache-coach")
    from generator.web import products

    job = products.Job(
        "coach",
        {"rules": "yahtzee", "joker": "free", "filled": "", "roll": "1 3 3 5 6", "rolls_left": 2},
        "advise",
    )
    build = products.BUILDERS["coach"]
    build(job)
    walls, cpus = [], []
    for _ in range(50):
        w, c = time.perf_counter(), time.process_time()
        build(job)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    out.update(web_ms=ms(statistics.median(walls)), web_cpu_ms=ms(statistics.median(cpus)))
    out["web_aim"] = "≤ 20 ms"
    return out


def helps(tmp: Path) -> dict[str, Any]:
    from generator.cli import command_words

    env = user_env({"DICESHEETS_CACHE": str(tmp / "cache-help"), "COLUMNS": "80"})
    words = command_words()
    bare = [sys.executable, "-c", "pass"]
    each: dict[str, float] = {}
    for command in words:
        ours, plain = rounds([dicesheets(*command, "--help"), bare], env, 7)
        each[" ".join(["dicesheets", *command, "--help"])] = ratio(ours, plain)
    # the first help after a plain install: the same shipped copy, with an empty cache
    fresh = tmp / "cache-fresh"
    first = [
        "sh",
        "-c",
        f"rm -rf '{fresh}' && DICESHEETS_CACHE='{fresh}' exec \"$@\"",
        "help",
        *dicesheets("kniffel", "advise", "--help"),
    ]
    shipped, plain = rounds([first, bare], env, 7)
    worst = max(each.values())
    return {
        "commands": len(each),
        "worst_ratio": worst,
        "worst": max(each, key=lambda k: each[k]),
        "median_ratio": round(statistics.median(each.values()), 3),
        "first_after_plain_pip_install_ratio": ratio(shipped, plain),
        "aim": "≤ 4×",
    }


def numbers(tmp: Path) -> dict[str, Any]:
    env = user_env({"DICESHEETS_CACHE": str(tmp / "cache-numbers")})
    args = ["numbers", "solve", "100", "25", "8", "3", "1", "1", "--target", "984", "--all"]
    theirs = "import countdown_numbers_solver as c; c.solve([100, 25, 8, 3, 1, 1], 984)"
    wrong = ["numbers", "solve", "1", "2", "3", "--target", "x"]
    # (an error exits 2: through sh, which ignores it)
    wrong_cmd = ["sh", "-c", '"$@" 2>/dev/null || true', "wrong", *dicesheets(*wrong)]
    try:
        import countdown_numbers_solver  # noqa: F401
    except ImportError:
        ours, bad = rounds([dicesheets(*args), wrong_cmd], env)
        return {"solve_984_ms": ms(med(ours)), "error_path_ms": ms(med(bad))}
    ours, them, bad = rounds([dicesheets(*args), [sys.executable, "-c", theirs], wrong_cmd], env)
    return {
        "solve_984_ms": ms(med(ours)),
        "solve_984_cpu_ms": ms(med(ours, 1)),
        "peer_ms": ms(med(them)),
        "ratio_wall": ratio(ours, them),
        "ratio_cpu": ratio(ours, them, 1),
        "error_path_ms": ms(med(bad)),
        "error_path_cpu_ms": ms(med(bad, 1)),
    }


def devices(tmp: Path) -> dict[str, Any]:
    env = user_env({"DICESHEETS_CACHE": str(tmp / "cache-devices")})
    out = str(tmp / "out-devices") + "/"
    saved: dict[str, float] = {}
    for off, args in DEVICES:
        args = [a.replace("{out}", out) for a in args]
        _, _, saves, _ = pairs(entry("as it is", args), entry(off, args), env)
        saved[f"{off.removesuffix(' off')}: dicesheets {' '.join(args[:2])}"] = round(saves, 1)
    return {"saves_ms": saved}


def write(figures: dict[str, Any]) -> None:
    text = json.dumps(figures, indent=2, ensure_ascii=False) + "\n"
    FIGURES.write_text(text, encoding="utf-8")
    page = PAGE.read_text(encoding="utf-8")
    block = re.compile(r"(<!-- include figures/speed\.json -->\n)```json\n.*?\n```", re.S)
    PAGE.write_text(block.sub(lambda m: f"{m[1]}```json\n{text}```", page), encoding="utf-8")
    print(f"wrote {FIGURES.relative_to(ROOT)} and its copy in {PAGE.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write docs/figures/speed.json")
    args, _ = parser.parse_known_args()  # (`python -m bench` passes module names)
    figures: dict[str, Any] = {
        "measured": datetime.date.today().isoformat(),
        "machine": f"{os.cpu_count()} processors, Python {sys.version.split()[0]}",
    }
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dicesheets-speed-") as name:
        tmp = Path(name)
        for title, run in [
            ("cold all", cold_all),
            ("coach", coach),
            ("help", helps),
            ("numbers", numbers),
            ("devices", devices),
        ]:
            part(title, figures, lambda run=run: run(tmp))
        shutil.rmtree(tmp, ignore_errors=True)
    figures["took_s"] = round(time.perf_counter() - start, 1)
    print(f"all parts: {figures['took_s']} s", flush=True)
    if args.write:
        write(figures)


if __name__ == "__main__":
    main()
