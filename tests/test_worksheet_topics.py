"""The topics of Klasse 1–4 against independent re-statements of their rules.

Answers are recomputed from the manifest's printed text, carries are counted by
written column arithmetic on digit strings, and every puzzle's completion is shown
unique by a rank count of its linear system over the rationals (and by brute force
over the blanks where that is small) — none of it uses the generator's solver.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from collections import Counter
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli.root import cli
from generator.render.draw import render_pdf
from generator.worksheet.build import WorksheetRequest
from generator.worksheet.roster import names_roster
from generator.worksheet.topics import BY_ID, TOPICS
from generator.worksheet.topicsheet import build_topic_worksheet

ISSUE_IDS = (
    "add-10",
    "sub-10",
    "add-20-nocarry",
    "sub-20-noborrow",
    "bonds-10",
    "number-house",
    "number-wall-3",
    "add-20-carry",
    "sub-20-borrow",
    "add-100",
    "sub-100",
    "times-table",
    "divide-table",
    "missing-number",
    "number-wall-4",
    "number-triangle",
    "add-1000",
    "sub-1000",
    "divide-remainder",
    "column-add",
    "column-sub",
    "rounding",
    "column-times",
    "column-divide",
    "magic-square",
    "number-chain",
    "dice-chance",
    "dice-tally",
)
CLASS = "Anna, Ben, Cem, Dora, Emil"


@cache
def built(topic: str, lang: str = "de", **controls: Any) -> Any:
    req = WorksheetRequest(topic=topic, versions=3, seed=7, lang=lang, names=CLASS,
                           large_print_for="Cem", problems=BY_ID[topic].default_problems,
                           **controls)  # fmt: skip
    return build_topic_worksheet(req, names_roster(CLASS), None)


def problems(b: Any) -> list[dict[str, Any]]:
    return [p for v in b.contents["versions"] for p in v["problems"]]


# --- independent re-statements ------------------------------------------------------------


def column_carries(numbers: list[int], op: str) -> int:
    """Carries (borrows) of written + or − on digit strings, right to left."""
    width = max(len(str(n)) for n in numbers)
    cols = [str(n).rjust(width, "0") for n in numbers]
    count, carry = 0, 0
    for i in reversed(range(width)):
        ds = [int(c[i]) for c in cols]
        if op == "+":
            carry = 1 if sum(ds) + carry >= 10 else 0
        else:
            carry = 1 if ds[0] - carry < sum(ds[1:]) else 0
        count += carry
    return count


SIGN = {"+": "+", "−": "-", "·": "*", ":": "/", "×": "*", "÷": "/"}


def solve_equation(text: str) -> list[int]:
    """Every whole number 0…10 000 that makes `a op b = c` true in the blank."""
    left, right = text.split(" = ")
    parts = left.split(" ")
    terms, ops = parts[::2], [SIGN[s] for s in parts[1::2]]
    if right == "__":  # the result: recomputed
        xs = [int(t) for t in terms]
        op = ops[0]
        result = sum(xs) if op == "+" else xs[0] - xs[1] if op == "-" else xs[0] * xs[1]
        if op == "/":
            result = xs[0] // xs[1] if xs[0] % xs[1] == 0 else -1
        return [result] if result >= 0 else []
    found = []
    for v in range(10_001):
        nums = [v if t == "__" else int(t) for t in [*terms, right]]
        *xs, c = nums
        if ops[0] == "+":
            ok = sum(xs) == c
        elif ops[0] == "-":
            ok = xs[0] - xs[1] == c
        elif ops[0] == "*":
            ok = xs[0] * xs[1] == c
        else:
            ok = xs[1] != 0 and xs[0] == xs[1] * c
        if ok:
            found.append(v)
        if "__" not in text:
            break
    return found


def rank(rows: list[list[Fraction]]) -> int:
    m = [r[:] for r in rows]
    r = 0
    for c in range(len(m[0]) if m else 0):
        pivot = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c] / m[r][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        r += 1
    return r


def puzzle_relations(p: dict[str, Any]) -> tuple[list[tuple[int, int]], list[dict[Any, int]]]:
    """The puzzle's rules as {cell: coefficient, "c": constant} == 0, re-stated from the
    printed puzzle."""
    cells = p["cells"]
    coords = [(r, c) for r, row in enumerate(cells) for c in range(len(row))]
    rel: list[dict[Any, int]] = []
    topic = p["topic"]
    if topic.startswith("number-wall"):
        for r in range(len(cells) - 1):
            for c in range(r + 1):
                rel.append({(r, c): 1, (r + 1, c): -1, (r + 1, c + 1): -1})
    elif topic == "number-house":
        for r in range(1, len(cells)):
            rel.append({(0, 0): 1, (r, 0): -1, (r, 1): -1})
    elif topic == "number-triangle":
        rel += [{(1, 0): 1, (0, 0): -1, (0, 1): -1}, {(1, 1): 1, (0, 0): -1, (0, 2): -1},
                {(1, 2): 1, (0, 1): -1, (0, 2): -1}]  # fmt: skip
    elif topic == "magic-square":
        s = p["magic_sum"]
        lines = [[(r, c) for c in range(3)] for r in range(3)]
        lines += [[(r, c) for r in range(3)] for c in range(3)]
        lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
        rel += [{**{cell: 1 for cell in line}, "c": -s} for line in lines]
    elif topic == "number-chain":
        text = p["text"]
        steps = re.findall(r"([+−·:×÷]) (\d+) →", text)
        for i, (sign, k) in enumerate(steps):
            k = int(k)
            op = SIGN[sign]
            if op == "+":
                rel.append({(0, i + 1): 1, (0, i): -1, "c": -k})
            elif op == "-":
                rel.append({(0, i): 1, (0, i + 1): -1, "c": -k})
            elif op == "*":
                rel.append({(0, i + 1): 1, (0, i): -k})
            else:
                rel.append({(0, i): 1, (0, i + 1): -k})
        coords = [(0, c) for c in range(len(cells[0]))]
    return coords, rel


def unique_completion(p: dict[str, Any]) -> None:
    coords, rel = puzzle_relations(p)
    cells, solution = p["cells"], p["solution"]
    for r in rel:  # the key's completion keeps every rule
        assert sum(v * (1 if k == "c" else solution[k[0]][k[1]]) for k, v in r.items()) == 0, p
    for r, c in coords:  # and every shown number
        assert cells[r][c] is None or cells[r][c] == solution[r][c]
    blanks = [rc for rc in coords if cells[rc[0]][rc[1]] is None]
    rows = [[Fraction(r.get(rc, 0)) for rc in blanks] for r in rel]
    assert rank(rows) == len(blanks), f"{p['text']}: more than one completion"
    top = max(v for row in solution for v in row)
    if (top + 1) ** len(blanks) <= 200_000:  # small enough to try every filling
        hits = 0
        for values in itertools.product(range(top + 1), repeat=len(blanks)):
            full = {rc: cells[rc[0]][rc[1]] for rc in coords}
            full.update(zip(blanks, values))
            ok = all(sum(v * (1 if k == "c" else full[k]) for k, v in r.items()) == 0 for r in rel)
            hits += ok
        assert hits == 1, p["text"]


def chance_of(event: dict[str, Any]) -> Fraction:
    """The event's share of all rolls of one or two dice, listed afresh."""
    dice, name, v = event["dice"], event["event"], event["value"]
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    tests = {
        "eq": lambda r: sum(r) == v, "ge": lambda r: sum(r) >= v, "le": lambda r: sum(r) <= v,
        "even": lambda r: sum(r) % 2 == 0, "odd": lambda r: sum(r) % 2 == 1,
        "double": lambda r: len(set(r)) == 1,
    }  # fmt: skip
    return Fraction(sum(tests[name](r) for r in rolls), len(rolls))


