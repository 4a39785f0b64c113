"""Geometry of the topic worksheets: each shape drawn the way German schools draw it.

Rechenpäckchen (equations) run down columns; written arithmetic sits on a 5 mm
Kästchen grid (8 mm in large print) with a carry row above the result line;
a Rechenmauer is bricks, a Zahlenhaus a house with its roof, a Rechendreieck a
triangle with boxes at its corners and on its sides, a magic square a 3 × 3 grid,
a Rechenkette boxes joined by arrows. The page header, footer and name lines are
the family worksheets' (`worksheet.layout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from generator.render.dice import die_face
from generator.render.fit import lines_without_orphan
from generator.render.flow import Cursor, Figure, Theme
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import (
    MM,
    Circle,
    Document,
    Item,
    Line,
    Polygon,
    Rect,
    Text,
    page_size,
)
from generator.render.style import DARK_GREY, INK, WHITE, centred
from generator.worksheet.layout import (
    LEADING,
    MARGIN,
    SECTION_GAP,
    Fills,
    Geometry,
    Pagination,
    Spots,
    _first_header,
    _footer,
    _next_header,
    copies_document,
    form_name,
    geometry,
    page_label,
)
from generator.worksheet.model import AnswerKey, SheetCopy, SheetWords
from generator.worksheet.topics import PLACES, REMAINDER, SIGNS, chance_question, tally_text
from generator.worksheet.topics.base import Task

GRID_GREY = "#b0c4de"  # the Kästchen of a maths exercise book, light blue-grey
BRICK_FILL = "#fbf3e4"
ROW_GAP = 4 * MM
STRETCH = 1.8  # a section with room to spare spreads its rows up to this much
SOLVED_INK = "#6e6e6e"  # the key's filled-in values: grey and light, the given ones black and bold


@dataclass(frozen=True)
class Look:
    """The sizes of one print size (text in pt, lengths in points)."""

    size: float  # the numbers
    number: float  # the problem's number in its disc
    box_h: float  # a blank's box and a brick
    square: float  # one Kästchen
    cell: float  # a box of a puzzle


NORMAL = Look(size=14, number=10, box_h=8.5 * MM, square=5 * MM, cell=12 * MM)
LARGE = Look(size=20, number=16, box_h=12 * MM, square=8 * MM, cell=17 * MM)
KEY = Look(size=11, number=8, box_h=6.5 * MM, square=4 * MM, cell=7.5 * MM)  # the teacher's key


@dataclass(frozen=True)
class Shown:
    """A task as a page shows it: its number and the language's signs."""

    number: int
    task: Task
    lang: str
    dice: bool = False


def _disc(x: float, mid: float, number: int, look: Look) -> tuple[list[Item], float]:
    r = max(look.number * 0.85, text_width(str(number), look.number, True) / 1.3)
    items: list[Item] = [
        Circle(x + r, mid, r, stroke=None, fill=DARK_GREY),
        Text(x + r, centred(mid, look.number), str(number), look.number, True, "center", WHITE),
    ]
    return items, x + 2 * r + 2 * MM


def _value(cx: float, cy: float, given: int | None, solved: int | None, size: float) -> list[Item]:
    """A cell's number: the given one bold in ink; in the key a blank's solved one in grey."""
    if given is not None:
        return [Text(cx, centred(cy, size), str(given), size, True, "center")]
    if solved is not None:
        return [Text(cx, centred(cy, size), str(solved), size, False, "center", SOLVED_INK)]
    return []


def _solved(task: Task, key: bool) -> Sequence[Sequence[int | None]]:
    """The values the key fills in (a blank per cell on the pupils' sheet)."""
    return task.solution if key else [[None] * len(row) for row in task.cells]


def _box(x: float, mid: float, w: float, h: float, value: int | None, size: float) -> list[Item]:
    items: list[Item] = [Rect(x, mid - h / 2, w, h, line_width=1.2, radius=1 * MM)]
    if value is not None:
        text = str(value)
        s = fit_size(text, size, w - 1.5 * MM, bold=True)
        items.append(Text(x + w / 2, centred(mid, s), text, s, True, "center"))
    return items


