"""CLI conventions: exit status 2 with one line for bad input, no partial files, lazy imports,
byte-identical output across processes."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

BAD = [
    (["kniffel", "block", "--players", "0"], "--players"),
    (["kniffel", "block", "--players", "99"], "--players"),
    (["kniffel", "block", "--rules", "poker"], "--rules"),
    (["kniffel", "block", "--players", "2", "--names", "A,B,C"], "--names"),
    (["kniffel", "block", "--names", ""], "--names"),
    (["kniffel", "block", "--names", "Anna,,Jörg"], "--names"),
    (["kniffel", "block", "--games", "7"], "--games"),
    (["kniffel", "block", "--copies", "0"], "--copies"),
    (["kniffel", "block", "--paper", "a5"], "--paper"),
    (["kniffel", "block", "--per-page", "2", "--games", "6"], "--per-page"),
    (["kniffel", "block", "--out", "/dev/null/x.pdf"], "--out"),
    # a required option left out names itself and what it takes
    (["report", "kribbeln"], "--game: missing (expected one of kribbeln, koepfchen)"),
]


@pytest.mark.parametrize(("args", "names"), BAD)
def test_bad_input_exit_2_one_line_no_file(run_cli, tmp_path: Path, args, names) -> None:
    before = set(tmp_path.rglob("*"))
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert names in err
    assert "Traceback" not in result.output
    assert set(tmp_path.rglob("*")) == before


def test_unwritable_output_folder(run_cli, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        result = run_cli("kniffel", "block", "--out", locked)
        assert result.exit_code == 2
        assert "--out" in result.stderr
    finally:
        locked.chmod(0o700)


def test_failed_write_leaves_no_partial_file_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch
) -> None:
    from generator.io import writer as output

    target = tmp_path / "a.pdf"
    target.write_bytes(b"old")
    real_replace = os.replace
    calls = []

    def flaky_replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr(output.os, "replace", flaky_replace)
    with pytest.raises(KeyboardInterrupt):
        output.write_files_atomic([(target, b"new pdf"), (tmp_path / "a.json", b"{}")])
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    assert not (tmp_path / "a.json").exists()


def _run(args: list[str], cwd: Path, hashseed: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_same_command_same_bytes_across_processes(tmp_path: Path) -> None:
    digests = []
    for seed in ("1", "12345"):
        folder = tmp_path / seed
        folder.mkdir()
        proc = _run(["kniffel", "block", "--names", "Zoë,Łukasz", "--out", "k.pdf"], folder, seed)
        assert proc.returncode == 0, proc.stderr
        digests.append(
            [hashlib.sha256((folder / n).read_bytes()).hexdigest() for n in ("k.pdf", "k.json")]
        )
    assert digests[0] == digests[1]


def test_no_help_imports_reportlab_or_numpy() -> None:
    """`--help` of the tool, of every command and every subcommand stays light (no web stack)."""
    code = (
        "import sys, click\n"
        "from generator.cli import cli, COMMANDS\n"
        "HEAVY = ('reportlab', 'numpy', 'starlette', 'uvicorn', 'multipart')\n"
        "def run(args):\n"
        "    try:\n"
        "        cli.main(args, prog_name='dicesheets')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "run(['--help'])\n"
        "for name in COMMANDS:\n"
        "    run([name, '--help'])\n"
        "    command = cli.get_command(None, name)\n"
        "    for sub in getattr(command, 'commands', {}):\n"
        "        run([name, sub, '--help'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in HEAVY)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "HEAVY []" in proc.stderr, proc.stderr
    assert proc.stdout.count("Usage:") > 20


def test_python_dash_m_generator_is_the_same_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and "dicesheets" in proc.stdout


def test_score_file(run_cli, tmp_path: Path) -> None:
    good = tmp_path / "game.yaml"
    good.write_text(
        "rules: kniffel\nplayers:\n"
        "  - name: Zoë\n    games:\n      - {Einser: 3, Zweier: 6, Dreier: 9, Vierer: 12,"
        " Fünfer: 15, Sechser: 18, Dreierpasch: 20, Viererpasch: 0, Full House: 25,"
        " Kleine Straße: 30, Große Straße: 0, Kniffel: 50, Chance: 22}\n"
        "  - name: Jörg\n    games:\n      - {ones: 2, twos: 6, threes: 9, fours: 12, fives: 15,"
        " sixes: 18, three_of_a_kind: 20, four_of_a_kind: 0, full_house: 25,"
        " small_straight: 30, large_straight: 40, kniffel: 0, chance: 22}\n",
        encoding="utf-8",
    )
    result = run_cli("kniffel", "score", good)
    assert result.exit_code == 0, result.output
    assert "Zoë: 245 = 245" in result.output  # 63 + 35 bonus + 147
    assert "Jörg: 199 = 199" in result.output  # 62, no bonus
    assert "winner: Zoë (245)" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text(encoding="utf-8").replace("Full House: 25", "Full House: 24"),
                   encoding="utf-8")  # fmt: skip
    result = run_cli("kniffel", "score", bad)
    assert result.exit_code == 2
    assert "bad.yaml:5:" in result.stderr and "Full House" in result.stderr
    twice = tmp_path / "twice.yaml"
    twice.write_text(good.read_text(encoding="utf-8").replace("Zweier: 6", "ones: 2"),
                     encoding="utf-8")  # fmt: skip
    result = run_cli("kniffel", "score", twice)
    assert result.exit_code == 2 and "filled twice" in result.stderr
