"""render/ is a toolkit at the bottom: it imports no game, and only it imports ReportLab."""

from __future__ import annotations

import ast
from pathlib import Path

import generator

ROOT = Path(generator.__file__).parent.parent
RENDER_MAY_IMPORT = ("generator.render",)


def imported_modules(path: Path, root: Path) -> list[str]:
    """Every module a file imports, at the top or inside a function, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = ".".join(path.relative_to(root).with_suffix("").parts)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here.rsplit(".", node.level)[0] if node.level else ""
            names.append(".".join(part for part in (base, node.module) if part))
    return names


def within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def foreign_imports(root: Path) -> list[str]:
    """`file: module` for every generator module outside RENDER_MAY_IMPORT that render/ imports."""
    return [
        f"{path.name}: {name}"
        for path in sorted((root / "generator" / "render").glob("*.py"))
        for name in imported_modules(path, root)
        if within(name, ("generator",)) and not within(name, RENDER_MAY_IMPORT)
    ]


def test_render_imports_no_game_and_no_product() -> None:
    assert foreign_imports(ROOT) == []


def test_the_check_sees_game_imports_in_every_form(tmp_path: Path) -> None:
    render = tmp_path / "generator" / "render"
    render.mkdir(parents=True)
    (render / "a.py").write_text("from generator.kniffel.block import BlockRow\n")
    (render / "b.py").write_text("def f():\n    import generator.numbers.solver\n")
    (render / "c.py").write_text("from ..worksheet import model\nfrom .fonts import text_width\n")
    assert foreign_imports(tmp_path) == [
        "a.py: generator.kniffel.block",
        "b.py: generator.numbers.solver",
        "c.py: generator.worksheet",
    ]


def test_only_render_imports_reportlab() -> None:
    outside = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "generator").rglob("*.py"))
        if "render" not in path.relative_to(ROOT).parts
        for name in imported_modules(path, ROOT)
        if within(name, ("reportlab",))
    ]
    assert outside == []
