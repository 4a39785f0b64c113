"""The Kniffel odds card as data: figures and words (no geometry); `build.build_odds` lays it out.

The card shows every pattern's odds (exact fractions, `odds.pattern_odds`),
the optimal expected score (exact, `solver`), its spread and percentiles and a
histogram of final scores (a seeded simulation, `simulate`). The figures and
words are put together here as plain data; `kniffel.oddscard_layout` places them.

What is printed: percentages first (what a family reads); the one-roll odds also
as the small exact fraction (1/1296); the three-roll fractions (denominators up
to 6¹⁵) only in the manifest. The six upper patterns have the same odds (fair
dice), so they print as one row "at least three of one chosen number".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator.kniffel.odds import UPPER_COUNT, PatternOdds
from generator.kniffel.rules import RuleSet
from generator.kniffel.simulate import PERCENTILES, Distribution
from generator.text.words import Templates, Texts, percent

BIN_WIDTH = 10  # points per histogram bar
WINDOW = (0.5, 99.5)  # percentiles the histogram window covers (the rest is a note)


@dataclass(frozen=True)
class OddsRow:
    """One line of the odds table, figures and the text printed for them."""

    key: str
    label: str
    one_roll: Fraction
    three_rolls: Fraction
    one_roll_text: str
    one_roll_percent: str
    three_rolls_text: str
    three_rolls_percent: str


@dataclass(frozen=True)
class TableRow:
    """One printed line of the odds table: one pattern, or several with the same odds."""

    keys: tuple[str, ...]  # the patterns it stands for (OddsRow.key)
    label: str
    one_roll_text: str  # the exact fraction, small print
    one_roll_percent: str
    three_rolls: float  # for the bar
    three_rolls_percent: str


@dataclass(frozen=True)
class Histogram:
    """Games per bar of `width` points from `lo`, and the games outside the window."""

    lo: int
    width: int
    counts: tuple[int, ...]
    below: int
    above: int

    @property
    def hi(self) -> int:
        return self.lo + self.width * len(self.counts)

    @property
    def games(self) -> int:
        return self.below + sum(self.counts) + self.above


@dataclass(frozen=True)
class OddsCard:
    """Everything the card prints: words in the card's language and the figures behind them."""

    rules: RuleSet
    lang: str
    words: dict[str, str]
    rows: tuple[OddsRow, ...]  # every pattern (the manifest)
    table: tuple[TableRow, ...]  # what the table prints
    expected: float
    distribution: Distribution
    percentiles: tuple[tuple[int, str, int], ...]  # (p, label, score), in PERCENTILES order
    histogram: Histogram
    templates: Templates | None = None  # None: the shipped ones


def group_digits(n: int) -> str:
    """12345678 -> '12 345 678' with narrow no-break spaces (both languages)."""
    return f"{n:,}".replace(",", "\u202f") if n >= 10_000 else str(n)


def fraction_text(value: Fraction) -> str:
    return f"{group_digits(value.numerator)}/{group_digits(value.denominator)}"


def make_histogram(dist: Distribution, width: int = BIN_WIDTH) -> Histogram:
    """Bars of `width` points covering the central 99 % of the games."""
    lo = math.floor(dist.percentile(WINDOW[0]) / width) * width
    hi = (math.floor(dist.percentile(WINDOW[1]) / width) + 1) * width
    counts = tuple(int(dist.counts[a : a + width].sum()) for a in range(lo, hi, width))
    return Histogram(
        lo=lo,
        width=width,
        counts=counts,
        below=int(dist.counts[:lo].sum()),
        above=int(dist.counts[hi:].sum()),
    )


def make_card(
    rules: RuleSet,
    lang: str,
    odds: list[PatternOdds],
    expected: float,
    dist: Distribution,
    templates: Templates | None = None,
) -> OddsCard:
    """Put the figures and the card's words together."""
    t = Texts("kniffel_odds", lang, templates)
    name = rules.name[lang]
    ycat = rules.yahtzee_box
    hist = make_histogram(dist)
    words = {
        "title": t("title", rules_name=name),
        "rules": t(
            "rules_line",
            rules_name=name,
            threshold=rules.bonus_threshold,
            bonus=rules.bonus_value,
            extra=rules.extra_yahtzee_bonus,
            joker=rules.joker,
            yahtzee=ycat.label[lang] if ycat is not None else "",
            full=ycat.score if ycat is not None else 0,
        ),
        "heading_odds": t("heading_odds"),
        "col_pattern": t("col_pattern"),
        "col_one_roll": t("col_one_roll"),
        "col_three_rolls": t("col_three_rolls"),
        "col_fraction": t("col_fraction"),
        "col_percent": t("col_percent"),
        "footnote": t("footnote_three_rolls"),
        "footnote_upper": t(
            "footnote_upper",
            count=UPPER_COUNT,
            total=UPPER_COUNT * sum(c.face for c in rules.upper),
            threshold=rules.bonus_threshold,
        ),
        "heading_optimal": t("heading_optimal"),
        "expected": t("expected", value=expected),
        "expected_note": t("expected_note"),
        "spread": t("spread", sd=dist.sd),
        "percentiles_heading": t("percentiles_heading"),
        "histogram_heading": t("histogram_heading", games=group_digits(dist.games)),
        "axis_points": t("axis_points"),
        "axis_share": t("axis_share"),
        "mean_marker": t("mean_marker", value=expected),
        "tails": t(
            "tails",
            below_share=hist.below / dist.games,
            below=hist.lo,
            above_share=hist.above / dist.games,
            above=hist.hi,
        ),
        "footer": t("footer", games=group_digits(dist.games), seed=dist.seed),
    }
    rows = []
    for item in odds:
        label = item.box.label[lang]
        if item.is_upper:
            label = t("upper_pattern", label=label, count=UPPER_COUNT)
        rows.append(
            OddsRow(
                key=item.key,
                label=label,
                one_roll=item.one_roll,
                three_rolls=item.three_rolls,
                one_roll_text=fraction_text(item.one_roll),
                one_roll_percent=percent(float(item.one_roll), lang, 2),
                three_rolls_text=fraction_text(item.three_rolls),
                three_rolls_percent=percent(float(item.three_rolls), lang, 2),
            )
        )
    percentiles = tuple((p, t("percentile_label", p=p), dist.percentile(p)) for p in PERCENTILES)
    table = table_rows(rows, odds, t("upper_pattern_any", count=UPPER_COUNT))
    return OddsCard(
        rules, lang, words, tuple(rows), table, expected, dist, percentiles, hist, templates
    )


