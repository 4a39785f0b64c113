"""The package's import graph read with `ast`: every import (module level, TYPE_CHECKING blocks,
function-local), its circles and the arrows that climb back up a layer."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# bottom to top; a module may import its own layer and the layers below, never above.
# A room is a package of generator/; a longer prefix wins (a game's load.py is its edge).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("toolkit", ("generator", "generator.render")),
    ("core", ("generator.core",)),
    ("words and numbers", ("generator.text", "generator.numbers")),
    (
        "games",
        ("generator.kniffel", "generator.koepfchen", "generator.kribbeln", "generator.worksheet"),
    ),
    (
        "edge",
        (
            "generator.io",
            "generator.kniffel.load",
            "generator.koepfchen.load",
            "generator.kribbeln.load",
            "generator.worksheet.load",
        ),
    ),
    # the registry names loads and builds as strings; the catalog's choices come from the edge
    ("registry", ("generator.registry", "generator.surface")),
    ("reports and checks", ("generator.report", "generator.validate")),
    ("surfaces", ("generator.cli", "generator.web", "generator.__main__")),
)


@dataclass(frozen=True)
class Arrow:
    """One import: `source` imports `target` at `line` (kind: module, typing or local)."""

    source: str
    target: str
    line: int
    kind: str


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path, package: str = "generator") -> dict[str, Path]:
    """Every module of `package` under `root`, by its dotted name."""
    return {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, kind: str = "module") -> Iterator[tuple[ast.stmt, str]]:
    for node in ast.iter_child_nodes(tree):
        inner = kind
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = "local"
        elif isinstance(node, ast.If) and _is_type_checking(node) and kind == "module":
            inner = "typing"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, inner
        yield from _imports(node, inner)


def arrows(known: Mapping[str, Path]) -> list[Arrow]:
    """Every import between modules of `known` (a `from m import name` of a submodule counts
    as importing the submodule; importing a submodule also runs its packages)."""

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    found = []
    for source, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node, kind in _imports(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                names = [f"{base}.{a.name}" for a in node.names]
            for name in names:
                target = resolve(name)
                if target is not None and target != source:
                    found.append(Arrow(source, target, node.lineno, kind))
    return found


def circles(known: Sequence[str], found: Sequence[Arrow]) -> list[list[str]]:
    """The import circles: strongly connected sets of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = {m: set() for m in known}
    for a in found:
        graph[a.source].add(a.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the number of modules
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def layer_of(module: str, layers: Sequence[tuple[str, Sequence[str]]] = LAYERS) -> int | None:
    """The index of the layer whose longest prefix matches `module` (None: undeclared)."""
    best, depth = None, -1
    for i, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and prefix.count(".") > depth:
                best, depth = i, prefix.count(".")
    return best


def upward(
    found: Sequence[Arrow], layers: Sequence[tuple[str, Sequence[str]]] = LAYERS
) -> list[Arrow]:
    """The arrows from a module to a layer above its own."""
    out = []
    for a in found:
        low, high = layer_of(a.source, layers), layer_of(a.target, layers)
        if low is not None and high is not None and high > low:
            out.append(a)
    return out
