"""Compiled templates are cached beside the solver cache; they never change what is printed."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from generator.io.templates import read_templates
from generator.text import words as text
from generator.text.words import Templates, Texts

MACRO = "{% macro greeting(name) %}Hallo {{ name }}!{% endmacro %}\n"


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DICESHEETS_CACHE", str(folder))
    return folder


def _templates(tmp_path: Path, source: str) -> Path:
    folder = tmp_path / "templates"
    (folder / "de").mkdir(parents=True, exist_ok=True)
    (folder / "de" / "probe.j2").write_text(source, encoding="utf-8")
    return folder


def _start(folder: Path) -> Templates:
    """The templates as a new process sees them (no environment compiled in memory yet)."""
    text._ENVIRONMENTS.clear()
    return read_templates([folder])


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every template Jinja2 compiles from source."""
    seen: list[str] = []
    original = jinja2.Environment._compile

    def spy(self: jinja2.Environment, source: str, filename: str) -> object:
        seen.append(filename)
        return original(self, source, filename)

    monkeypatch.setattr(jinja2.Environment, "_compile", spy)
    return seen


def test_a_second_start_loads_the_compiled_template(
    own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _templates(tmp_path, MACRO)
    compiles = _compiles(monkeypatch)
    first = Texts("probe", "de", _start(folder))("greeting", name="Zoë")
    assert len(compiles) == 1 and any((own_cache / "templates").rglob("*.cache"))
    second = Texts("probe", "de", _start(folder))("greeting", name="Zoë")
    assert second == first == "Hallo Zoë!"
    assert len(compiles) == 1  # the new environment compiled nothing


def test_an_edited_template_is_compiled_again(
    own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _templates(tmp_path, MACRO)
    assert Texts("probe", "de", _start(folder))("greeting", name="A") == "Hallo A!"
    _templates(tmp_path, MACRO.replace("Hallo", "Servus"))
    assert Texts("probe", "de", _start(folder))("greeting", name="A") == "Servus A!"


def test_a_damaged_entry_is_recompiled(
    own_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _templates(tmp_path, MACRO)
    Texts("probe", "de", _start(folder))
    for entry in (own_cache / "templates").rglob("*.cache"):
        entry.write_bytes(entry.read_bytes()[:40] + b"\x00garbage")
    compiles = _compiles(monkeypatch)
    assert Texts("probe", "de", _start(folder))("greeting", name="B") == "Hallo B!"
    assert len(compiles) == 1


def test_a_cache_folder_that_cannot_be_written_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("DICESHEETS_CACHE", str(blocker))
    folder = _templates(tmp_path, MACRO)
    for _ in range(2):
        assert Texts("probe", "de", _start(folder))("greeting", name="C") == "Hallo C!"
