"""The Kniffel/Yahtzee rules page and the family sheet, read back from the PDF and checked
against rules stated here independently of the scoring module."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from generator.kniffel.load import load_rules
from generator.render.primitives import MM
from tests.pdfcheck import page_texts


def _points(box_id: str, dice: list[int]) -> int:
    """The points of five dice in a box, as the seed states the boxes (no joker)."""
    counts = Counter(dice)
    faces = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    if box_id in faces:
        return faces[box_id] * counts[faces[box_id]]
    if box_id == "three_of_a_kind":
        return sum(dice) if max(counts.values()) >= 3 else 0
    if box_id == "four_of_a_kind":
        return sum(dice) if max(counts.values()) >= 4 else 0
    if box_id == "full_house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if box_id == "small_straight":
        return 30 if any({a, a + 1, a + 2, a + 3} <= set(dice) for a in (1, 2, 3)) else 0
    if box_id == "large_straight":
        return 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box_id in ("kniffel", "yahtzee"):
        return 50 if len(counts) == 1 else 0
    assert box_id == "chance"
    return sum(dice)


NEEDS = {  # what each box's line must say, in the seed's words
    "de": {"three_of_a_kind": "mindestens drei gleiche Würfel",
           "four_of_a_kind": "mindestens vier gleiche Würfel",
           "small_straight": "vier Zahlen in einer Reihe",
           "large_straight": "fünf Zahlen in einer Reihe",
           "full_house": "drei gleiche und zwei gleiche Würfel",
           "kniffel": "fünf gleiche Würfel", "yahtzee": "fünf gleiche Würfel"},
    "en": {"three_of_a_kind": "at least 3 equal dice", "four_of_a_kind": "at least 4 equal dice",
           "small_straight": "four numbers in a row", "large_straight": "five numbers in a row",
           "full_house": "three equal dice and two equal dice",
           "kniffel": "five equal dice", "yahtzee": "five equal dice"},
}  # fmt: skip
FIXED = {"full_house": 25, "small_straight": 30, "large_straight": 40, "kniffel": 50,
         "yahtzee": 50}  # fmt: skip


def _lines(pdf: Path) -> list[str]:
    return [line for text in page_texts(pdf) for line in text.splitlines()]


@pytest.mark.parametrize(("rules", "lang", "paper"),
                         [("kniffel", "de", "a4"), ("yahtzee", "en", "letter"),
                          ("yahtzee", "de", "letter"), ("kniffel", "en", "a4")])  # fmt: skip
def test_the_rules_page_lists_every_box_as_scored(run_cli, tmp_path: Path, rules, lang, paper):
    out = tmp_path / "rules.pdf"
    result = run_cli("kniffel", "rules", "--rules", rules, "--lang", lang, "--paper", paper,
                     "--out", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert manifest["command"] == "kniffel rules"
    printed = manifest["contents"]["rules_page"]["boxes"]
    ruleset = load_rules(rules)
    assert [b["id"] for b in printed] == [b.id for b in ruleset.boxes]  # the scoring's boxes
    lines = _lines(out)
    for box, entry in zip(ruleset.boxes, printed):
        # the box's row: its label first, the example's points last
        [row] = [line for line in lines if line.startswith(box.label[lang] + " ")
                 and line.rstrip().endswith(f"= {entry['example_points']}")]  # fmt: skip
        assert entry["example_points"] == _points(box.id, entry["example"]) > 0, box.id
        if box.id in FIXED:
            assert f" {FIXED[box.id]} " in row, row
        if box.id in NEEDS[lang]:
            assert NEEDS[lang][box.id] in row, row
    text = " ".join(lines)
    assert "63" in text and "35" in text, "the upper bonus"
    if ruleset.extra_yahtzee_bonus:
        assert "100" in text


JOKER_WORDS = {
    ("en", "none"): "No joker",
    ("en", "free"): "only once the upper box of the rolled number is filled",
    ("en", "forced"): "must go into the upper box of their number",
    ("de", "none"): "Ohne Joker",
    ("de", "free"): "erst, wenn das obere Feld der gewürfelten Zahl schon gefüllt ist",
    ("de", "forced"): "müssen fünf gleiche Würfel in das obere Feld ihrer Zahl",
}


@pytest.mark.parametrize(("lang", "joker"), list(JOKER_WORDS))
def test_the_rules_page_states_the_joker_as_played(run_cli, tmp_path: Path, lang, joker):
    """The joker paragraph follows --joker, in the words of scoring.py's rule."""
    from generator.kniffel.scoring import score
    from generator.kniffel.table import with_joker

    # the rule as the scoring engine plays it, stated once more: five threes in Full House
    ruleset = with_joker(load_rules("yahtzee"), joker)
    house = ruleset.box("full_house")
    open_upper = score((3,) * 5, house, ruleset, {"yahtzee": 50}) if joker != "forced" else None
    assert open_upper in (0, None)
    filled = {"yahtzee": 50, "threes": 9}
    assert score((3,) * 5, house, ruleset, filled) == (0 if joker == "none" else 25)
    out = tmp_path / "rules.pdf"
    result = run_cli("kniffel", "rules", "--rules", "yahtzee", "--joker", joker, "--lang", lang,
                     "--out", out)  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(_lines(out)).replace("- ", "")
    assert JOKER_WORDS[lang, joker] in text
    others = [w for (lg, j), w in JOKER_WORDS.items() if lg == lang and j != joker]
    assert not any(w in text for w in others)