# --- equations: a line of a Rechenpäckchen ------------------------------------------------


def _blank_w(digits: int, look: Look) -> float:
    return max(3, digits + 1) * 0.62 * look.size + 2 * MM


def equation_parts(shown: Shown) -> list[str | int | None]:
    """The printed pieces of an equation line: numbers, signs, and None for a blank."""
    task, lang = shown.task, shown.lang
    row = task.cells[0]
    signs = SIGNS[lang]
    if task.shape == "remainder":
        return [row[0], signs["/"], row[1], "=", row[2], REMAINDER[lang], row[3]]
    if task.shape == "round":
        return [row[0], "≈", row[1], f"({PLACES[lang][task.note]})"]
    parts: list[str | int | None] = []
    for k, v in enumerate(row[:-1]):
        if k:
            parts.append(signs[task.ops[0]])
        parts.append(v)
    return [*parts, "=", row[-1]]


def _line_w(shown: Shown, look: Look) -> float:
    widest = max(len(str(v)) for row in shown.task.solution for v in row)
    w = 0.0
    for part in equation_parts(shown):
        if part is None:
            w += _blank_w(widest, look)
        elif isinstance(part, int) and shown.dice and 1 <= part <= 6:
            w += look.box_h
        else:
            w += text_width(str(part), look.size)
        w += 1.6 * MM
    return w


def equation_items(
    shown: Shown, x: float, top: float, w: float, h: float, look: Look
) -> list[Item]:
    mid = top - h / 2
    items, x = _disc(x, mid, shown.number, look)
    widest = max(len(str(v)) for row in shown.task.solution for v in row)
    for part in equation_parts(shown):
        if part is None:
            bw = _blank_w(widest, look)
            items += _box(x, mid, bw, look.box_h, None, look.size)
            x += bw
        elif isinstance(part, int) and shown.dice and 1 <= part <= 6:
            items += die_face(x, mid - look.box_h / 2, look.box_h, part)
            x += look.box_h
        else:
            text = str(part)
            small = text.startswith("(")
            size = look.size * (0.8 if small and look is NORMAL else 1)
            items.append(Text(x, centred(mid, size), text, size, not small))
            x += text_width(text, size, not small)
        x += 1.6 * MM
    return items


# --- written arithmetic on the Kästchen grid ---------------------------------------------


def column_rows(task: Task) -> tuple[int, int]:
    """Columns and rows of squares a written calculation needs (with a margin square)."""
    row = task.solution[0]
    op = task.ops[0]
    if op == "/":
        a, b, q = row
        cols = len(str(a)) + len(str(b)) + len(str(q)) + 4
        return cols, 2 * len(str(q)) + 2
    widest = max(len(str(v)) for v in row)
    if op == "*":
        a, b, p = row
        cols = max(len(str(a)) + len(str(b)) + 3, len(str(p)) + 2)
        partial = len(str(b)) if b >= 10 else 0
        return cols, 1 + partial + 2 + 1
    return widest + 3, len(row) - 1 + 2 + 1


def column_items(shown: Shown, x: float, top: float, look: Look) -> list[Item]:
    task = shown.task
    q = look.square
    cols, rows = column_rows(task)
    left = x + 2 * look.number * 0.85 + 3 * MM
    items, _ = _disc(x, top - q, shown.number, look)
    for c in range(cols + 1):
        items.append(Line(left + c * q, top, left + c * q, top - rows * q, stroke=GRID_GREY,
                          line_width=0.4))  # fmt: skip
    for r in range(rows + 1):
        items.append(Line(left, top - r * q, left + cols * q, top - r * q, stroke=GRID_GREY,
                          line_width=0.4))  # fmt: skip
    size = min(look.size, q * 0.95 / 0.72 * 0.72)
    signs = SIGNS[shown.lang]

    def digits_at(text: str, right_col: int, r: int) -> None:
        for k, ch in enumerate(reversed(text)):
            cx = left + (right_col - k) * q + q / 2
            items.append(Text(cx, centred(top - r * q - q / 2, size), ch, size, True, "center"))

    row = task.cells[0]
    op = task.ops[0]
    if op in "+-":
        operands = [v for v in row[:-1] if v is not None]
        right = cols - 2
        for r, v in enumerate(operands):
            digits_at(str(v), right, r)
        digits_at(signs[op], right - max(len(str(v)) for v in operands), len(operands) - 1)
        line_y = top - (len(operands) + 1) * q  # under the carry row
        items.append(Line(left + q, line_y, left + (cols - 1) * q, line_y, line_width=1.4))
    elif op == "*":
        a, b, _ = row
        assert a is not None and b is not None
        text = f"{a}{signs['*']}{b}"
        digits_at(text, cols - 2, 0)
        line_y = top - 2 * q  # the carry row under the task
        items.append(Line(left + q, line_y, left + (cols - 1) * q, line_y, line_width=1.4))
    else:
        a, b, _ = row
        text = f"{a}{signs['/']}{b}="
        digits_at(text, len(text), 0)
    return items


