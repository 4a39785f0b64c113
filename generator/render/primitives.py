"""The layout vocabulary: pages of rectangles, lines, text and reusable forms, in points.

Coordinates are PDF points with the origin at the bottom left of the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Align = Literal["left", "center", "right"]

PAPER = {"a4": (595.2755905511812, 841.8897637795277), "letter": (612.0, 792.0)}
MM = 72 / 25.4


def page_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height in points of a paper name."""
    width, height = PAPER[paper]
    return (height, width) if landscape else (width, height)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6
    dash: tuple[float, ...] | None = None
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    line_width: float = 0.6
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    stroke: str | None = "#000000"
    fill: str | None = None
    line_width: float = 0.6


@dataclass(frozen=True)
class Text:
    """One line of text; `x` is its left edge, centre or right edge by `align`, `y` its baseline."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    align: Align = "left"
    color: str = "#000000"


@dataclass(frozen=True)
class UseForm:
    """Draw the named form (drawn once per document, reused on every page) shifted by dx, dy."""

    name: str
    dx: float = 0.0
    dy: float = 0.0


Item = Rect | Line | Circle | Polygon | Text | UseForm


@dataclass(frozen=True)
class Page:
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Document:
    width: float
    height: float
    pages: tuple[Page, ...]
    forms: Mapping[str, tuple[Item, ...]] = field(default_factory=dict)
    title: str = ""


class LaterForms(Mapping[str, tuple[Item, ...]]):
    """Forms whose items are made when first asked for: a preview that draws 5 pages of
    a class set's 54 lays out only the forms those pages use. Every name is known at once
    (the page count never waits for a drawing), and a form's items are the same whenever
    they are made."""

    def __init__(self) -> None:
        self._makers: dict[str, tuple[Sequence[str], Callable[[], Sequence[tuple[Item, ...]]]]] = {}
        self._made: dict[str, tuple[Item, ...]] = {}

    def later(self, names: Sequence[str], make: Callable[[], Sequence[tuple[Item, ...]]]) -> None:
        """`make()` gives the items of the forms `names`, in that order (made together: one
        version's pages are laid out in one go)."""
        for name in names:
            self._makers[name] = (names, make)

    def __getitem__(self, name: str) -> tuple[Item, ...]:
        if name not in self._made:
            names, make = self._makers[name]
            made = make()
            assert len(made) == len(names), "a form maker gave another number of pages"
            self._made.update(zip(names, made))
        return self._made[name]

    @property
    def made(self) -> frozenset[str]:
        """The forms drawn so far (what a preview cost)."""
        return frozenset(self._made)

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def __reduce__(self) -> tuple[Any, ...]:  # (pickled as the plain dict it stands for)
        return (dict, (dict(self.items()),))


def texts_of(items: tuple[Item, ...], forms: Mapping[str, tuple[Item, ...]]) -> list[Text]:
    """Every Text a list of items draws, with forms expanded and shifted (for tests and checks)."""
    out: list[Text] = []
    for item in items:
        if isinstance(item, Text):
            out.append(item)
        elif isinstance(item, UseForm):
            for t in texts_of(forms[item.name], forms):
                out.append(
                    Text(t.x + item.dx, t.y + item.dy, t.text, t.size, t.bold, t.align, t.color)
                )
    return out
