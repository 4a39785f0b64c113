"""The printed board: layout numbers, the PDF read back against the layout, rules, key, manifest,
determinism, and bad input through the CLI."""

from __future__ import annotations

import json
from itertools import combinations_with_replacement, pairwise
from pathlib import Path

import pdfplumber
import pytest

from generator.core.resources import catalog_dir
from generator.koepfchen.build import BoardRequest, build_board, make_board
from generator.koepfchen.key import hardest_targets
from generator.koepfchen.layout import (
    INDEX_PT,
    MIN_CELL,
    MIN_ONE_PAGE,
    board_geometry,
    index_origin,
    layout_sheet,
    target_baseline,
    target_size,
)
from generator.koepfchen.load import load_board, load_profile
from generator.koepfchen.pages import board_view
from generator.numbers import evaluate, numbers_in, parse, reachable_targets
from generator.render.draw import render_pdf
from generator.render.fonts import text_width
from generator.render.primitives import MM, PAPER, Circle, Line, Polygon, Rect, Text
from tests.pdfcheck import chars_outside, fonts, overlapping_words, page_sizes, page_texts

PROFILES = ["classic", "plus-minus", "einmaleins", "challenge"]


def layout_for(name: str, seed: int, lang: str = "de", paper: str = "a4", landscape: bool = False):
    profile = load_profile(name)
    board, figures = make_board(profile, seed)
    view = board_view(board, lang, figures)
    return board, view, layout_sheet(view, None, None, paper, landscape, "t")


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", False), ("a4", True)])
def test_geometry_cells_fit_and_follow_the_track(name: str, paper: str, landscape: bool) -> None:
    profile = load_profile(name)
    geo = board_geometry(profile.length + 1, paper, landscape)
    slots = geo.slots
    assert len(slots) == profile.length + 1
    assert min(geo.cell_w, geo.cell_h) >= (MIN_ONE_PAGE if geo.parts == 1 else MIN_CELL) - 1e-9
    for s in slots:  # inside the page with a margin
        assert 20 <= s.x and s.x + s.w <= geo.page_w - 20
        assert 20 <= s.y and s.y + s.h <= geo.page_h - 20
    for i, a in enumerate(slots):  # no two cells on a page overlap
        for b in slots[i + 1 :]:
            if a.page == b.page:
                assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
    for a, b in pairwise(slots):  # each next cell is a grid neighbour, or across the join
        if a.page == b.page:
            assert abs(a.row - b.row) + abs(a.col - b.col) == 1
        else:
            assert (a.col, b.col, a.row, b.row) == (geo.cols - 1, 0, geo.rows - 1, geo.rows - 1)
            assert a.y == pytest.approx(b.y)  # the rows meet when glued


def test_long_tracks_take_two_pages_short_ones_one() -> None:
    assert board_geometry(41, "a4", False).parts == 1
    assert board_geometry(61, "a4", False).parts == 2
    assert board_geometry(100, "letter", True).parts == 2


@pytest.mark.parametrize("name", PROFILES)
def test_layout_targets_are_large_and_inside(name: str) -> None:
    board, view, sheet = layout_for(name, 3)
    doc = sheet.document
    assert target_size(view, sheet.geometry) >= 18
    for page in doc.pages:
        for item in page.items:
            if isinstance(item, Rect):
                assert 0 <= item.x and item.x + item.w <= doc.width
                assert 0 <= item.y and item.y + item.h <= doc.height
            elif isinstance(item, (Line, Polygon)):
                points = item.points if isinstance(item, Polygon) else (
                    (item.x1, item.y1), (item.x2, item.y2))  # fmt: skip
                assert all(0 <= x <= doc.width and 0 <= y <= doc.height for x, y in points)
            elif isinstance(item, Circle):
                assert item.r <= item.x <= doc.width - item.r
            elif isinstance(item, Text):
                assert 0 <= item.y <= doc.height
    big = [  # the targets, centred in their fields (the title is as large, but set from the left)
        t
        for p in doc.pages
        for t in p.items
        if isinstance(t, Text) and t.size >= 18 and t.align == "center"
    ]
    assert sorted(t.text for t in big) == sorted(str(f.target) for f in board.fields)


