"""What the printed pages say: the board's words, the rules page and the answer key as stories.

Every visible word comes from `templates/<lang>/koepfchen_{board,rules,key}.j2`.
The rules page and the key are stories (`render.flow` flowables: headings,
paragraphs, dice, tables); the layout module decides how they look and where
they go (`generator.koepfchen.layout`).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.koepfchen.analysis import RaceStats, TurnStats
from generator.koepfchen.board import Board
from generator.koepfchen.key import DETAIL_MAX_ROLLS, HardTarget
from generator.render.dice import dice_row
from generator.render.flow import (
    Balanced,
    Bullet,
    Column,
    Columns,
    Flowable,
    Group,
    Heading,
    Paragraph,
    Table,
)
from generator.text.words import Templates, Texts, difficulty_mark, maths, number, percent

OPS_SHORT = {"+": "+", "-": "−", "*": "×", "/": "÷"}


@dataclass(frozen=True)
class BoardView:
    """The board as the layout draws it: cells 0 (start) .. L (goal) and the board's words."""

    cells: tuple[tuple[int, int | None, int], ...]  # (field number, target, difficulty dots)
    marks: bool
    words: dict[str, str]


@dataclass(frozen=True)
class Figures:
    """The exact game-length figures printed on the pages and stored in the manifest."""

    solo: TurnStats
    races: tuple[RaceStats, ...]  # 2..6 players

    def race(self, players: int) -> RaceStats:
        return next(r for r in self.races if r.players == players)


def ops_symbols(ops: str, lang: str) -> str:
    return maths(" ".join(OPS_SHORT[o] for o in ops), lang)


def board_view(
    board: Board, lang: str, figures: Figures, templates: Templates | None = None
) -> BoardView:
    """The cells and words of the board pages."""
    profile = board.profile
    t = Texts("koepfchen_board", lang, templates)
    words = {
        "title": t("title", name=profile.name[lang]),
        "reminder": t("reminder", dice=profile.dice, ops=ops_symbols(profile.rules.ops, lang)),
        "start": t("start"),
        "goal": t("goal"),
        "legend": t("legend"),
        "part_1": t("part", n=1, total=2),
        "part_2": t("part", n=2, total=2),
        "cut": t("cut"),
        "glue": t("glue"),
        "glue_hint": t("glue_hint"),
        "footer": t(
            "footer", profile=profile.name[lang], seed=board.seed, turns=figures.solo.expected
        ),
    }
    for level in (1, 2, 3):
        words[f"level_{level}"] = t("level", n=level)
    cells = ((0, None, 0), *((f.index, f.target, f.level) for f in board.fields))
    return BoardView(cells, profile.marks, words)


def example_roll(board: Board) -> tuple[int, int, int, tuple[int, ...], str] | None:
    """(position, red, field, roll, solution) for the rules' example, or None on a tiny board.

    Like the original's example (pawn on 3, red 5, field 8): the roll is the first, in the
    dice solver's order, whose simplest solution uses the most operations and dice.
    """
    from generator.core.rollhold import IdenticalDice
    from generator.numbers import reachable_targets, simplest

    profile = board.profile
    pos = 3 if profile.length >= 9 else 0
    red = min(5, profile.length - pos)
    if red < 1:
        return None
    target = board.fields[pos + red - 1].target
    best: tuple[tuple[int, int], tuple[int, ...], str] | None = None
    for roll in IdenticalDice(profile.dice, profile.faces).states:
        if target not in reachable_targets(roll, profile.rules):
            continue
        found = simplest(roll, target, profile.rules)
        assert found is not None
        ops = {ch for ch in found.text if ch in "+−×÷"}
        score = (len(ops), len(found.numbers_used))
        if best is None or score > best[0]:
            best = (score, roll, found.text)
    if best is None:
        return None
    return pos, red, pos + red, best[1], best[2]


def rules_story(
    board: Board, lang: str, figures: Figures, templates: Templates | None = None
) -> list[Flowable]:
    """The rules page: the original's rules, this profile's operations and division rule."""
    profile = board.profile
    t = Texts("koepfchen_rules", lang, templates)
    ops = profile.rules.ops
    division = "division_rational" if profile.rules.rational else "division_integer"
    turn: list[Flowable] = [
        Heading(t("h_turn")),
        Bullet("1.", t("step_red", length=profile.length)),
        Bullet("2.", t("step_white", rolls=profile.rolls)),
        Bullet("", t("step_ops", ops=ops) + " " + t(division, ops=ops)),
        Bullet("3.", t("step_move")),
        Bullet("", t("step_share")),
    ]
    example = example_roll(board)
    if example is not None:
        pos, red, field_no, roll, solution = example
        target = board.fields[field_no - 1].target
        turn.append(Paragraph(t("example", pos=pos, red=red, field=field_no, target=target)))
        turn.append(
            dice_row(roll, t("example_solution", solution=maths(solution, lang), target=target))
        )
    this_board: list[Flowable] = [
        Heading(t("h_board")),
        Paragraph(
            t(
                "board_figures",
                turns=figures.solo.expected,
                median=figures.solo.median,
                p90=figures.solo.p90,
                rounds=figures.race(4).expected_rounds,
            )
        ),
    ]
    if profile.marks:
        this_board.append(
            Paragraph(t("board_marks", easy=profile.easy, hard=profile.hard, rolls=profile.rolls))
        )
    # each section is a group, so a heading never stands alone at the foot of a column
    return [
        Heading(t("title"), 1),
        Paragraph(t("subtitle", name=profile.name[lang]) + " – " + profile.description[lang]),
        Group((Heading(t("h_material")), Paragraph(t("material", length=profile.length,
                                                    dice=profile.dice, faces=profile.faces)))),
        Group((Heading(t("h_setup")), Paragraph(t("setup")))),
        Group(tuple(turn)),
        Group((Heading(t("h_end")), Paragraph(t("end", length=profile.length)))),
        Group((Heading(t("h_stress")), Paragraph(t("stress")),
               Paragraph(t("stress_example"), "small"))),
        Group(tuple(this_board)),
    ]  # fmt: skip