def check_dice(p: dict[str, Any]) -> None:
    if p["topic"] == "dice-tally":
        n = p["rolls"]
        for result, (low, high) in p["spread"].items():
            q = chance_of({"dice": p["dice"], "event": "eq", "value": int(result)})
            assert Fraction(p["expected"][result]) == q * n
            pmf = [comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)]
            assert sum(pmf[low : high + 1]) >= Fraction(95, 100)  # nineteen times in twenty
            assert sum(pmf[:low]) <= Fraction(1, 40) and sum(pmf[high + 1 :]) <= Fraction(1, 40)
        return
    events = p["events"]
    for e in events:
        assert Fraction(e["probability"]) == chance_of(e)
    first = chance_of(events[0])
    if p["question"] == "judge":
        word = {0: "unmöglich", 1: "sicher"}.get(first, "möglich")
        assert p["answer"].startswith(word), p
    elif p["question"] == "compare":
        second = chance_of(events[1])
        assert first not in (0, 1) and second not in (0, 1)
        want = "gleich" if first == second else None
        if want:
            assert p["answer"].startswith(want)
        else:
            assert p["answer"].startswith(p["text"].split("? ")[1].split(" / ")[first < second])
    else:
        assert p["answer"].startswith(f"{first * p['rolls']}-mal")