def board_pdf(run_cli, tmp_path: Path, name: str, *extra: str) -> tuple[Path, dict]:
    out = tmp_path / f"{name}.pdf"
    result = run_cli("koepfchen", "board", "--profile", name, "--seed", "3", "--out", out, *extra)
    assert result.exit_code == 0, result.output + result.stderr
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    return out, manifest


@pytest.mark.parametrize(("name", "lang"), [("classic", "de"), ("challenge", "en")])
def test_pdf_numbers_stand_where_the_layout_put_them(run_cli, tmp_path, name, lang) -> None:
    path, manifest = board_pdf(run_cli, tmp_path, name, "--lang", lang, "--no-rules", "--no-key")
    board, view, sheet = layout_for(name, 3, lang)
    geo = sheet.geometry
    size = target_size(view, geo)
    with pdfplumber.open(str(path)) as pdf:
        board_pages = [
            p for p, role in zip(pdf.pages, manifest["contents"]["pages"]) if role == "board"
        ]
        assert len(board_pages) == geo.parts == (2 if name == "challenge" else 1)
        # the targets' digits (the title is as large)
        big = [[c for c in p.chars if c["size"] >= 18 and c["text"].isdigit()] for p in board_pages]
        assert sum(map(len, big)) == sum(len(str(f.target)) for f in board.fields)
        for field in board.fields:
            slot = geo.slots[field.index]
            text = str(field.target)
            left = slot.cx - text_width(text, size, bold=True) / 2
            chars = sorted(
                (c for c in big[slot.page]
                 if abs(c["matrix"][5] - target_baseline(slot, size)) < 0.05
                 and slot.x <= c["matrix"][4] <= slot.x + slot.w),
                key=lambda c: c["matrix"][4],
            )  # fmt: skip
            assert "".join(c["text"] for c in chars) == text, field
            assert chars[0]["matrix"][4] == pytest.approx(left, abs=0.05)
            assert all(c["size"] == pytest.approx(size, abs=0.01) for c in chars)
            x, y = index_origin(slot)
            small = sorted(
                (c for c in board_pages[slot.page].chars if abs(c["size"] - INDEX_PT) < 0.01
                 and abs(c["matrix"][5] - y) < 0.05 and x - 0.05 <= c["matrix"][4] < x + 15),
                key=lambda c: c["matrix"][4],
            )  # fmt: skip
            assert "".join(c["text"] for c in small) == str(field.index)
            assert small[0]["matrix"][4] == pytest.approx(x, abs=0.05)
    assert chars_outside(path) == []
    assert overlapping_words(path) == []
    assert all(fonts(path).values())


def test_pdf_has_rules_and_key_pages_with_the_profile_rules(run_cli, tmp_path) -> None:
    path, manifest = board_pdf(run_cli, tmp_path, "plus-minus")
    roles = manifest["contents"]["pages"]
    assert roles[0] == "board" and "rules" in roles and "key" in roles
    texts = page_texts(path)
    rules = " ".join(t for t, r in zip(texts, roles) if r == "rules").replace("\n", " ")
    for phrase in ("Spielregeln", "Stressvariante", "plus (+) und minus (−)", "ganze Zahl",
                   "Stopp", "Feld 30", "zweistelligen Zahl"):  # fmt: skip
        assert phrase in rules, phrase
    assert "geteilt" not in rules and "mal (·)" not in rules
    key = " ".join(t for t, r in zip(texts, roles) if r == "key")
    assert "Lösungsblatt" in key
    lines = key.splitlines()
    for f in manifest["contents"]["fields"]:
        row = f"{f['field']} {f['target']} "
        assert any(line.startswith(row) or f" {row}" in line for line in lines), row
    assert len(manifest["contents"]["fields"]) == 30
    assert chars_outside(path) == [] and overlapping_words(path) == []
    classic, classic_manifest = board_pdf(run_cli, tmp_path, "classic", "--no-key")
    assert classic_manifest["contents"]["pages"] == ["board", "rules"]
    rules = " ".join(page_texts(classic)[1:])
    assert "geteilt (:)" in rules and "wenn es aufgeht" in rules


