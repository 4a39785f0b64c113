"""Seeded fuzzing of every command's options and every input file kind (issue 13).

Each input must end with exit 0 or 2 — never a traceback (an exception escaping the
CLI) or a hang (an alarm after HANG_SECONDS) —, a failing run must leave no file
behind, and no run may write outside its `--out` / `--png` folders. The default run
is bounded (a few hundred inputs, well under a minute); `pytest -m stress` runs the
long campaign.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from tests.fuzzgen import Inputs, command_line, leaf_commands

HANG_SECONDS = 120  # a hang runs forever; a slow input on a busy machine is no hang


class Hang(Exception):
    """An input ran longer than HANG_SECONDS."""


def _alarm(signum, frame):
    raise Hang


def _files(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*") if not p.is_symlink()}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Inputs:
    root = tmp_path_factory.mktemp("fuzz-inputs")
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        made = runner.invoke(cli, ["kribbeln", "block", "--out", "block.pdf"])
        assert made.exit_code == 0, made.output
    finally:
        os.chdir(cwd)
    pool = Inputs(root / "pool", random.Random(13), (root / "block.json").read_bytes())
    (root / "block.pdf").rename(pool.pdf)
    return pool


def campaign(inputs: Inputs, tmp_path: Path, count: int, seed: int) -> Counter:
    rng = random.Random(seed)
    commands = list(leaf_commands())
    runner = CliRunner()
    codes: Counter = Counter()
    cwd = os.getcwd()
    old = signal.signal(signal.SIGALRM, _alarm)
    started = time.monotonic()
    try:
        for i in range(count):
            args = command_line(inputs, rng, commands)
            work = tmp_path / f"run{i}"
            work.mkdir()
            before_pool = _files(inputs.root)
            os.chdir(work)
            signal.alarm(HANG_SECONDS)
            try:
                result = runner.invoke(cli, args, catch_exceptions=False)
            except Hang:
                pytest.fail(f"hang: {args!r}")
            finally:
                signal.alarm(0)
                os.chdir(cwd)
            code = result.exit_code
            codes[code] += 1
            assert code in (0, 2), (code, args, result.output[-2000:])
            assert "Traceback" not in result.output, (args, result.output[-2000:])
            written = {p.relative_to(work) for p in work.rglob("*")}
            if code == 2:
                assert not written, (args, sorted(map(str, written)))
                # validate lists every problem, a batch reports each bad line as JSON
                if args[0] != "validate" and "--batch" not in args:
                    err = result.stderr.strip()
                    assert len(err.splitlines()) == 1 and len(err) <= 600, (args, err[:2000])
            # out/ and png/ are what the inputs name; output/ is --out's default
            outside = {p for p in written if p.parts[0] not in ("out", "png", "output")}
            assert not outside, (args, sorted(map(str, outside)))
            assert _files(inputs.root) == before_pool, ("an input changed", args)
    finally:
        signal.signal(signal.SIGALRM, old)
    took = time.monotonic() - started
    print(f"fuzz: {count} inputs in {took:.1f} s, exit codes {dict(sorted(codes.items()))}")
    return codes


def test_every_command_covers_every_option() -> None:
    """The generator reaches every command (a new one is fuzzed without changes here)."""
    names = {" ".join(words) for words, _ in leaf_commands()}
    assert {"kniffel block", "worksheet", "validate", "init", "preview", "numbers solve"} <= names
    assert len(names) >= 20


def test_fuzz(inputs: Inputs, tmp_path: Path) -> None:
    codes = campaign(inputs, tmp_path, 300, seed=13)
    assert codes[0] > 0 and codes[2] > 0  # both successes and refusals are exercised


@pytest.mark.stress
def test_fuzz_long(inputs: Inputs, tmp_path: Path) -> None:
    """The long campaign (`pytest -m stress tests/test_fuzz.py -s` prints the histogram)."""
    seed = int(os.environ.get("FUZZ_SEED", "2026"))
    count = int(os.environ.get("FUZZ_INPUTS", "3000"))
    campaign(inputs, tmp_path, count, seed)
