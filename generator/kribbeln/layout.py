"""Geometry of a Kribbeln block: task sheets, the rules page and the answer key, in points.

A sheet is a table: a header row of player names (a pip field and a small
points field per player), ten rows — three colour areas of (task, task,
Kribbeln), then the fourth Kribbeln row — and a totals row, with the tiebreak
line, the notes on playing (a task, the scoring, the Kribbeln fields) and the
colour legend below. Colour areas differ by a tint that no die colour uses, by
a pattern that survives black-and-white printing and by their number; every
task shows a swatch with the symbol of each colour it names. Every sheet says
the same at every player count and orientation, at least at `BODY` size:
what does not fit shrinks to that size, never drops out. `sheet_geometry`
computes the sizes first (testable as numbers); `sheet_items` only places
what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.core.errors import DoesNotFit, Msg
from generator.kribbeln.pages import KeyView, RowView, SheetView
from generator.kribbeln.swatches import any_color_swatch, legend_row, legend_width, swatch
from generator.render.fit import balanced_lines, broken_lines, name_lines, was_shortened, wrap
from generator.render.flow import (
    Balanced,
    BulletStyle,
    Column,
    Columns,
    Flowable,
    Group,
    Heading,
    PageFrame,
    PageLabel,
    Paragraph,
    Space,
    Table,
    TableStyle,
    TextStyle,
    Theme,
    flow_story,
    footer_line,
    numbered,
)
from generator.render.fonts import ascent, descent, fit_size, text_width
from generator.render.primitives import (
    MM,
    Align,
    Circle,
    Document,
    Item,
    Line,
    Page,
    Rect,
    Text,
    page_size,
)
from generator.render.style import (
    DARK_GREY,
    GREY,
    INK,
    LEADING,
    TEXT_TITLE,
    TITLE,
    WHITE,
    centred,
)

MARGIN = 12 * MM
CROWDED_MARGIN = 6 * MM  # the side margin may shrink to this so eight players fit
BAND_W = 9 * MM
TASK_MIN_W = 43 * MM
PIP_MIN_W = 11 * MM  # two handwritten digits
POINTS_MIN_W = 7 * MM  # one handwritten digit with room round it
PLAYER_MIN_W = PIP_MIN_W + POINTS_MIN_W
PLAYER_PREF_W = 21 * MM  # what a player column gets while the task column is narrow
PLAYER_MAX_W = 34 * MM
TASK_PREF_W = 100 * MM  # beyond this the task column gives its room to the players
TASK_CROWDED_W = 50 * MM  # with many players: what the task column takes before the players
PIP_SHARE = 0.64
TITLE_H = 13 * MM
NAME_H = 10 * MM
NAME_TALL_H = 11.5 * MM  # a header row of three-line names (narrow columns, long names)
SUB_H = 4.5 * MM
TOTAL_H = 10 * MM
TASK_MIN_H = 12 * MM
TASK_MAX_H = 22 * MM
KRIBBELN_SHARE = 0.75  # a Kribbeln row (a label and a short hint) against a task row
SWATCH = 5.6 * MM
PAD = 1.8 * MM
THIN, THICK = 0.6, 1.5
POINTS_FILL = "#eeeeee"
BODY = 8.0  # the smallest size a player reads: task texts, row hints, names, notes
LABEL_SIZE = 10.5  # "Kribbeln", "4. Kribbeln-Feld"
NOTE_SIZE = BODY
NOTES_TWO_COLUMNS = 220 * MM  # notes wider than this are set in two columns (landscape)
NOTES_GAP = 8 * MM


@dataclass(frozen=True)
class AreaStyle:
    """How a colour area looks: a tint, an ink for its pattern and number, and the pattern."""

    tint: str
    ink: str
    pattern: str  # "horizontal" | "diagonal" | "dots" | "none"


# Lilac, rose and sand: hues no die shows (red, orange, blue, black, yellow, green), so an
# area is never mistaken for a colour a task names; in grey the patterns tell them apart.
AREA_STYLES = {
    1: AreaStyle("#e6ddf3", "#6a45a6", "horizontal"),
    2: AreaStyle("#f6dce8", "#a3366c", "diagonal"),
    3: AreaStyle("#efe5d2", "#85602a", "dots"),
    4: AreaStyle("#e4e4e4", "#3a3a3a", "none"),
}


# --- the names in the header ------------------------------------------------------------

NAME_SIZES = (10.5, 10.0, 9.5, 9.0, 8.5, BODY)
NAME_PAD = 0.8 * MM
NAME_LEADING = 1.12


@dataclass(frozen=True)
class NameSet:
    """How the names of a header row are set: one size and weight, each name's lines."""

    size: float
    bold: bool
    lines: tuple[tuple[str, ...], ...]  # per player column; () = blank
    whole: bool = True  # no name shortened with "…"


