"""Layout of the balance report: a header, the key figures, then the charts, as a story.

The report takes as few pages as it can; then every page but the last is as full
as it gets, then the last: the charts of one column of a page share one height,
grown until the column is full (side by side on a wide page). Every number is written as
the page's language writes it (12,5 % / 12.5%), shares always as percentages.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from generator.render import chart as ch
from generator.render.flow import (
    Column,
    Columns,
    Cursor,
    Figure,
    Flowable,
    PageFrame,
    Table,
    TableStyle,
    Theme,
    flow_story,
    footer_line,
)
from generator.render.primitives import MM, Document, Item, Page, Text, page_size
from generator.render.style import TEXT_TITLE
from generator.report.model import BalanceReport, Chart
from generator.text.words import number

MARGIN = 15 * MM
HEADER_H = 36.0  # title and subtitle
CHART_HEIGHTS = tuple(float(h) * MM for h in range(80, 43, -2))  # the plot, tallest first
WIDE_HEIGHTS = tuple(float(h) * MM for h in range(140, 43, -2))  # side by side: up to a page
CHART_GAP = 8 * MM  # between one chart's labels and the next one's title
Y_LABELS_W = 14 * MM  # room left of the plot for the tick labels
TWO_COLUMNS = 200 * MM  # a wider text area (landscape) puts the charts side by side
COLUMN_GAP = 10 * MM
FULL = 0.9  # a page filled this far down its columns is full: the last page comes next
SUBTITLE_GREY = "#444444"
THEME = Theme(headings={}, paragraphs={}, table=TableStyle(9, 6 * MM, after=2 * MM))


def _format(value: float, chart: Chart, lang: str, digits: int) -> str:
    """A value as the chart prints it: a share in %, else a number."""
    if chart.percent:
        text = number(100 * value, lang, digits)
        return f"{text}\u202f%" if lang == "de" else f"{text}%"
    return number(value, lang, digits)


def _tick_digits(scale: ch.Scale, chart: Chart) -> int:
    """Decimals the ticks need: none for 20 %, one for 2,5 %, two for 0,25 %."""
    step = (scale.ticks[1] - scale.ticks[0]) if len(scale.ticks) > 1 else 1.0
    step *= 100 if chart.percent else 1
    for digits in range(4):
        if abs(step * 10**digits - round(step * 10**digits)) < 1e-6:
            return digits
    return 3


def _scale(chart: Chart) -> ch.Scale:
    values = [v for _, series in chart.series for v in series]
    if chart.zoom:
        include = [*(chart.band or ()), *([chart.reference] if chart.reference is not None else [])]
        top = 1.0 if chart.percent else None
        return ch.zoomed_scale(values, include, chart.min_span, 0.0, top)
    if chart.marks:
        values += list(chart.marks)
    return ch.scale_from_zero(values, chart.y_max)


def below(chart: Chart) -> float:
    """The room under a chart's plot: bar labels, group labels, the axis caption."""
    return (
        ch.SIZE + 4 + (ch.SIZE + 5 if chart.groups else 0) + (ch.SIZE + 5 if chart.x_label else 0)
    )


