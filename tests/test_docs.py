"""README, CONTRIBUTING and docs/: every relative link resolves, every command shown runs.

Links: every `[text](target)` and image outside code resolves to a file of the project,
and a `#anchor` to a heading of that file (GitHub's anchors); a path in backticks
(`generator/…`, `tests/…`) names a file or folder that exists. Includes: a fenced block
after `<!-- include PATH -->` is that file, verbatim. Commands: every `dicesheets …`
line of a ```sh block runs in-process, in a fresh folder holding `docs/examples/`, one
test per page (a page's commands in order: a later one may read what an earlier one
wrote), and ends with status 0, or N when its comment says "exit N". Commands that do
not end by themselves (`serve`, `--watch`) are asked for `--help`, which must list each
option they show. Lines of other programs in ```sh blocks are named in `NOT_RUN`.
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]
    if (ROOT / "README.md").exists()
    else []
)
EXAMPLES = ROOT / "docs" / "examples"

NOT_RUN = {
    "make": "the project's own targets (`make test` is what runs this test)",
    "pip": "an install from the package index",
    "uvicorn": "a server that runs until stopped (its --factory target is imported)",
    "$EDITOR": "the user's editor",
}
"""First words of ```sh lines that are not run here, and why."""

FENCE = re.compile(r"^(\s*)(```+|~~~+)(.*)$")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INCLUDE = re.compile(r"^\s*<!-- include (\S+) -->\s*$")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its info string, first line number and lines (dedented)."""

    info: str
    line: int
    lines: tuple[str, ...]


