"""Where the shipped data lives: templates, task catalog and the rules.

In a wheel they sit inside the package (`generator/_data/…`); in a source
checkout (editable install) they are the top-level folders. The fonts
(`generator/fonts`) are found by `generator.render.fonts` itself.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # generator/, this file is in generator/core/


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def templates_dir() -> Path:
    """The folder of shipped Jinja2 templates (`de/`, `en/`)."""
    return _data_dir("templates")


def catalog_dir() -> Path:
    """The folder of the shipped YAML catalog."""
    return _data_dir("task_catalog")


def rules_file() -> Path:
    """The rules of the games as played here, with every decision (`docs/rules.md`)."""
    return _data_dir("docs") / "rules.md"
