"""The one text-fitting toolkit (`render/fit.py`), checked against plain restatements, and no
layout that shortens or balances text on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.render import fit
from generator.render.fonts import text_width

ROOT = Path(generator.__file__).parent
SIZE = 10.0
WORDS = st.lists(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZ-",
        min_size=1,
        max_size=14,
    ),
    min_size=1,
    max_size=25,
)
WIDTHS = st.floats(min_value=40, max_value=400)


def width(text: str, bold: bool = False) -> float:
    return text_width(text, SIZE, bold)


@settings(max_examples=80, deadline=None)
@given(words=WORDS, room=WIDTHS)
def test_wrap_keeps_every_word_and_each_line_fits(words: list[str], room: float) -> None:
    lines = fit.wrap(" ".join(words), SIZE, room)
    assert " ".join(lines).split() == words
    # a line wider than the room is one word that is wider on its own
    assert all(width(line) <= room or " " not in line for line in lines)


def test_a_no_break_space_binds_its_words() -> None:
    text = "Rechne mit den Zeichen +,\u00a0−,\u00a0·\u00a0und\u00a0: bis zur Zahl"
    lines = fit.wrap(text, SIZE, width("Rechne mit den Zeichen +,"))
    assert any("+, −, · und :" in line for line in lines), lines


@settings(max_examples=80, deadline=None)
@given(words=WORDS, room=WIDTHS)
def test_balanced_lines_are_as_many_and_no_wider(words: list[str], room: float) -> None:
    text = " ".join(words)
    plain, even = fit.wrap(text, SIZE, room), fit.balanced_lines(text, SIZE, room)
    assert list(" ".join(even).split()) == words
    assert len(even) == len(plain)
    assert max(map(width, even)) <= max(map(width, plain)) + 1e-6


def test_balanced_lines_leave_no_word_alone() -> None:
    text = "Mindestens zwei Farben gleich oft, dazu eine dritte"
    room = width(text) - 1  # wrap would leave "dritte" alone on the second line
    assert fit.wrap(text, SIZE, room)[-1] == "dritte"
    first, second = fit.balanced_lines(text, SIZE, room)
    assert abs(width(first) - width(second)) < width("Farben gleich oft,")


@settings(max_examples=80, deadline=None)
@given(words=WORDS, room=WIDTHS)
def test_no_orphan_moves_words_down_and_keeps_them(words: list[str], room: float) -> None:
    text = " ".join(words)
    plain = fit.wrap(text, SIZE, room)
    lines = fit.lines_without_orphan(text, SIZE, room)
    assert " ".join(lines).split() == words and len(lines) == len(plain)
    assert all(width(line) <= room or " " not in line for line in lines)
    if len(lines) >= 2 and width(lines[-1]) < fit.ORPHAN * room:
        # short only when moving one more word down would overfill the line or empty the one above
        above = lines[-2].split()
        assert len(above) == 1 or width(" ".join([above[-1], lines[-1]])) > room


@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet="abcdefgh ijklm-WMä", min_size=2, max_size=60), room=WIDTHS)
def test_clipped_is_the_longest_start_that_fits(text: str, room: float) -> None:
    out = fit.clipped(text, SIZE, room)
    assert out.endswith("…")
    start = out.removesuffix("…")
    assert text.startswith(start)
    if len(start) > 1:
        assert width(out) <= room
    # no longer start (its trailing spaces and hyphens dropped) would fit
    for k in range(len(start) + 1, len(text) + 1):
        longer = text[:k].rstrip(" -‐\t\n") + "…"
        if len(longer) > len(out):
            assert width(longer) > room


def test_shortened_keeps_whole_words_then_cuts_one() -> None:
    text = "Klasse 3b am Montag nach den Ferien"
    assert fit.shortened(text, SIZE, width(text)) == text
    short = fit.shortened(text, SIZE, width("Klasse 3b am …"))
    assert short == "Klasse 3b am …"
    word = "Donaudampfschifffahrtsgesellschaft"
    cut = fit.shortened(word, SIZE, width("Donaudampf…"))
    assert cut == "Donaudampf…"


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("Maximilian", "Ma-xi-mi-lian"),  # never between two vowels
        ("Kierkegaard", "Kier-ke-gaard"),
        ("Christopher", "Chris-to-pher"),
        ("Schumacher", "Schu-ma-cher"),
    ],
)
def test_syllable_breaks(word: str, parts: str) -> None:
    breaks = fit.syllable_breaks(word)
    pieces = [word[a:b] for a, b in zip([0, *breaks], [*breaks, len(word)])]
    assert "-".join(pieces) == parts


def test_name_lines_break_after_a_space_or_hyphen_most_evenly() -> None:
    name = "Anna-Lena Müller-Lüdenscheidt"
    assert fit.name_lines(name, SIZE, width(name), 2) == (name,)
    room = width("Müller-Lüdenscheidt")
    two = fit.name_lines(name, SIZE, room, 2)
    assert two == ("Anna-Lena Müller-", "Lüdenscheidt")  # of the splits that fit, the most even
    assert all(width(line) <= room for line in two)
    assert fit.name_lines(name, SIZE, width("Müller-Lüdenscheidt"), 1) == ()


def test_broken_lines_fit_and_end_visibly_shortened() -> None:
    name = "Bartholomäusfünfundzwanzigstelmillimeterschraube"
    room = width("Bartholomäus-")
    lines = fit.broken_lines(name, SIZE, room, 2)
    assert len(lines) == 2 and all(width(line) <= room for line in lines)
    assert lines[0].endswith("-") and lines[-1].endswith("…")
    assert "".join(lines).replace("-", "").removesuffix("…") in name


LAYOUTS = sorted(
    p
    for p in ROOT.rglob("*.py")
    if p.parent.name == "render" or p.stem in ("layout", "pages") or p.stem.endswith("_layout")
)


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_only_the_toolkit_shortens_text() -> None:
    """No layout writes its own "…": every one shortens through render/fit.py."""
    assert len(LAYOUTS) >= 10
    own = [p.relative_to(ROOT).as_posix() for p in LAYOUTS if p.name != "fit.py"
           and any("…" in s for s in _code_strings(p))]  # fmt: skip
    assert own == []
