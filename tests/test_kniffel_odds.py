"""Kniffel pattern odds against an exact enumeration, and the odds card: layout, PDF, manifest."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest

from generator.io.cache import DISK
from generator.kniffel.load import load_rules
from generator.kniffel.odds import pattern_odds
from generator.render.primitives import Rect, Text
from generator.render.style import EDGE
from tests.pdfcheck import (
    A4,
    LETTER,
    chars_outside,
    fonts,
    overlapping_words,
    page_sizes,
    page_texts,
)

KNIFFEL = load_rules("kniffel")

# --- an independent exact enumeration ----------------------------------------------------

PATTERNS = {
    "kniffel": lambda d: len(set(d)) == 1,
    "large_straight": lambda d: set(d) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}),
    "small_straight": lambda d: any({a, a + 1, a + 2, a + 3} <= set(d) for a in (1, 2, 3)),
    "full_house": lambda d: sorted(Counter(d).values()) == [2, 3],
    "four_of_a_kind": lambda d: max(Counter(d).values()) >= 4,
    "three_of_a_kind": lambda d: max(Counter(d).values()) >= 3,
    **{
        f"{name}_3": (lambda f: lambda d: d.count(f) >= 3)(face)
        for face, name in enumerate(["ones", "twos", "threes", "fours", "fives", "sixes"], 1)
    },
}


@cache
def _outcomes(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every multiset of n dice with its exact probability."""
    out = []
    for dice in combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for c in Counter(dice).values():
            ways //= math.factorial(c)
        out.append((dice, Fraction(ways, 6**n)))
    return tuple(out)


def _play_for(goal, rolls: int) -> Fraction:
    """P(goal) with up to `rolls` rolls, every keep tried, exact fractions."""
    value = {s: Fraction(int(goal(s))) for s, _ in _outcomes(5)}
    for _ in range(rolls - 1):
        memo: dict[tuple[int, ...], Fraction] = {}

        def keep_value(keep: tuple[int, ...], value=value, memo=memo) -> Fraction:
            if keep not in memo:
                memo[keep] = sum(
                    (p * value[tuple(sorted(keep + o))] for o, p in _outcomes(5 - len(keep))),
                    Fraction(0),
                )
            return memo[keep]

        value = {
            s: max(
                keep_value(tuple(x for x, m in zip(s, mask) if m))
                for mask in product((0, 1), repeat=5)
            )
            for s in value
        }
    return sum((p * value[s] for s, p in _outcomes(5)), Fraction(0))


def test_kniffel_within_three_rolls_is_the_known_fraction() -> None:
    odds = {o.key: o for o in pattern_odds(KNIFFEL)}
    assert odds["kniffel"].three_rolls == Fraction(2783176, 60466176)
    assert odds["kniffel"].one_roll == Fraction(6, 7776)
    assert odds["large_straight"].one_roll == Fraction(240, 7776)
    assert odds["full_house"].one_roll == Fraction(300, 7776)


def test_every_pattern_matches_the_enumeration() -> None:
    odds = pattern_odds(KNIFFEL)
    assert [o.key for o in odds] == list(PATTERNS)
    for o in odds:
        goal = PATTERNS[o.key]
        assert o.one_roll == _play_for(goal, 1), o.key
        assert o.three_rolls == _play_for(goal, 3), o.key
        assert (o.three_rolls * 6**15).denominator == 1


# --- the card ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def card():
    from generator.kniffel.load import load_strategy
    from generator.kniffel.oddscard import make_card
    from generator.kniffel.simulate import score_distribution

    strategy = load_strategy(KNIFFEL)
    dist = score_distribution(strategy, 1000, 3, store=DISK)
    return make_card(KNIFFEL, "de", pattern_odds(KNIFFEL), strategy.expected_score(), dist)


@pytest.mark.parametrize(("paper", "landscape"), [("a4", False), ("letter", True)])
def test_layout_stays_inside_the_margins(card, paper: str, landscape: bool) -> None:
    from generator.kniffel.oddscard_layout import MARGIN, layout_odds
    from generator.render.fonts import text_width
    from generator.render.style import FOOTER_BASELINE

    doc = layout_odds(card, paper, landscape)
    assert len(doc.pages) == 1
    for item in doc.pages[0].items:
        if isinstance(item, Text):
            w = text_width(item.text, item.size, item.bold)
            left = {"left": item.x, "center": item.x - w / 2, "right": item.x - w}[item.align]
            assert MARGIN - 0.5 <= left and left + w <= doc.width - MARGIN + 0.5, item
            if item.y == FOOTER_BASELINE:  # the house footer, below the margin
                continue
            assert MARGIN - 0.5 <= item.y <= doc.height - MARGIN, item
        elif isinstance(item, Rect):
            assert MARGIN - 0.5 <= item.x and item.x + item.w <= doc.width - MARGIN + 0.5
            assert MARGIN - 0.5 <= item.y and item.y + item.h <= doc.height - MARGIN + 0.5


