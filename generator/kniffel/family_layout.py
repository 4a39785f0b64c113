"""Geometry of the family sheet (`kniffel block --layout family`): one page for the whole
table, the players as columns with their names across the top, each player's games side
by side under the name, the boxes' labels once at the left.

Up to six players and three games on a page; boxes at least 8 mm each way (a family
sheet trades the per-player block's 12 mm width for room for everybody), rows sharing
the page height up to 14 mm. A name is written in full: on one line (11 pt down to 8 pt),
else on two or three; the name row grows for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.errors import DoesNotFit, InputError, Msg
from generator.kniffel.block import BlockSpec, block_rows, block_words
from generator.kniffel.block_layout import (
    MARGIN,
    MAX_COL_W,
    MAX_LABEL_W,
    MAX_ROW_H,
    TITLE_SIZE,
    TOP,
    TOTAL_SHADE,
    row_items,
)
from generator.render.fit import broken_lines, name_lines
from generator.render.flow import footer_line
from generator.render.fonts import fit_size, text_width
from generator.render.primitives import (
    MM,
    Document,
    Item,
    Line,
    Page,
    Rect,
    Text,
    UseForm,
    page_size,
)
from generator.render.style import FOOTER_ROOM, INK, centred

MAX_PLAYERS = 6
MAX_GAMES = 3
MIN_COL_W = 8 * MM  # the promise: boxes at least 8 mm each way
MIN_ROW_H = 8 * MM
LABEL_W = 40 * MM  # narrower than the per-player block's: the labels still fit at 9 pt
NAME_MIN_H = 10 * MM  # a name row a hand writes a name in
GAME_H = 6 * MM  # the row numbering each player's games
NAME_PT = 11.0
NAME_MIN = 8.0
NAME_LINES = 3
NAME_PAD = 1.2 * MM
LEAD = 1.15


@dataclass(frozen=True)
class FamilyGeometry:
    """Sizes of the family sheet, in points; the table is centred on the page."""

    page_w: float
    page_h: float
    players: int
    games: int
    label_w: float
    col_w: float
    row_h: float
    name_h: float
    game_h: float
    n_rows: int
    name_size: float

    @property
    def table_w(self) -> float:
        return self.label_w + self.players * self.games * self.col_w

    @property
    def left(self) -> float:
        return (self.page_w - self.table_w) / 2

    @property
    def group_w(self) -> float:
        """A player's columns together: the width their name has."""
        return self.games * self.col_w

    def group_x(self, player: int) -> float:
        return self.left + self.label_w + player * self.group_w


def _letters(text: str) -> str:
    return text.replace("-", "").replace(" ", "")


def _name_setting(name: str, width: float) -> tuple[float, tuple[str, ...]]:
    """A name's size and lines in a cell `width` wide: in full, never shortened."""
    size = fit_size(name, NAME_PT, width, minimum=NAME_MIN)
    if text_width(name, size) <= width:
        return size, (name,)
    for size in (9.0, 8.5, 8.0):
        lines = name_lines(name, size, width, 2)
        if lines:
            return size, lines
    for size in (8.0, 7.5, 7.0, 6.5, 6.0):
        lines = broken_lines(name, size, width, NAME_LINES)
        if _letters("".join(lines)) == _letters(name):  # nothing left out
            return size, lines
    return size, lines


def check_family(spec: BlockSpec, per_page: str) -> None:
    """The family sheet's limits: six players, three games, the whole table on one page."""
    players = len(spec.names)
    if players > MAX_PLAYERS:
        raise InputError("players", Msg("family_players", high=MAX_PLAYERS, found=players))
    if spec.games > MAX_GAMES:
        raise InputError("games", Msg("family_games", high=MAX_GAMES, found=spec.games))
    if per_page == "2":
        raise InputError("per_page", Msg("family_one_per_page"))


def family_geometry(spec: BlockSpec, paper: str, landscape: bool) -> FamilyGeometry:
    """Column and row sizes; raise DoesNotFit when the boxes would be under 8 mm."""
    page_w, page_h = page_size(paper, landscape)
    players, games = len(spec.names), spec.games
    usable_w = page_w - 2 * MARGIN
    columns = players * games
    col_w = min(MAX_COL_W, (usable_w - LABEL_W) / columns)
    if col_w < MIN_COL_W - 1e-6:
        needed = LABEL_W + columns * MIN_COL_W
        raise DoesNotFit(
            "games",
            Msg("family_columns_do_not_fit", players=players, games=games,
                needed=f"{needed / MM:.0f}", usable_w=f"{usable_w / MM:.0f}"),
            needed / MM, usable_w / MM, ("landscape", "games", "players"),
        )  # fmt: skip
    label_w = max(LABEL_W, min(MAX_LABEL_W, usable_w - columns * col_w))
    room = games * col_w - 2 * NAME_PAD
    settings = [_name_setting(n, room) for n in spec.names if n]
    size = min((s for s, _ in settings), default=NAME_PT)
    lines = max((len(ls) for _, ls in settings), default=1)
    name_h = max(NAME_MIN_H, lines * LEAD * size + 2 * NAME_PAD + 0.5 * size)
    game_h = GAME_H if games > 1 else 0.0
    n_rows = len(block_rows(spec))
    height = page_h - TOP - name_h - game_h - FOOTER_ROOM - 1 * MM
    row_h = min(MAX_ROW_H, height / n_rows)
    if row_h < MIN_ROW_H - 1e-6:
        needed = page_h - height + n_rows * MIN_ROW_H
        raise DoesNotFit(
            "paper",
            Msg("block_does_fit_page", min_row_h=f"{MIN_ROW_H / MM:.0f}"),
            needed / MM,
            page_h / MM,
        )
    return FamilyGeometry(
        page_w, page_h, players, games, label_w, col_w, row_h, name_h, game_h, n_rows, size
    )


