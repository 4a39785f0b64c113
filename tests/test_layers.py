"""The package's layers hold: no import circle (counting TYPE_CHECKING and function-local
imports) and no arrow that climbs back up a layer (`tests/importgraph.py` LAYERS)."""

from __future__ import annotations

from pathlib import Path

import pytest

import generator
from tests.importgraph import LAYERS, arrows, circles, layer_of, modules, upward

ROOT = Path(generator.__file__).parent.parent
TOP_LEVEL = {"__init__.py", "__main__.py", "registry.py"}  # a handful at most


@pytest.fixture(scope="module")
def graph() -> tuple[dict[str, Path], list]:
    known = modules(ROOT)
    return known, arrows(known)


def test_no_import_circle(graph: tuple[dict[str, Path], list]) -> None:
    known, found = graph
    assert circles(list(known), found) == []


def test_no_arrow_climbs_back_up(graph: tuple[dict[str, Path], list]) -> None:
    _, found = graph
    climbing = [
        f"{a.source}:{a.line} ({LAYERS[layer_of(a.source) or 0][0]}) imports {a.target} "
        f"({LAYERS[layer_of(a.target) or 0][0]}, {a.kind})"
        for a in upward(found)
    ]
    assert climbing == []


def test_every_module_has_a_layer(graph: tuple[dict[str, Path], list]) -> None:
    known, _ = graph
    assert [m for m in known if layer_of(m) is None] == []


def test_few_files_directly_in_the_package() -> None:
    assert {p.name for p in (ROOT / "generator").glob("*.py")} <= TOP_LEVEL


def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules(tmp_path)


def test_the_check_finds_a_planted_circle(tmp_path: Path) -> None:
    """A circle closed only by a TYPE_CHECKING import and a function-local one is found."""
    known = _package(
        tmp_path,
        {
            "generator/__init__.py": "",
            "generator/core/__init__.py": "",
            "generator/core/a.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from generator.core.b import B\n",
            "generator/core/b.py": "def f():\n    from . import c\n",
            "generator/core/c.py": "import generator.core.a\n",
            "generator/core/d.py": "from generator.core import a\n",  # into the circle only
        },
    )
    found = arrows(known)
    assert {(a.source, a.target, a.kind) for a in found} >= {
        ("generator.core.a", "generator.core.b", "typing"),
        ("generator.core.b", "generator.core.c", "local"),
        ("generator.core.c", "generator.core.a", "module"),
    }
    assert circles(list(known), found) == [
        ["generator.core.a", "generator.core.b", "generator.core.c"]
    ]


def test_the_check_finds_a_planted_upward_arrow(tmp_path: Path) -> None:
    """render (the bottom) importing a game, and a game's build importing its edge, climb."""
    known = _package(
        tmp_path,
        {
            "generator/__init__.py": "",
            "generator/render/__init__.py": "",
            "generator/render/flow.py": "def f():\n    from ..kniffel.block import Row\n",
            "generator/kniffel/__init__.py": "",
            "generator/kniffel/block.py": "from generator.core.errors import UserError\n",
            "generator/kniffel/build.py": "from generator.kniffel.load import load_rules\n",
            "generator/kniffel/load.py": "from generator.kniffel import build\n",
        },
    )
    found = arrows(known)
    assert circles(list(known), found) == [["generator.kniffel.build", "generator.kniffel.load"]]
    assert sorted((a.source, a.target) for a in upward(found)) == [
        ("generator.kniffel.build", "generator.kniffel.load"),
        ("generator.render.flow", "generator.kniffel.block"),
    ]