def test_rational_division_is_stated(run_cli, tmp_path) -> None:
    text = (catalog_dir() / "koepfchen" / "einmaleins.yaml").read_text(encoding="utf-8")
    path = tmp_path / "rational.yaml"
    path.write_text(text.replace("division: integer", "division: rational"), encoding="utf-8")
    out, manifest = board_pdf(run_cli, tmp_path, str(path), "--no-key", "--lang", "en")
    assert manifest["contents"]["division"] == "rational"
    words = " ".join(" ".join(page_texts(out)).split())
    assert "Fractions and negative intermediate results are allowed" in words


def test_key_lists_every_roll_of_the_hardest_targets() -> None:
    for name in ("classic", "challenge"):
        profile = load_profile(name)
        board, _ = make_board(profile, 4)
        hard = hardest_targets(board, 4)
        assert len(hard) == 4
        odds = {f.target: f.within for f in board.fields}
        listed = {h.target for h in hard}
        # hardest first; odds equal but for the last bits are a tie, the smaller target first
        order = [(round(h.within, 9), round(h.single_roll, 9), h.target) for h in hard]
        assert order == sorted(order)
        assert all(p >= max(odds[t] for t in listed) - 1e-12 for t, p in odds.items()
                   if t not in listed)  # fmt: skip
        for h in hard:
            expected = [
                roll
                for roll in combinations_with_replacement(range(1, profile.faces + 1), profile.dice)
                if h.target in reachable_targets(roll, profile.rules)
            ]
            assert [r.roll for r in h.rolls] == expected
            for r in h.rolls:
                expr = parse(r.solution)
                assert evaluate(expr, profile.rules) == h.target  # legal under the rules
                used = list(numbers_in(expr))
                pool = list(r.roll)
                for n in used:
                    pool.remove(n)  # each die at most once


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", False), ("a4", True)])
def test_the_goal_never_stands_alone_in_a_row(name: str, paper: str, landscape: bool) -> None:
    geo = board_geometry(load_profile(name).length + 1, paper, landscape)
    if geo.parts == 2:
        return  # part 2 holds what is left of the track: free rows above its goal anyway
    last = geo.slots[-1]
    assert sum(s.page == last.page and s.row == last.row for s in geo.slots) >= 2


def test_legend_shows_the_dots_as_the_fields_do() -> None:
    _, _, sheet = layout_for("classic", 1)
    legend_y = max(i.y for i in sheet.document.pages[0].items if isinstance(i, Circle))
    legend = sorted(
        (i for i in sheet.document.pages[0].items if isinstance(i, Circle) and i.y == legend_y),
        key=lambda c: c.x,
    )
    assert len(legend) == 9  # three dots for each of the three levels
    filled = [sum(c.fill is not None for c in legend[k : k + 3]) for k in (0, 3, 6)]
    assert filled == [1, 2, 3]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cut_label_keeps_off_the_paper_edge(paper: str) -> None:
    from generator.koepfchen.layout import EDGE

    _, view, sheet = layout_for("challenge", 1, paper=paper)
    doc = sheet.document
    cut = [i for i in doc.pages[0].items if isinstance(i, Text) and i.x > doc.width / 2
           and i.text in view.words["cut"]]  # fmt: skip
    assert cut
    for item in cut:
        assert item.x + text_width(item.text, item.size) <= doc.width - EDGE + 1e-6


def test_key_tables_only_for_targets_few_rolls_make() -> None:
    from generator.koepfchen.key import DETAIL_MAX_ROLLS

    board, _ = make_board(load_profile("plus-minus"), 1)
    hard = hardest_targets(board, 4)
    assert all(len(h.rolls) > DETAIL_MAX_ROLLS and not h.detailed for h in hard)
    built = build_board(load_board(BoardRequest("plus-minus", 1)), BoardRequest("plus-minus", 1))
    key = [p for p, role in zip(built.document.pages, built.contents["pages"]) if role == "key"]
    texts = [i.text for page in key for i in page.items if isinstance(i, Text)]
    assert len(key) == 1 and "Zahl 11" not in texts  # no roll table
    assert "13 von 56" in texts  # the line that names it instead
    classic = build_board(load_board(BoardRequest("classic")), BoardRequest("classic"))
    key = [p for p, role in zip(classic.document.pages, classic.contents["pages"]) if role == "key"]
    assert len(key) == 1
    headers = [i.text for i in key[0].items if isinstance(i, Text) and i.text.startswith("Zahl ")]
    # down the left column, then the right one: hardest first, ties by target
    assert headers == ["Zahl 37", "Zahl 38", "Zahl 39", "Zahl 34", "Zahl 33", "Zahl 26"]


