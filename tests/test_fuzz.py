"""Seeded fuzzing of every command's options and every input file kind (issues 13, 25).

Each input must end with exit 0 or 2 — never a traceback (an exception escaping the
CLI) or a hang (an alarm after HANG_SECONDS) —, a failing run must leave no file
behind, no run may write outside its `--out` / `--png` folders, and an `--out` that
is a FIFO or a device is still one afterwards. Four campaigns: command lines
(in-process), mutated files (each through `validate` and a command that reads it),
standard output full, closed or in a narrow encoding (through the console entry, in a
process of its own), and every filter, operator and method of the template sandbox
against the size limits. The cases of a campaign run across worker processes under a
memory limit (tests.fuzzpool), so a case that breaks a promise, eats memory or kills
its worker is a finding that names it, and the campaign goes on. The default run is a
bounded sample; `pytest -m stress` runs the long campaigns (FUZZ_INPUTS, FUZZ_FILES,
FUZZ_STREAMS set their sizes; FUZZ_JOBS, FUZZ_MEMORY_MB, FUZZ_SEED the workers, their
limit and the seed).
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from tests.fuzzgen import ATTACKS, FILE_KINDS, Inputs, command_line, leaf_commands, mutated
from tests.fuzzpool import Outcome, run_cases, seed, setting

# seconds of processor time (not of the clock: a slow input on a busy machine is no hang)
HANG_SECONDS = 120
WALL_SECONDS = 900  # a case that waits (blocked, asleep) for this long is a hang too


class Hang(Exception):
    """An input used more than HANG_SECONDS of processor time."""


def _alarm(signum, frame):
    raise Hang


def _files(folder: Path, skip: object = ()) -> dict[Path, int]:
    return {
        p: p.stat().st_mtime_ns for p in folder.rglob("*") if not p.is_symlink() and p not in skip
    }


def _kept_special_outs(inputs: Inputs, args: list[str]) -> None:
    """Every special --out target is still of its type (written into or refused, never replaced)."""
    for path, kind in inputs.special_outs.items():
        assert stat.S_IFMT(os.lstat(path).st_mode) == kind, ("replaced", path, args)


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


def _invoke(runner: CliRunner, args: list[str], work: Path):
    """One in-process run in `work`; a hang (HANG_SECONDS of processor time, counted by
    the profiling timer, so a loaded machine does not make one) is an AssertionError."""
    cwd = os.getcwd()
    old = signal.signal(signal.SIGPROF, _alarm)
    os.chdir(work)
    signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
    try:
        return runner.invoke(cli, args, catch_exceptions=False)
    except Hang:
        raise AssertionError(f"hang: {args!r}") from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        os.chdir(cwd)


def _one_line(args: list[str], result) -> None:
    """A refusal is one line (validate lists every problem, a batch reports bad lines as JSON)."""
    if args[0] != "validate" and "--batch" not in args:
        err = result.stderr.strip()
        assert len(err.splitlines()) == 1 and len(err) <= 600, (args, err[:2000])


def campaign(inputs: Inputs, tmp_path: Path, count: int, seed: int) -> Outcome:
    """`count` seeded command lines, run across worker processes (tests.fuzzpool)."""
    rng = random.Random(seed)
    commands = list(leaf_commands())
    cases = [(i, command_line(inputs, rng, commands)) for i in range(count)]
    runner = CliRunner()

    def check(case: tuple[int, list[str]]) -> int:
        i, args = case
        work = tmp_path / f"run{i}"
        work.mkdir()
        before_pool = _files(inputs.root, inputs.special_outs)
        result = _invoke(runner, args, work)
        code = result.exit_code
        assert code in (0, 2), (code, args, result.output[-2000:])
        assert "Traceback" not in result.output, (args, result.output[-2000:])
        written = {p.relative_to(work) for p in work.rglob("*")}
        if code == 2:
            assert not written, (args, sorted(map(str, written)))
            _one_line(args, result)
        # out/ and png/ are what the inputs name; output/ is --out's default
        outside = {p for p in written if p.parts[0] not in ("out", "png", "output")}
        assert not outside, (args, sorted(map(str, outside)))
        after_pool = _files(inputs.root, inputs.special_outs)
        assert after_pool == before_pool, ("an input changed", args)
        _kept_special_outs(inputs, args)
        shutil.rmtree(work)  # (a case that fell short keeps its folder to look at)
        return code

    # (the workers' clock limit only catches what the processor-time one cannot: a wait)
    return run_cases("fuzz command lines", cases, check, hang=WALL_SECONDS)


def test_every_command_covers_every_option() -> None:
    """The generator reaches every command (a new one is fuzzed without changes here)."""
    names = {" ".join(words) for words, _ in leaf_commands()}
    assert {"kniffel block", "worksheet", "validate", "init", "preview", "numbers solve"} <= names
    assert len(names) >= 20


def _breaking(case: str) -> str:
    if case == "memory":
        return str(len(bytearray(2**31)))  # past the worker's limit: a MemoryError
    if case == "killed":
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer does
    if case == "hang":
        time.sleep(3600)
    assert case == "fine", case
    return case


def test_a_case_that_breaks_its_worker_is_a_finding(monkeypatch) -> None:
    """Memory past the limit, a killed worker, a hang, a failed check: each a finding naming
    its case, and the campaign goes on with the cases after it."""
    monkeypatch.setenv("FUZZ_MEMORY_MB", "1024")
    cases = ["fine", "memory", "fine", "killed", "fine", "hang", "wrong", "fine"]
    outcome = run_cases("breaking", cases, _breaking, hang=3, workers=2)
    assert outcome.tried == 8 and outcome.held == 4 and outcome.keys["fine"] == 4
    found = "\n".join(outcome.findings)
    for index, what in [(1, "MemoryError"), (3, "died"), (5, "no end in 3 s"), (6, "wrong")]:
        assert f"case {index}: {cases[index]!r}" in found and what in found, found
    with pytest.raises(AssertionError, match="4 fell short"):
        outcome.check()


def test_fuzz(inputs: Inputs, tmp_path: Path) -> None:
    outcome = campaign(inputs, tmp_path, 300, seed=13)
    outcome.check()
    assert outcome.keys[0] > 0 and outcome.keys[2] > 0  # both successes and refusals


@pytest.mark.stress
def test_fuzz_long(inputs: Inputs, tmp_path: Path) -> None:
    """The long campaign (`pytest -m stress tests/test_fuzz.py -s` prints the histogram)."""
    campaign(inputs, tmp_path, setting("FUZZ_INPUTS", 10_000), seed()).check()


# --- mutated files: each through `validate` and a command that reads it ------------------

# file kind → the command line that reads a file of that kind (FILE stands for it)
READERS = {
    "kniffel": ["kniffel", "block", "--rules", "FILE", "--out", "out/"],
    "koepfchen": ["koepfchen", "board", "--profile", "FILE", "--out", "out/"],
    "kribbeln": ["kribbeln", "analyze", "--tasks", "FILE", "--json"],
    "worksheet": ["worksheet", "--spec", "FILE", "--out", "out/"],
    "roster": ["worksheet", "--roster", "FILE", "--out", "out/", "--versions", "2"],
    "kniffel-game": ["kniffel", "score", "FILE", "--json"],
    "kribbeln-game": ["kribbeln", "score", "FILE", "--json"],
    "pages": ["kribbeln", "block", "--pages", "FILE", "--out", "out/"],
    "batch": ["numbers", "solve", "--batch", "FILE", "--json"],
    "block": ["kribbeln", "simulate", "--block", "FILE", "--games", "5", "--json"],
}


def file_campaign(inputs: Inputs, tmp_path: Path, count: int, seed: int) -> Outcome:
    """`count` freshly mutated files, each read by `validate` and by its command."""
    rng = random.Random(seed)
    originals = [(kind, path.read_bytes()) for kind, paths in sorted(inputs.files.items())
                 if kind in READERS for path in paths[:1]]  # fmt: skip
    assert {kind for kind, _ in originals} >= set(FILE_KINDS.values()) - {"any"}
    cases = []
    for i in range(count):
        kind, data = rng.choice(originals)
        cases.append((i, kind, mutated(data, rng)))
    runner = CliRunner()

    def check(case: tuple[int, str, bytes]) -> str:
        i, kind, data = case
        work = tmp_path / f"file{i}"
        work.mkdir()
        suffix = {"roster": ".txt", "batch": ".txt", "block": ".json"}.get(kind, ".yaml")
        path = work / f"in{suffix}"
        path.write_bytes(data)
        codes = []
        for args in (["validate", str(path)], [str(path) if a == "FILE" else a
                                               for a in READERS[kind]]):  # fmt: skip
            result = _invoke(runner, args, work)
            codes.append(result.exit_code)
            assert result.exit_code in (0, 2), (args, result.output[-2000:])
            assert "Traceback" not in result.output, (args, result.output[-2000:])
            if result.exit_code == 2 and args[0] != "validate":
                _one_line(args, result)
                assert not (work / "out").exists(), args
        shutil.rmtree(work)
        return "validate {}, reader {}".format(*codes)

    return run_cases("fuzz files", cases, check, hang=2 * WALL_SECONDS)


def test_fuzz_files(inputs: Inputs, tmp_path: Path) -> None:
    outcome = file_campaign(inputs, tmp_path, 40, seed=25)
    outcome.check()
    assert any("2" in key for key in outcome.keys)


@pytest.mark.stress
def test_fuzz_files_long(inputs: Inputs, tmp_path: Path) -> None:
    file_campaign(inputs, tmp_path, setting("FUZZ_FILES", 3000), seed()).check()


# --- standard output: full, closed, a narrow encoding, a pipe closed early ----------------

ENTRY = "import sys; from generator.__main__ import run; sys.argv = ['dicesheets', *sys.argv[1:]]"
ENTRY += "; run()"
STREAM_MODES = ["full", "closed", "latin-1", "cp1252", "broken-pipe"]


def _stream_run(args: list[str], mode: str, work: Path, full: Path | None):
    """Run the console entry with standard output in `mode`; (exit code, stderr text)."""
    env = {**os.environ, "PYTHONIOENCODING": mode if mode in ("latin-1", "cp1252") else "utf-8"}
    command = [sys.executable, "-c", ENTRY, *args]
    kwargs: dict = {"cwd": work, "env": env, "stderr": subprocess.PIPE, "timeout": 600}
    if mode == "closed":
        close = "import os, sys; os.close(1); os.execv(sys.executable, sys.argv[1:])"
        done = subprocess.run([sys.executable, "-c", close, *command], **kwargs)
    elif mode == "full":
        assert full is not None
        with open(full, "wb") as target:
            done = subprocess.run(command, stdout=target, **kwargs)
    elif mode == "broken-pipe":
        reader, writer = os.pipe()
        os.close(reader)  # nobody reads: every write is EPIPE
        try:
            done = subprocess.run(command, stdout=writer, **kwargs)
        finally:
            os.close(writer)
    else:
        done = subprocess.run(command, stdout=subprocess.DEVNULL, **kwargs)
    return done.returncode, done.stderr.decode("utf-8", "replace")


def stream_campaign(inputs: Inputs, tmp_path: Path, count: int, seed: int) -> Outcome:
    """`count` command lines of every command, standard output full, closed, narrow or
    a pipe nobody reads in turn; a run that fails leaves no file (also none it wrote
    before the failing "wrote …" line)."""
    rng = random.Random(seed)
    commands = list(leaf_commands())
    full = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a private node of the full device
        full = tmp_path / "full"
        os.mknod(full, stat.S_IFCHR | 0o600, os.makedev(1, 7))
    modes = [m for m in STREAM_MODES if m != "full" or full is not None]
    cases = [(i, modes[i % len(modes)], command_line(inputs, rng, commands)) for i in range(count)]

    def check(case: tuple[int, str, list[str]]) -> tuple[str, int]:
        i, mode, args = case
        work = tmp_path / f"stream{i}"
        work.mkdir()
        code, err = _stream_run(args, mode, work, full)
        assert code in (0, 2), (mode, code, args, err[-2000:])
        assert "Traceback" not in err and "Exception ignored" not in err, (mode, args, err[-2000:])
        if mode in ("full", "broken-pipe") and code == 2 and "standard output" in err:
            # (validate lists the problems it found on stderr before: "file:line: …")
            assert err.count("dicesheets: error:") == 1, (mode, args, err)
        if code == 2:
            written = sorted(str(p.relative_to(work)) for p in work.rglob("*"))
            assert not written, ("a failed run left files", mode, args, written, err[-500:])
        _kept_special_outs(inputs, args)
        shutil.rmtree(work)
        return mode, code

    return run_cases("fuzz streams", cases, check, hang=WALL_SECONDS)


def test_fuzz_streams(inputs: Inputs, tmp_path: Path) -> None:
    stream_campaign(inputs, tmp_path, 10, seed=25).check()


@pytest.mark.stress
def test_fuzz_streams_long(inputs: Inputs, tmp_path: Path) -> None:
    stream_campaign(inputs, tmp_path, setting("FUZZ_STREAMS", 1000), seed()).check()


# --- templates: every filter, operator and method against the size limits --------------------


def test_every_filter_operator_and_method_is_bounded() -> None:
    """Each attack (tests.fuzzgen.size_attacks) renders within MAX_TEXT or is one
    CatalogError, before it allocates: the process's peak memory stays low."""
    from generator.core.errors import CatalogError
    from generator.text.templating import MAX_TEXT, Budget, guarded
    from generator.text.words import make_environment

    env = make_environment()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    refused = 0
    for line in ATTACKS:
        try:
            with guarded("attack.j2", Budget(10.0)):
                out = env.from_string(line).render()
            assert len(out) <= MAX_TEXT, line
        except CatalogError as exc:
            refused += 1
            assert "attack.j2" in str(exc), (line, exc)
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        assert grown_mb < 500, (line, grown_mb)
    print(f"template attacks: {len(ATTACKS)} tried, {refused} refused")
    assert refused > len(ATTACKS) // 4