def key_story(
    board: Board,
    lang: str,
    figures: Figures,
    hard: list[HardTarget],
    templates: Templates | None = None,
    field_columns: int = 2,
) -> list[Flowable]:
    """The answer key: every field's target and odds, game length, the hardest targets' rolls.

    The field table runs in `field_columns` columns. What the key lists does not depend on
    the paper or its orientation: every hardest target few rolls make gets its table.
    """
    profile = board.profile
    t = Texts("koepfchen_key", lang, templates)
    columns = (
        Column(t("col_field"), 0.95, "right"),
        Column(t("col_target"), 1.0, "right"),
        Column(t("col_single"), 1.45, "right"),
        Column(t("col_within", rolls=profile.rolls), 1.45, "right"),
        Column(t("col_level"), 1.35, "center"),
    )
    rows: tuple[tuple[str, ...], ...] = tuple(
        (
            str(f.index),
            str(f.target),
            percent(f.single_roll, lang),
            percent(f.within, lang),
            difficulty_mark(f.level),
        )
        for f in board.fields
    )
    story: list[Flowable] = [
        Heading(key_title(board, lang, templates), 1),
        Paragraph(t("intro", rolls=profile.rolls)),
        Columns(field_columns),
        Table(columns, rows, balance=True, natural=True),
    ]
    solo = figures.solo
    solo_text = t("solo", turns=solo.expected, median=solo.median, p90=solo.p90)
    figures_group = Group(
        (Heading(t("h_figures")), Paragraph(solo_text), *_races(figures, lang, t))
    )
    story += _hardest(figures_group, hard, profile.rolls, lang, t)
    return story


def key_title(
    board: Board, lang: str, templates: Templates | None = None, more: bool = False
) -> str:
    """The key's title; `more`: the running heading of its pages after the first."""
    t = Texts("koepfchen_key", lang, templates)
    name = board.profile.name[lang]
    return t("continued", name=name) if more else t("title", name=name)


def _races(figures: Figures, lang: str, t: Texts) -> list[Flowable]:
    """Races by number of players (columns): rounds on average, then each seat's chance."""
    races = figures.races
    columns = (
        Column(t("col_players"), 1.4, "left"),
        *(Column(str(race.players), 1.0, "right") for race in races),
    )
    rows = [(t("row_rounds"), *(number(race.expected_rounds, lang) for race in races))]
    for seat in range(max(race.players for race in races)):
        rows.append(
            (
                t("row_seat", seat=seat + 1),
                *(percent(r.win_by_seat[seat], lang) if seat < r.players else "" for r in races),
            )
        )
    return [Paragraph(t("races"), "small"), Table(columns, tuple(rows))]


def _hardest(
    figures: Group, hard: list[HardTarget], rolls: int, lang: str, t: Texts
) -> list[Flowable]:
    """Game length, then the hardest targets: a table of rolls for those few rolls make,
    a line for the rest; in two columns.

    The section's heading and intro travel with the first table, so neither is ever
    left alone at the foot of a page; the tables read down the columns, hardest first.
    """
    detailed = [h for h in hard if h.detailed]
    others = [h for h in hard if not h.detailed]
    groups: list[Group] = []
    for h in detailed:  # the table's header row names the target: no heading to wrap
        header = (
            Column(t("h_target", target=h.target), 1.0, "center"),
            Column(t("target_facts", fields=h.fields, within=h.within), 2.2, "left"),
        )
        solutions = tuple(
            (", ".join(map(str, r.roll)), f"{maths(r.solution, lang)} = {h.target}")
            for r in h.rolls
        )
        groups.append(Group((Table(header, solutions),)))
    rest: list[Flowable] = []
    if others:
        columns = (
            Column(t("col_target"), 1.0, "right"),
            Column(t("col_fields"), 1.8, "left"),
            Column(t("col_within", rolls=rolls), 1.3, "right"),
            Column(t("col_made_from"), 1.6, "right"),
        )
        rows = tuple(
            (
                str(h.target),
                ", ".join(map(str, h.fields)),
                percent(h.within, lang),
                t("made_from", n=len(h.rolls), total=h.all_rolls),
            )
            for h in others
        )
        intro = t("others", detailed=len(detailed), most=DETAIL_MAX_ROLLS)
        rest = [Paragraph(intro), Table(columns, rows, natural=True)]
    head: tuple[Flowable, ...] = (Heading(t("h_hardest")),)
    if not hard:
        return [Columns(2), Balanced((figures,))]
    if not groups:
        return [Columns(2), Balanced((figures, Group((*head, *rest))))]
    total = hard[0].all_rolls
    head += (Paragraph(t("hard_intro", most=DETAIL_MAX_ROLLS, total=total, rolls=rolls)),)
    first = Group((*head, *groups[0].flowables))
    tail = [Group(tuple(rest))] if rest else []
    return [Columns(2), Balanced((figures, first, *groups[1:], *tail))]
