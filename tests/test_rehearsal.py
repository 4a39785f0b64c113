"""validate renders every template with the values the program gives it, in every language."""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.resources import templates_dir
from generator.io.catalog import Catalog
from generator.io.starter import GAMES
from generator.io.templates import read_templates
from generator.text.words import shipped_templates
from generator.validate.rehearsal import rehearse


def test_the_products_reach_every_macro_the_program_calls() -> None:
    shipped = Catalog.default()
    rehearsal = rehearse(shipped, shipped_templates(), shipped)
    assert rehearsal.problems == []
    catalog_templates = {stem for stems, _ in GAMES.values() for stem in stems}
    for path in sorted(templates_dir().glob("*/*.j2")):
        if path.stem not in catalog_templates:  # the web page's and the command line's words
            continue
        rel = path.relative_to(templates_dir()).as_posix()
        source = path.read_text(encoding="utf-8")
        for name in re.findall(r"\{%-?\s*macro\s+(\w+)", source):
            if (rel, name) in rehearsal.calls:
                continue
            helper = len(re.findall(rf"\b{name}\(", source)) > 1  # called by another macro
            assert helper, f"{rel}: macro '{name}' is never rendered by validate (dead?)"


def test_every_failure_of_a_users_template_with_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    for lang in ("de", "en"):
        (folder / lang).mkdir(parents=True)
    de = (templates_dir() / "de" / "worksheet.j2").read_text(encoding="utf-8")
    # three mistakes that fail only with the values the program gives: an unknown name,
    # an attribute of a number, a number filter on a text
    for old, new in [
        ("{{ family }} – Stufe", "{{ nope }} – Stufe"),
        ("/ {{ total }}", "/ {{ total.x.y }}"),
        ("{{ title }} · Gruppe", "{{ title | percent('de') }} · Gruppe"),
    ]:
        assert old in de
        de = de.replace(old, new)
    (folder / "de" / "worksheet.j2").write_text(de, encoding="utf-8")
    broken = [i for i, line in enumerate(de.splitlines(), 1) if "nope" in line or ".x.y" in line
              or "percent('de')" in line]  # fmt: skip
    (folder / "en" / "report.j2").write_text("{% macro title( %}", encoding="utf-8")  # syntax:
    # reported where validate reads the file; rendering goes on with the shipped words
    catalog = Catalog.default(tmp_path)
    rehearsal = rehearse(
        catalog, read_templates([folder]), Catalog.default(), {"worksheet"}, str(folder)
    )
    found = sorted((p.file, p.line, p.message) for p in rehearsal.problems)
    assert [(file, line) for file, line, _ in found] == [
        (str(folder / "de" / "worksheet.j2"), line) for line in broken
    ]
    assert [message for _, _, message in found] == [
        "macro 'default_title': 'nope' is undefined",
        "macro 'score_total': 'int object' has no attribute 'x'",
        "macro 'footer': ValueError: Unknown format code 'f' for object of type 'str'",
    ]