# --- the tests ----------------------------------------------------------------------------


def test_the_topic_table_has_every_topic_of_the_issue() -> None:
    assert sorted(t.id for t in TOPICS) == sorted(ISSUE_IDS)
    assert all(t.name["de"] and t.name["en"] and 1 <= t.klasse <= 4 for t in TOPICS)


@pytest.mark.parametrize("topic", ISSUE_IDS)
def test_every_answer_is_recomputed_and_unique(topic: str) -> None:
    b = built(topic)
    for p in problems(b):
        text, answer = p["text"], p["answer"]
        assert "__" in text or topic == "dice-tally"
        if p.get("cells") is not None:
            unique_completion(p)
            continue
        if topic.startswith("dice-"):
            check_dice(p)
            continue
        if " R " in text:  # a : b = q R r, every q and r < b tried
            a, b_ = map(int, re.findall(r"\d+", text)[:2])
            hits = [(q, r) for q in range(a + 1) for r in range(b_) if q * b_ + r == a]
            assert hits == [tuple(map(int, answer.split(" R ")))]
        elif "≈" in text:
            n = int(text.split(" ")[0])
            place = 100 if "Hunderter" in text else 10
            down = n - n % place
            assert int(answer) == (down + place if n % place >= place / 2 else down)
        else:
            assert solve_equation(text) == [int(answer)], text


@pytest.mark.parametrize("topic", ISSUE_IDS)
def test_versions_are_equally_hard_and_hold_no_duplicates(topic: str) -> None:
    b = built(topic)
    versions = b.contents["versions"]
    assert [v["letter"] for v in versions] == ["A", "B", "C"]
    profiles = [Counter(tuple(p["class"]) for p in v["problems"]) for v in versions]
    assert profiles[0] == profiles[1] == profiles[2]
    for v in versions:
        texts = [p["text"] for p in v["problems"]]
        assert len(set(texts)) == len(texts) == BY_ID[topic].default_problems


@pytest.mark.parametrize("topic", ["add-100", "sub-100", "add-1000", "sub-1000", "column-add",
                                   "column-sub"])  # fmt: skip
@pytest.mark.parametrize("carry", ["yes", "no", "mixed"])
def test_carry_control_holds_in_every_column(topic: str, carry: str) -> None:
    counts = []
    for p in problems(built(topic, carry=carry)):
        full = [int(n) for n in re.findall(r"\d+", p["text"].replace("__", p["answer"]))]
        op = "+" if " + " in p["text"] else "-"
        numbers = full[:-1]  # the operands (the last number is the result)
        counts.append(column_carries(numbers, op))
    if carry == "yes":
        assert all(c > 0 for c in counts)
    elif carry == "no":
        assert all(c == 0 for c in counts)
    else:
        assert any(c > 0 for c in counts) and any(c == 0 for c in counts)


def test_fixed_carry_topics_bridge_ten_or_not() -> None:
    for topic, want in (("add-20-carry", True), ("add-20-nocarry", False),
                        ("sub-20-borrow", True), ("sub-20-noborrow", False)):  # fmt: skip
        for p in problems(built(topic)):
            full = [int(n) for n in re.findall(r"\d+", p["text"].replace("__", p["answer"]))]
            op = "+" if " + " in p["text"] else "-"
            assert (column_carries(full[:2], op) > 0) is want, p["text"]


def test_no_trivial_problems_where_the_range_allows_others() -> None:
    for topic in ("add-100", "times-table", "divide-table", "add-20-nocarry"):
        for p in problems(built(topic)):
            full = p["text"].replace("__", p["answer"])
            assert not re.search(r"[+−] 0 =|[·:] 1 =|^1 · |^0 ", full), full