def chart_items(chart: Chart, frame: ch.Frame, lang: str, left: float) -> list[Item]:
    """Head, axes and marks of one chart in `frame` (`left`: where its title starts)."""
    scale = _scale(chart)
    digits = _tick_digits(scale, chart)
    items: list[Item] = []
    key: list[ch.KeyEntry] = [
        (ch.PALETTE[k % len(ch.PALETTE)], name, "line")
        for k, (name, _) in enumerate(chart.series)
        if name and len(chart.series) > 1
    ]
    key += [(color, text, "box") for color, text in chart.key]
    if chart.reference is not None and chart.reference_label:
        key.append((ch.REFERENCE, chart.reference_label, "dashed"))
    if chart.band is not None:
        items += ch.band(frame, scale, *chart.band)
        key.append((ch.BAND_FILL, chart.band_label, "box"))
    if chart.marks_label:
        key.append((ch.REFERENCE, chart.marks_label, "line"))
    items += ch.axes(frame, scale, lambda v: _format(v, chart, lang, digits))
    values = chart.series[0][1]
    clear_of = () if chart.reference is None else (chart.reference,)
    if chart.kind == "bar":
        value_label = None
        if chart.values:
            vd = 0 if chart.values == "count" else chart.value_digits
            value_label = partial(_bar_value, chart=chart, lang=lang, digits=vd)
        base = chart.reference if chart.from_reference else None
        items += ch.bars(
            frame,
            values,
            scale,
            base=base,
            colors=chart.colors,
            value_label=value_label,
            marks=chart.marks,
            clear_of=clear_of,
        )
        items += ch.x_labels(frame, chart.labels, chart.label_every, chart.edges,
                             short=chart.short_labels)  # fmt: skip
    else:
        items += ch.polylines(frame, [v for _, v in chart.series], scale)
        items += ch.point_labels(frame, chart.labels, chart.label_every)
    if chart.reference is not None:  # over the bars, on its halo; their values keep clear
        items += ch.reference_line(frame, scale, chart.reference)
    if chart.groups:
        items += ch.groups(frame, chart.groups, len(values))
    if chart.x_label:
        y = frame.y - below(chart) + 2
        items.append(
            Text(frame.x + frame.w / 2, y, chart.x_label, ch.SIZE, align="center", color=ch.AXIS)
        )
    items += ch.head(frame, chart.title, chart.y_label, key, left)
    return ch.clear_grid(items)


def _bar_value(value: float, chart: Chart, lang: str, digits: int) -> tuple[str, ...]:
    """A bar's value as printed, longest first: with its unit, without, rounded."""
    if chart.values == "count":
        return (str(round(value)),) if value else ()
    if chart.values == "percent":
        shares = [number(100 * value, lang, d) for d in range(digits, -1, -1)]
        return (_format(value, chart, lang, digits), *shares)
    return tuple(number(value, lang, d) for d in range(digits, -1, -1))


def _header(report: BalanceReport, box: Cursor, theme: Theme) -> list[Item]:
    return [
        Text(box.left, box.top - 14, report.title, TEXT_TITLE, bold=True),
        Text(box.left, box.top - 28, report.subtitle, 9, color=SUBTITLE_GREY),
    ]


def _chart(chart: Chart, lang: str, height: float, box: Cursor, theme: Theme) -> list[Item]:
    top = box.top - CHART_GAP - ch.HEAD_H
    frame = ch.Frame(box.left + Y_LABELS_W, top - height, box.width - Y_LABELS_W - 2 * MM, height)
    return chart_items(chart, frame, lang, box.left)


def _story(
    report: BalanceReport, lang: str, heights: Sequence[float], columns: int, draw: bool = True
) -> list[Flowable]:
    """The report's story, each chart's plot `heights` high; `draw` False: each chart only
    marks its box's foot (to measure)."""
    words = report.words
    assert words is not None
    table = (Column(words.figures, 3), Column("", 1, "right"))
    figures = Table(table, tuple(tuple(pair) for pair in report.figures))
    story: list[Flowable] = [Figure(HEADER_H, partial(_header, report))]
    # side by side: the key figures head the first column, the charts follow down the columns
    story += [Columns(columns), figures] if columns > 1 else [figures, Columns(columns)]
    for chart, height in zip(report.charts, heights):
        # the gap above is part of the chart's box, so charts line up across columns
        box_h = CHART_GAP + ch.HEAD_H + height + below(chart)
        story.append(Figure(box_h, partial(_chart, chart, lang, height) if draw else _foot))
    return story


def _foot(box: Cursor, theme: Theme) -> list[Item]:
    return [Text(box.left, box.bottom + 1, "", 1)]


