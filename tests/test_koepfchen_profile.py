"""Köpfchen board profiles: the shipped catalog, and bad files refused with file:line:column."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.errors import CatalogError, UserError
from generator.core.resources import catalog_dir
from generator.koepfchen.load import load_profile, profile_names

SHIPPED = ["challenge", "classic", "einmaleins", "plus-minus"]
EINMALEINS = catalog_dir() / "koepfchen" / "einmaleins.yaml"


def variant(tmp_path: Path, old: str, new: str, base: Path = EINMALEINS) -> Path:
    """A copy of a shipped profile with one piece of text replaced."""
    text = base.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_every_shipped_profile_loads() -> None:
    assert profile_names() == SHIPPED
    classic = load_profile("classic")
    assert classic.fixed and classic.length == 40 and classic.dice == 3 and classic.faces == 6
    assert classic.rules.ops == "+-*/" and classic.rules.division == "integer"
    assert load_profile("plus-minus").rules.ops == "+-"
    assert load_profile("challenge").dice == 4
    ein = load_profile("einmaleins")
    assert set(ein.pool()) <= {a * b for a in range(2, 11) for b in range(2, 11)}


def test_unknown_profile_names_the_choices() -> None:
    with pytest.raises(UserError, match=r"unknown profile 'nope'.*classic"):
        load_profile("nope")


@pytest.mark.parametrize(
    ("old", "new", "key", "message"),
    [
        ("  length: 40", "  length: 0", "length: 0", "a track needs 1–99 fields"),
        ("  p_min: 0.45", "  p_min: 0.45\n  colour: red", "colour", "unknown key 'balance.colour'"),
        ("  max: 60\n", "  max: 300\n", "max: 300", "make at most 216"),
        ("  min: 12\n", "  min: 61\n  # (min above max)\n", "min: 61", "above targets.max"),
        (
            "    band: [0.45, 0.95]",
            "    band: [0.1, 0.3]",
            "curve:",
            "lies below balance.p_min 0.45: contradictory",
        ),
        ("    min_per_bin: 4", "    min_per_bin: 11", "min_per_bin", "contradictory constraints"),
        ("    max_uses: 4", "    max_uses: 1", "max_uses", "contradictory constraints"),
        ("  no_repeat_window: 6", "  no_repeat_window: 30", "no_repeat_window", "only 17"),
        ("    min: 26", "    min: 40", "min: 40", "is above game_length.max"),
        ('  ops: "+-*/"', '  ops: "+-%"', "ops:", "unknown operation '%'"),
        ("  p_min: 0.45", "  p_min: 0", "p_min: 0", "must be above 0"),
    ],
)
def test_bad_profile_is_refused_at_its_key(tmp_path: Path, old, new, key, message) -> None:
    path = variant(tmp_path, old, new)
    with pytest.raises(CatalogError) as err:
        load_profile(str(path))
    text = str(err.value)
    assert message in text, text
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): ", text)
    assert match, text
    assert int(match.group(1)) == line_of(path, key), text


def test_a_range_the_dice_cannot_reach(tmp_path: Path) -> None:
    path = variant(tmp_path, 'ops: "+-*/"', 'ops: "+-"')  # 3 d6 with + − make at most 18
    with pytest.raises(
        CatalogError, match=r"3 d6 with \+ − make at most 18.*beyond what the dice can reach"
    ):
        load_profile(str(path))
    classic = catalog_dir() / "koepfchen" / "classic.yaml"
    long = variant(tmp_path, "  length: 40", "  length: 50", classic)  # 43 cannot be made
    with pytest.raises(CatalogError, match="field 43 would show 43"):
        load_profile(str(long))


def test_the_fixed_board_must_meet_its_own_constraints(tmp_path: Path) -> None:
    classic = catalog_dir() / "koepfchen" / "classic.yaml"
    path = variant(tmp_path, "  p_min: 0.1 ", "  p_min: 0.2 ", classic)
    with pytest.raises(CatalogError, match=r"balance.p_min: the fixed board breaks it: field 37"):
        load_profile(str(path))


def test_a_band_above_every_target_is_refused_at_load(tmp_path: Path) -> None:
    path = variant(tmp_path, "    band: [0.45, 0.95]", "    band: [0.97, 0.99]")
    with pytest.raises(CatalogError, match=r"balance\.curve|no_repeat_window"):
        load_profile(str(path))
