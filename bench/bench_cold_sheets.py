"""Processor time of the sheets a cold `dicesheets all` draws beside the Kniffel odds card.

Run: `python -m bench bench_cold_sheets`. Each measurement is a fresh process from an
empty solver cache: every default sheet but those with early solver work (the odds
card: its table and simulation run in other processes, `bench_cold_all`), built and
rendered; the Kribbeln pad alone; and the exact figures of the whole Kribbeln catalog.
Beside the project at commit BASE (when this session's work began), taken from git
into a temporary folder; runs in turn (a b a b …), medians and pair-by-pair ratios of
processor time (user + system, the process and its children), which a shared machine
disturbs less than the clock. The PDF bytes of both sides are compared.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench_cold_all import shell
from bench.common import process_times, source_at

BASE = "939acb1"
PAIRS = 5
RUN = (
    "import hashlib, sys\n"
    "what = sys.argv[1]\n"
    "if what == 'catalog':\n"
    "    from generator.kribbeln.solver import compute_figures\n"
    "    from generator.kribbeln.load import load_dice, load_tasks\n"
    "    dice, _ = load_dice()\n"
    "    tasks = load_tasks(dice)\n"
    "    figures = compute_figures(dice, tasks.tasks, tasks.rolls)\n"
    "    print(hashlib.sha256(repr(figures).encode()).hexdigest())\n"
    "    raise SystemExit\n"
    "from generator.cli.defaults import default_set\n"
    "from generator.io import writer\n"
    "digest = hashlib.sha256()\n"
    "items = [item for item in default_set(1) if not item.warm]\n"
    "for item in items[-1:] if what == 'pad' else items:\n"
    "    for pdf in writer.render_all(item.build()):\n"
    "        digest.update(pdf)\n"
    "print(digest.hexdigest())\n"
)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        base = tmp / "base-src"
        if not source_at(BASE, base):
            return
        ours_root = Path(__file__).resolve().parent.parent
        for what, label in [
            ("sheets", "every sheet of `all` but the odds card"),
            ("pad", "the Kribbeln pad (6 sheets)"),
            ("catalog", "Kribbeln figures of the whole catalog"),
        ]:
            out = {}
            for side, root in (("ours", ours_root), ("base", base)):
                cmd = [sys.executable, "-c", RUN, what]
                out[side] = shell(cmd, tmp / f"cache-{side}", root, cold=True)
            pair = process_times(out["ours"], out["base"], PAIRS)
            same = _output(out["ours"]) == _output(out["base"])
            print(
                f"{label}, cold cache: CPU {pair.a_cpu:.3f} s (wall {pair.a:.3f} s) | before "
                f"({BASE}) CPU {pair.b_cpu:.3f} s (wall {pair.b:.3f} s) | ratio "
                f"{pair.cpu_ratio:.3g}× CPU, {pair.ratio:.3g}× wall | "
                f"{'same bytes' if same else 'OUTPUT DIFFERS'}",
                flush=True,
            )


def _output(command: list[str]) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


if __name__ == "__main__":
    main()
