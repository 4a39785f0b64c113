"""What the pages of a Kribbeln block say: sheets and answer key as plain data, the rules a story.

Every word comes from the templates (`kribbeln_sheet`, `kribbeln_rules`,
`kribbeln_key`, `kribbeln_tasks`); `generator/kribbeln/layout.py` turns
these views into positioned boxes and text. No geometry here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.kribbeln.balance import Balance, area_means
from generator.kribbeln.block import FINAL_AREA, ROWS, Sheet
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.solver import TaskFigures
from generator.kribbeln.swatches import Swatch, legend_figure
from generator.kribbeln.tasks import TEMPLATE, family_name, task_text
from generator.render.flow import Bullet, Flowable, Heading, Paragraph
from generator.text.words import Templates, Texts, difficulty_mark, number, percent


@dataclass(frozen=True)
class RowView:
    """One row of a sheet as words: the task (or Kribbeln) text and its colour swatches."""

    number: int
    kind: str  # "task" | "kribbeln"
    area: int  # 1–3, 4 = the final Kribbeln row
    text: str
    hints: tuple[str, ...] = ()  # small print under the text
    swatches: tuple[Swatch, ...] = ()
    any_color: bool = False  # a free-colours task: no colour named


@dataclass(frozen=True)
class SheetView:
    """Everything one printed sheet says."""

    number: int
    of: int
    rows: tuple[RowView, ...]
    names: tuple[str, ...]  # one per player column, "" = blank
    words: dict[str, str]
    legend: tuple[Swatch, ...]


@dataclass(frozen=True)
class KeySection:
    """The answer key of one sheet."""

    heading: str
    summary: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class KeyView:
    """The whole answer key."""

    title: str
    intro: tuple[str, ...]
    columns: tuple[str, ...]
    sections: tuple[KeySection, ...]
    footer: str


def swatches(dice: DiceSet, color_ids: Sequence[str], lang: str) -> tuple[Swatch, ...]:
    colors = [dice.color(c) for c in color_ids]
    return tuple(Swatch(c.name[lang], c.rgb, c.symbol) for c in colors)


def sheet_view(
    sheet: Sheet,
    of: int,
    dice: DiceSet,
    names: Sequence[str],
    lang: str,
    seed: int,
    rolls: int,
    templates: Templates | None = None,
) -> SheetView:
    """The words and swatches of one sheet."""
    t = Texts("kribbeln_sheet", lang, templates)
    tasks_t = Texts(TEMPLATE, lang, templates)
    rows = []
    for row in ROWS:
        if row.kind == "task":
            assert row.task is not None
            task = sheet.tasks[row.task]
            rows.append(
                RowView(
                    row.number,
                    "task",
                    row.area,
                    task_text(task, dice, lang, tasks_t),
                    (),  # the family is the designer's word: the key names it, not the sheet
                    swatches(dice, task.colors, lang),
                    any_color=not task.colors,
                )
            )
        elif row.area == FINAL_AREA:
            rows.append(
                RowView(row.number, "kribbeln", row.area, t("final_label"), (t("final_hint"),))
            )
        else:
            rows.append(
                RowView(
                    row.number,
                    "kribbeln",
                    row.area,
                    t("kribbeln_label", area=row.area),
                    (t("kribbeln_hint"),),
                )
            )
    words = {
        "title": t("title"),
        "sheet_label": t("sheet_label", number=sheet.number, of=of),
        "players": t("players_label"),
        "pips": t("pips_label"),
        "points": t("points_label"),
        "total": t("total_label"),
        "tiebreak": t("tiebreak"),
        "reminder": t("reminder", rolls=rolls),
        "kribbeln_rule": t("kribbeln_rule", rolls=rolls),
        "legend": t("legend_label"),
        "any_color": t("any_color"),
        "footer": t("footer", number=sheet.number, of=of, seed=seed),
        **{f"area_{a}": t("area_label", number=a) for a in range(1, FINAL_AREA)},
    }
    return SheetView(
        sheet.number,
        of,
        tuple(rows),
        tuple(names),
        words,
        swatches(dice, dice.color_ids, lang),
    )


def rules_story(
    dice: DiceSet, pages: int, lang: str, rolls: int, templates: Templates | None = None
) -> list[Flowable]:
    """The rules page: the game, then the decisions in force, then the colour legend."""
    t = Texts("kribbeln_rules", lang, templates)
    story: list[Flowable] = [
        Heading(t("title"), 1),
        Heading(t("h_material")),
        Paragraph(t("material", pages=pages)),
        Heading(t("h_setup")),
        Paragraph(t("setup")),
        Heading(t("h_turn")),
        Paragraph(t("turn", rolls=rolls)),
        Paragraph(t("fulfilled")),
        Heading(t("h_kribbeln")),
        Bullet("•", t("kribbeln_a", rolls=rolls)),
        Bullet("•", t("kribbeln_b")),
        Bullet("•", t("kribbeln_c", rolls=rolls)),
        Bullet("•", t("kribbeln_d")),
        Heading(t("h_scoring")),
        Paragraph(t("scoring")),
        Paragraph(t("example")),
        Heading(t("h_end")),
        Paragraph(t("end")),
        Heading(t("h_decisions")),
    ]
    for key in (
        "decision_kribbeln_x",
        "decision_kribbeln_rows",
        "decision_equal",
        "decision_pairs",
        "decision_different",
        "decision_count",
    ):
        story.append(Bullet("•", t(key)))
    story += [
        Heading(t("h_colors")),
        Paragraph(t("colors")),
        legend_figure(swatches(dice, dice.color_ids, lang)),
    ]
    return story


def key_view(
    sheets: Sequence[Sheet],
    dice: DiceSet,
    figures: dict[str, TaskFigures],
    balance: Balance,
    lang: str,
    seed: int,
    rolls: int,
    templates: Templates | None = None,
    missed: Sequence[str] = (),
) -> KeyView:
    """The answer key: per sheet and task the chance of success, expected pips and stars, and
    the means. `missed`: the constraints sheets chosen by hand miss (the key says so)."""
    t = Texts("kribbeln_key", lang, templates)
    tasks_t = Texts(TEMPLATE, lang, templates)
    sections = []
    sheet_p, sheet_pips = [], []
    for sheet in sheets:
        rows = []
        p = [figures[task.id].p_success for task in sheet.tasks]
        pips = [figures[task.id].expected_pips for task in sheet.tasks]
        sheet_p.append(sum(p) / len(p))
        sheet_pips.append(sum(pips) / len(pips))
        for row in ROWS:
            if row.task is None:
                continue
            task = sheet.tasks[row.task]
            fig = figures[task.id]
            rows.append(  # the sheet prints no row numbers: its area and the task name a row
                (
                    str(row.area),
                    task_text(task, dice, lang, tasks_t),
                    family_name(task.family, lang, tasks_t),
                    percent(fig.p_success, lang, 1),
                    number(fig.expected_pips, lang, 1),
                    difficulty_mark(balance.stars_of(fig.p_success)),
                )
            )
        areas = " · ".join(
            t("area_mean", area=a, p=m) for a, m in enumerate(area_means(p), start=1)
        )
        summary = f"{t('sheet_mean', p=sheet_p[-1], pips=sheet_pips[-1])} · {areas}"
        sections.append(KeySection(t("sheet_heading", number=sheet.number), summary, tuple(rows)))
    b = balance
    intro = (
        t("intro", rolls=rolls),
        t("stars", one=b.stars[0], two=b.stars[1]),
        t(
            "constraints_missed" if missed else "constraints",
            **({"missed": ", ".join(missed)} if missed else {}),
            p_min=b.p_min,
            p_max=b.p_max,
            areas=b.areas,
            step=b.area_step,
            tolerance=b.area_tolerance,
            mean_tolerance=b.mean_tolerance,
            area_mean_tolerance=b.area_mean_tolerance,
            max_color=b.max_color_per_sheet,
        ),
        t(
            "block_mean",
            p=sum(sheet_p) / len(sheet_p),
            pips=sum(sheet_pips) / len(sheet_pips),
            pages=len(sheets),
        ),
    )
    columns = tuple(
        t(k) for k in ("col_area", "col_task", "col_family", "col_p", "col_pips", "col_stars")
    )
    return KeyView(t("title"), intro, columns, tuple(sections), t("footer", seed=seed))
