"""Geometry of the Kniffel odds card: one page of odds table, best-play figures and histogram.

Portrait: everything in one column. Landscape: the odds table and the best-play
figures on the left, the histogram on the right. The histogram is drawn with
rectangles and lines (no plotting library) and takes the height that is left.
"""

from __future__ import annotations

from functools import partial

from generator.core.errors import DoesNotFit, Msg
from generator.kniffel.oddscard import OddsCard, share_ticks
from generator.render.fit import wrap
from generator.render.flow import (
    ColumnBreak,
    Columns,
    Cursor,
    Figure,
    Flowable,
    Heading,
    Overflow,
    PageFrame,
    Paragraph,
    Space,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
    measure,
)
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import MM, Document, Item, Line, Page, Rect, Text, page_size
from generator.render.style import BASELINE_CENTRED, GREY, INK, TITLE, WHITE, centred

MARGIN = 15 * MM
COLUMN_GAP = 10 * MM
LIGHT = "#eeeeee"
HEAD = "#d6dde6"
BAR = "#5f86b3"
ODDS_BAR = "#8fb0d4"  # lighter than the histogram's bars: the percentage stays the figure
GRID = "#c8c8c8"
MEAN = "#8e2418"  # dark enough to stay a dark line on the bars in a grey copy
MEAN_HALO = 2.6  # the white line under the dashes: the mean reads across a bar, also in grey
MIN_CHART_H = 120.0
TABLE_SIZE = 10.0
MIN_TABLE_SIZE = 6.5
LEFT_SHARE = 0.58  # landscape: at most this much of the width for the odds table


PAD = 1.8 * MM
FRACTION_SHARE = 0.85  # the exact fraction: small print beside the percentage
MIN_BAR_W = 22 * MM  # the three-roll chance as a bar; this column takes the slack


def _widths(card: OddsCard, size: float) -> tuple[float, list[float]]:
    """Natural width of the table at a font size, and the widths of the four value columns.

    Columns: pattern | one roll: percent, exact fraction | three rolls: percent, bar.
    """
    w = card.words
    small = FRACTION_SHARE * size
    rows = card.table
    widths = [
        max(
            text_width(t, size, True)
            for t in [r.one_roll_percent for r in rows] + [w["col_percent"]]
        ),
        max(text_width(t, small) for t in [r.one_roll_text for r in rows] + [w["col_fraction"]]),
        max(
            text_width(t, size, True)
            for t in [r.three_rolls_percent for r in rows] + [w["col_percent"]]
        ),
        MIN_BAR_W - 2 * PAD,
    ]
    widths = [x + 2 * PAD for x in widths]
    # each group heading must fit over its two columns
    for g, key in enumerate(("col_one_roll", "col_three_rolls")):
        need = text_width(w[key], size, True) + 2 * PAD
        have = widths[2 * g] + widths[2 * g + 1]
        if need > have:
            widths[2 * g + 1] += need - have
    labels = [r.label for r in rows] + [w["col_pattern"]]
    label_w = max(text_width(t, size, True) for t in labels) + 2 * PAD
    return label_w + sum(widths), widths


def table_width(card: OddsCard, size: float) -> float:
    """The width the odds table needs at font size `size`."""
    return _widths(card, size)[0]


def table_size(card: OddsCard, width: float) -> float:
    """The largest font size (from TABLE_SIZE down) at which the odds table fits `width`."""
    size = TABLE_SIZE
    while (total := table_width(card, size)) > width:
        size -= 0.25
        if size < MIN_TABLE_SIZE:
            message = Msg("odds_table_does_not_fit")
            raise DoesNotFit("paper", message, total / MM, width / MM)
    return size


ROW = 1.9  # a table row's height in font sizes
MAX_ROW = 2.8  # landscape: rows grow up to this to fill the left column


def table_figure(card: OddsCard, size: float, row: float = ROW) -> Figure:
    """The odds table as a story figure: two header rows, one row per pattern, a gap below."""
    row_h = size * row
    return Figure((2 + len(card.table)) * row_h + 2.5 * MM, partial(_table, card, size, row))


