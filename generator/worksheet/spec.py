"""What a worksheet holds: sections of problems, each from one family and level.

The command-line options describe a sheet of one section; a worksheet spec (YAML,
`--spec`) names several, so one sheet can mix families and levels:

    title: {de: "Würfelrechnen – gemischt", en: "Dice maths – mixed"}   # optional
    sections:
      - {family: koepfchen, level: 1, problems: 4}
      - {family: koepfchen, level: 3, problems: 4, impossible: 1}
      - {family: "24", level: 1, problems: 2, heading: {de: "Zum Schluss: 24", en: "Last: 24"}}

A section may instead name a topic of Klasse 1–4 with its controls; a sheet's sections
are then all topics (`dicesheets worksheet --topics` lists them):

    sections:
      - {topic: add-20-carry, problems: 10}
      - {topic: number-wall-3, problems: 6, range: 10-20, heading: {de: "Mauern", en: "Walls"}}
      - {topic: times-table, problems: 10, rows: "2,5,10", unknown: mixed}

Shipped specs live in `task_catalog/worksheet/specs/`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import CatalogError, Input, UserError
from generator.core.fields import Fields

SPEC_DIR = "worksheet/specs"
MAX_PROBLEMS = 100
MAX_SECTIONS = 8


@dataclass(frozen=True)
class SectionSpec:
    """One section: `problems` problems of a level, `impossible` of them without a solution."""

    family: str
    level: int
    problems: int
    impossible: int = 0
    heading: dict[str, str] | None = None
    where: dict[str, str] = field(default_factory=dict, compare=False)
    topic: str | None = None  # a topic section (family and level unused)
    controls: dict[str, str] = field(default_factory=dict)  # range, carry, unknown, rows, dice


@dataclass(frozen=True)
class WorksheetSpec:
    title: dict[str, str] | None
    sections: tuple[SectionSpec, ...]
    source: str = ""  # the spec file, "" for the command-line options

    @property
    def problems(self) -> int:
        return sum(s.problems for s in self.sections)

    @property
    def topics(self) -> bool:
        """The sections are topics of Klasse 1–4 (not families of dice problems)."""
        return any(s.topic for s in self.sections)


def single_section(family: str, level: int, problems: int, impossible: int) -> WorksheetSpec:
    """The spec the command-line options describe."""
    where: dict[str, str] = {
        "family": Input("family"),
        "level": Input("level"),
        "problems": Input("problems"),
        "impossible": Input("impossible"),
        "versions": Input("versions"),
    }
    if not 1 <= problems <= MAX_PROBLEMS:
        raise UserError(
            f"expected 1–{MAX_PROBLEMS} problems, found {problems}", where=where["problems"]
        )
    return WorksheetSpec(None, (SectionSpec(family, level, problems, impossible, None, where),))


def parse_spec(data: Any, label: str) -> WorksheetSpec:
    """Validate one worksheet spec's data."""
    f = Fields(data, label)
    f.unknown_keys({"title", "sections"})
    title = f.texts("title", None, plain=True)
    raw = f.get("sections", list)
    if not raw:
        raise f.error("sections", "expected at least one section")
    if len(raw) > MAX_SECTIONS:
        raise f.error("sections", f"{len(raw)} sections (expected at most {MAX_SECTIONS})")
    sections = []
    for i, item in enumerate(raw):
        context = f"sections[{i}]"
        s = Fields(item, label, context)
        if isinstance(item, dict) and "topic" in item:
            sections.append(_topic_section(item, label, context))
            continue
        s.unknown_keys({"family", "level", "problems", "impossible", "heading"})
        heading = s.texts("heading", None, plain=True)
        where = {k: s.place(k) for k in ("family", "level", "problems", "impossible")}
        where["versions"] = Input("versions")
        sections.append(
            SectionSpec(
                family=str(s.get("family", (str, int))),
                level=s.int_in("level", 1, 99),
                problems=s.int_in("problems", 1, MAX_PROBLEMS),
                impossible=s.int_in("impossible", 0, MAX_PROBLEMS, 0),
                heading=heading,
                where=where,
            )
        )
    spec = WorksheetSpec(title, tuple(sections), label)
    if spec.topics and not all(x.topic for x in spec.sections):
        raise CatalogError(
            "a sheet's sections are either all topics or all families (expected one kind)",
            file=label,
        )
    if spec.problems > MAX_PROBLEMS:
        raise CatalogError(
            f"{spec.problems} problems in all (expected at most {MAX_PROBLEMS})", file=label
        )
    return spec


TOPIC_KEYS = ("range", "carry", "unknown", "rows", "dice")


def _topic_section(item: Any, label: str, context: str) -> SectionSpec:
    """A section of a topic of Klasse 1–4 and its controls (checked when it is dealt)."""
    s = Fields(item, label, context)
    s.unknown_keys({"topic", "problems", "heading", *TOPIC_KEYS})
    where = {k: s.place(k) for k in ("topic", "problems", *TOPIC_KEYS)}
    where["versions"] = Input("versions")
    # YAML reads a bare yes / no as a boolean: carry: no means "no"
    controls = {
        k: ("yes" if item[k] else "no") if isinstance(item[k], bool) else str(item[k])
        for k in TOPIC_KEYS
        if k in item
    }
    return SectionSpec(
        family="",
        level=0,
        problems=s.int_in("problems", 1, MAX_PROBLEMS),
        heading=s.texts("heading", None, plain=True),
        where=where,
        topic=str(s.get("topic", str)),
        controls=controls,
    )
