"""The start-up devices of `generator.io.startup`: function-local imports only as its list says,
and `--help` from the shipped copy: click's bytes, and click's own when the copy is not current."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import command_words
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


CLICK = (
    "import sys\nsys.argv = ['dicesheets', *sys.argv[1:]]\nfrom generator.cli import main\nmain()\n"
)
ENTRY = "import sys\nsys.argv = ['dicesheets', *sys.argv[1:]]\nfrom generator.__main__ import run\nrun()\n"  # noqa: E501


def _help(*words: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "80", **env}
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", ENTRY, *words, "--help"],
        env=env,
        capture_output=True,
    )


def _clicks(result: subprocess.CompletedProcess[bytes]) -> bool:
    """Whether the run imported click (`-X importtime` names every module it imports)."""
    return any(line.split(b"|")[-1].strip() == b"click" for line in result.stderr.splitlines())


def test_the_shipped_help_is_what_the_code_prints_now() -> None:
    # in a fresh process: the copy lists the modules a help is made from
    check = subprocess.run(
        [sys.executable, "-m", "generator.cli.helpcopy", "--check"], capture_output=True
    )
    assert check.returncode == 0, (
        "generator/cli/help.json is not what click prints now: "
        "run `python -m generator.cli.helpcopy` and commit it"
    )


def test_every_command_s_help_is_the_copy_and_the_same_bytes_as_click_s() -> None:
    copy = json.loads(Path(startup.HELP_COPY).read_text(encoding="utf-8"))
    words = command_words()
    assert sorted(copy["helps"]) == sorted(" ".join(w) for w in words) and len(words) > 20
    for command in words:
        shipped = _help(*command)
        assert shipped.returncode == 0 and not _clicks(shipped), command
        assert shipped.stdout == copy["helps"][" ".join(command)].encode("utf-8"), command
    # click's own help (the copy turned off by a terminal narrower than 80) says the same
    # at its width; -h is the same help
    for command in (["kniffel", "advise"], ["kribbeln", "export-tasks"], []):
        wide = _help(*command)
        env = {**os.environ, "COLUMNS": "80"}
        clicks = subprocess.run(
            [sys.executable, "-c", CLICK, *command, "--help"], env=env, capture_output=True
        )
        assert clicks.returncode == 0 and clicks.stdout == wide.stdout, command
        short = subprocess.run(
            [sys.executable, "-c", ENTRY, *command, "-h"], env=env, capture_output=True
        )
        assert short.stdout == wide.stdout


def test_click_prints_the_help_when_the_copy_is_not_for_this_output() -> None:
    narrow = _help("kniffel", "advise", COLUMNS="60")
    assert narrow.returncode == 0 and _clicks(narrow)
    assert max(len(line) for line in narrow.stdout.decode().splitlines()) <= 58
    latin = _help("kniffel", "advise", PYTHONIOENCODING="latin-1")
    assert latin.returncode == 0 and _clicks(latin)
    for plain in (["kniffel", "advise", "--roll"], ["nosuchcommand"], ["kniffel", "--json"]):
        result = _help(*plain)
        assert _clicks(result), plain


def test_a_copy_whose_modules_changed_is_not_printed(tmp_path: Path, monkeypatch) -> None:
    package = Path(startup.HELP_COPY).parent.parent
    copy = json.loads(Path(startup.HELP_COPY).read_text(encoding="utf-8"))
    assert "cli/root.py" in copy["sources"] and "registry.py" in copy["sources"]
    args = ["kniffel", "advise", "--help"]
    monkeypatch.setenv("COLUMNS", "80")
    assert startup.shipped_help(args, ("--help",)) == copy["helps"]["kniffel advise"]
    changed = tmp_path / "cli" / "help.json"
    changed.parent.mkdir()
    copy["sources"]["registry.py"] += 1  # (as after an edit not yet copied)
    changed.write_text(json.dumps(copy), encoding="utf-8")
    monkeypatch.setattr(startup, "HELP_COPY", str(changed))
    for rel in copy["sources"]:  # the package beside the changed copy: the real modules
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes((package / rel).read_bytes())
    assert startup.shipped_help(args, ("--help",)) is None
    copy["sources"]["registry.py"] -= 1
    changed.write_text(json.dumps(copy), encoding="utf-8")
    assert startup.shipped_help(args, ("--help",)) == copy["helps"]["kniffel advise"]
