"""Worksheet inputs: the level catalog, worksheet specs and rosters, with their error messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.errors import CatalogError, UserError
from generator.worksheet.load import (
    load_family,
    load_family_file,
    load_spec,
    load_spec_file,
    read_roster,
)
from generator.worksheet.roster import parse_roster

GOOD_LEVEL = """\
family: koepfchen
name: {de: Würfelrechnen, en: Dice maths}
rules: {division: integer, use_all: false}
levels:
  - level: 1
    name: {de: Eins, en: One}
    ops: "+-"
    numbers: {kind: dice, count: [2, 3]}
    targets: {min: 1, max: 12}
"""


def write(tmp_path: Path, text: str, name: str = "f.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_levels_say_what_the_issue_asks() -> None:
    kf = load_family("koepfchen")
    assert [lv.level for lv in kf.levels] == [1, 2, 3, 4]
    one, two, three, four = kf.levels
    assert one.rules.ops == "+-" and one.targets == (1, 12) and one.numbers.counts == (2, 3)
    assert two.rules.ops == "+-*" and three.rules.ops == "+-*/" and four.rules.ops == "+-*/"
    assert four.max_solutions == 2 and four.brackets == "needed"
    assert all(lv.rules.division == "integer" and not lv.rules.use_all for lv in kf.levels)
    game = load_family("24")
    assert all(lv.rules.rational and lv.rules.use_all for lv in game.levels)
    assert {lv.numbers.kind for lv in game.levels} == {"dice", "cards"}
    assert max(lv.numbers.highest for lv in game.levels) == 13
    assert all(lv.targets == (24, 24) and lv.numbers.counts == (4,) for lv in game.levels)


def test_unknown_level_and_family_name_what_exists() -> None:
    with pytest.raises(UserError, match=r"unknown level 7 .*expected one of 1, 2, 3, 4"):
        load_family("koepfchen").level(7)
    with pytest.raises(UserError, match=r"unknown family 'poker' \(expected one of 24, koepfchen"):
        load_family("poker")


@pytest.mark.parametrize(
    ("old", "new", "message", "line"),
    [
        ('ops: "+-"', 'ops: "+-^"', "expected some of", 7),
        ("kind: dice", "kind: coins", "expected one of dice, cards", 8),
        ("count: [2, 3]", "count: [2, 9]", "expected different counts 2–4", 8),
        ("max: 12", "max: 5000", "expected a whole number", 9),
        ("    ops:", "    colour: red\n    ops:", "unknown key 'levels[0].colour'", 7),
        ('ops: "+-"', 'ops: "+-"\n    focus: {op: "*", share: 0.5}', "the level's ops", 8),
        ("division: integer", "division: modular", "expected one of integer, rational", 3),
    ],
)
def test_bad_level_files_point_at_the_spot(tmp_path: Path, old, new, message, line) -> None:
    assert old in GOOD_LEVEL
    path = write(tmp_path, GOOD_LEVEL.replace(old, new, 1))
    with pytest.raises(CatalogError, match=re.escape(message)) as info:
        load_family_file(path, "f.yaml")
    assert info.value.file == "f.yaml"
    assert info.value.line == line


def test_a_level_that_would_check_too_many_pairs_is_refused(tmp_path: Path) -> None:
    text = GOOD_LEVEL.replace("kind: dice, count: [2, 3]", "kind: cards, count: [4], highest: 13")
    path = write(tmp_path, text.replace("max: 12", "max: 100"))
    with pytest.raises(CatalogError, match="pairs to check"):
        load_family_file(path, "f.yaml")


def test_shipped_spec_and_its_errors(tmp_path: Path) -> None:
    spec = load_spec("mixed")
    assert {s.family for s in spec.sections} == {"koepfchen", "24"}
    assert len({(s.family, s.level) for s in spec.sections}) == len(spec.sections) >= 3
    bad = write(tmp_path, "sections:\n  - {family: koepfchen, level: 1, problems: 0}\n")
    with pytest.raises(CatalogError, match=r"sections\[0\]\.problems.*1–100") as info:
        load_spec_file(bad, "s.yaml")
    assert info.value.line == 2
    many = write(tmp_path, "sections:\n" + "  - {family: koepfchen, level: 1, problems: 60}\n" * 2)
    with pytest.raises(CatalogError, match="120 problems in all"):
        load_spec_file(many, "s.yaml")
    with pytest.raises(UserError, match=r"no spec file 'nope\.yaml'"):
        load_spec("nope.yaml")


def test_roster_skips_blanks_keeps_duplicates_with_a_warning() -> None:
    roster = parse_roster("Zoë\n\n  Łukasz  \n\t\nzoë\nNguyễn  Văn An\n", "class.txt")
    assert [p.name for p in roster.pupils] == ["Zoë", "Łukasz", "zoë", "Nguyễn Văn An"]
    assert [p.line for p in roster.pupils] == [1, 3, 5, 6]
    assert roster.warnings == (
        "class.txt:5: 'zoë' appears again (first on line 1); both get a sheet",
    )


def test_roster_files_that_are_not_usable(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("Jörg\n".encode("latin-1"))
    assert [p.name for p in read_roster(latin1).pupils] == ["Jörg"]  # read as Windows-1252
    hole = tmp_path / "hole.txt"
    hole.write_bytes(b"J\xf6rg\x8d\n")  # 0x8D is not a Windows-1252 character
    with pytest.raises(UserError, match=r"neither UTF-8, UTF-16 nor Windows-1252 text \(byte 4\)"):
        read_roster(hole)
    empty = write(tmp_path, "\n  \n\n", "empty.txt")
    with pytest.raises(UserError, match="has no names"):
        read_roster(empty)
    with pytest.raises(UserError, match="cannot read"):
        read_roster(tmp_path / "missing.txt")
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeffAnna\r\nBen\r\n".encode())
    assert [p.name for p in read_roster(bom).pupils] == ["Anna", "Ben"]