# --- the puzzles --------------------------------------------------------------------------


def _brick_w(task: Task, look: Look) -> float:
    widest = max(len(str(v)) for row in task.solution for v in row)
    return max(look.cell, widest * 0.62 * look.size + 3 * MM)


def wall_size(task: Task, look: Look) -> tuple[float, float]:
    rows = len(task.cells)
    return rows * _brick_w(task, look), rows * look.box_h


def wall_items(task: Task, x: float, top: float, look: Look, key: bool = False) -> list[Item]:
    rows = len(task.cells)
    bw, bh = _brick_w(task, look), look.box_h
    items: list[Item] = []
    for r, (row, solved) in enumerate(zip(task.cells, _solved(task, key))):
        offset = (rows - 1 - r) * bw / 2  # each row sits on the joints of the one below
        for c, v in enumerate(row):
            bx, by = x + offset + c * bw, top - (r + 1) * bh
            items.append(Rect(bx, by, bw, bh, fill=BRICK_FILL, line_width=1.2))
            items += _value(bx + bw / 2, by + bh / 2, v, solved[c], look.size)
    return items


def house_size(task: Task, look: Look) -> tuple[float, float]:
    return 2 * _brick_w(task, look), (len(task.cells) - 1) * look.box_h + 1.4 * look.box_h


def house_items(task: Task, x: float, top: float, look: Look, key: bool = False) -> list[Item]:
    bw, bh = _brick_w(task, look), look.box_h
    roof_h = 1.4 * bh
    w = 2 * bw
    base = top - roof_h
    items: list[Item] = [
        Polygon(((x - 1 * MM, base), (x + w / 2, top), (x + w + 1 * MM, base)), fill="#f3d9c6",
                line_width=1.2),
    ]  # fmt: skip
    roof = task.cells[0][0]
    items.append(Text(x + w / 2, centred(base + roof_h * 0.38, look.size), str(roof), look.size,
                      True, "center"))  # fmt: skip
    for r, (row, solved) in enumerate(zip(task.cells[1:], _solved(task, key)[1:])):
        for c, v in enumerate(row):
            bx, by = x + c * bw, base - (r + 1) * bh
            items.append(Rect(bx, by, bw, bh, line_width=1.2))
            items += _value(bx + bw / 2, by + bh / 2, v, solved[c], look.size)
    return items


def triangle_size(task: Task, look: Look) -> tuple[float, float]:
    w = 5.2 * _brick_w(task, look)
    return w, 0.62 * w + 0.6 * look.box_h


