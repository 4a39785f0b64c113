"""What each start-up device of `generator.io.startup` saves, and every `--help` beside `pass`.

Run: `make bench` (or `python -m bench bench_devices`). Every command runs as the console
script runs it (`import re, sys`, then `generator.__main__.run`), in a fresh process, with
the device as it is and with it turned off (the entry's function replaced before the run,
no switch in the code), in turn, one warm-up each; the figures are medians of wall time,
the savings the median of the pair-by-pair differences. Then every command's `--help`
beside `python -c pass` (the aim: ≤ 4× a bare interpreter).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import run_once, user_env

ROUNDS = 11
ENTRY = "import re, sys\nsys.argv = ['dicesheets', *sys.argv[1:]]\n{off}\nfrom generator.__main__ import run\nrun()\n"  # noqa: E501
OFF = {
    "as it is": "",
    "quick end off": "import generator.io.startup as s; s.quick_exit = lambda code: None",
    "stored help off": "import generator.io.startup as s; s.stored_help = lambda a, o: False",
    "fast path off": "import generator.cli.fastpath as f; f.run = lambda args: False",
}
CASES = [
    ("quick end off", ["kniffel", "advise", "--roll", "13356"]),
    ("quick end off", ["--help"]),
    ("quick end off", ["kniffel", "block", "--out", "{out}"]),
    ("quick end off", ["all", "--out", "{out}"]),
    ("stored help off", ["--help"]),
    ("stored help off", ["kniffel", "advise", "--help"]),
    ("fast path off", ["numbers", "solve", "3", "1", "2", "--target", "8"]),
    ("fast path off", ["kniffel", "advise", "--roll", "13356"]),
]
HELPS = [[], ["all"], ["init"], ["kniffel"], ["kniffel", "advise"], ["kniffel", "block"],
         ["kniffel", "odds"], ["kniffel", "score"], ["kniffel", "solve"], ["koepfchen"],
         ["koepfchen", "board"], ["kribbeln"], ["kribbeln", "block"], ["numbers"],
         ["numbers", "solve"], ["preview"], ["report"], ["serve"], ["validate"],
         ["worksheet"]]  # fmt: skip


def entry(off: str, args: list[str]) -> list[str]:
    return [sys.executable, "-c", ENTRY.format(off=OFF[off]), *args]


def pairs(a: list[str], b: list[str], env: dict[str, str]) -> tuple[float, float, float, float]:
    """Medians of a and b (wall ms), the median pair-by-pair difference b − a and ratio a/b."""
    for cmd in (a, b):
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
    got = [(run_once(a, env)[0], run_once(b, env)[0]) for _ in range(ROUNDS)]
    return (
        statistics.median(x for x, _ in got) * 1000,
        statistics.median(y for _, y in got) * 1000,
        statistics.median(y - x for x, y in got) * 1000,
        statistics.median(x / y for x, y in got),
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = user_env({"DICESHEETS_CACHE": str(Path(tmp) / "cache")})
        out = str(Path(tmp) / "out") + "/"
        for off, args in CASES:
            args = [a.replace("{out}", out) for a in args]
            on_ms, off_ms, saved, _ = pairs(entry("as it is", args), entry(off, args), env)
            print(
                f"{off.removesuffix(' off')}, dicesheets {' '.join(args[:3])}: {on_ms:.1f} ms | "
                f"without it {off_ms:.1f} ms | saves {saved:.1f} ms",
                flush=True,
            )
        bare = [sys.executable, "-c", "pass"]
        worst = 0.0
        for words in HELPS:
            on_ms, bare_ms, _, ratio = pairs(entry("as it is", [*words, "--help"]), bare, env)
            worst = max(worst, ratio)
            print(
                f"dicesheets {' '.join([*words, '--help'])}: {on_ms:.1f} ms | python -c pass "
                f"{bare_ms:.1f} ms | ratio {ratio:.3g}×",
                flush=True,
            )
        goal = "met" if worst <= 4 else "MISSED"
        print(f"--help, the slowest command: {worst:.3g}× (aim ≤ 4×: {goal})")


if __name__ == "__main__":
    main()