def test_histogram_bars_are_the_counts(card) -> None:
    from generator.kniffel.oddscard_layout import BAR, layout_odds

    doc = layout_odds(card, "a4", False)
    bars = [i for i in doc.pages[0].items if isinstance(i, Rect) and i.fill == BAR]
    hist = card.histogram
    nonzero = [c for c in hist.counts if c]
    assert len(bars) == len(nonzero)
    ratios = {round(bar.h / count, 6) for bar, count in zip(bars, nonzero)}
    assert len(ratios) == 1  # heights proportional to the counts
    assert hist.games == card.distribution.games == 1000
    assert all(b.w == pytest.approx(bars[0].w) for b in bars)


def test_the_mean_line_stays_a_dark_line_on_the_bars_in_grey(card) -> None:
    """The exact mean crosses the bars on a white halo drawn over them, in a red that a grey
    copy prints far darker than the bars (red on blue alone turned one grey)."""
    from generator.kniffel.oddscard_layout import BAR, MEAN, layout_odds
    from generator.render.primitives import Line
    from generator.render.style import WHITE

    def grey(colour: str) -> float:  # the luminance a black-and-white print gives it
        r, g, b = (int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
        return 0.299 * r + 0.587 * g + 0.114 * b

    items = list(layout_odds(card, "a4", True).pages[0].items)
    [mean] = [k for k, i in enumerate(items) if isinstance(i, Line) and i.stroke == MEAN]
    last_bar = max(k for k, i in enumerate(items) if isinstance(i, Rect) and i.fill == BAR)
    halo = [k for k, i in enumerate(items) if isinstance(i, Line) and i.stroke == WHITE
            and i.x1 == items[mean].x1 and i.line_width > items[mean].line_width]  # fmt: skip
    assert halo and last_bar < halo[0] < mean
    assert grey(MEAN) <= grey(BAR) - 0.2


def _squash(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize(
    ("rules", "lang", "paper", "extra", "size"),
    [("kniffel", "de", "a4", [], A4), ("yahtzee", "en", "letter", ["--landscape"], LETTER)],
)
def test_odds_card_pdf(run_cli, tmp_path: Path, rules, lang, paper, extra, size) -> None:
    from generator.kniffel.load import load_strategy

    out = tmp_path / "odds.pdf"
    result = run_cli("kniffel", "odds", "--rules", rules, "--lang", lang, "--paper", paper,
                     "--games", "1000", "--out", out, *extra)  # fmt: skip
    assert result.exit_code == 0, result.output
    (w, h), *rules_sizes = page_sizes(out)
    if extra:
        size = (size[1], size[0])
    assert (w, h) == (pytest.approx(size[0], abs=0.01), pytest.approx(size[1], abs=0.01))
    assert set(rules_sizes) <= {(w, h)}
    text, *rules_texts = page_texts(out)
    flat = _squash(text)
    manifest = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    contents = manifest["contents"]
    # the rules page(s) follow the card by default (--no-rules leaves them out)
    assert contents["rules_pages"] == list(range(2, 2 + len(rules_texts))) and rules_texts
    assert contents["rules_page"]["joker"] == load_rules(rules).joker
    ruleset = load_rules(rules)
    odds = pattern_odds(ruleset)
    assert [p["key"] for p in contents["patterns"]] == [o.key for o in odds]
    for printed, o in zip(contents["patterns"], odds):
        assert printed["one_roll"]["fraction"] == f"{o.one_roll.numerator}/{o.one_roll.denominator}"
        assert Fraction(printed["three_rolls"]["fraction"]) == o.three_rolls
        assert printed["three_rolls"]["numerator_over_denominator"] == [
            o.three_rolls * 6**15,
            6**15,
        ]
        # the exact three-roll fraction is the manifest's; the page prints its percentage
        assert _squash(printed["one_roll"]["text"]) in flat
        assert _squash(printed["three_rolls"]["text"]) not in flat
        for part in ("one_roll", "three_rolls"):
            assert _squash(printed[part]["percent_text"]) in flat
    table = contents["table_printed"]
    assert [k for row in table for k in row["patterns"]] == [o.key for o in odds]
    assert len(table) == len(odds) - 5  # the six upper patterns share one row
    for row in table:
        assert _squash(row["label"]) in flat
        for key in ("one_roll_text", "one_roll_percent_text", "three_rolls_percent_text"):
            assert _squash(row[key]) in flat
    expected = load_strategy(ruleset).expected_score()
    assert contents["expected_score"] == expected
    assert _squash(contents["expected_score_text"]) in flat
    assert f"{expected:.2f}".replace(".", "," if lang == "de" else ".") in text
    hist = contents["histogram"]
    assert sum(hist["counts"]) + hist["below"] + hist["above"] == 1000
    for row in contents["percentiles_printed"]:
        assert str(row["score"]) in text
    assert contents["distribution"]["games"] == 1000 and manifest["seed"] == 1
    assert chars_outside(out, margin=EDGE) == []  # the house style: nothing within 5 mm
    assert overlapping_words(out) == []
    used = fonts(out)
    assert used and all(used.values()) and all("DejaVuSans" in n for n in used), used


def test_odds_bad_games_exit_2(run_cli, tmp_path: Path) -> None:
    result = run_cli("kniffel", "odds", "--games", "5", "--out", tmp_path / "x.pdf")
    assert result.exit_code == 2 and "--games" in result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("landscape", [False, True])
def test_a_card_whose_words_overflow_the_page_says_which_option(card, landscape: bool) -> None:
    """A long text (a user's template) does not spill into the histogram's column or page."""
    import dataclasses

    from generator.core.errors import DoesNotFit
    from generator.kniffel.oddscard_layout import layout_odds

    words = dict(card.words, spread=" ".join(["Streuung"] * 900))
    with pytest.raises(DoesNotFit, match="does not fit the page height") as raised:
        layout_odds(dataclasses.replace(card, words=words), "a4", landscape)
    assert raised.value.subject == "paper"
    assert raised.value.needed > raised.value.available > 150  # mm of the A4 page's height


def test_table_leads_with_percentages_and_one_upper_row(card) -> None:
    from generator.kniffel.oddscard_layout import ODDS_BAR, layout_odds

    assert [row.label for row in card.table][-1] == "mindestens dreimal eine gewählte Zahl"
    assert card.table[-1].keys == tuple(
        f"{face}_3" for face in ("ones", "twos", "threes", "fours", "fives", "sixes")
    )
    doc = layout_odds(card, "a4", False)
    texts = [i.text for i in doc.pages[0].items if isinstance(i, Text)]
    assert "4,60\u202f%" in texts and "1/1296" in texts
    assert not any("347" in t and "/" in t for t in texts)  # no three-roll fraction
    bars = [i for i in doc.pages[0].items if isinstance(i, Rect) and i.fill == ODDS_BAR]
    assert len(bars) == len(card.table)
    ratios = {round(bar.w / row.three_rolls, 6) for bar, row in zip(bars, card.table)}
    assert len(ratios) == 1  # bar lengths proportional to the three-roll chance


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_printed_free_joker_is_the_one_the_solver_plays(lang) -> None:
    """`--joker free`: the solver's joker (scoring.score, which the table is solved with) puts
    an extra Yahtzee into Full House at full value only once the matching upper box is
    filled; the card's rule line must say that, not "lower boxes at full value" outright."""
    from generator.core.store import NO_STORE
    from generator.kniffel.oddscard import make_card
    from generator.kniffel.scoring import score
    from generator.kniffel.simulate import score_distribution
    from generator.kniffel.solver import solve_strategy, with_joker

    free = with_joker(load_rules("yahtzee"), "free")
    house = free.box("full_house")
    five = (3, 3, 3, 3, 3)
    assert score(five, house, free, {"yahtzee": 50}) == 0  # the threes still open
    assert score(five, house, free, {"yahtzee": 50, "threes": 9}) == 25
    strategy = solve_strategy(free, store=DISK)
    dist = score_distribution(strategy, 200, 1, store=NO_STORE)
    card = make_card(free, lang, pattern_odds(free), strategy.expected_score(), dist)
    line = card.words["rules"]
    assert round(strategy.expected_score(), 2) == 254.59
    matching = {
        "en": "only once the matching upper box is filled",
        "de": "nur, wenn das passende obere Feld schon belegt ist",
    }[lang]
    assert matching in line, line
    assert "lower boxes at full value" not in line and "unten voller Wert" not in line