def test_german_and_english_notation() -> None:
    de = problems(built("times-table"))[0]["text"]
    en = problems(built("times-table", lang="en"))[0]["text"]
    assert " · " in de and " × " in en
    assert " : " in problems(built("divide-table"))[0]["text"]
    assert " R " in problems(built("divide-remainder"))[0]["text"]


def test_the_pdf_has_every_sheet_and_the_key() -> None:
    b = built("number-wall-3")
    reader = PdfReader(io.BytesIO(render_pdf(b.document)))
    c = b.contents
    assert len(reader.pages) == c["sheet_pages"] + c["key_pages"]
    assert [s["name"] for s in c["sheets"]] == CLASS.split(", ")
    assert [s["large_print"] for s in c["sheets"]] == [False, False, True, False, False]
    table = built("divide-remainder")  # a topic whose key is a table of the answers
    reader = PdfReader(io.BytesIO(render_pdf(table.document)))
    key_pages = range(table.contents["sheet_pages"], len(reader.pages))
    key_text = "".join(reader.pages[i].extract_text() for i in key_pages)
    for p in table.contents["versions"][0]["problems"]:
        assert p["answer"].replace(" ", "") in key_text.replace(" ", "")


GRID_TOPICS = ("number-house", "number-wall-3", "number-wall-4", "number-triangle",
               "magic-square", "number-chain")  # fmt: skip


@pytest.mark.parametrize("topic", GRID_TOPICS)
def test_the_key_draws_grid_puzzles_solved(topic: str) -> None:
    """The key fills in every blank of every puzzle in grey, light type; the given values
    stay black and bold (apart in greyscale too), and no answer is a text row."""
    b = built(topic)
    c = b.contents
    solved: Counter[str] = Counter()
    given: Counter[str] = Counter()
    for p in problems(b):
        for shown, full in zip(p["cells"], p["solution"]):
            for v, s in zip(shown, full):
                (given if v is not None else solved)[str(v if v is not None else s)] += 1
    grey, black = Counter[str](), Counter[str]()
    pdf = pdfplumber.open(io.BytesIO(render_pdf(b.document)))
    for page in pdf.pages[c["sheet_pages"] :]:
        for w in page.extract_words(extra_attrs=["non_stroking_color", "fontname"]):
            if not w["text"].isdigit():
                continue
            colour = w["non_stroking_color"] or (0,)
            bold = "Bold" in w["fontname"]
            if abs(min(colour) - 0x6E / 255) < 0.01 and not bold:
                grey[w["text"]] += 1
            elif max(colour) < 0.01 and bold:
                black[w["text"]] += 1
        assert " / " not in page.extract_text()  # not the manifest's "17 / 4 13 / 1 3 10"
    assert grey == solved
    assert not given - black  # every given value, in ink (besides the labels, e.g. + 6)


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["worksheet", *args])


def test_topics_lists_every_topic_and_as_json() -> None:
    out = run("--topics").output
    assert all(t in out for t in ISSUE_IDS)
    listed = json.loads(run("--topics", "--json").output)
    assert {t["id"] for t in listed} == set(ISSUE_IDS)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--topic", "add-20-carry", "--carry", "no"), "0 problems exist"),
        (("--topic", "add-10", "--range", "0-3"), "only 10 different problems exist"),
        (("--topic", "add-10", "--carry", "yes"), "has no carry control"),
        (("--topic", "nope"), "unknown topic"),
        (("--topic", "add-10", "--level", "2"), "--level"),
        (("--carry", "no"), "use it with --topic"),
        (("--topic", "times-table", "--rows", "2,11"), "rows 1–10"),
        (("--topic", "add-100", "--range", "5-2000"), "expected a range within"),
        (
            ("--topic", "number-wall-4", "--problems", "40", "--per-page", "40"),
            "option --per-page: 40 problems do not fit on one page; at most",
        ),
        (
            (
                "--topic",
                "number-wall-4",
                "--per-page",
                "8",
                "--names",
                "Cem",
                "--large-print-for",
                "Cem",
            ),
            "option --per-page: 8 problems do not fit on one page in large print; at most",
        ),
    ],
)
def test_impossible_combinations_are_one_line_and_exit_2(
    args: tuple[str, ...], words: str, tmp_path: Any
) -> None:
    result = run(*args, "--out", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], result.output
    assert not list(tmp_path.iterdir())


