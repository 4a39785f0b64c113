"""`make run` a second time, nothing changed: the install is skipped (a stamp file).

Run: `make bench` (or `python -m bench bench_make_run`) from the project folder. The
baseline is the same `make run` with the stamp removed, i.e. with the install it always
did before. Both write the default set into output/, from a warm solver cache.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from bench.common import process_times

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DICESHEETS_CACHE": str(Path(tmp) / "cache")}
        make = ["make", "-s", "-C", str(ROOT), "run"]
        stamp = ROOT / ".venv" / ".installed"
        # install once and warm the cache
        subprocess.run(make, check=True, capture_output=True, env={**os.environ, **env})
        fresh = ["sh", "-c", f"rm -f '{stamp}' && exec \"$@\"", "bench", *make]
        pair = process_times(make, fresh, 3, env)
        goal = "met" if pair.a <= 1 else "missed"
        print(
            f"make run, nothing changed: median {pair.a:.2f} s | with the install "
            f"{pair.b:.2f} s | ratio {pair.ratio:.3g}× (aim ≤ 1 s: {goal})",
            flush=True,
        )


if __name__ == "__main__":
    main()
