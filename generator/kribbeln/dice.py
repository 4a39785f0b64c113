"""The six Kribbeln colour dice: model and YAML loader (`task_catalog/kribbeln/dice.yaml`).

Every die shows the values 1–6, each face in a different one of six colours.
A die is stored as the colour of each value, so the colour of a roll follows
from the values shown on die 1…6. Across the six dice the real game forms a
Latin square (every (value, colour) pair once); home-made dice that do not are
accepted with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generator.core.errors import CatalogError
from generator.core.fields import Fields, LocList, position
from generator.core.problems import Problems, each, require_all
from generator.text.words import LANGS

N_DICE = 6
N_FACES = 6
N_COLORS = 6
VALUES = tuple(range(1, N_FACES + 1))
SUBDIR = "kribbeln"
DEFAULT_FILE = f"{SUBDIR}/dice.yaml"

# Shapes and fills the sheets can draw in black and white (render/ knows them by name).
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "cross", "plus", "hexagon")
PATTERNS = ("solid", "horizontal", "vertical", "diagonal", "crosshatch", "dots", "none")
_RGB = re.compile(r"#[0-9a-fA-F]{6}")
_COLOR_ID = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Color:
    """One die colour: its id in the files, its name per language, and how to print it."""

    id: str
    name: dict[str, str]  # lang -> name as the templates use it ("rot", "red")
    rgb: str  # "#rrggbb"
    symbol: str  # one of SYMBOLS: tells the colours apart in black and white
    pattern: str = "none"  # one of PATTERNS: an optional fill for larger areas

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(frozen=True)
class DiceSet:
    """Six dice; `faces[d][v - 1]` is the colour id that die d (0-based) shows for value v."""

    colors: tuple[Color, ...]
    faces: tuple[tuple[str, ...], ...]
    source: str = ""

    @property
    def n_dice(self) -> int:
        return len(self.faces)

    @property
    def color_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.colors)

    def color(self, color_id: str) -> Color:
        """The colour with this id (KeyError if there is none)."""
        for c in self.colors:
            if c.id == color_id:
                return c
        raise KeyError(color_id)

    def color_index(self, color_id: str) -> int:
        """The position of a colour in `colors` (the column of a colour-count array)."""
        return self.color_ids.index(color_id)

    def color_of(self, die: int, value: int) -> str:
        """The colour id die `die` (0-based) shows when it shows `value` (1–6)."""
        return self.faces[die][value - 1]

    def roll_colors(self, values: Sequence[int]) -> tuple[str, ...]:
        """The colours of a roll given as the value on die 1…n."""
        if len(values) != self.n_dice or not all(v in VALUES for v in values):
            raise ValueError(f"expected {self.n_dice} values 1–6, got {tuple(values)}")
        return tuple(self.color_of(d, v) for d, v in enumerate(values))

    def fingerprint(self) -> list[list[str]]:
        """What results depend on: the colour of every face (names and looks do not count)."""
        return [list(die) for die in self.faces]

    def latin_square_breaches(self) -> list[tuple[int, str, list[int]]]:
        """(value, colour, dice 1-based) for every colour shown on more than one die at a value."""
        breaches = []
        for v in VALUES:
            by_color: dict[str, list[int]] = {}
            for d in range(self.n_dice):
                by_color.setdefault(self.color_of(d, v), []).append(d + 1)
            breaches += [(v, c, ds) for c, ds in by_color.items() if len(ds) > 1]
        return breaches


def _color(color_id: object, data: object, colors: Fields) -> Color:
    if not isinstance(color_id, str) or not _COLOR_ID.fullmatch(color_id):
        raise colors.error(
            color_id,
            f"colors: color id {color_id!r} must be a lower-case word (letters, digits, _)",
        )
    f = Fields(data, colors.file, f"colors.{color_id}")
    f.unknown_keys({*LANGS, "rgb", "symbol", "pattern"})
    name = f.lang_texts()
    rgb = f.get("rgb", str)
    if not _RGB.fullmatch(rgb):
        raise f.error("rgb", f"key 'colors.{color_id}.rgb': expected '#rrggbb', found '{rgb}'")
    return Color(
        id=color_id,
        name=name,
        rgb=rgb.lower(),
        # "": not given, filled in by _fill_looks
        symbol=f.choice("symbol", SYMBOLS) if "symbol" in f.data else "",
        pattern=f.choice("pattern", PATTERNS) if "pattern" in f.data else "",
    )


def _fill_looks(
    colors: list[Color], f: Fields, shipped_looks: Callable[[], Mapping[str, tuple[str, str]]]
) -> tuple[list[Color], list[str]]:
    """Give every colour without a symbol or pattern a distinct one, with a warning each.

    Only what the file states can clash (checked by the caller); a default is the
    shipped colour's look when its id is a shipped colour and that look is free, else
    the first free one in the order of SYMBOLS and PATTERNS.
    """
    missing = [c for c in colors if not c.symbol or not c.pattern]
    if not missing:
        return colors, []
    shipped = shipped_looks()
    used = {"symbol": {c.symbol for c in colors}, "pattern": {c.pattern for c in colors}}
    choices = {"symbol": SYMBOLS, "pattern": tuple(p for p in PATTERNS if p != "none")}
    filled: dict[str, Color] = {}
    warnings = []
    for c in missing:
        looks = {}
        for index, attr in enumerate(("symbol", "pattern")):
            if getattr(c, attr):
                continue
            first = shipped.get(c.id, ("", ""))[index]
            free = [v for v in (first, *choices[attr]) if v and v not in used[attr]]
            looks[attr] = free[0]
            used[attr].add(free[0])
        filled[c.id] = replace(
            c, symbol=looks.get("symbol", c.symbol), pattern=looks.get("pattern", c.pattern)
        )
        line, _ = f.position(c.id)
        given = ", ".join(f"{attr} '{value}'" for attr, value in looks.items())
        warnings.append(
            f"{f.file}:{line}: colors.{c.id}: no {' and no '.join(looks)} given; using {given}"
        )
    return [filled.get(c.id, c) for c in colors], warnings


def _die(
    data: object, index: int, dice: LocList, colors: dict[str, Color], file: str
) -> tuple[str, ...]:
    label = f"dice[{index}] (die {index + 1})"
    if not isinstance(data, dict):
        line, col = position(dice, index)
        raise CatalogError(
            f"{label}: expected a mapping value 1–6 → color", file=file, line=line, column=col
        )
    f = Fields(data, file, label)
    for key in data:
        if isinstance(key, bool) or key not in VALUES:
            raise f.error(key, f"{label}: key '{key}' is not a die value (expected 1–6)")
    missing = [v for v in VALUES if v not in data]
    if missing:
        line, col = position(dice, index)
        raise CatalogError(
            f"{label}: missing value {', '.join(map(str, missing))} "
            "(every die shows the values 1–6)",
            file=file,
            line=line,
            column=col,
        )
    seen: dict[str, int] = {}
    for v in VALUES:
        color = data[v]
        if not isinstance(color, str) or color not in colors:
            raise f.error(
                v,
                f"{label}: key '{v}': unknown color {color!r} "
                f"(expected one of {', '.join(colors)})",
            )
        if color in seen:
            raise f.error(
                v,
                f"{label}: key '{v}': color '{color}' repeated (also on value {seen[color]}); "
                "every die shows six different colors",
            )
        seen[color] = v
    return tuple(data[v] for v in VALUES)


def parse_dice(
    data: Any,
    label: str,
    problems: Problems | None = None,
    shipped_looks: Callable[[], Mapping[str, tuple[str, str]]] = dict,
) -> tuple[DiceSet, list[str]]:
    """Validate one dice file's data; returns the dice and warnings ("file:line: …").

    `shipped_looks()` gives the symbol and pattern of each shipped colour, the first
    choice for a colour of that id that the file gives none (read only when needed).
    """
    top = Fields(data, label)
    top.unknown_keys({"colors", "dice"})
    raw_colors = top.get("colors", dict)
    colors_f = Fields(raw_colors, label, "colors")
    colors = each(raw_colors.items(), lambda _, pair: _color(pair[0], pair[1], colors_f), problems)
    require_all(colors, raw_colors, label)
    if len(colors) != N_COLORS:
        raise top.error("colors", f"colors: expected {N_COLORS} colors, found {len(colors)}")
    for attr in ("symbol", "pattern"):
        used: dict[str, str] = {}
        for c in colors:
            value = getattr(c, attr)
            if value in ("none", ""):
                continue
            if value in used:
                raise colors_f.error(
                    c.id,
                    f"key 'colors.{c.id}.{attr}': '{value}' is also the {attr} of "
                    f"'{used[value]}' (colors must be told apart in black and white)",
                )
            used[value] = c.id
    colors, warnings = _fill_looks(colors, colors_f, shipped_looks)
    by_id = {c.id: c for c in colors}
    raw_dice = top.get("dice", list)
    if len(raw_dice) != N_DICE:
        raise top.error("dice", f"dice: expected {N_DICE} dice, found {len(raw_dice)}")
    faces = tuple(each(raw_dice, lambda i, d: _die(d, i, raw_dice, by_id, label), problems))
    require_all(list(faces), raw_dice, label)
    dice = DiceSet(colors=tuple(colors), faces=faces, source=label)
    line, _ = position(raw_dice, None)
    for value, color, on in dice.latin_square_breaches():
        where = f"{label}:{line}" if line else label
        warnings.append(
            f"{where}: dice: value {value} is {color} on dice {', '.join(map(str, on))} "
            "(not a Latin square; home-made dice are accepted)"
        )
    return dice, warnings
