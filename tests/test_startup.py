"""The start-up devices of `generator.io.startup`: function-local imports only as its list says,
and `--help` from a stored copy the same bytes as click's, renewed when it is damaged."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import generator.registry
from generator.io import cache, startup

ROOT = Path(__file__).resolve().parent.parent / "generator"


def _local_imports(tree: ast.AST) -> list[tuple[int, tuple[str, ...]]]:
    """(line, the names it may be listed by) of every import inside a function."""
    found: list[tuple[int, tuple[str, ...]]] = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    found += [(node.lineno, (alias.name,)) for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for alias in node.names:  # `from generator import startup`: either name
                        found.append((node.lineno, (node.module, f"{node.module}.{alias.name}")))
    return found


def _entry_of(names: tuple[str, ...]) -> str | None:
    for name in startup.LAZY:
        if any(n == name or n.startswith(name + ".") for n in names):
            return name
    return None


def _checked() -> list[tuple[str, int, tuple[str, ...]]]:
    """Every function-local import outside the surfaces (the CLI's and the web page's)."""
    return [
        (str(path.relative_to(ROOT.parent)), line, names)
        for path in sorted(ROOT.rglob("*.py"))
        if not str(path.relative_to(ROOT.parent)).startswith(startup.SURFACES)
        for line, names in _local_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]


def test_every_function_local_import_is_one_the_list_names() -> None:
    unlisted = [f"{f}:{line}: {names[0]}" for f, line, names in _checked() if not _entry_of(names)]
    assert not unlisted, "\n".join(unlisted)


def test_every_entry_of_the_list_is_used() -> None:
    used = {_entry_of(names) for _, _, names in _checked()}
    assert not set(startup.LAZY) - used


def test_the_check_finds_an_unlisted_import() -> None:
    tree = ast.parse("def f():\n    import tomllib\n    from generator.cli import root\n")
    assert [n for _, n in _local_imports(tree) if not _entry_of(n)] == [("tomllib",)]


@pytest.mark.parametrize(
    "env",
    [
        {"DICESHEETS_CACHE": "/tmp/x"},
        {"XDG_CACHE_HOME": "/tmp/xdg"},
        {"HOME": "/tmp/home"},
    ],
)
def test_the_help_s_cache_folder_is_the_cache_s(monkeypatch, env: dict[str, str]) -> None:
    for name in ("DICESHEETS_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert startup._cache_folder() == str(cache.cache_dir())


def test_the_help_reads_the_cache_s_seal(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    cache.store_entry(entry, b"Usage: dicesheets")
    assert startup._read_sealed(str(entry)) == b"Usage: dicesheets"
    data = entry.read_bytes()
    entry.write_bytes(data[:-1] + b"X")
    assert startup._read_sealed(str(entry)) is None
    entry.unlink()
    entry.symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_bytes(data)
    assert startup._read_sealed(str(entry)) is None


def test_the_help_s_key_covers_the_whole_package() -> None:
    # the registry declares every option: an edit there must make a new copy
    files = [path for path, _, _ in startup._files(startup.PACKAGE)]
    assert str(Path(generator.registry.__file__).resolve()) in map(
        lambda f: str(Path(f).resolve()), files
    )
    assert any(f.endswith(os.path.join("io", "startup.py")) for f in files)


ENTRY = "import sys\nsys.argv = ['dicesheets', *sys.argv[1:]]\nfrom generator.__main__ import run\nrun()\n"  # noqa: E501


def _help(cache_folder: Path, *words: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "DICESHEETS_CACHE": str(cache_folder), "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *words, "--help"], env=env, capture_output=True
    )


def test_a_stored_help_is_click_s_help_and_is_renewed_when_damaged(tmp_path) -> None:
    first = _help(tmp_path, "kniffel", "advise")  # click's, then stored
    assert first.returncode == 0 and first.stdout.startswith(b"Usage: dicesheets kniffel advise")
    (entry,) = [e for e in (tmp_path / "help").iterdir() if e.read_bytes().endswith(first.stdout)]
    assert _help(tmp_path, "kniffel", "advise").stdout == first.stdout
    # a sound entry is what the next run prints (it is read, not made again) …
    cache.store_entry(entry, b"stored\n")
    assert _help(tmp_path, "kniffel", "advise").stdout == b"stored\n"
    # … a damaged one is not: click's help again, and the entry rewritten
    entry.write_bytes(b"garbage")
    again = _help(tmp_path, "kniffel", "advise")
    assert again.stdout == first.stdout and again.returncode == 0
    assert startup._read_sealed(str(entry)) == first.stdout


def test_only_a_plain_help_that_succeeds_is_stored(tmp_path) -> None:
    assert _help(tmp_path, "nosuchcommand").returncode == 2
    assert _help(tmp_path, "kniffel", "advise", "--roll").returncode == 2  # (not plain)
    assert _help(tmp_path, "kniffel", "advise", "--json").returncode == 0  # (not plain)
    assert not (tmp_path / "help").exists()
    assert _help(tmp_path).returncode == 0
    assert (tmp_path / "help").exists()


def test_the_first_help_keeps_every_command_s_help_as_click_prints_it(tmp_path) -> None:
    from generator.cli import every_help

    kept = tmp_path / "kept"
    assert _help(kept, "numbers").returncode == 0  # click's, and every other help kept
    words = [w for w, _ in every_help()]
    assert len(list((kept / "help").iterdir())) == len(words) > 20
    for k, command in enumerate(words):
        stored = _help(kept, *command)
        clicks = _help(tmp_path / f"fresh-{k}", *command)  # (an empty cache: click's own)
        assert stored.returncode == clicks.returncode == 0
        assert stored.stdout == clicks.stdout, command
    # -h prints the same and reads the same copy; a narrow terminal has copies of its own
    env = {**os.environ, "DICESHEETS_CACHE": str(kept), "COLUMNS": "200"}
    wide = subprocess.run(
        [sys.executable, "-c", ENTRY, "kniffel", "-h"], env=env, capture_output=True
    )
    assert wide.stdout == _help(kept, "kniffel").stdout
    narrow = subprocess.run(
        [sys.executable, "-c", ENTRY, "kniffel", "-h"],
        env={**env, "COLUMNS": "60"},
        capture_output=True,
    )
    assert narrow.stdout != wide.stdout and len(list((kept / "help").iterdir())) == 2 * len(words)
