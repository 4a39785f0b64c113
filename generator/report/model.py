"""A balance report as values: its key figures, the charts to draw and its fixed words
(what `generator.report.balance` computes and `generator.report.layout` lays out)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Chart:
    """A chart to draw: bars (one series) or lines (one or more series), and what it marks.

    What a playtester reads off it: shares as percentages (`percent`), an axis
    zoomed to the values (`zoom`) with the value they should be compared with as
    a dashed line (`reference`, bars growing from it with `from_reference`), the
    allowed range as a band, the values on the bars, labels under groups of bars.
    """

    kind: str  # "bar" | "line"
    title: str
    y_label: str
    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]
    y_max: float | None = None
    label_every: int = 1
    percent: bool = False  # the values are shares: axis and labels in %
    zoom: bool = False  # the axis covers the values (and reference and band), not from 0
    min_span: float = 0.0  # a zoomed axis spans at least this much
    reference: float | None = None  # a dashed line: the mean, the fair share …
    reference_label: str = ""
    from_reference: bool = False  # bars grow from the reference line: deviations
    band: tuple[float, float] | None = None  # a shaded range of values (p_min–p_max)
    band_label: str = ""
    values: str = ""  # print each bar's value: "" no, "percent", "points", "count"
    value_digits: int = 1
    groups: tuple[tuple[str, int], ...] = ()  # a second label line under runs of bars
    colors: tuple[str, ...] = ()  # per bar
    key: tuple[tuple[str, str], ...] = ()  # extra key entries: (colour, what it means)
    marks: tuple[float, ...] = ()  # a short tick across each bar
    marks_label: str = ""
    edges: bool = False  # the labels name the bars' edges (a histogram's bins)
    short_labels: tuple[str, ...] = ()  # what a narrow chart prints ("1" for "seat 1")
    x_label: str = ""


@dataclass(frozen=True)
class BalanceReport:
    game: str
    title: str
    subtitle: str
    figures: tuple[tuple[str, str], ...]
    charts: tuple[Chart, ...]
    data: dict[str, Any] = field(default_factory=dict)
    words: ReportWords | None = None


@dataclass(frozen=True)
class ReportWords:
    """The report's fixed words: the figures' heading, the footer, "page n of N"."""

    figures: str
    footer: str
    page: Callable[[int, int], str]
