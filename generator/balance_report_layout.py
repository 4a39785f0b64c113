"""Layout of the balance report: a header, the key figures, then the charts, paginated."""

from __future__ import annotations

from generator.balance_report import BalanceReport, Chart
from generator.render.chart import Frame, bar_chart, line_chart
from generator.render.flow import Column, Cursor, table
from generator.render.primitives import MM, Document, Item, Page, Text, page_size

MARGIN = 15 * MM
CHART_H = 62 * MM
CHART_GAP = 24 * MM  # title above, labels below


def _chart_items(chart: Chart, frame: Frame, lang: str) -> list[Item]:
    decimal = "," if lang == "de" else "."
    every = chart.label_every
    if chart.kind == "bar":
        values = chart.series[0][1]
        return bar_chart(
            frame,
            values,
            chart.labels,
            chart.title,
            chart.y_label,
            label_every=every,
            decimal=decimal,
        )
    return line_chart(
        frame,
        chart.series,
        chart.labels,
        chart.title,
        chart.y_label,
        y_max=chart.y_max,
        label_every=every,
        decimal=decimal,
    )


def layout_report(report: BalanceReport, lang: str, paper: str, landscape: bool) -> Document:
    """Every page of the report."""
    width, height = page_size(paper, landscape)
    pages: list[list[Item]] = [[]]
    items = pages[0]
    top = height - MARGIN
    items.append(Text(MARGIN, top - 14, report.title, 16, bold=True))
    items.append(Text(MARGIN, top - 28, report.subtitle, 9, color="#444444"))
    cursor = Cursor(MARGIN, width - MARGIN, top - 36, MARGIN + 8 * MM)
    rows = [list(pair) for pair in report.figures]
    words = report.words
    assert words is not None
    columns = [Column(words.figures, 3), Column("", 1, "right")]
    placed_items, _ = table(cursor, columns, rows, size=9, row_h=6 * MM)
    items += placed_items
    y = cursor.top - 12 * MM
    for chart in report.charts:
        if y - CHART_H - CHART_GAP / 2 < MARGIN + 8 * MM:
            items = []
            pages.append(items)
            y = height - MARGIN - 10 * MM
        frame = Frame(MARGIN + 14 * MM, y - CHART_H, width - 2 * MARGIN - 16 * MM, CHART_H)
        items += _chart_items(chart, frame, lang)
        y -= CHART_H + CHART_GAP
    total = len(pages)
    for n, page_items in enumerate(pages, start=1):
        page_items.append(Text(MARGIN, MARGIN - 2, words.footer, 7, color="#666666"))
        page_items.append(
            Text(
                width - MARGIN, MARGIN - 2, words.page(n, total), 7, align="right", color="#666666"
            )
        )
    return Document(width, height, tuple(Page(tuple(p)) for p in pages), title=report.title)