def _split(text: str) -> tuple[list[str], list[Block]]:
    """The page's lines outside code blocks (code blocks blanked) and its code blocks."""
    prose: list[str] = []
    blocks: list[Block] = []
    inside: tuple[str, str, str, int, list[str]] | None = None  # indent, fence, info, line
    for number, line in enumerate(text.split("\n"), start=1):
        m = FENCE.match(line)
        if inside is None:
            if m:
                inside = (m.group(1), m.group(2), m.group(3).strip(), number, [])
                prose.append("")
            else:
                prose.append(line)
            continue
        indent, fence, info, start, body = inside
        closes = m and m.group(2).startswith(fence[0]) and len(m.group(2)) >= len(fence)
        if closes and not m.group(3).strip():
            blocks.append(Block(info, start, tuple(body)))
            inside = None
            prose.append("")
            continue
        body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
        prose.append("")
    assert inside is None, f"a code block opened on line {inside[3]} is never closed"
    return prose, blocks


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces → hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a page's headings give (a repeated one gets -1, -2 … as on GitHub)."""
    prose, _ = _split(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for line in prose:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def _links(path: Path) -> list[tuple[int, str]]:
    prose, _ = _split(path.read_text(encoding="utf-8"))
    found = []
    for number, line in enumerate(prose, start=1):
        line = re.sub(r"`[^`]*`", "", line)  # no links inside inline code
        found += [(number, m.group(1)) for m in LINK.finditer(line)]
    return found


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_docs_are_found() -> None:
    if not PAGES:
        pytest.skip("no README.md beside the tests (an installed package)")
    names = {_name(p) for p in PAGES}
    assert {"README.md", "docs/rules.md", "docs/kniffel.md", "docs/performance.md"} <= names


def test_the_readme_is_short() -> None:
    if not PAGES:
        pytest.skip("no README.md beside the tests (an installed package)")
    assert len((ROOT / "README.md").read_bytes()) <= 12 * 1024  # a read of two minutes


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_link_resolves(page: Path) -> None:
    broken = []
    for number, target in _links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: …: not checked offline
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        where = f"{_name(page)}:{number}: {target}"
        if not dest.exists() or ROOT not in (dest, *dest.parents):
            broken.append(f"{where}: no such file in the project")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            broken.append(f"{where}: no heading gives #{anchor}")
    assert not broken, "\n".join(broken)


TOP = ("generator", "tests", "bench", "templates", "task_catalog", "docs", ".ci")
PATH = re.compile(r"`((?:" + "|".join(re.escape(t) for t in TOP) + r")/[^`\s]*)`")


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_path_named_exists(page: Path) -> None:
    """A `generator/…` or `tests/…` path in backticks is a file or folder of the project."""
    missing = []
    prose, _ = _split(page.read_text(encoding="utf-8"))
    for number, line in enumerate(prose, start=1):
        for path in PATH.findall(line):
            if "<" in path or "|" in path:  # a pattern: templates/<lang>/…, de|en
                continue
            if not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
                missing.append(f"{_name(page)}:{number}: {path}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_include_is_the_file_verbatim(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    lines = text.split("\n")
    _, blocks = _split(text)
    starts = {b.line: b for b in blocks}
    for number, line in enumerate(lines, start=1):
        m = INCLUDE.match(line)
        if not m:
            continue
        block = starts.get(number + 1)
        assert block is not None, f"{_name(page)}:{number}: no code block right after it"
        shown = "\n".join(block.lines) + "\n"
        assert shown == (page.parent / m.group(1)).read_text(encoding="utf-8"), (
            f"{_name(page)}:{number}: the block differs from {m.group(1)}"
        )


@dataclass(frozen=True)
class Command:
    """One command line of a ```sh block."""

    line: int
    words: tuple[str, ...]
    status: int  # the exit status its comment names, else 0


def commands(page: Path) -> list[Command]:
    """The command lines of a page's ```sh blocks (continued lines joined)."""
    _, blocks = _split(page.read_text(encoding="utf-8"))
    found = []
    for block in blocks:
        if block.info not in ("sh", "bash", "shell"):
            continue
        joined: list[tuple[int, str]] = []
        for k, line in enumerate(block.lines):
            if joined and joined[-1][1].endswith("\\"):
                joined[-1] = (joined[-1][0], joined[-1][1][:-1] + " " + line.strip())
            else:
                joined.append((block.line + 1 + k, line))
        for number, line in joined:
            words = shlex.split(line, comments=True)
            if not words:
                continue
            said = re.search(r"\s#.*\bexit (?:status )?(\d+)", line)
            found.append(Command(number, tuple(words), int(said.group(1)) if said else 0))
    return found


def _program(words: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The program a line runs and its arguments, past `VAR=value` assignments."""
    k = 0
    while k < len(words) and re.match(r"^[A-Z_][A-Z0-9_]*=", words[k]):
        k += 1
    return words[k], words[k + 1 :]


def _options(args: tuple[str, ...]) -> list[str]:
    return [a.split("=")[0] for a in args if a.startswith("--")]


@pytest.mark.parametrize("page", PAGES, ids=_name)  # under xdist, each page is a unit of its own
def test_every_command_shown_runs(page: Path, tmp_path: Path) -> None:
    for name in os.listdir(EXAMPLES):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for command in commands(page):
            where = f"{_name(page)}:{command.line}: {shlex.join(command.words)}"
            program, args = _program(command.words)
            if program != "dicesheets":
                assert program in NOT_RUN, f"{where}: a program this test does not know"
                if program == "uvicorn":
                    factory = args[args.index("--factory") + 1]
                    module, _, attr = factory.partition(":")
                    assert callable(getattr(importlib.import_module(module), attr)), where
                continue
            if args[0] == "serve" or "--watch" in args:  # runs until Ctrl-C
                shown = [a for a in args if not a.startswith("--")]
                help_ = runner.invoke(cli, [*shown, "--help"], catch_exceptions=False)
                assert help_.exit_code == 0, f"{where}\n{help_.output}"
                missing = [o for o in _options(args) if o not in help_.output]
                assert not missing, f"{where}: --help lists no {missing}"
                continue
            result = runner.invoke(cli, list(args), catch_exceptions=False)
            assert result.exit_code == command.status, (
                f"{where}: exit {result.exit_code}, the page says {command.status}\n"
                + result.output[-2000:]
            )
    finally:
        os.chdir(cwd)