def test_manifest_holds_targets_odds_and_game_length(run_cli, tmp_path) -> None:
    _, manifest = board_pdf(run_cli, tmp_path, "einmaleins")
    c = manifest["contents"]
    board, figures = make_board(load_profile("einmaleins"), 3)
    assert [f["target"] for f in c["fields"]] == list(board.targets)
    assert [f["within"] for f in c["fields"]] == [round(x, 6) for x in board.success]
    assert c["game_length"]["expected_turns"] == round(figures.solo.expected, 6)
    assert c["game_length"]["median_turns"] == figures.solo.median
    assert [r["players"] for r in c["races"]] == [2, 3, 4, 5, 6]
    assert c["sampled"] is True and manifest["seed"] == 3


def _board_bytes(req: BoardRequest) -> tuple[bytes, dict]:
    built = build_board(load_board(req), req)  # in memory: no file, no working folder
    return render_pdf(built.document), dict(built.contents)


def test_same_seed_same_bytes_other_seed_other_board() -> None:
    a, _ = _board_bytes(BoardRequest("einmaleins", 9))
    b, _ = _board_bytes(BoardRequest("einmaleins", 9))
    c, contents_c = _board_bytes(BoardRequest("einmaleins", 10))
    assert a == b and a != c
    targets_c = [f["target"] for f in contents_c["fields"]]
    assert targets_c != list(make_board(load_profile("einmaleins"), 9)[0].targets)


def test_paper_and_orientation(run_cli, tmp_path) -> None:
    path, _ = board_pdf(run_cli, tmp_path, "classic", "--paper", "letter", "--landscape",
                        "--no-rules", "--no-key")  # fmt: skip
    letter = PAPER["letter"]
    assert page_sizes(path) == [pytest.approx((letter[1], letter[0]))]
    assert chars_outside(path) == [] and overlapping_words(path) == []


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda d: "nope", "unknown profile 'nope'"),
        (lambda d: _edit(d, "  length: 40", "  length: 0"), "a track needs 1–99 fields"),
        (lambda d: _edit(d, "  max: 60\n", "  max: 250\n"), "make at most 216"),
        (lambda d: _edit(d, "    band: [0.45, 0.95]", "    band: [0.1, 0.2]"), "contradictory"),
        (lambda d: _edit(d, "    min: 26\n    max: 34", "    min: 200\n    max: 300"), "closest"),
    ],
)
def test_bad_input_exits_2_with_one_line(run_cli, tmp_path, make, needle) -> None:
    profile = make(tmp_path)
    result = run_cli("koepfchen", "board", "--profile", profile, "--out", tmp_path / "x.pdf")
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "x.pdf").exists()
    if profile != "nope":
        assert f"{profile}:" in err  # file:line:column
    result = run_cli("koepfchen", "analyze", "--profile", profile)
    assert result.exit_code == 2 and needle in result.stderr