def table_rows(
    rows: list[OddsRow], odds: list[PatternOdds], any_label: str
) -> tuple[TableRow, ...]:
    """The printed rows: the lower patterns one by one, the upper ones as one row if all equal."""

    def printed(row: OddsRow, keys: tuple[str, ...], label: str) -> TableRow:
        return TableRow(
            keys,
            label,
            row.one_roll_text,
            row.one_roll_percent,
            float(row.three_rolls),
            row.three_rolls_percent,
        )

    lower = [r for r, o in zip(rows, odds) if not o.is_upper]
    upper = [r for r, o in zip(rows, odds) if o.is_upper]
    out = [printed(r, (r.key,), r.label) for r in lower]
    if upper and len({(r.one_roll, r.three_rolls) for r in upper}) == 1:
        out.append(printed(upper[0], tuple(r.key for r in upper), any_label))
    else:  # dice that are not fair would tell the faces apart: a row each
        out += [printed(r, (r.key,), r.label) for r in upper]
    return tuple(out)


def share_ticks(card: OddsCard) -> list[tuple[float, str]]:
    """Gridlines of the histogram: (share of games, its label), a nice step apart."""
    t = Texts("kniffel_odds", card.lang, card.templates)
    hist = card.histogram
    top = max(hist.counts) / hist.games * 100
    step = next(s for s in (0.5, 1, 2, 2.5, 5, 10, 20, 25, 50) if top / s <= 6)
    ticks = []
    k = 1
    while k * step <= top:
        ticks.append((k * step / 100, t("share_tick", value=k * step)))
        k += 1
    return ticks


def card_contents(card: OddsCard) -> dict[str, Any]:
    """Every figure on the card, for the manifest."""
    rules, dist, hist = card.rules, card.distribution, card.histogram

    def fraction(value: Fraction, denominator: int) -> dict[str, Any]:
        return {
            "fraction": f"{value.numerator}/{value.denominator}",
            "numerator_over_denominator": [int(value * denominator), denominator],
            "probability": float(value),
        }

    return {
        "kind": "kniffel-odds",
        "rules": rules.id,
        "rules_file": rules.source,
        "joker": rules.joker,
        "extra_yahtzee_bonus": rules.extra_yahtzee_bonus,
        "upper_bonus": {"threshold": rules.bonus_threshold, "value": rules.bonus_value},
        "lang": card.lang,
        "patterns": [
            {
                "key": row.key,
                "label": row.label,
                "one_roll": {
                    **fraction(row.one_roll, 6**5),
                    "text": row.one_roll_text,
                    "percent_text": row.one_roll_percent,
                },
                "three_rolls": {
                    **fraction(row.three_rolls, 6**15),
                    "text": row.three_rolls_text,
                    "percent_text": row.three_rolls_percent,
                },
            }
            for row in card.rows
        ],
        "expected_score": card.expected,
        "expected_score_text": card.words["expected"],
        "distribution": {
            **dist.summary(),
            "sd_text": card.words["spread"],
        },
        "table_printed": [
            {
                "patterns": list(row.keys),
                "label": row.label,
                "one_roll_text": row.one_roll_text,
                "one_roll_percent_text": row.one_roll_percent,
                "three_rolls_percent_text": row.three_rolls_percent,
            }
            for row in card.table
        ],
        "percentiles_printed": [
            {"p": p, "label": label, "score": score} for p, label, score in card.percentiles
        ],
        "histogram": {
            "lo": hist.lo,
            "hi": hist.hi,
            "bin_width": hist.width,
            "counts": list(hist.counts),
            "below": hist.below,
            "above": hist.above,
        },
    }