def _table(card: OddsCard, size: float, factor: float, frame: Cursor, theme: Theme) -> list[Item]:
    """The odds table: pattern | one roll (%, exact) | three rolls (%, bar)."""
    w = card.words
    pad = PAD
    label_w, widths = _widths(card, size)
    label_w -= sum(widths)
    widths[3] += frame.width - label_w - sum(widths)  # the bar takes the slack
    small = FRACTION_SHARE * size
    row_h = size * factor
    items: list[Item] = []
    x0 = frame.left
    xs = [x0, x0 + label_w]
    for cw in widths:
        xs.append(xs[-1] + cw)
    top = frame.top

    def baseline(row_top: float, pt: float = size) -> float:
        return centred(row_top - row_h / 2, pt)

    # two header rows: the groups, then percent / exact
    items.append(Rect(x0, top - 2 * row_h, frame.width, 2 * row_h, stroke=None, fill=HEAD))
    items.append(Text(x0 + pad, baseline(top - row_h / 2), w["col_pattern"], size, True))
    for g, key in enumerate(("col_one_roll", "col_three_rolls")):
        centre = (xs[1 + 2 * g] + xs[3 + 2 * g]) / 2
        items.append(Text(centre, baseline(top), w[key], size, True, "center"))
    sub = 0.9 * size
    items.append(
        Text(xs[2] - pad, baseline(top - row_h, sub), w["col_percent"], sub, False, "right", GREY)
    )
    items.append(
        Text(xs[3] - pad, baseline(top - row_h, sub), w["col_fraction"], sub, False, "right", GREY)
    )
    items.append(
        Text(xs[4] - pad, baseline(top - row_h, sub), w["col_percent"], sub, False, "right", GREY)
    )
    y = top - 2 * row_h
    bar_left, bar_room = xs[4] + pad, widths[3] - 2 * pad
    for i, row in enumerate(card.table):
        if i % 2:
            items.append(Rect(x0, y - row_h, frame.width, row_h, stroke=None, fill=LIGHT))
        label_size = fit_size(row.label, size, label_w - 2 * pad, bold=True)
        items.append(Text(x0 + pad, baseline(y), row.label, label_size, True))
        items.append(Text(xs[2] - pad, baseline(y), row.one_roll_percent, size, True, "right"))
        items.append(
            Text(xs[3] - pad, baseline(y, small), row.one_roll_text, small, False, "right", GREY)
        )
        items.append(Text(xs[4] - pad, baseline(y), row.three_rolls_percent, size, True, "right"))
        bar_h = 0.5 * row_h
        bar_y = y - (row_h + bar_h) / 2
        items.append(Rect(bar_left, bar_y, bar_room, bar_h, stroke=GRID, line_width=0.4))
        if row.three_rolls > 0:
            items.append(
                Rect(bar_left, bar_y, bar_room * row.three_rolls, bar_h, stroke=None, fill=ODDS_BAR)
            )
        y -= row_h
    # rules: under the headers, between the groups, and a frame
    items.append(Line(x0, top - 2 * row_h, x0 + frame.width, top - 2 * row_h, line_width=0.8))
    for x in (xs[1], xs[3]):
        items.append(Line(x, top, x, y, line_width=0.5, stroke=GREY))
    items.append(Rect(x0, y, frame.width, top - y, line_width=0.8))
    return items


PERCENTILE_H = 24.0


def _percentiles(card: OddsCard, frame: Cursor, theme: Theme) -> list[Item]:
    """A row of cells: each percentile's label above its score, the median shaded."""
    items: list[Item] = []
    n = len(card.percentiles)
    cell_w = frame.width / n
    cell_h = PERCENTILE_H
    top = frame.top
    for i, (p, label, score) in enumerate(card.percentiles):
        x = frame.left + i * cell_w
        fill = HEAD if p == 50 else LIGHT
        items.append(Rect(x + 1, top - cell_h, cell_w - 2, cell_h, stroke=None, fill=fill))
        lsize = fit_size(label, 7, cell_w - 4)
        items.append(Text(x + cell_w / 2, top - 8.5, label, lsize, False, "center", GREY))
        items.append(Text(x + cell_w / 2, top - cell_h + 5, str(score), 11, True, "center"))
    return items


