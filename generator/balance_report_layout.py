"""Layout of the balance report: a header, the key figures, then the charts, as a story."""

from __future__ import annotations

from functools import partial

from generator.balance_report import BalanceReport, Chart
from generator.render.chart import Frame, bar_chart, line_chart
from generator.render.flow import (
    Column,
    Cursor,
    Figure,
    Flowable,
    PageFrame,
    Space,
    Table,
    TableStyle,
    Theme,
    flow_story,
    footer_line,
)
from generator.render.primitives import MM, Document, Item, Page, Text, page_size
from generator.render.style import TEXT_TITLE

MARGIN = 15 * MM
HEADER_H = 36.0  # title and subtitle
CHART_H = 62 * MM
CHART_GAP = 24 * MM  # from one chart's foot to the next one's top: labels below, title above
CHART_ABOVE = 10 * MM  # a chart's title
CHART_BELOW = CHART_GAP / 2  # a chart's axis labels
SUBTITLE_GREY = "#444444"
THEME = Theme(headings={}, paragraphs={}, table=TableStyle(9, 6 * MM, after=2 * MM))


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


def _header(report: BalanceReport, box: Cursor, theme: Theme) -> list[Item]:
    return [
        Text(box.left, box.top - 14, report.title, TEXT_TITLE, bold=True),
        Text(box.left, box.top - 28, report.subtitle, 9, color=SUBTITLE_GREY),
    ]


def _chart(chart: Chart, lang: str, box: Cursor, theme: Theme) -> list[Item]:
    top = box.top - CHART_ABOVE
    frame = Frame(box.left + 14 * MM, top - CHART_H, box.width - 16 * MM, CHART_H)
    return _chart_items(chart, frame, lang)


def layout_report(report: BalanceReport, lang: str, paper: str, landscape: bool) -> Document:
    """Every page of the report: the header, the key figures, the charts, "page k of N"."""
    width, height = page_size(paper, landscape)
    words = report.words
    assert words is not None

    def footer(k: int, total: int) -> list[Item]:
        return footer_line(MARGIN, width - MARGIN, words.footer, words.page(k, total))

    frame = PageFrame(width, height, MARGIN, width - MARGIN, height - MARGIN, MARGIN + 8 * MM,
                      footer=footer)  # fmt: skip
    columns = (Column(words.figures, 3), Column("", 1, "right"))
    story: list[Flowable] = [
        Figure(HEADER_H, partial(_header, report)),
        Table(columns, tuple(tuple(pair) for pair in report.figures)),
    ]
    for i, chart in enumerate(report.charts):
        # each chart's box: its title above, the chart, the axis labels below
        story += [Space(CHART_GAP - CHART_ABOVE - CHART_BELOW)] if i else []
        story.append(Figure(CHART_ABOVE + CHART_H + CHART_BELOW, partial(_chart, chart, lang)))
    pages = flow_story(story, frame, THEME)
    return Document(width, height, tuple(Page(tuple(p)) for p in pages), title=report.title)
