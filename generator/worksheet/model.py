"""What the pupils' sheets and the answer key show: words and numbers, no geometry.

The pipeline (`generator.worksheet.build`) fills these from the sampled problems and
the templates; `generator.worksheet.layout` places them on pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.render.flow import Figure


@dataclass(frozen=True)
class ShownProblem:
    """One problem on a sheet: its number, the dice or cards, the target."""

    number: int
    values: tuple[int, ...]
    kind: str  # "dice" (drawn with pips) | "cards" (a digit on a card)
    target: int


@dataclass(frozen=True)
class ShownSection:
    heading: str  # "" on a sheet of one section
    instruction: str
    problems: tuple[ShownProblem, ...]


@dataclass(frozen=True)
class VersionSheet:
    """The content of one version (A, B, …), the same for every pupil who gets it."""

    letter: str
    sections: tuple[ShownSection, ...]
    title: str = ""  # its own title (a class with several levels); "": the sheet's


@dataclass(frozen=True)
class SheetCopy:
    """One printed sheet: a version, for a named pupil or with a blank name line."""

    version: int  # index into the versions
    name: str = ""
    large_print: bool = False
    klass: str = ""  # written on the class line ("" leaves it blank)
    date: str = ""  # written on the date line


@dataclass(frozen=True)
class SheetWords:
    """The fixed words of a sheet, from the templates."""

    title: str
    name: str
    klass: str
    date: str
    score: str
    score_total: str  # "/ 20"
    version: str
    footer: Callable[[str], str]  # version letter → footer text
    page: Callable[[int, int], str]  # (page, pages) → "Seite 1/2"
    large_page: Callable[[str, int, int], str] | None = None  # large print: (letter, page, pages)
    blank: str = ""  # the note on a back page left blank for double-sided printing


@dataclass(frozen=True)
class KeySection:
    heading: str
    rows: tuple[tuple[str, ...], ...]  # number, values, target, solution, count, difficulty
    figures: tuple[Figure, ...] = ()  # grid puzzles drawn solved, shown instead of the rows


@dataclass(frozen=True)
class KeyVersion:
    heading: str
    sections: tuple[KeySection, ...]


@dataclass(frozen=True)
class AnswerKey:
    """Every version's problems with the simplest solution and the number of solutions."""

    title: str
    intro: tuple[str, ...]  # paragraphs
    columns: tuple[str, ...]
    versions: tuple[KeyVersion, ...]
    roster_heading: str
    roster_columns: tuple[str, str]
    roster: tuple[tuple[str, str], ...]  # (name, version letter)
    footer: str
    page: Callable[[int, int], str]
    widths: tuple[float, ...] = ()  # the columns' shares of the width ((): the family key's)
    align: tuple[str, ...] = ()