def test_per_page_caps_every_sheet_page() -> None:
    """--per-page N as on the family sheets: at most N problems a page (here 7, 7, 6)."""
    capped = build_topic_worksheet(
        WorksheetRequest(topic="add-100", versions=1, seed=7, per_page=7, key=False), None, None
    )
    reader = PdfReader(io.BytesIO(render_pdf(capped.document)))
    counts = [len(re.findall(r"=", page.extract_text())) for page in reader.pages]
    assert counts == [7, 7, 6]  # 20 problems, evened out over the three pages 7 asks for


def test_same_seed_same_bytes_and_every_option(tmp_path: Any) -> None:
    common = ("--topic", "add-10", "--dice", "--seed", "3", "--versions", "2", "--names",
              "Anna, Ben", "--large-print-for", "Ben", "--class", "1a", "--date", "Mo",
              "--title", "Plus", "--duplex", "--paper", "letter", "--lang", "en")  # fmt: skip
    first = run(*common, "--out", str(tmp_path / "a.pdf"))
    second = run(*common, "--out", str(tmp_path / "b.pdf"))
    assert first.exit_code == second.exit_code == 0, first.output
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    keyed = run("--topic", "number-chain", "--key-file", str(tmp_path / "k.pdf"), "--per-page",
                "4", "--out", str(tmp_path / "c.pdf"))  # fmt: skip
    assert keyed.exit_code == 0, keyed.output
    assert (tmp_path / "k.pdf").exists()
    one = run("--topic", "rounding", "--one-page", "--no-key", "--problems", "10", "--out",
              str(tmp_path / "d.pdf"))  # fmt: skip
    assert one.exit_code == 0, one.output
    manifest = json.loads((tmp_path / "d.json").read_text())
    assert manifest["contents"]["sheet_pages"] == 1 and manifest["contents"]["key_pages"] == 0


SPEC = """title: {de: "Wiederholung", en: "Revision"}
sections:
  - {topic: add-20-carry, problems: 6}
  - {topic: add-20-carry, problems: 4, unknown: operand, heading: {de: "Was fehlt?", en: "Gaps"}}
  - {topic: number-wall-3, problems: 4, range: 10-20}
  - {topic: times-table, problems: 6, rows: "2,5,10", unknown: mixed}
"""


def test_a_spec_mixes_topics_without_repeating_a_problem(tmp_path: Any) -> None:
    spec = tmp_path / "k2.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    result = run("--spec", str(spec), "--versions", "2", "--out", str(tmp_path / "k2.pdf"))
    assert result.exit_code == 0, result.output
    c = json.loads((tmp_path / "k2.json").read_text())["contents"]
    assert c["title"] == "Wiederholung" and c["problems"] == 20
    assert [s["topic"] for s in c["sections"]] == [
        "add-20-carry", "add-20-carry", "number-wall-3", "times-table"
    ]  # fmt: skip
    for v in c["versions"]:
        ps = v["problems"]
        assert [p["number"] for p in ps] == list(range(1, 21))
        assert [p["section"] for p in ps] == [0] * 6 + [1] * 4 + [2] * 4 + [3] * 6
        assert len({p["text"] for p in ps}) == 20
        assert all(not p["text"].endswith("= __") for p in ps[6:10])  # the operand is blank
        assert all(p["solution"][0][0] <= 20 for p in ps[10:14])
        for p in ps[14:]:
            _, b = (int(n) for n in re.findall(r"\d+", p["text"].replace("__", p["answer"]))[:2])
            assert b in (2, 5, 10)


@pytest.mark.parametrize(
    ("section", "words"),
    [
        (
            "{topic: add-10, problems: 3, carry: yes}",
            "k.yaml:2:34 (sections[0].carry): topic add-10 has no",
        ),
        ("{topic: add-10, problems: 3, range: 5-x}", "(sections[0].range): expected two"),
        ("{topic: nope, problems: 3}", "(sections[0].topic): unknown topic"),
        ("{topic: add-10, problems: 70}", "(sections[0].problems): topic add-10"),
    ],
)
def test_a_spec_error_names_its_line(section: str, words: str, tmp_path: Any) -> None:
    spec = tmp_path / "k.yaml"
    spec.write_text(f"sections:\n  - {section}\n", encoding="utf-8")
    result = run("--spec", str(spec), "--out", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1