def _places_of_charts(pages: list[list[Item]], frame: PageFrame) -> list[tuple[int, int]] | None:
    """The page and column each chart of a measured story (`draw` False) stands on, in
    story order; None when a chart runs past its column's foot (taller than a column)."""
    middle = (frame.left + frame.right) / 2
    feet = [(k, i) for k, items in enumerate(pages) for i in items
            if isinstance(i, Text) and _is_foot(i)]  # fmt: skip
    if any(i.y < frame.bottom + 1 - 0.01 for _, i in feet):
        return None
    return [(k, int(i.x > middle)) for k, i in feet]


def _is_foot(item: Item) -> bool:
    return isinstance(item, Text) and item.text == "" and item.size == 1


def _fill(pages: Sequence[list[Item]], columns: int, frame: PageFrame) -> float:
    """How full the emptiest page is: the share of its columns' height down to the lowest word."""
    middle = (frame.left + frame.right) / 2
    full = frame.top - frame.bottom

    def page_fill(items: list[Item]) -> float:
        lowest = [frame.top] * columns
        for item in items:
            if isinstance(item, Text) and item.y > frame.bottom - 1:  # not the footer
                c = 1 if columns == 2 and item.x > middle else 0
                lowest[c] = min(lowest[c], item.y)
        return sum(frame.top - y for y in lowest) / (columns * full)

    return min((page_fill(p) for p in pages), default=1.0)


def layout_report(report: BalanceReport, lang: str, paper: str, landscape: bool) -> Document:
    """Every page of the report: the header, the key figures, the charts, "page k of N"."""
    width, height = page_size(paper, landscape)
    words = report.words
    assert words is not None

    def footer(k: int, total: int) -> list[Item]:
        return footer_line(MARGIN, width - MARGIN, words.footer, words.page(k, total))

    frame = PageFrame(
        width,
        height,
        MARGIN,
        width - MARGIN,
        height - MARGIN,
        MARGIN + 8 * MM,
        column_gap=COLUMN_GAP,
        footer=footer,
    )
    # on a wide page the charts stand side by side, as tall as fills the pages
    n, heights = (2, WIDE_HEIGHTS) if width - 2 * MARGIN > TWO_COLUMNS else (1, CHART_HEIGHTS)
    count = len(report.charts)

    def measured(hs: Sequence[float]) -> list[list[Item]]:
        return flow_story(_story(report, lang, hs, n, draw=False), frame, THEME)

    def grown(h: float) -> list[float]:
        """Every chart `h` high, then the charts of each column of each page grown together
        while every chart keeps its page and column: a column is not left half empty under
        its charts (the Köpfchen line chart beside two charts, a page of one chart)."""
        chosen = [h] * count
        where = _places_of_charts(measured(chosen), frame)
        if where is None:
            return chosen
        for place in sorted(set(where)):
            on = [i for i, k in enumerate(where) if k == place]
            for taller in (x for x in heights if x > chosen[on[0]] + 1e-6):
                trial = [taller if i in on else x for i, x in enumerate(chosen)]
                if _places_of_charts(measured(trial), frame) == where:
                    chosen = trial
                    break
        return chosen

    # the fewest pages; then every page but the last full (a reader turns a full page),
    # then the last as full as it gets; on a tie the tallest charts
    fewest = min(len(measured([h] * count)) for h in heights)
    best: tuple[tuple[float, float, float], list[float]] | None = None
    for h in heights:
        if len(measured([h] * count)) > fewest:
            continue
        chosen = grown(h)
        pages = measured(chosen)
        if _places_of_charts(pages, frame) is None and best is not None:
            continue  # a chart taller than its column
        inner = _fill(pages[:-1], n, frame) if len(pages) > 1 else 1.0
        score = (min(inner, FULL), _fill(pages[-1:], n, frame), inner)
        if best is None or score > best[0]:
            best = (score, chosen)
    assert best is not None
    chosen = best[1]
    pages = flow_story(_story(report, lang, chosen, n), frame, THEME)
    return Document(width, height, tuple(Page(tuple(p)) for p in pages), title=report.title)