def triangle_items(task: Task, x: float, top: float, look: Look, key: bool = False) -> list[Item]:
    bw, bh = _brick_w(task, look), look.box_h
    w = 5.2 * bw
    h = 0.62 * w
    peak, left, right = (x + w / 2, top), (x, top - h), (x + w, top - h)
    items: list[Item] = [Polygon((peak, left, right), fill="#eef4fb", line_width=1.4)]
    (a, b, c), (ab, ac, bc) = task.cells
    corners, sides = _solved(task, key)
    cx = x + w / 2
    boxes = [  # centres: the corners inside, then the sides on the edges (pushed outwards)
        (cx, top - 0.45 * h, a, corners[0]),
        (x + 0.3 * w, top - 0.8 * h, b, corners[1]),
        (x + 0.7 * w, top - 0.8 * h, c, corners[2]),
        (x + 0.25 * w - 0.45 * bw, top - 0.5 * h, ab, sides[0]),
        (x + 0.75 * w + 0.45 * bw, top - 0.5 * h, ac, sides[1]),
        (cx, top - h, bc, sides[2]),
    ]
    for mx, my, v, solved in boxes:
        bx, by = mx - bw / 2, my - bh / 2
        items.append(Rect(bx, by, bw, bh, fill=WHITE, line_width=1.2, radius=1 * MM))
        items += _value(mx, my, v, solved, look.size)
    return items


def square_size(task: Task, look: Look) -> tuple[float, float]:
    bw = _brick_w(task, look)
    return 3 * bw, 3 * bw + look.size * 1.6


def square_items(shown: Shown, x: float, top: float, look: Look, key: bool = False) -> list[Item]:
    task = shown.task
    bw = _brick_w(task, look)
    label = ("Zauberzahl " if shown.lang == "de" else "Magic sum ") + str(task.note)
    items: list[Item] = [Text(x, top - look.size * 0.9, label, look.size * 0.8, True)]
    y0 = top - look.size * 1.6
    for r, (row, solved) in enumerate(zip(task.cells, _solved(task, key))):
        for c, v in enumerate(row):
            bx, by = x + c * bw, y0 - (r + 1) * bw
            items.append(Rect(bx, by, bw, bw, line_width=1.4 if v is None else 1.0))
            items += _value(bx + bw / 2, by + bw / 2, v, solved[c], look.size)
    return items


def chain_size(task: Task, look: Look) -> tuple[float, float]:
    bw = _brick_w(task, look)
    steps = len(task.ops)
    return (steps + 1) * bw + steps * 1.3 * bw, look.box_h + look.size * 1.4


def chain_items(shown: Shown, x: float, top: float, look: Look, key: bool = False) -> list[Item]:
    task = shown.task
    bw, bh = _brick_w(task, look), look.box_h
    mid = top - look.size * 1.4 - bh / 2
    items: list[Item] = []
    signs = SIGNS[shown.lang]
    bx = x
    solved = _solved(task, key)[0]
    for k, v in enumerate(task.cells[0]):
        items += _box(bx, mid, bw, bh, v, look.size)
        if v is None:
            items += _value(bx + bw / 2, mid, None, solved[k], look.size)
        if k < len(task.ops):
            x1, x2 = bx + bw + 1 * MM, bx + bw + 1.3 * bw - 1 * MM
            head = 2 * MM
            items += [
                Line(x1, mid, x2 - head, mid, line_width=1.2),
                Polygon(((x2, mid), (x2 - head, mid + head * 0.6), (x2 - head, mid - head * 0.6)),
                        stroke=None, fill=INK),
            ]  # fmt: skip
            label = f"{signs[task.ops[k]]} {task.cells[1][k]}"
            items.append(Text((x1 + x2) / 2, mid + bh / 2 - look.size * 0.2, label,
                              look.size * 0.85, True, "center"))  # fmt: skip
        bx += bw + 1.3 * bw
    return items


# --- Daten und Zufall ----------------------------------------------------------------------

CHANCE_WIDTH = 150 * MM  # a question runs across the page (cells are never wider)
ANSWER_WORDS = {"de": ("etwa", "-mal"), "en": ("about", "times")}


def _question_size(look: Look) -> float:
    return look.size * 0.8 if look is NORMAL else look.size


def chance_lines(shown: Shown, look: Look, width: float) -> tuple[list[str], tuple[str, ...]]:
    question, options = chance_question(shown.task, shown.lang)
    return lines_without_orphan(question, _question_size(look), width), options


def option_rows(options: tuple[str, ...], size: float, look: Look, w: float) -> list[list[str]]:
    """The answers to tick, as many on a line as fit."""
    rows: list[list[str]] = [[]]
    used = 0.0
    for option in options:
        need = look.box_h * 0.7 + 2 * MM + text_width(option, size) + 8 * MM
        if rows[-1] and used + need > w:
            rows.append([])
            used = 0.0
        rows[-1].append(option)
        used += need
    return rows