def test_block_and_card_carry_the_rules_unless_no_rules(run_cli, tmp_path: Path):
    with_rules, without = tmp_path / "a.pdf", tmp_path / "b.pdf"
    two = ("kniffel", "block", "--players", "2", "--games", "3")
    assert run_cli(*two, "--out", with_rules).exit_code == 0
    assert run_cli(*two, "--no-rules", "--out", without).exit_code == 0
    a = json.loads(with_rules.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    b = json.loads(without.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    assert a["block_pages"] == b["block_pages"] == [1]
    assert a["rules_pages"] and not b["rules_pages"]
    assert "Spielregeln" in page_texts(with_rules)[1]


def _game_boxes(pdf: Path) -> list[tuple[float, float]]:
    """Width and height of every box a score is written in, measured in the PDF."""
    boxes = []
    with pdfplumber.open(str(pdf)) as doc:
        for r in doc.pages[0].rects:
            w, h = r["width"], r["height"]
            if 6 * MM < w < 26 * MM and 6.5 * MM < h < 15 * MM:
                boxes.append((w, h))
    return boxes


@pytest.mark.parametrize(("rules", "paper", "landscape", "players", "games"),
                         [("kniffel", "a4", False, 6, 3), ("yahtzee", "letter", False, 6, 3),
                          ("yahtzee", "a4", True, 6, 3), ("kniffel", "letter", True, 3, 1),
                          ("yahtzee", "a4", False, 5, 2)])  # fmt: skip
def test_the_family_sheet(run_cli, tmp_path: Path, rules, paper, landscape, players, games):
    """Players as columns with their names in full, boxes of at least 8 mm each way."""
    names = ["Anna", "Maximilian-Alexander", "Zoë", "Bartholomäus Müller", "Jörg", "Ida"]
    out = tmp_path / "family.pdf"
    args = ["kniffel", "block", "--rules", rules, "--layout", "family", "--paper", paper,
            "--players", str(players), "--games", str(games), "--no-rules",
            "--names", ",".join(names[:players]), "--out", out]  # fmt: skip
    result = run_cli(*args, *(["--landscape"] if landscape else []))
    assert result.exit_code == 0, result.output
    contents = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    assert contents["layout"] == "family" and contents["pages"] == 1
    boxes = _game_boxes(out)
    n_rows = len(contents["rows"])
    writing = [b for b in boxes if b[1] < 15 * MM]
    assert len(writing) >= players * games * n_rows
    assert min(w for w, _ in writing) >= 8 * MM - 0.05
    assert min(h for _, h in writing) >= 8 * MM - 0.05
    text = page_texts(out)[0]
    words = set(text.split())
    for name in names[:players]:  # in full, on one line or broken after a space or hyphen
        parts = re.split(r"(?<=-)| ", name)
        assert name in text or all(part in words for part in parts), name


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "7"], "room for 1–6 players, found 7"),
    (["--games", "4"], "room for 1–3 games, found 4"),
    (["--games", "2", "--per-page", "2"], "one table per page"),
])  # fmt: skip
def test_the_family_sheet_refuses_what_it_cannot_hold(run_cli, args, words):
    result = run_cli("kniffel", "block", "--layout", "family", *args)
    assert result.exit_code == 2
    assert words in result.output