def _edit(folder: Path, old: str, new: str) -> str:
    text = (catalog_dir() / "koepfchen" / "einmaleins.yaml").read_text(encoding="utf-8")
    assert old in text
    path = folder / "bad.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def test_analyze_json_and_text(run_cli) -> None:
    result = run_cli("koepfchen", "analyze", "--profile", "classic", "--players", "2",
                     "--games", "3000", "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.output)
    assert data["game_length"]["expected_turns"] == pytest.approx(82.282457, abs=1e-6)
    mc = data["monte_carlo"]
    assert abs(mc["mean_rounds"] - mc["exact_rounds"]) < 4 * mc["se_rounds"]
    text = run_cli("koepfchen", "analyze", "--profile", "plus-minus", "--games", "500").output
    assert "one player, exact" in text and "Monte Carlo, 4 player(s)" in text
    bad = run_cli("koepfchen", "analyze", "--players", "7")
    assert bad.exit_code == 2 and "--players" in bad.stderr


def _key_texts(built) -> list[list[Text]]:
    roles = built.contents["pages"]
    return [
        [i for i in page.items if isinstance(i, Text)]
        for page, role in zip(built.document.pages, roles)
        if role == "key"
    ]


@pytest.mark.parametrize("name", PROFILES)
def test_key_lists_the_same_in_every_paper_and_orientation(name: str) -> None:
    """Every hardest target few rolls make has its table of rolls, as the key's intro says,
    whatever the page: the key's content never depends on where it is printed."""
    seen = []
    for paper, landscape in (("a4", False), ("a4", True), ("letter", False), ("letter", True)):
        req = BoardRequest(name, 1, paper=paper, landscape=landscape)
        built = build_board(load_board(req), req)
        c = built.contents
        board, _ = make_board(load_profile(name), 1)
        hard = hardest_targets(board, board.profile.hardest)
        assert c["key_tables"] == [h.target for h in hard if h.detailed]
        texts = [i.text for page in _key_texts(built) for i in page]
        headers = {t for t in texts if t.startswith("Zahl ")}
        assert headers == {f"Zahl {t}" for t in c["key_tables"]}
        seen.append((c["key_targets"], c["key_tables"]))
    assert all(s == seen[0] for s in seen)


def test_key_has_no_times_sign_outside_the_solutions() -> None:
    """The header over a target's rolls separates its fields and odds by no operator."""
    req = BoardRequest("einmaleins", 1)
    built = build_board(load_board(req), req)
    for page in _key_texts(built):
        for item in page:
            # a solution "6 · 6 + 1 = 37" keeps its sign; the house footer its separators
            if "=" not in item.text and item.y > 15 * MM:
                assert "·" not in item.text and "×" not in item.text, item.text


@pytest.mark.parametrize("name", ["einmaleins", "challenge"])
def test_key_pages_after_the_first_open_with_a_heading(name: str) -> None:
    req = BoardRequest(name, 1, landscape=True)
    built = build_board(load_board(req), req)
    pages = _key_texts(built)
    assert len(pages) >= 2
    for page in pages[1:]:
        top = max(page, key=lambda i: i.y)
        assert top.bold and top.text.endswith("(Fortsetzung)"), top.text
        assert top.size >= 12


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_key_headers_at_7_pt_and_nothing_under_6(name: str, lang: str) -> None:
    for paper, landscape in (("a4", False), ("a4", True), ("letter", True)):
        req = BoardRequest(name, 1, lang=lang, paper=paper, landscape=landscape)
        built = build_board(load_board(req), req)
        for page in _key_texts(built):
            for item in page:
                assert item.size >= (7.0 if item.bold else 6.0) - 1e-6, (paper, item)


@pytest.mark.parametrize("name", PROFILES)
@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", False), ("a4", True)])
def test_the_goal_never_stands_alone_as_a_small_box(name: str, paper: str, landscape: bool) -> None:
    """A goal alone in its row (part 2 of the challenge board) takes two fields' room."""
    geo = board_geometry(load_profile(name).length + 1, paper, landscape)
    goal = geo.slots[-1]
    mates = [s for s in geo.slots[:-1] if (s.page, s.row) == (goal.page, goal.row)]
    assert mates or goal.w >= 2 * geo.cell_w, (paper, landscape)


@pytest.mark.parametrize("name", PROFILES)
def test_key_headings_stand_clear_of_the_table_above(name: str) -> None:
    """A section's heading keeps at least 3 mm below the table it follows (it once sat 1 mm
    under the last row, as if it captioned it)."""
    from generator.render.fonts import ascent

    for paper, landscape in (("a4", False), ("letter", False), ("a4", True), ("letter", True)):
        req = BoardRequest(name, 1, paper=paper, landscape=landscape)
        built = build_board(load_board(req), req)
        for k, role in enumerate(built.contents["pages"]):
            if role != "key":
                continue
            items = built.document.pages[k].items
            heads = [i for i in items if isinstance(i, Text) and i.bold and 10 <= i.size < 16]
            for h in heads:
                x0, x1 = h.x, h.x + text_width(h.text, h.size, True)
                top = h.y + ascent(h.size)
                above = [
                    i.y if isinstance(i, Rect) else min(i.y1, i.y2)
                    for i in items
                    if (isinstance(i, Rect) and i.x < x1 and i.x + i.w > x0)
                    or (isinstance(i, Line) and min(i.x1, i.x2) < x1 and max(i.x1, i.x2) > x0)
                ]
                gaps = [y - top for y in above if y >= top - 0.1]
                assert not gaps or min(gaps) >= 3 * MM, (paper, landscape, h.text, min(gaps) / MM)