def chance_size(shown: Shown, look: Look) -> tuple[float, float]:
    lines, options = chance_lines(shown, look, CHANCE_WIDTH)
    size = _question_size(look)
    rows = len(option_rows(options, size, look, CHANCE_WIDTH)) if options else 1
    return CHANCE_WIDTH, len(lines) * size * LEADING + rows * (look.box_h + 1.5 * MM)


def chance_items(shown: Shown, x: float, top: float, w: float, look: Look) -> list[Item]:
    w = CHANCE_WIDTH  # the lines as `chance_size` measured them
    lines, options = chance_lines(shown, look, w)
    size = _question_size(look)
    items: list[Item] = []
    y = top
    for line in lines:
        y -= size * LEADING
        items.append(Text(x, y + 0.28 * size, line, size))
    mid = y - 1.5 * MM - look.box_h / 2
    tick = look.box_h * 0.7
    if not options:
        before, after = ANSWER_WORDS[shown.lang]
        items.append(Text(x, centred(mid, size), before, size))
        bx = x + text_width(before, size) + 2 * MM
        items += _box(bx, mid, _blank_w(3, look), look.box_h, None, size)
        items.append(Text(bx + _blank_w(3, look) + 0.8 * MM, centred(mid, size), after, size))
        return items
    for row in option_rows(options, size, look, w):
        ox = x
        for option in row:
            items.append(Rect(ox, mid - tick / 2, tick, tick, line_width=1.2, radius=0.6 * MM))
            items.append(Text(ox + tick + 2 * MM, centred(mid, size), option, size))
            ox += tick + 2 * MM + text_width(option, size) + 8 * MM
        mid -= look.box_h + 1.5 * MM
    return items


TALLY_HEAD = {"de": (("Augenzahl", "Augensumme"), "Striche", "Anzahl"),
              "en": (("Number", "Total"), "Tally", "Count")}  # fmt: skip


def tally_size(shown: Shown, look: Look) -> tuple[float, float]:
    results = len(shown.task.cells) - 1
    size = _question_size(look)
    return CHANCE_WIDTH, 2 * size * LEADING + (results + 1) * look.box_h


def tally_items(shown: Shown, x: float, top: float, w: float, look: Look) -> list[Item]:
    task = shown.task
    size = _question_size(look)
    items: list[Item] = []
    y = top
    for line in lines_without_orphan(tally_text(task, shown.lang), size, w):
        y -= size * LEADING
        items.append(Text(x, y + 0.28 * size, line, size))
    y -= 0.6 * size
    dice = int(task.cells[0][0] or 1)
    heads, tally, count = TALLY_HEAD[shown.lang]
    first_w = max(text_width(heads[dice - 1], size, True) + 4 * MM, 28 * MM)
    count_w = max(text_width(count, size, True) + 4 * MM, 22 * MM)
    widths = (first_w, w - first_w - count_w, count_w)
    rows = [(heads[dice - 1], tally, count)] + [(str(r[0]), "", "") for r in task.cells[1:]]
    for k, row in enumerate(rows):
        cx = x
        for col, (text, cw) in enumerate(zip(row, widths)):
            fill = "#eeeeee" if k == 0 else None
            items.append(Rect(cx, y - look.box_h, cw, look.box_h, fill=fill, line_width=0.9))
            if text:
                items.append(Text(cx + (cw / 2 if col != 1 else 2 * MM),
                                  centred(y - look.box_h / 2, size), text, size, k == 0 or col == 0,
                                  "center" if col != 1 else "left"))  # fmt: skip
            cx += cw
        y -= look.box_h
    return items


# --- one cell, whatever the shape --------------------------------------------------------


