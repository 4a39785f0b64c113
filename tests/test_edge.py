"""The games read nothing themselves: files, environment, ContextVars and the cache are the edge's.

Every module of a game package (and `core`, `numbers`) is scanned with `ast`:
it may not import the edge (`generator.io`, `generator.load`, the CLI, the web
page, `generator.core.resources`, the progress bar), nor the standard library's ways to reach the
machine (`os`, `pathlib.Path` — `PurePath` is only string work —, `contextvars`,
`tempfile`, `shutil`, `glob`, `click`), nor call `open`, `getenv`, or a path's
`read_text` / `read_bytes` / `is_file` / `exists`. A `Texts(...)` must be given
the run's templates (without them it reads the shipped files). What a game
needs from disk, its room's edge module (`generator.<game>.load`) reads and passes
in; a solver's cache arrives as a `generator.core.store.Store`. The one module of
`core` that looks at the disk is `core/resources.py` (where the shipped data lies,
for the text layer and the edge); no game imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import generator

ROOT = Path(generator.__file__).parent.parent
GAMES = ("kniffel", "koepfchen", "kribbeln", "worksheet", "numbers", "core")
EDGE = (
    "generator.io",
    "generator.core.resources",
    *(f"generator.{game}.load" for game in ("kniffel", "koepfchen", "kribbeln", "worksheet")),
    "generator.cli",
    "generator.web",
    "generator.report",
    "generator.validate",
    "os",
    "contextvars",
    "tempfile",
    "shutil",
    "glob",
    "click",
)
READS = {"read_text", "read_bytes", "is_file", "is_dir", "exists", "iterdir", "glob", "rglob"}
CALLS = {"open", "getenv", "environ"}


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def findings(path: Path, here: str) -> list[str]:
    """Every way `path` (module `here`) reaches past what it is given."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if _within(a.name, EDGE)]
        elif isinstance(node, ast.ImportFrom):
            base = here.rsplit(".", node.level)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            if _within(module, EDGE):
                found.append(f"imports {module}")
            elif module == "pathlib":
                found += [f"imports pathlib.{a.name}" for a in node.names if a.name != "PurePath"]
            elif module == "io":
                found += [f"imports io.{a.name}" for a in node.names if a.name == "open"]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if isinstance(func, ast.Name) and name in CALLS:
                found.append(f"calls {name}()")
            elif isinstance(func, ast.Attribute) and name in READS | CALLS:
                found.append(f"calls .{name}()")
            elif name == "Texts" and len(node.args) < 3 and not node.keywords:
                found.append("Texts(...) without the run's templates")
        elif isinstance(node, ast.Attribute) and node.attr == "environ":
            found.append("reads .environ")
    return found


def reaching(root: Path) -> list[str]:
    """`file: finding` for every game module that reads something itself."""
    out = []
    for game in GAMES:
        for path in sorted((root / "generator" / game).rglob("*.py")):
            if path.relative_to(root / "generator" / game).parts == ("load.py",):
                continue  # the room's edge: it reads the files and hands the game their data
            if path.relative_to(root).parts == ("generator", "core", "resources.py"):
                continue  # where the shipped data lies: the text layer and the edge ask it
            here = ".".join(path.relative_to(root).with_suffix("").parts)
            out += [f"{path.relative_to(root)}: {f}" for f in findings(path, here)]
    return out


def test_no_game_package_reads_a_file_the_environment_or_a_contextvar() -> None:
    assert reaching(ROOT) == []


def test_the_check_sees_every_way_out(tmp_path: Path) -> None:
    game = tmp_path / "generator" / "kniffel"
    game.mkdir(parents=True)
    (game / "a.py").write_text("from generator.io.cache import cached_arrays\nimport os\n")
    (game / "b.py").write_text(
        "def f(p):\n    from .load import load_rules\n    return p.read_text(), open(p)\n"
    )
    (game / "c.py").write_text(
        "from pathlib import Path, PurePath\nimport contextvars\n"
        "def g(os):\n    return os.environ, Texts('x', 'de')\n"
    )
    (game / "d.py").write_text(
        "from pathlib import PurePath\nimport io\n"
        "def h(t):\n    return PurePath('a').stem, io.StringIO(''), Texts('x', 'de', t)\n"
    )
    assert sorted(reaching(tmp_path)) == sorted(
        [
            "generator/kniffel/a.py: imports generator.io.cache",
            "generator/kniffel/a.py: imports os",
            "generator/kniffel/b.py: imports generator.kniffel.load",
            "generator/kniffel/b.py: calls .read_text()",
            "generator/kniffel/b.py: calls open()",
            "generator/kniffel/c.py: imports pathlib.Path",
            "generator/kniffel/c.py: imports contextvars",
            "generator/kniffel/c.py: reads .environ",
            "generator/kniffel/c.py: Texts(...) without the run's templates",
        ]
    )


def test_problems_has_no_contextvar() -> None:
    """validate's collect-every-problem is a `Problems` object passed down, not ambient state."""
    source = (ROOT / "generator" / "core" / "problems.py").read_text(encoding="utf-8")
    assert "contextvars" not in source and "ContextVar" not in source
