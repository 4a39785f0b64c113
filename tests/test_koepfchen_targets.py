"""`koepfchen board --targets 3,8,12,…`: a board from a typed list, key and odds as sampled.

The odds of a single roll are restated by the independent brute force
(tests/numbers_bruteforce.py): a roll makes a target when some expression over some
of its dice, each at most once, with whole intermediate results, equals it.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from generator.koepfchen.build import BoardRequest, build_board, make_board
from generator.koepfchen.load import load_board
from generator.render.draw import render_pdf
from tests.numbers_bruteforce import brute_force
from tests.pdfcheck import page_texts

# fmt: off
TARGETS = [3, 8, 12, 5, 7, 9, 10, 11, 13, 14, 15, 16, 17, 18, 20, 21, 22, 24, 25, 26,
           27, 28, 30, 32, 33, 35, 36, 40, 42, 45, 48, 50, 54, 60, 64, 72, 80, 90, 100, 120]
# fmt: on
TYPED = ",".join(map(str, TARGETS))


def _single_roll_odds(targets: list[int]) -> dict[int, float]:
    """Ordered rolls of three d6 that make each target, over 216 (brute force)."""
    made: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=3):
        values = brute_force(tuple(sorted(roll)), ops="+-*/")
        made.update(t for t in targets if Fraction(t) in values)
    return {t: made[t] / 216 for t in targets}


def test_a_board_from_typed_targets_has_the_sampled_board_s_key_and_odds(
    run_cli, tmp_path: Path
) -> None:
    result = run_cli("koepfchen", "board", "--targets", TYPED, "--out", "mine.pdf")
    assert result.exit_code == 0, result.stderr
    assert "seed" not in result.stderr  # nothing is sampled, so no seed is drawn
    data = json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))
    contents = data["contents"]
    assert data["options"]["targets"] == TARGETS and contents["sampled"] is False
    fields = contents["fields"]
    assert [f["target"] for f in fields] == TARGETS
    assert [f["field"] for f in fields] == list(range(1, 41))
    single = _single_roll_odds(TARGETS)
    for f in fields:
        assert f["single_roll"] == pytest.approx(single[f["target"]], abs=1e-6)
        assert f["single_roll"] <= f["within"] <= 1
        # the classic profile's dots: ≥ 0.9 one, < 0.6 three
        assert f["level"] == (1 if f["within"] >= 0.9 else 3 if f["within"] < 0.6 else 2)
    # as for every board: the key names the six hardest targets, hardest first
    by_odds = sorted(fields, key=lambda f: (f["within"], f["single_roll"], f["target"]))
    assert contents["key_targets"] == [f["target"] for f in by_odds[:6]]
    # the same odds as a sampled board's fields with these targets
    sampled = json.loads(run_cli("koepfchen", "analyze", "--profile", "einmaleins", "--json",
                                 "--games", "1").stdout)["fields"]  # fmt: skip
    mine = {f["target"]: (f["single_roll"], f["within"]) for f in fields}
    shared = [f for f in sampled if f["target"] in mine]
    assert len(shared) >= 10
    for f in shared:
        assert (f["single_roll"], f["within"]) == mine[f["target"]]
    # the pages print the typed targets; the same list gives the same bytes
    words = " ".join(page_texts(tmp_path / "mine.pdf"))
    assert "120" in words and "Lösungsblatt" in words
    again = run_cli("koepfchen", "board", "--targets", TYPED, "--out", "again.pdf")
    assert again.exit_code == 0
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "mine.pdf").read_bytes()


def test_the_default_name_says_the_targets_are_typed(run_cli, tmp_path: Path) -> None:
    result = run_cli("koepfchen", "board", "--targets", TYPED, "--lang", "en", "--no-key")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "output" / "koepfchen-classic-targets-en.pdf").is_file()


def test_typed_targets_on_a_sampled_profile_use_its_dice_and_track(tmp_path: Path) -> None:
    req = BoardRequest(profile="einmaleins", seed=9, targets=TYPED.replace(",", ", "))
    inputs = load_board(req)
    built = build_board(inputs, req)
    assert [f["target"] for f in built.contents["fields"]] == TARGETS
    assert built.contents["profile"] == "einmaleins" and built.contents["sampled"] is False
    assert render_pdf(built.document)[:5] == b"%PDF-"
    # the seed samples nothing: another seed, the same board
    board, _ = make_board(inputs.profile, 1, req.targets)
    assert list(board.targets) == TARGETS


def _with(index: int, value: str) -> str:
    parts = TYPED.split(",")
    parts[index] = value
    return ",".join(parts)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("3,8,12", "expected 40 targets, one per field of the 'classic' track, found 3"),
        (TYPED + ",7", "expected 40 targets, one per field of the 'classic' track, found 41"),
        ("", None),  # empty: the profile's own board
        (_with(1, "3"), "expected every target once, found 3 on field 1 and field 2"),
        (
            _with(4, "300"),
            "field 5: expected a target from 0 to 216 (what the dice can make), found 300",
        ),
        (_with(4, "197"), "field 5: no roll of the 3 dice makes 197, expected a target the dice"),
        (_with(2, "x"), "expected whole numbers (0 or more) separated by commas"),
        (_with(2, "-4"), "found '-4'"),
        (_with(2, "2.5"), "found '2.5'"),
    ],
)
def test_a_bad_list_is_one_line_exit_2_naming_the_option(run_cli, typed, expected) -> None:
    result = run_cli("koepfchen", "board", "--targets", typed, "--no-key", "--no-rules")
    if expected is None:
        assert result.exit_code == 0, result.stderr
        return
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in result.output
    assert err.startswith("dicesheets: error: option --targets: "), err
    assert expected in err


def test_197_is_made_by_no_roll_and_216_by_one() -> None:
    # the limits the messages name, restated by the brute force
    values = set().union(*(brute_force(r, ops="+-*/") for r in product(range(1, 7), repeat=3)))
    whole = {int(v) for v in values if v.denominator == 1 and v >= 0}
    assert max(whole) == 216 and 197 not in whole and 0 in whole


def test_the_web_page_has_the_field_and_says_the_error_beside_it(run_cli) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from generator.web.app import Settings, create_app

    with TestClient(create_app(Settings(workers=1, time_limit=600))) as client:
        page = client.get("/koepfchen?lang=de").text
        assert 'name="targets"' in page and "Eigene Zielzahlen" in page
        for lang, words in (("de", "Erwartet 40 Zielzahlen, eine für jedes Feld der Bahn"),
                            ("en", "expected 40 targets, one per field of the")):  # fmt: skip
            bad = client.post(f"/api/preview/koepfchen?lang={lang}", data={"targets": "3,8,12"})
            assert bad.status_code == 400
            assert words in bad.json()["errors"]["targets"]
        # the same words as the command line
        cli = run_cli("koepfchen", "board", "--targets", "3,8,12").stderr.strip()
        en = client.post("/api/preview/koepfchen?lang=en", data={"targets": "3,8,12"}).json()
        assert cli.endswith(en["errors"]["targets"])
        good = client.post("/download/koepfchen?lang=en", data={"targets": TYPED, "part": "pdf"})
        assert good.status_code == 200 and good.content[:5] == b"%PDF-"