def shape_size(shown: Shown, look: Look) -> tuple[float, float]:
    """Width and height of a problem's drawing, its number disc included."""
    task = shown.task
    disc = 2 * look.number * 0.85 + 3 * MM
    shape = task.shape
    if shape in ("equation", "remainder", "round"):
        return disc + _line_w(shown, look), look.box_h + 2.5 * MM
    if shape == "chance":
        w, h = chance_size(shown, look)
        return disc + w, h + 2 * MM
    if shape == "tally":
        w, h = tally_size(shown, look)
        return disc + w, h + 3 * MM
    if shape == "column":
        cols, rows = column_rows(task)
        return disc + cols * look.square, rows * look.square + 2 * MM
    size = {"wall": wall_size, "house": house_size, "triangle": triangle_size,
            "square": square_size, "chain": chain_size}[shape](task, look)  # fmt: skip
    return disc + size[0], size[1] + 3 * MM


def cell_items(
    shown: Shown, x: float, top: float, w: float, h: float, look: Look, key: bool = False
) -> list[Item]:
    """A problem as the sheet draws it; `key`: a grid puzzle with its blanks filled in."""
    task = shown.task
    if task.shape in ("equation", "remainder", "round"):
        return equation_items(shown, x, top, w, h, look)
    if task.shape == "column":
        return column_items(shown, x, top, look)
    disc_items, left = _disc(x, top - look.number, shown.number, look)
    if task.shape == "chance":
        return disc_items + chance_items(shown, left, top, x + w - left, look)
    if task.shape == "tally":
        return disc_items + tally_items(shown, left, top, x + w - left, look)
    if task.shape == "wall":
        return disc_items + wall_items(task, left, top, look, key)
    if task.shape == "house":
        return disc_items + house_items(task, left, top, look, key)
    if task.shape == "triangle":
        return disc_items + triangle_items(task, left, top, look, key)
    if task.shape == "square":
        return disc_items + square_items(shown, left, top, look, key)
    return disc_items + chain_items(shown, left, top, look, key)


def solved_figures(problems: Sequence[Shown], paper: str) -> tuple[Figure, ...]:
    """A key section of grid puzzles drawn solved, a row of puzzles per figure, so that the
    key's flow moves whole rows on to the next page."""
    look = KEY
    width = page_size(paper)[0] - 2 * MARGIN  # the key's frame (`layout.key_pages`)
    columns, cw, ch = _columns(problems, look, width)
    figures: list[Figure] = []
    for start in range(0, len(problems), columns):
        row = problems[start : start + columns]

        def draw(box: Cursor, theme: Theme, row: Sequence[Shown] = row) -> list[Item]:
            items: list[Item] = []
            for col, shown in enumerate(row):
                x = box.left + col * (cw + 6 * MM)
                items += cell_items(shown, x, box.top - 1 * MM, cw, ch - ROW_GAP, look, True)
            return items

        figures.append(Figure(ch, draw))
    return tuple(figures)


# --- pages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TopicSection:
    heading: str
    instruction: str
    problems: tuple[Shown, ...]


@dataclass(frozen=True)
class TopicVersion:
    letter: str
    sections: tuple[TopicSection, ...]


class TopicPagesDoNotFit(Exception):
    """--one-page or --per-page asks for more than a page holds."""

    def __init__(
        self, problems: int, pages: int, fit: int, per_page: bool = False, large: bool = False
    ) -> None:
        super().__init__(f"{problems} problems need {pages} pages; {fit} fit on one")
        self.problems, self.pages, self.fit = problems, pages, fit
        self.per_page, self.large = per_page, large  # which option asked; in large print