def family_form(spec: BlockSpec, geo: FamilyGeometry, words: dict[str, str]) -> list[Item]:
    """The whole sheet: the title in the corner, names, game numbers, the rows, the frame,
    the footer (no title band above the table: 6 players' Yahtzee fits a landscape A4)."""
    x0 = geo.left
    top = geo.page_h - TOP
    y = top
    items: list[Item] = [Rect(x0, y - geo.name_h, geo.label_w, geo.name_h, stroke=None)]
    title = fit_size(words["title"], TITLE_SIZE, geo.label_w - 3.2 * MM, bold=True)
    items.append(Text(x0 + 1.6 * MM, centred(y - geo.name_h / 2, title), words["title"], title,
                      True))  # fmt: skip
    for p, name in enumerate(spec.names):
        gx = geo.group_x(p)
        items.append(Rect(gx, y - geo.name_h, geo.group_w, geo.name_h, line_width=0.6))
        if not name:
            continue  # a blank name line, written by hand
        size, lines = _name_setting(name, geo.group_w - 2 * NAME_PAD)
        step = LEAD * size
        first = centred(y - geo.name_h / 2, size) + step * (len(lines) - 1) / 2
        for k, line in enumerate(lines):
            # regular weight: the bold title in the corner stays the page's one title
            items.append(Text(gx + geo.group_w / 2, first - k * step, line, size, False, "center"))
    y -= geo.name_h
    if geo.game_h:
        items.append(Rect(x0, y - geo.game_h, geo.label_w, geo.game_h, fill=TOTAL_SHADE))
        items.append(
            Text(x0 + 1.6 * MM, centred(y - geo.game_h / 2, 8.5), words["games_label"], 8.5, True)
        )
        for c in range(geo.players * geo.games):
            cx = x0 + geo.label_w + c * geo.col_w
            items.append(Rect(cx, y - geo.game_h, geo.col_w, geo.game_h, fill=TOTAL_SHADE))
            number = str(c % geo.games + 1)
            items.append(Text(cx + geo.col_w / 2, centred(y - geo.game_h / 2, 8.5), number,
                              8.5, True, "center"))  # fmt: skip
        y -= geo.game_h
    head = y
    for row in block_rows(spec):
        items += row_items(row, x0, y, geo, geo.players * geo.games)
        y -= geo.row_h
    bottom = y
    table_top = top
    frame_top = top - geo.name_h  # the corner with the title stays open
    items.append(Rect(x0, bottom, geo.table_w, frame_top - bottom, stroke=INK, line_width=1.4))
    groups_x = geo.group_x(0)
    items.append(Rect(groups_x, frame_top, geo.table_w - geo.label_w, geo.name_h, stroke=INK,
                      line_width=1.4))  # fmt: skip
    for p in range(1, geo.players):  # heavier lines between the players
        gx = geo.group_x(p)
        items.append(Line(gx, table_top, gx, bottom, line_width=1.4))
    items.append(Line(groups_x, frame_top, groups_x, bottom, line_width=1.4))
    split = head - geo.row_h * (len(spec.rules.upper) + 3)
    items.append(Line(x0, split, x0 + geo.table_w, split, line_width=1.4))
    items += footer_line(MARGIN, geo.page_w - MARGIN, words["footer"])
    return items


def layout_family(spec: BlockSpec, paper: str, landscape: bool, per_page: str) -> Document:
    """The family sheet, once per copy (the names on every copy)."""
    check_family(spec, per_page)
    geo = family_geometry(spec, paper, landscape)
    words = block_words(spec)
    form = tuple(family_form(spec, geo, words))
    pages = tuple(Page((UseForm("family"),)) for _ in range(spec.copies))
    title = f"{spec.rules.name[spec.lang]} – {words['family_title']}"
    return Document(geo.page_w, geo.page_h, pages, {"family": form}, title=title)