def name_set(names: Sequence[str], width: float, height: float = NAME_H) -> NameSet:
    """One size and weight for the whole header row: the largest at which every name fits.

    Up to two lines per name, broken between words. When even `BODY` size does not
    hold a name that way, the row is set at `BODY` and that name is broken inside a
    word and, beyond two lines, shortened with "…" — it never leaves its cell.
    """
    room = width - 2 * NAME_PAD

    def lines_at(size: float) -> int:
        return max(1, min(2, int((height - 2 * NAME_PAD) // (size * NAME_LEADING))))

    for size in NAME_SIZES:
        for bold in (True, False):
            fitted = [name_lines(n, size, room, lines_at(size), bold) if n else () for n in names]
            if all(f or not n for f, n in zip(fitted, names)):
                return NameSet(size, bold, tuple(fitted))
    size = NAME_SIZES[-1]
    fitted = [
        (name_lines(n, size, room, lines_at(size)) or broken_lines(n, size, room, lines_at(size)))
        if n
        else ()
        for n in names
    ]
    return NameSet(
        size, False, tuple(fitted), not any(was_shortened(f, n) for f, n in zip(fitted, names))
    )


def tall_name_set(names: Sequence[str], width: float) -> NameSet:
    """The names of a `NAME_TALL_H` header row: up to three lines each, broken after a space
    or hyphen, else at a syllable; the largest size at which no name is shortened."""
    room = width - 2 * NAME_PAD
    for size in NAME_SIZES:
        most = max(1, min(3, int((NAME_TALL_H - 2 * NAME_PAD) // (size * NAME_LEADING))))
        for bold in (True, False):
            fitted = [
                (
                    name_lines(n, size, room, min(2, most), bold)
                    or broken_lines(n, size, room, most, bold)
                )
                if n
                else ()
                for n in names
            ]
            if not any(was_shortened(f, n) for f, n in zip(fitted, names)):
                return NameSet(size, bold, tuple(fitted))
    size = NAME_SIZES[-1]
    fitted = [broken_lines(n, size, room, 3) if n else () for n in names]
    return NameSet(size, False, tuple(fitted), False)


def header_names(names: Sequence[str], width: float) -> tuple[NameSet, float]:
    """The names of the header row and its height: two lines in `NAME_H`, else three in the
    taller `NAME_TALL_H` where that keeps a name whole."""
    short = name_set(names, width)
    if short.whole:
        return short, NAME_H
    return tall_name_set(names, width), NAME_TALL_H


# --- the notes below the table ----------------------------------------------------------


@dataclass(frozen=True)
class Notes:
    """The tiebreak line, the notes (in one or two columns) and the legend, below the table."""

    legend_beside: bool  # the legend on the tiebreak line (wide pages)
    columns: tuple[tuple[tuple[str, ...], ...], ...]  # per column its paragraphs' lines
    column_w: float
    height: float


TIE_SIZE = 10
LEGEND_SIZE = 8
PARA_GAP = 0.8 * MM


def notes_layout(view: SheetView, width: float) -> Notes:
    """Where the words below the table go on a page of usable `width`."""
    words = view.words
    tie_w = text_width(words["tiebreak"], TIE_SIZE, True)
    beside = tie_w + 8 * MM + legend_width(words["legend"], view.legend, LEGEND_SIZE) <= width
    texts = (words["reminder"], words["kribbeln_rule"])
    count = 2 if width > NOTES_TWO_COLUMNS else 1
    column_w = (width - (count - 1) * NOTES_GAP) / count
    paragraphs = tuple(tuple(wrap(t, NOTE_SIZE, column_w)) for t in texts)
    columns = tuple((p,) for p in paragraphs) if count == 2 else (paragraphs,)
    step = NOTE_SIZE * LEADING
    deepest = max(sum(len(p) for p in col) * step + (len(col) - 1) * PARA_GAP for col in columns)
    height = 6 * MM + 4.5 * MM - step + deepest + (0 if beside else 6 * MM) + 2.5 * MM
    return Notes(beside, columns, column_w, height)


# --- the geometry -----------------------------------------------------------------------


@dataclass(frozen=True)
class SheetGeometry:
    """Sizes and positions of one sheet, in points (origin bottom-left)."""

    page_w: float
    page_h: float
    players: int
    task_w: float
    player_w: float
    pip_w: float
    points_w: float
    task_h: float
    kribbeln_h: float
    bottom_h: float
    margin: float = MARGIN  # left and right (narrower only where eight players need it)
    name_h: float = NAME_H
    names: NameSet | None = None

    @property
    def left(self) -> float:
        return self.margin

    @property
    def table_w(self) -> float:
        return BAND_W + self.task_w + self.players * self.player_w

    @property
    def players_x(self) -> float:
        return self.margin + BAND_W + self.task_w

    @property
    def header_top(self) -> float:
        return self.page_h - MARGIN - TITLE_H

    @property
    def rows_top(self) -> float:
        return self.header_top - self.name_h - SUB_H

    def row_h(self, kind: str) -> float:
        return self.task_h if kind == "task" else self.kribbeln_h

    def row_tops(self, kinds: Sequence[str]) -> list[float]:
        """The top edge of every row."""
        tops, y = [], self.rows_top
        for kind in kinds:
            tops.append(y)
            y -= self.row_h(kind)
        return tops

    @property
    def rows_h(self) -> float:
        return 6 * self.task_h + 4 * self.kribbeln_h

    @property
    def total_top(self) -> float:
        return self.rows_top - self.rows_h

    @property
    def table_bottom(self) -> float:
        return self.total_top - TOTAL_H


def bottom_height(view: SheetView, width: float) -> float:
    """Tiebreak line, notes and legend below the table."""
    return notes_layout(view, width).height


def sheet_geometry(view: SheetView, paper: str, landscape: bool) -> SheetGeometry:
    """Column widths and row heights; DoesNotFit when the players or rows cannot fit."""
    page_w, page_h = page_size(paper, landscape)
    players = len(view.names)
    # many players: the side margins give the task column up to its crowded width
    need = BAND_W + TASK_CROWDED_W + players * PLAYER_MIN_W
    margin = min(MARGIN, max(CROWDED_MARGIN, (page_w - need) / 2))
    usable_w = page_w - 2 * margin
    room_w = usable_w - BAND_W
    if (room_w - TASK_MIN_W) / players < PLAYER_MIN_W - 1e-6:
        raise DoesNotFit(
            "players",
            Msg(
                "player_columns_do_fit",
                players=players,
                room_w=int((room_w - TASK_MIN_W) // PLAYER_MIN_W),
            ),
            (BAND_W + TASK_MIN_W + players * PLAYER_MIN_W) / MM,
            usable_w / MM,
            ("landscape",),
        )
    task_w = min(max(room_w - players * PLAYER_PREF_W, TASK_MIN_W), TASK_PREF_W)
    if task_w < TASK_CROWDED_W:  # many players: the tasks keep 50 mm while the players can
        task_w = max(TASK_MIN_W, min(TASK_CROWDED_W, room_w - players * PLAYER_MIN_W))
    player_w = min(PLAYER_MAX_W, (room_w - task_w) / players)
    task_w = room_w - players * player_w
    pip_w = min(max(player_w * PIP_SHARE, PIP_MIN_W), player_w - POINTS_MIN_W)
    names, name_h = header_names(view.names, player_w)
    bottom = bottom_height(view, usable_w)
    room = page_h - 2 * MARGIN - TITLE_H - name_h - SUB_H - TOTAL_H - bottom
    task_h = min(TASK_MAX_H, room / (6 + 4 * KRIBBELN_SHARE))
    if task_h < TASK_MIN_H - 1e-6:
        needed = page_h - room + TASK_MIN_H * (6 + 4 * KRIBBELN_SHARE)
        message = Msg("rows_do_not_fit")
        raise DoesNotFit("landscape", message, needed / MM, page_h / MM)
    return SheetGeometry(
        page_w,
        page_h,
        players,
        task_w,
        player_w,
        pip_w,
        player_w - pip_w,
        task_h,
        task_h * KRIBBELN_SHARE,
        bottom,
        margin,
        name_h,
        names,
    )


# --- symbols and patterns ---------------------------------------------------------------


def _clip(x1: float, y1: float, x2: float, y2: float, box: tuple) -> tuple | None:
    """Liang–Barsky: the part of a segment inside box (x, y, w, h), or None."""
    bx, by, bw, bh = box
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - bx), (dx, bx + bw - x1), (-dy, y1 - by), (dy, by + bh - y1)):
        if abs(p) < 1e-12:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return None
    return (x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy)


def pattern(x: float, y: float, w: float, h: float, kind: str, ink: str) -> list[Item]:
    """A fill pattern inside a rectangle: horizontal or diagonal lines, or dots."""
    items: list[Item] = []
    step = 2.2 * MM
    if kind == "horizontal":
        yy = y + step / 2
        while yy < y + h:
            items.append(Line(x, yy, x + w, yy, stroke=ink, line_width=0.7))
            yy += step
    elif kind == "diagonal":
        c = -w
        while c < h:
            seg = _clip(x, y + c, x + w + h, y + c + w + h, (x, y, w, h))
            if seg:
                items.append(Line(seg[0], seg[1], seg[2], seg[3], stroke=ink, line_width=0.7))
            c += step * 1.2
    elif kind == "dots":
        row = 0
        yy = y + step / 2
        while yy < y + h:
            xx = x + step / 2 + (step / 2 if row % 2 else 0)
            while xx < x + w - 0.4:
                items.append(Circle(xx, yy, 0.45 * MM, stroke=None, fill=ink))
                xx += step
            yy += step * 0.9
            row += 1
    return items


# --- the sheet --------------------------------------------------------------------------


def _band(geo: SheetGeometry, area: int, top: float, bottom: float, label: str) -> list[Item]:
    style = AREA_STYLES[area]
    x, w, h = geo.left, BAND_W, top - bottom
    items: list[Item] = [Rect(x, bottom, w, h, stroke=None, fill=style.tint)]
    items += pattern(x, bottom, w, h, style.pattern, style.ink)
    cy = (top + bottom) / 2
    r = 3.1 * MM
    items.append(Circle(x + w / 2, cy, r, stroke=style.ink, fill=WHITE, line_width=1.0))
    items.append(Text(x + w / 2, centred(cy, 11), label, 11, True, "center", style.ink))
    items.append(Rect(x, bottom, w, h, stroke=INK, line_width=THIN))
    return items


TASK_LEADING = 1.18  # task texts are set tight to fit their cells
STACK_BELOW = 40 * MM  # text narrower than this beside the swatches: swatches go on top
STACKED_SWATCH = 5.0 * MM  # swatches above the text (a narrow column) are a little smaller
SWATCH_GAP = 1.0 * MM  # between stacked swatches and the text below them
CELL_PAD_V = 1.2 * MM  # the least room between a cell's text and its top or bottom edge
TASK_SIZES = tuple(10.5 - 0.25 * k for k in range(19))  # 10.5 … 6 pt; the shipped tasks ≥ 8


@dataclass(frozen=True)
class TextBox:
    """Where a task's text goes inside its cell, relative to the cell's left edge."""

    dx: float
    width: float
    swatch: float  # the swatches' size
    stacked: bool  # the text below the swatches (else beside them)


def text_box(row: RowView, cell_w: float) -> TextBox:
    """Beside the swatches, or below them when that leaves the text too narrow."""
    n = 1 if row.any_color else len(row.swatches)
    beside = PAD + n * SWATCH + (n - 1) * 1.0 * MM + 1.8 * MM
    if cell_w - PAD - beside >= STACK_BELOW or n == 0:
        return TextBox(beside, cell_w - PAD - beside, SWATCH, False)
    return TextBox(PAD, cell_w - 2 * PAD, STACKED_SWATCH, True)


def _text_height(lines: int, size: float, leading: float) -> float:
    """From the top of the first line's capitals to the foot of the last line's descenders."""
    return ascent(size) + (lines - 1) * size * leading + descent(size)


def _task_block(row: RowView, size: float, box: TextBox) -> tuple[tuple[str, ...], float, float]:
    """The task's lines, the height of swatches and text together, and the text's drop in it."""
    lines = balanced_lines(row.text, size, box.width, bold=True)
    text_h = _text_height(len(lines), size, TASK_LEADING)
    if box.stacked:
        return lines, box.swatch + SWATCH_GAP + text_h, box.swatch + SWATCH_GAP
    return lines, max(box.swatch, text_h), max(0.0, (box.swatch - text_h) / 2)


def _fits(row: RowView, size: float, box: TextBox, h: float) -> bool:
    """Whether the task text fits its cell at this size, clear of the cell's edges."""
    lines, block_h, _ = _task_block(row, size, box)
    return block_h <= h - 2 * CELL_PAD_V and all(
        text_width(line, size, True) <= box.width for line in lines
    )


def task_text_size(view: SheetView, geo: SheetGeometry) -> float:
    """One text size for every task of a sheet: the largest at which all of them fit."""
    rows = [r for r in view.rows if r.kind == "task"]
    for size in TASK_SIZES:
        if all(_fits(r, size, text_box(r, geo.task_w), geo.task_h) for r in rows):
            return size
    return TASK_SIZES[-1]


def _task_cell(
    view: SheetView, row: RowView, x: float, top: float, w: float, h: float, size: float
) -> list[Item]:
    """Swatches and text, centred as one block between the cell's top and bottom."""
    items: list[Item] = []
    box = text_box(row, w)
    lines, block_h, drop = _task_block(row, size, box)
    block_top = top - CELL_PAD_V - max(0.0, (h - 2 * CELL_PAD_V - block_h) / 2)
    s = box.swatch
    if row.any_color:
        items += any_color_swatch(x + PAD, block_top - s, s, view.legend)
    else:
        for k, sw in enumerate(row.swatches):
            items += swatch(x + PAD + k * (s + 1.0 * MM), block_top - s, s, sw)
    y = block_top - drop - ascent(size)
    for line in lines:
        items.append(Text(x + box.dx, y, line, size, bold=True))
        y -= size * TASK_LEADING
    return items


HINT_SIZES = tuple(9.0 - 0.25 * k for k in range(13))  # 9 … 6 pt; the shipped hints ≥ 8
HINT_LEADING = 1.2
LABEL_GAP = 3 * MM  # between the label and hints beside it
BESIDE_MIN = 30 * MM  # narrower hints do not go beside the label


@dataclass(frozen=True)
class HintBox:
    """Where a Kribbeln row's hints go, relative to the cell's left and top edges."""

    dx: float
    width: float
    drop: float  # from the cell's top to the top of the room for the hints
    room: float  # the height they may take

    @property
    def beside(self) -> bool:
        return self.drop <= CELL_PAD_V


def _hint_boxes(row: RowView, w: float, h: float) -> list[HintBox]:
    """Beside the label (preferred), else below it."""
    label_w = text_width(row.text, LABEL_SIZE, True) + LABEL_GAP
    below = CELL_PAD_V + ascent(LABEL_SIZE) + descent(LABEL_SIZE) + 0.8 * MM
    boxes = [HintBox(PAD, w - 2 * PAD, below, h - below - CELL_PAD_V)]
    if w - 2 * PAD - label_w >= BESIDE_MIN:
        boxes.insert(
            0, HintBox(PAD + label_w, w - 2 * PAD - label_w, CELL_PAD_V, h - 2 * CELL_PAD_V)
        )
    return boxes


def _hint_lines(row: RowView, size: float, width: float) -> list[str]:
    return [line for hint in row.hints for line in balanced_lines(hint, size, width)]


def _hints_fit(row: RowView, size: float, box: HintBox) -> bool:
    lines = _hint_lines(row, size, box.width)
    high = _text_height(len(lines), size, HINT_LEADING)
    return high <= box.room and all(text_width(line, size) <= box.width for line in lines)


def hint_box(row: RowView, w: float, h: float, size: float) -> HintBox:
    """Where the hints fit at `size` in the fewest lines, beside the label on a tie."""
    boxes = _hint_boxes(row, w, h)
    fitting = [b for b in boxes if _hints_fit(row, size, b)]
    if not fitting:
        return boxes[-1]
    return min(fitting, key=lambda b: len(_hint_lines(row, size, b.width)))


def hint_size(view: SheetView, geo: SheetGeometry) -> float:
    """One size for the hints of every Kribbeln row of a sheet: the largest that fits whole."""
    rows = [r for r in view.rows if r.kind == "kribbeln"]
    for size in HINT_SIZES:
        if all(
            any(_hints_fit(r, size, b) for b in _hint_boxes(r, geo.task_w, geo.kribbeln_h))
            for r in rows
        ):
            return size
    return HINT_SIZES[-1]


def _kribbeln_cell(
    row: RowView, x: float, top: float, w: float, h: float, size: float
) -> list[Item]:
    """The label and its hints, beside or below it, centred in the row."""
    box = hint_box(row, w, h, size)
    lines = _hint_lines(row, size, box.width)
    high = _text_height(len(lines), size, HINT_LEADING)
    label_h = ascent(LABEL_SIZE) + descent(LABEL_SIZE)
    if box.beside:
        label_top = top - h / 2 + label_h / 2
        hints_top = top - h / 2 + high / 2
        if len(lines) == 1:  # one line: on the label's baseline
            hints_top = label_top - ascent(LABEL_SIZE) + ascent(size)
    else:
        block = box.drop - CELL_PAD_V + high
        label_top = top - CELL_PAD_V - max(0.0, (h - 2 * CELL_PAD_V - block) / 2)
        hints_top = label_top - (box.drop - CELL_PAD_V)
    items: list[Item] = [
        Text(x + PAD, label_top - ascent(LABEL_SIZE), row.text, LABEL_SIZE, bold=True)
    ]
    y = hints_top - ascent(size)
    for line in lines:
        items.append(Text(x + box.dx, y, line, size, color=DARK_GREY))
        y -= size * HINT_LEADING
    return items


def _names(geo: SheetGeometry, names: NameSet) -> list[Item]:
    """Each name centred in its cell, its lines as one block."""
    items: list[Item] = []
    step = names.size * NAME_LEADING
    middle = geo.header_top - geo.name_h / 2
    for p, lines in enumerate(names.lines):
        cx = geo.players_x + (p + 0.5) * geo.player_w
        y = centred(middle + (len(lines) - 1) * step / 2, names.size)
        for line in lines:
            items.append(Text(cx, y, line, names.size, names.bold, "center"))
            y -= step
    return items


@dataclass(frozen=True)
class Sizes:
    """The sizes a whole pad shares, so its sheets look alike."""

    task: float
    hint: float


def pad_sizes(views: Sequence[SheetView], geos: Sequence[SheetGeometry]) -> Sizes:
    """The largest task and hint sizes at which every sheet of the pad fits."""
    pairs = list(zip(views, geos))
    return Sizes(
        min((task_text_size(v, g) for v, g in pairs), default=TASK_SIZES[0]),
        min((hint_size(v, g) for v, g in pairs), default=HINT_SIZES[0]),
    )


def sheet_items(view: SheetView, geo: SheetGeometry, sizes: Sizes | None = None) -> list[Item]:
    """Every box, line and word of one sheet (at the pad's `sizes`, default: what fits)."""
    sizes = sizes or pad_sizes([view], [geo])
    items: list[Item] = []
    words = view.words
    x0, top = geo.left, geo.page_h - MARGIN
    right = x0 + geo.table_w
    # title
    items.append(Text(x0, top - 8 * MM, words["title"], TITLE, bold=True))
    items.append(Text(right, top - 8 * MM, words["sheet_label"], 12, True, "right"))
    # header: names, then the pips/points labels
    y = geo.header_top
    head_h = geo.name_h + SUB_H
    items.append(Rect(x0, y - head_h, BAND_W + geo.task_w, head_h, stroke=None, fill="#f4f4f4"))
    label_y = centred(y - head_h / 2, 9)
    items.append(Text(x0 + BAND_W + PAD, label_y, words["players"], 9, bold=True))
    for p in range(geo.players):
        px = geo.players_x + p * geo.player_w
        items.append(Rect(px, y - geo.name_h, geo.player_w, geo.name_h, line_width=THICK))
        sub = y - geo.name_h
        items.append(Rect(px, sub - SUB_H, geo.pip_w, SUB_H, fill="#f4f4f4", line_width=THIN))
        items.append(
            Rect(
                px + geo.pip_w, sub - SUB_H, geo.points_w, SUB_H, fill=POINTS_FILL, line_width=THIN
            )
        )
        for label, cx, w in (
            (words["pips"], px + geo.pip_w / 2, geo.pip_w),
            (words["points"], px + geo.pip_w + geo.points_w / 2, geo.points_w),
        ):
            s = fit_size(label, 6.5, w - 1.0 * MM, minimum=6)  # column labels: grey fine print
            items.append(
                Text(cx, centred(sub - SUB_H / 2, s), label, s, align="center", color=GREY)
            )
    items += _names(geo, geo.names or header_names(view.names, geo.player_w)[0])
    # the ten rows
    tops = geo.row_tops([r.kind for r in view.rows])
    task_x = x0 + BAND_W
    for row, row_top in zip(view.rows, tops):
        h = geo.row_h(row.kind)
        style = AREA_STYLES[row.area]
        kribbeln = row.kind == "kribbeln"
        fill = style.tint if kribbeln else None
        items.append(Rect(task_x, row_top - h, geo.task_w, h, fill=fill, line_width=THIN))
        if kribbeln:
            items += _kribbeln_cell(row, task_x, row_top, geo.task_w, h, sizes.hint)
        else:
            items += _task_cell(view, row, task_x, row_top, geo.task_w, h, sizes.task)
        for p in range(geo.players):
            px = geo.players_x + p * geo.player_w
            items.append(Rect(px, row_top - h, geo.pip_w, h, fill=fill, line_width=THIN))
            items.append(
                Rect(
                    px + geo.pip_w, row_top - h, geo.points_w, h, fill=POINTS_FILL, line_width=THIN
                )
            )
    # area bands and the heavy lines between areas
    first: dict[int, float] = {}
    for row, row_top in zip(view.rows, tops):
        first.setdefault(row.area, row_top)
    for area, area_top in first.items():
        last = max(i for i, r in enumerate(view.rows) if r.area == area)
        bottom = tops[last] - geo.row_h(view.rows[last].kind)
        label = str(area)
        items += _band(geo, area, area_top, bottom, label)
        items.append(Line(x0, bottom, right, bottom, line_width=THICK))
    for p in range(geo.players + 1):
        px = geo.players_x + p * geo.player_w
        items.append(Line(px, geo.header_top, px, geo.table_bottom, line_width=THICK))
    # totals
    t_top = geo.total_top
    items.append(
        Rect(x0, t_top - TOTAL_H, BAND_W + geo.task_w, TOTAL_H, fill="#f4f4f4", line_width=THIN)
    )
    items.append(
        Text(
            task_x + geo.task_w - PAD,
            centred(t_top - TOTAL_H / 2, 10),
            words["total"],
            10,
            True,
            "right",
        )
    )
    for p in range(geo.players):
        px = geo.players_x + p * geo.player_w
        items.append(Rect(px, t_top - TOTAL_H, geo.player_w, TOTAL_H, line_width=THICK))
    items.append(
        Rect(
            x0,
            geo.table_bottom,
            geo.table_w,
            geo.header_top - geo.table_bottom,
            stroke=INK,
            line_width=THICK,
        )
    )
    items += _notes(view, geo, x0, geo.page_w - 2 * geo.margin)
    return items + footer_line(x0, right, words["footer"])


def _notes(view: SheetView, geo: SheetGeometry, x0: float, width: float) -> list[Item]:
    """Below the table: the tiebreak line, the notes in their columns, the legend."""
    notes = notes_layout(view, width)
    words = view.words
    y = geo.table_bottom - 6 * MM
    items: list[Item] = [Text(x0, y, words["tiebreak"], TIE_SIZE, bold=True)]
    if notes.legend_beside:
        lx = x0 + width - legend_width(words["legend"], view.legend, LEGEND_SIZE)
        items += legend_row(words["legend"], view.legend, lx, y, LEGEND_SIZE)
    step = NOTE_SIZE * LEADING
    last = y
    for c, paragraphs in enumerate(notes.columns):
        cx = x0 + c * (notes.column_w + NOTES_GAP)
        ny = y - 4.5 * MM
        for lines in paragraphs:
            for line in lines:
                items.append(Text(cx, ny, line, NOTE_SIZE, color=DARK_GREY))
                last = min(last, ny)
                ny -= step
            ny -= PARA_GAP
    if not notes.legend_beside:
        items += legend_row(words["legend"], view.legend, x0, last - 6 * MM, LEGEND_SIZE)
    return items


# --- rules page and answer key ----------------------------------------------------------

KEY_ROW = 5.4 * MM
KEY_WIDTHS = (12, 100, 25, 14, 12, 12)  # what is left when each column has what its words need
KEY_ALIGN: tuple[Align, ...] = ("center", "left", "left", "right", "right", "left")
KEY_THEME = Theme(
    headings={
        1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM, keep_lines=None),
        2: TextStyle(10.5, bold=True, after=0.8 * MM, keep_lines=None),
    },
    paragraphs={
        "note": TextStyle(8.5, after=1.6 * MM, keep_lines=None),
        "summary": TextStyle(7.5, color=DARK_GREY, after=1.2 * MM, keep_lines=None),
    },
    table=TableStyle(7.5, KEY_ROW, after=4 * MM),
)


def rules_theme(size: float) -> Theme:
    """Rules text at `size`: every paragraph and bullet moves on whole, headings stay with it."""
    return Theme(
        headings={
            1: TextStyle(TEXT_TITLE, bold=True, after=3 * MM, keep_lines=None),
            2: TextStyle(size + 1.5, bold=True, before=1.2 * MM, after=1.2 * MM, keep=14 * MM),
        },
        paragraphs={"body": TextStyle(size, after=2 * MM, keep_lines=None)},
        bullet=BulletStyle(
            TextStyle(size, after=1.2 * MM, indent=4 * MM, keep_lines=None),
            label_dx=1 * MM,
            label_bold=False,
        ),
    )


def text_frame(
    page_w: float, page_h: float, footer: str = "", page: PageLabel | None = None
) -> PageFrame:
    """The text area of the rules and key pages, with the footer on every page."""

    def line(k: int, n: int) -> list[Item]:
        return footer_line(MARGIN, page_w - MARGIN, footer, page(k, n) if page else "")

    return PageFrame(
        page_w,
        page_h,
        MARGIN,
        page_w - MARGIN,
        page_h - MARGIN,
        MARGIN,
        column_gap=RULES_GAP,
        footer=line,
    )


RULES_GAP = 10 * MM
RULES_ONE_COLUMN = 200 * MM  # a wider text area (landscape) sets the rules in two columns


def rules_pages(
    story: Sequence[Flowable],
    page_w: float,
    page_h: float,
    footer: str = "",
    page: PageLabel | None = None,
) -> list[list[Item]]:
    """The rules page: 9.5 pt text, smaller (down to 8 pt) if that keeps it on one page.

    On a wide page the rules run in two columns under the title, so no line is
    much longer than on a portrait page.
    """
    if page_w - 2 * MARGIN > RULES_ONE_COLUMN and story:
        story = [story[0], Columns(2), *story[1:]]
    for size in (9.5, 9.0, 8.5, 8.0):
        pages = flow_story(story, text_frame(page_w, page_h, footer, page), rules_theme(size))
        if len(pages) == 1:
            return pages
    return pages


KEY_ROWS = (KEY_ROW, 5.0 * MM, 4.6 * MM)  # tighter rows where that saves a page


def key_pages(
    key: KeyView, page_w: float, page_h: float, page: PageLabel | None = None
) -> list[list[Item]]:
    """The answer key: title, notes, then one table per sheet, kept with its heading.

    On a wide page the notes run in two columns; the table rows are as tall as
    they can be without an extra page (a last page with one table on it).
    """
    columns = tuple(Column(t, w, a) for t, w, a in zip(key.columns, KEY_WIDTHS, KEY_ALIGN))
    story: list[Flowable] = [Heading(key.title, 1)]
    notes = [Paragraph(note, "note") for note in key.intro]
    if page_w - 2 * MARGIN > RULES_ONE_COLUMN:
        story += [Columns(2), Balanced(tuple(Group((n,)) for n in notes)), Columns(1)]
    else:
        story += notes
    story.append(Space(2 * MM))
    every_row = tuple(row for section in key.sections for row in section.rows)
    for section in key.sections:
        story.append(
            Group(
                (
                    Heading(section.heading),
                    Paragraph(section.summary, "summary"),
                    Table(columns, section.rows, natural=True, measure=every_row),
                )
            )
        )
    frame = text_frame(page_w, page_h, key.footer, page)
    layouts = [flow_story(story, frame, _key_theme(row)) for row in KEY_ROWS]
    return min(layouts, key=len)


def _key_theme(row_h: float) -> Theme:
    return Theme(KEY_THEME.headings, KEY_THEME.paragraphs, table=TableStyle(7.5, row_h, 4 * MM))


@dataclass(frozen=True)
class BlockLayout:
    """The document and how many pages each part took."""

    document: Document
    sheet_pages: int
    rules_pages: int
    key_pages: int


def layout_block(
    sheets: Sequence[SheetView],
    rules: Sequence[Flowable] | None,
    key: KeyView | None,
    paper: str,
    landscape: bool,
    title: str,
    rules_footer: str = "",
    page: PageLabel | None = None,
) -> BlockLayout:
    """The block: every sheet (one per page), then the rules page(s), then the answer key;
    `page` labels the pages of the rules and of the key in their footers with their page
    of the whole PDF ("Seite 7/9")."""
    page_w, page_h = page_size(paper, landscape)
    geos = [sheet_geometry(v, paper, landscape) for v in sheets]
    sizes = pad_sizes(sheets, geos)  # one task and hint size for the whole pad
    sheet_pages = [sheet_items(v, g, sizes) for v, g in zip(sheets, geos)]

    def parts(total: int) -> tuple[list[list[Item]], list[list[Item]]]:
        """The rules' and the key's pages, numbered as pages of a PDF of `total` pages."""
        before = len(sheet_pages)
        rule_pages = (
            rules_pages(rules, page_w, page_h, rules_footer, numbered(page, before, total))
            if rules is not None
            else []
        )
        before += len(rule_pages)
        label = numbered(page, before, total)
        return rule_pages, key_pages(key, page_w, page_h, label) if key is not None else []

    # the footers count the whole file: measured once, then numbered
    rule_pages, answer_pages = parts(0)
    rule_pages, answer_pages = parts(len(sheet_pages) + len(rule_pages) + len(answer_pages))
    pages = tuple(Page(tuple(p)) for p in sheet_pages + rule_pages + answer_pages)
    return BlockLayout(
        Document(page_w, page_h, pages, title=title),
        len(sheet_pages),
        len(rule_pages),
        len(answer_pages),
    )