def _columns(cells: Sequence[Shown], look: Look, usable: float) -> tuple[int, float, float]:
    """Columns of a section and the size of its cells: as many as the widest fits."""
    sizes = [shape_size(s, look) for s in cells]
    w = max(s[0] for s in sizes) + 6 * MM
    h = max(s[1] for s in sizes) + ROW_GAP
    columns = max(1, min(4, int((usable + 6 * MM) // w)))
    return columns, (usable - (columns - 1) * 6 * MM) / columns, h


def version_pages(
    version: TopicVersion, words: SheetWords, geo: Geometry, look: Look, per_page: int | None
) -> list[tuple[list[Item], Spots, int]]:
    """The pages of one version: per section its words, then its cells column by column."""
    pages: list[tuple[list[Item], Spots, int]] = []
    items, spots, y = _first_header(version.letter, words, geo)
    on_page = 0
    usable = geo.right - geo.left
    style = geo.style
    for section in version.sections:
        columns, cw, ch = _columns(section.problems, look, usable)
        lines = [
            (t, True) for t in lines_without_orphan(section.heading, style.heading, usable, True)
        ]
        lines += [(t, False) for t in lines_without_orphan(section.instruction, style.instruction,
                                                             usable)]  # fmt: skip
        intro_h = sum((style.heading if b else style.instruction) * LEADING for _, b in lines)
        rest = list(section.problems)
        first = True
        while rest:
            room = y - (intro_h + SECTION_GAP if first else 0) - geo.bottom
            rows = int(room // ch)
            if rows < 1 or (per_page is not None and on_page >= per_page):
                if on_page == 0:
                    rows = 1
                else:
                    pages.append((items, spots, on_page))
                    items, spots, y = _next_header(version.letter, words, geo)
                    on_page = 0
                    continue
            down = -(-len(rest) // columns)
            if first and down <= rows and len(version.sections) == 1:  # room to write in
                ch = max(ch, min(ch * STRETCH, room / down))
            if first:
                for text, bold in lines:
                    size = style.heading if bold else style.instruction
                    y -= size * LEADING
                    items.append(Text(geo.left, y + 0.28 * size, text, size, bold))
                y -= SECTION_GAP
                first = False
            take = min(len(rest), rows * columns)
            if per_page is not None:
                take = min(take, per_page - on_page)
            chunk, rest = rest[:take], rest[take:]
            down = -(-len(chunk) // columns)  # Päckchen: down a column, then the next
            for i, shown in enumerate(chunk):
                col, row = divmod(i, down)
                cx = geo.left + col * (cw + 6 * MM)
                items += cell_items(shown, cx, y - row * ch, cw, ch - ROW_GAP, look)
            y -= down * ch
            on_page += len(chunk)
        y -= SECTION_GAP
    pages.append((items, spots, on_page))
    return pages


def layout_topic_sheets(
    versions: Sequence[TopicVersion],
    copies: Sequence[SheetCopy],
    words: SheetWords,
    key: AnswerKey | None,
    paper: str,
    large_print: bool,
    pagination: Pagination,
) -> tuple[Document, list[int]]:
    """Every pupil's sheet (each version's pages once, as forms), then the key."""
    styles = sorted({large_print or c.large_print for c in copies})
    forms: dict[str, tuple[Item, ...]] = {}
    spots: dict[tuple[int, bool], list[Spots]] = {}
    geos: dict[bool, Geometry] = {}
    for large in styles:
        own = [c for c in copies if (large_print or c.large_print) == large]
        geo = replace(geometry(paper, large, 3, False), fills=Fills.of(own))
        geos[large] = geo
        look = LARGE if large else NORMAL
        for v, version in enumerate(versions):
            built = version_pages(version, words, geo, look, pagination.per_page)
            total = sum(len(s.problems) for s in version.sections)
            want = min(pagination.per_page or 0, total)
            if built[0][2] < want:  # as on the family sheets: refused, not spread over pages
                raise TopicPagesDoNotFit(want, len(built), built[0][2], True, large)
            if len(built) > 1:  # the problems spread evenly: no last page with a lonely row
                even = -(-total // len(built))
                evener = version_pages(version, words, geo, look, even)
                if len(evener) == len(built):
                    built = evener
            if pagination.one_page and len(built) > 1:
                raise TopicPagesDoNotFit(total, len(built), built[0][2])
            label = page_label(words, version.letter, large)
            spots[v, large] = [s for _, s, _ in built]
            for k, (drawn, _, _) in enumerate(built):
                footer = _footer(words.footer(version.letter), label(k + 1, len(built)), geo)
                forms[form_name(version.letter, k, large)] = tuple(drawn + footer)
    letters = [version.letter for version in versions]
    return copies_document(copies, letters, spots, forms, geos, words, key, paper, large_print,
                           pagination)  # fmt: skip
