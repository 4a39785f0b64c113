"""Where the shipped data lives: templates, task catalog, the rules and fonts.

In a wheel they sit inside the package (`generator/_data/…`, `generator/fonts`);
in a source checkout (editable install) they are the top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # generator/, this file is in generator/io/


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


def fonts_dir() -> Path:
    """The folder holding the embedded TTF fonts and their licence."""
    return _PACKAGE / "fonts"
