"""`dicesheets all` from an empty solver cache (and from a warm one), beside the code before.

Run: `make bench` (or `python -m bench bench_cold_all`). First the cold run beside the
warm one (the aim: ≤ 2.5× its time); then beside the code before: the project at
commit BASE (main when this session's work on the cold run began; `48fcd62` was before
issue 17 and had no ReportLab accelerator: give `hide-accel` instead of `keep` for it), taken
from git into a temporary folder and run by the same interpreter. Every cold run starts
from an empty cache; the commands run in turn and the ratios are pair by pair (wall and
processor time, children included). Without git history the baseline is skipped.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from bench.common import dicesheets, process_times, source_at

BASE = "939acb1"
RUN = (
    "import os, sys\n"
    "if sys.argv[1] == 'hide-accel':\n"
    "    sys.modules['_rl_accel'] = None\n"
    "if sys.argv[2] == 'one-cpu':\n"
    "    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
    "from generator.cli import cli\n"
    "cli.main(sys.argv[3:], prog_name='dicesheets')\n"
)


def shell(
    command: list[str],
    cache: Path,
    cwd: Path | None = None,
    cold: bool = False,
    env: dict[str, str] | None = None,
) -> list[str]:
    """`command` with its own solver cache (emptied first if `cold`), run in `cwd` with `env`.

    Each side keeps its own cache: the two versions store different entries under
    the same keys, and would otherwise spoil each other's warm runs.
    """
    steps = [f"rm -rf '{cache}'"] if cold else []
    steps += [f"export DICESHEETS_CACHE='{cache}'"]
    steps += [f"export {name}='{value}'" for name, value in (env or {}).items()]
    steps += [f"cd '{cwd}'"] if cwd else []
    return ["sh", "-c", " && ".join([*steps, 'exec "$@"']), "bench", *command]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ours_out, base_out = tmp / "ours", tmp / "base"
        ours = [*dicesheets("all", "--out", f"{ours_out}/")]
        one_cpu = [sys.executable, "-c", RUN, "keep", "one-cpu", "all", "--out", f"{ours_out}/"]
        mine, theirs = tmp / "cache-ours", tmp / "cache-base"
        one = process_times(shell(one_cpu, mine, cold=True), shell(ours, mine, cold=True), 2)
        print(
            f"all, cold cache: median {one.b:.2f} s (CPU {one.b_cpu:.2f} s) | on one processor "
            f"{one.a:.2f} s (CPU {one.a_cpu:.2f} s) | ratio one/two processors {one.ratio:.3g}×",
            flush=True,
        )
        cold = process_times(shell(ours, mine, cold=True), shell(ours, mine), 5)
        goal = "met" if cold.ratio <= 2.5 else "MISSED"
        print(
            f"all, cold cache {cold.a:.2f} s (CPU {cold.a_cpu:.2f} s) | warm {cold.b:.2f} s (CPU "
            f"{cold.b_cpu:.2f} s) | ratio cold/warm {cold.ratio:.3g}× wall, {cold.cpu_ratio:.3g}× "
            f"CPU (aim ≤ 2.5×: {goal})",
            flush=True,
        )
        # the entry lets OpenBLAS's idle threads sleep at once; its own default (2^28 cycles)
        spin = {"OPENBLAS_THREAD_TIMEOUT": "28"}
        slept = process_times(
            shell(ours, mine, cold=True, env=spin), shell(ours, mine, cold=True), 3
        )
        print(
            f"all, cold cache, OpenBLAS threads spinning as by default: median {slept.a:.2f} s "
            f"(CPU {slept.a_cpu:.2f} s) | sleeping at once {slept.b:.2f} s (CPU "
            f"{slept.b_cpu:.2f} s) | ratio {slept.ratio:.3g}× wall, {slept.cpu_ratio:.3g}× CPU",
            flush=True,
        )
        base = tmp / "base-src"
        if not source_at(BASE, base):
            return
        old = [sys.executable, "-c", RUN, "keep", "keep", "all", "--out", f"{base_out}/"]
        for label, pair in [
            (
                "cold cache",
                process_times(shell(ours, mine, cold=True), shell(old, theirs, base, cold=True), 3),
            ),
            ("warm cache", process_times(shell(ours, mine), shell(old, theirs, base), 5)),
        ]:
            goal = f" (aim ≤ 2 s: {'met' if pair.a <= 2 else 'missed'})" if label[0] == "c" else ""
            print(
                f"all, {label}: median {pair.a:.2f} s, CPU {pair.a_cpu:.2f} s | before ({BASE}) "
                f"{pair.b:.2f} s, CPU {pair.b_cpu:.2f} s | ratio {pair.ratio:.3g}× wall, "
                f"{pair.cpu_ratio:.3g}× CPU{goal}",
                flush=True,
            )
        differ = sorted(
            p.name for p in ours_out.iterdir() if (base_out / p.name).read_bytes() != p.read_bytes()
        )
        print(f"files that differ from {BASE}: {', '.join(differ) or 'none'}", flush=True)


if __name__ == "__main__":
    main()