def _histogram(card: OddsCard, frame: Cursor, theme: Theme) -> list[Item]:
    """Bars of the simulated final scores, gridlines in % of games, the exact mean marked."""
    w = card.words
    hist = card.histogram
    items: list[Item] = []
    tick_size = 7.0
    tails_lines = wrap(w["tails"], 7, frame.width)
    footer_room = len(tails_lines) * 9 + 4
    score_size = 8.0  # the scores under the bars are figures a reader looks up: body size
    axis_label_h = score_size + tick_size + 9  # scores and the axis title below the chart
    ticks = share_ticks(card)
    left = max(text_width(label, tick_size) for _, label in ticks) + 4
    x0 = frame.left + left
    chart_w = frame.width - left
    top = frame.top - tick_size - 4  # room for the y-axis title above
    bottom = frame.bottom + footer_room + axis_label_h
    chart_h = top - bottom
    if chart_h < MIN_CHART_H:
        message = Msg("histogram_does_not_fit")
        raise DoesNotFit("paper", message, MIN_CHART_H / MM, max(0.0, chart_h) / MM)
    items.append(Text(frame.left, top + 4, w["axis_share"], tick_size, False, "left", GREY))
    scale = max(t for t, _ in ticks) if ticks else max(hist.counts) / hist.games
    scale = max(scale, max(hist.counts) / hist.games) * 1.08
    for share, label in ticks:
        y = bottom + chart_h * share / scale
        items.append(Line(x0, y, x0 + chart_w, y, stroke=GRID, line_width=0.4))
        items.append(Text(x0 - 3, centred(y, tick_size), label, tick_size, False, "right", GREY))
    bar_w = chart_w / len(hist.counts)
    for i, count in enumerate(hist.counts):
        h = chart_h * count / hist.games / scale
        if h > 0:
            items.append(
                Rect(x0 + i * bar_w, bottom, bar_w, h, stroke=WHITE, fill=BAR, line_width=0.3)
            )
    items.append(Line(x0, bottom, x0 + chart_w, bottom, line_width=0.8))
    span = hist.hi - hist.lo
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500) if span / s <= 8)
    first = -(-hist.lo // step) * step
    for value in range(first, hist.hi + 1, step):
        x = x0 + chart_w * (value - hist.lo) / span
        items.append(Line(x, bottom, x, bottom - 2.5, line_width=0.6))
        items.append(Text(x, bottom - 3 - score_size, str(value), score_size, False, "center"))
    title_y = bottom - score_size - tick_size - 8
    items.append(
        Text(x0 + chart_w / 2, title_y, w["axis_points"], tick_size, False, "center", GREY)
    )
    if hist.lo <= card.expected <= hist.hi:
        mx = x0 + chart_w * (card.expected - hist.lo) / span
        # over the bars, on a white halo: red on blue alone turned one grey in a copy
        items.append(Line(mx, bottom, mx, top - 2, stroke=WHITE, line_width=MEAN_HALO))
        items.append(Line(mx, bottom, mx, top - 2, stroke=MEAN, line_width=1.1, dash=(3, 2)))
        marker = w["mean_marker"]
        msize = 8.0
        # the label on the side of the line with more room
        if mx + 3 + text_width(marker, msize, True) <= x0 + chart_w:
            items.append(Text(mx + 3, top - 2 - msize, marker, msize, True, "left", MEAN))
        else:
            items.append(Text(mx - 3, top - 2 - msize, marker, msize, True, "right", MEAN))
    y = bottom - axis_label_h - 3
    for line in tails_lines:
        y -= 7
        items.append(Text(frame.left, y, line, 7, False, "left", GREY))
        y -= 2
    return items


def odds_theme(title_size: float) -> Theme:
    """The card's text: glyphs centred in their lines, one style per kind of text."""

    def style(size: float, after: float, bold: bool = False, color: str = INK) -> TextStyle:
        return TextStyle(size, bold, color, after=after, baseline=BASELINE_CENTRED)

    return Theme(
        headings={1: style(title_size, 1, bold=True), 2: style(12, 2, bold=True),
                  3: style(10, 3, bold=True)},
        paragraphs={
            "rules": style(8.5, 4 * MM, color=GREY),
            "footnote": style(7, 5 * MM, color=GREY),
            "footnote_upper": style(7, 1.5, color=GREY),  # a first footnote of two
            "expected": style(15, 1, bold=True),
            "note": style(8, 1, color=GREY),
            "spread": style(9.5, 2 * MM),
            "caption": style(8, 2, color=GREY),
        },
    )  # fmt: skip


def layout_odds(card: OddsCard, paper: str, landscape: bool) -> Document:
    """The whole card as one page."""
    width, height = page_size(paper, landscape)
    content_w = width - 2 * MARGIN
    foot = MARGIN + 6.5 + 3 * MM  # the card ends here; its footer sits below at the house baseline
    w = card.words
    footer = footer_line(MARGIN, width - MARGIN, w["footer"])
    frame = PageFrame(
        width, height, MARGIN, width - MARGIN, height - MARGIN, foot,
        COLUMN_GAP, footer=lambda k, n: footer, spill=False,
    )  # fmt: skip
    merged = any(len(row.keys) > 1 for row in card.table)
    title_size = fit_size(w["title"], TITLE, content_w, bold=True)
    theme = odds_theme(title_size)
    head: list[Flowable] = [Heading(w["title"], 1), Paragraph(w["rules"], "rules")]
    left_w = content_w
    if landscape:
        left_w = min(table_width(card, TABLE_SIZE), LEFT_SHARE * (content_w - COLUMN_GAP))
    size = table_size(card, left_w)

    def left(row: float, gap: float) -> list[Flowable]:
        return [
            Heading(w["heading_odds"], 2),
            table_figure(card, size, row),
            Paragraph(w["footnote"], "footnote" if not merged else "footnote_upper"),
            *([Paragraph(w["footnote_upper"], "footnote")] if merged else []),
            *([Space(gap)] if gap > 0 else []),
            Heading(w["heading_optimal"], 2),
            Paragraph(w["expected"], "expected"),
            Paragraph(w["expected_note"], "note"),
            Paragraph(w["spread"], "spread"),
            Paragraph(w["percentiles_heading"], "caption"),
            Figure(PERCENTILE_H + 4 * MM, partial(_percentiles, card)),
        ]

    row, gap = ROW, 0.0
    if landscape:  # the left column reaches the foot like the histogram beside it
        column_h = frame.top - frame.bottom - measure(head, content_w, theme) - 3 * MM
        slack = column_h - measure(left(ROW, 0.0), left_w, theme)
        rows = 2 + len(card.table)
        row = min(MAX_ROW, ROW + max(0.0, 0.6 * slack) / rows / size)
        gap = max(0.0, slack - (row - ROW) * size * rows) / 2
    story = [*head]
    if landscape:
        story.append(Columns(widths=(left_w, content_w - left_w - COLUMN_GAP)))
    story += left(row, gap)
    if landscape:
        story.append(ColumnBreak())
    story += [Heading(w["histogram_heading"], 3), Figure(None, partial(_histogram, card))]
    try:
        (items,) = flow_story(story, frame, theme)
    except Overflow as full:
        message = Msg("odds_card_does_not_fit")
        available = frame.top - frame.bottom
        needed = available - full.room + full.needed  # at least: what is placed and what is not
        raise DoesNotFit("paper", message, needed / MM, available / MM) from None
    return Document(width, height, (Page(tuple(items)),), title=w["title"])
