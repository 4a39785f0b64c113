"""The worksheet: requests, inputs and the pure build (versions, key) → `Built`.

`generator.worksheet.load.load_worksheet` is the edge: it reads the spec and
the roster and takes each level's pool of problems from the solver cache
(computing it once; a long run reports through an optional
`progress(stage, done, total)` callback).
`plan_worksheet` deals every version's problems (pure, and what the tests
re-check); `build_worksheet` adds the words, lays out the sheets and the key
(after the sheets, or as its own document when `key_file` is set) and the
manifest contents. No click, file or environment here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from generator.core.built import Built, font_warnings, invisible_warnings, visible
from generator.core.errors import DoesNotFit, Input, InputError, Msg, Note, UserError
from generator.numbers.expr import SYMBOLS
from generator.text.words import Templates, Texts, maths
from generator.worksheet.difficulty import BRACKET_POINTS, FRACTION_POINTS, OP_POINTS
from generator.worksheet.levels import Family, Level, rules_json
from generator.worksheet.model import (
    AnswerKey,
    KeySection,
    KeyVersion,
    SheetCopy,
    SheetWords,
    ShownProblem,
    ShownSection,
    VersionSheet,
)
from generator.worksheet.pool import Pool, ProblemKey, Progress
from generator.worksheet.roster import Pupil, Roster, mark_large_print
from generator.worksheet.sampler import Problem, SectionPlan, deal_section, plan_section
from generator.worksheet.spec import SectionSpec, WorksheetSpec

if TYPE_CHECKING:
    from generator.render.primitives import Document

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_PER_PAGE = 100
TEMPLATE = "worksheet"


@dataclass(frozen=True)
class WorksheetRequest:
    """The options of `dicesheets worksheet`."""

    family: str = "koepfchen"
    level: int = 2
    problems: int = 20
    impossible: int = 0
    versions: int = 1
    seed: int = 1
    title: str | None = None
    lang: str = "de"
    paper: str = "a4"
    large_print: bool = False
    roster: str | None = None  # a class list file
    names: str | None = None  # "Anna, Ben, Cem" instead of a roster file
    large_print_for: str | None = None  # "Cem, Hannes": these pupils get large print
    spec: str | None = None  # a shipped spec name or a YAML file; replaces the four above
    key_file: str | None = None  # the key in its own PDF (recorded in the manifest)
    key: bool = True  # print the answer key (after the sheets or in key_file)
    klass: str | None = None  # written on every sheet's class line (a roster's column wins)
    date: str | None = None  # written on every sheet's date line
    per_page: int | None = None  # at most this many problems on a page
    one_page: bool = False  # every sheet on one page, or an error
    duplex: bool = False  # every pupil's sheet an even number of pages
    ops: str | None = None  # the level's operations replaced: "+-", "+−×÷", "+·:"
    targets: str | None = None  # the level's target range replaced: "1-20"
    topic: str | None = None  # a topic of Klasse 1–4 instead of a family and level
    number_range: str | None = None  # a topic's numbers: the largest in A-B ("20-100")
    carry: str | None = None  # yes | no | mixed
    unknown: str | None = None  # result | operand | mixed
    rows: str | None = None  # times tables 1–10: "2,5,10"
    dice: bool = False  # Klasse 1: small numbers as dice pips
    list_topics: bool = False  # --topics: the command lists the topics instead of building


@dataclass(frozen=True)
class LoadedSection:
    """One section of the spec with its level and the level's pool of problems."""

    spec: SectionSpec
    family: Family
    level: Level
    pool: Pool


@dataclass(frozen=True)
class WorksheetInputs:
    """Everything a worksheet is built from, read at the edge."""

    spec: WorksheetSpec
    sections: tuple[LoadedSection, ...]
    roster: Roster | None
    templates: Templates
    # the pupils' own levels ("Stufe" column) besides the request's: (level, its sections)
    levels: tuple[tuple[int, tuple[LoadedSection, ...]], ...] = ()


@dataclass(frozen=True)
class PlannedSection:
    """One section with every version's problems."""

    spec: SectionSpec
    family: Family
    level: Level
    pool: Pool
    plan: SectionPlan
    versions: tuple[tuple[Problem, ...], ...]


@dataclass(frozen=True)
class Worksheet:
    """Everything a worksheet prints, before layout."""

    title: str
    lang: str
    seed: int
    spec: WorksheetSpec
    sections: tuple[PlannedSection, ...]
    letters: tuple[str, ...]
    pupils: tuple[Pupil, ...]
    warnings: tuple[str, ...]
    templates: Templates | None = None  # None: the shipped ones
    large_print: bool = False  # everybody's sheet in large print
    klass: str = ""
    date: str = ""
    level_headings: bool = False  # one of several levels: each section is headed by its level

    @property
    def copies(self) -> tuple[SheetCopy, ...]:
        """One sheet per pupil (versions dealt in turn), or one per version without a roster.

        A pupil's version depends only on the place in the class list, never on large
        print, so the key's list holds for every sheet.
        """
        if self.pupils:
            return tuple(
                SheetCopy(
                    i % len(self.letters),
                    pupil.name,
                    self.large_print or pupil.large_print,
                    pupil.klass or self.klass,
                    self.date,
                )
                for i, pupil in enumerate(self.pupils)
            )
        return tuple(
            SheetCopy(v, "", self.large_print, self.klass, self.date)
            for v in range(len(self.letters))
        )

    def problems(self, version: int) -> list[tuple[int, PlannedSection, Problem]]:
        """(printed number, section, problem) of every problem of a version, in order."""
        found: list[tuple[int, PlannedSection, Problem]] = []
        for section in self.sections:
            for problem in section.versions[version]:
                found.append((len(found) + 1, section, problem))
        return found


def _report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def without(pool: Pool, taken: set[ProblemKey]) -> Pool:
    """The pool less the problems earlier sections of the sheet use (in any version)."""
    if not taken:
        return pool
    return Pool(
        pool.level,
        tuple(c for c in pool.solvable if c.key not in taken),
        tuple(c for c in pool.impossible if c.key not in taken),
    )


def with_large_print(roster: Roster | None, names: str | None) -> Roster | None:
    """`--large-print-for` applied to the class list (pure: also for an uploaded list)."""
    if names is None:
        return roster
    if roster is None:
        raise InputError("large_print_for", Msg("needs_class_list"))
    return mark_large_print(roster, names)


def plan_worksheet(
    inputs: WorksheetInputs,
    req: WorksheetRequest,
    progress: Progress | None = None,
    first_letter: int = 0,
) -> Worksheet:
    """Deal every version's problems, section by section (pure); the versions are lettered
    from `LETTERS[first_letter]` on (a later level of a class with several)."""
    if not 1 <= req.versions <= len(LETTERS):
        raise InputError(
            "versions",
            Msg("range", low=1, high=len(LETTERS), noun="versions", found=req.versions),
        )
    if req.per_page is not None and not 1 <= req.per_page <= MAX_PER_PAGE:
        raise InputError(
            "per_page", Msg("range_bare", low=1, high=MAX_PER_PAGE, found=req.per_page)
        )
    if req.per_page is not None and req.one_page:
        raise InputError("per_page", Msg("per_page_and_one_page"))
    spec = inputs.spec
    roster = with_large_print(inputs.roster, req.large_print_for)
    sections = []
    taken: set[ProblemKey] = set()  # by earlier sections: one sheet never repeats a problem
    for index, loaded in enumerate(inputs.sections):
        section, family, level = loaded.spec, loaded.family, loaded.level
        pool = without(loaded.pool, taken)
        seed = f"{req.seed}/{index}/{family.id}/{level.level}"
        try:
            plan = plan_section(
                pool, section.problems, section.impossible, req.versions, seed, section.where
            )
        except UserError as exc:
            if not taken:
                raise
            raise UserError(Msg("besides_above", what=exc.msg), where=exc.where) from None
        dealt = deal_section(pool, plan, req.versions, seed)
        taken.update(p.key for problems in dealt for p in problems)
        sections.append(
            PlannedSection(section, family, level, pool, plan, tuple(tuple(v) for v in dealt))
        )
        _report(progress, "problems", index + 1, len(spec.sections))
    t = Texts(TEMPLATE, req.lang, inputs.templates)
    if req.title and visible(req.title).strip():
        title = visible(req.title)
    elif spec.title:
        title = spec.title[req.lang]
    elif len(sections) == 1:
        only = sections[0]
        title = t("default_title", family=only.family.name[req.lang], level=only.level.level)
    else:
        title = t("mixed_title")
    warnings: list[str] = list(roster.warnings) if roster else []
    if roster and len(roster.pupils) < req.versions:
        unused = ", ".join(LETTERS[len(roster.pupils) : req.versions])
        names = len(roster.pupils)
        msg = Msg("names_for_versions", names=names, versions=req.versions, unused=unused)
        warnings.append(Note(msg))
    return Worksheet(
        title=title,
        lang=req.lang,
        seed=req.seed,
        spec=spec,
        sections=tuple(sections),
        letters=tuple(LETTERS[first_letter : first_letter + req.versions]),
        pupils=roster.pupils if roster else (),
        warnings=tuple(warnings),
        templates=inputs.templates,
        large_print=req.large_print,
        klass=_tidy_option(req.klass, "class"),
        date=_tidy_option(req.date, "date"),
    )


MAX_FIELD = 40


def _tidy_option(text: str | None, subject: str) -> str:
    """A --class or --date text: spaces tidied, printable, not longer than the line."""
    if text is None:
        return ""
    tidy = " ".join(visible(text).split())  # (build_worksheet warns of what was removed)
    if any(unicodedata.category(ch) == "Cc" for ch in tidy):
        raise InputError(subject, Msg("control_character"))
    if len(tidy) > MAX_FIELD:
        raise InputError(subject, Msg("too_long", length=len(tidy), most=MAX_FIELD))
    return tidy


# --- words ------------------------------------------------------------------------------


def _ops(level: Level, lang: str) -> list[str]:
    return [maths(SYMBOLS[op], lang) for op in level.rules.ops]


def brackets_help(ops: str) -> bool:
    """Whether brackets can make a number the signs `ops` cannot make without them: only
    when + or − meet × or ÷ (6 − (3 − 1) is 6 − 3 + 1, but (6 − 1) · 2 has no such twin)."""
    return bool(set(ops) & set("+-")) and bool(set(ops) & set("*/"))


def _heading(ws: Worksheet, section: PlannedSection) -> str:
    if section.spec.heading:
        return section.spec.heading[ws.lang]
    return section.level.name[ws.lang] if len(ws.sections) > 1 or ws.level_headings else ""


def version_sheets(ws: Worksheet) -> list[VersionSheet]:
    """What every version shows."""
    t = Texts(TEMPLATE, ws.lang, ws.templates)
    sheets = []
    for v, letter in enumerate(ws.letters):
        numbered = ws.problems(v)
        shown = []
        for section in ws.sections:
            level = section.level
            instruction = t(
                "instruction",
                kind=level.numbers.kind,
                ops=_ops(level, ws.lang),
                use_all=level.rules.use_all,
                rational=level.rules.rational,
                impossible=section.plan.impossible > 0,
                brackets=brackets_help(level.rules.ops),
            )
            problems = tuple(
                ShownProblem(number, p.numbers, level.numbers.kind, p.target)
                for number, s, p in numbered
                if s is section
            )
            shown.append(ShownSection(_heading(ws, section), instruction, problems))
        sheets.append(VersionSheet(letter, tuple(shown), ws.title if ws.level_headings else ""))
    return sheets


def sheet_words(ws: Worksheet) -> SheetWords:
    t = Texts(TEMPLATE, ws.lang, ws.templates)
    return SheetWords(
        title=ws.title,
        name=t("name_label"),
        klass=t("class_label"),
        date=t("date_label"),
        score=t("score_label"),
        score_total=t("score_total", total=ws.spec.problems),
        version=t("version_label"),
        footer=lambda letter: t("footer", title=ws.title, version=letter, number=ws.seed),
        page=lambda page, pages: t("page_label", page=page, pages=pages),
        large_page=lambda letter, page, pages: t("large_page_label", version=letter,
                                                 number=ws.seed, page=page, pages=pages),
        blank=t("blank_page"),
    )  # fmt: skip


def values_text(numbers: tuple[int, ...]) -> str:
    """The dice or cards of a problem as the key lists them: "3, 5, 6" (never a sign that
    could be read as multiplication)."""
    return ", ".join(str(n) for n in numbers)


def answer_key(ws: Worksheet) -> AnswerKey:
    """Per version and problem: the simplest solution and how many there are."""
    t = Texts(TEMPLATE, ws.lang, ws.templates)
    kinds = {s.level.numbers.kind for s in ws.sections}
    columns = (
        t("col_number"),
        t("col_values", kind=kinds.pop() if len(kinds) == 1 else "mixed"),
        t("col_target"),
        t("col_solution"),
        t("col_count"),
        t("col_difficulty"),
    )
    versions = []
    for v, letter in enumerate(ws.letters):
        numbered = ws.problems(v)
        sections = []
        for section in ws.sections:
            rows = tuple(
                (
                    str(number),
                    values_text(p.numbers),
                    str(p.target),
                    maths(p.simplest, ws.lang) if p.simplest else t("no_solution"),
                    str(p.count),
                    str(p.difficulty.score) if p.difficulty else "–",
                )
                for number, s, p in numbered
                if s is section
            )
            heading = (
                t(
                    "key_section",
                    heading=_heading(ws, section) or section.level.name[ws.lang],
                    family=section.family.name[ws.lang],
                    level=section.level.level,
                    ops=_ops(section.level, ws.lang),
                )
                if len(ws.sections) > 1
                else ""
            )
            sections.append(KeySection(heading, rows))
        versions.append(KeyVersion(t("key_version", version=letter), tuple(sections)))
    intro = [
        t(
            "key_intro",
            title=ws.title,
            versions=len(ws.letters),
            problems=ws.spec.problems,
            seed=ws.seed,
        ),
    ]
    if len(ws.sections) == 1:
        only = ws.sections[0]
        intro.append(
            t(
                "key_section",
                heading=only.level.name[ws.lang],
                family=only.family.name[ws.lang],
                level=only.level.level,
                ops=_ops(only.level, ws.lang),
            )
        )
    intro.append(t("difficulty_explained", fractions=any(s.level.rules.rational
                                                         for s in ws.sections)))  # fmt: skip
    roster = tuple(
        (t("roster_name", name=copy.name, large_print=copy.large_print), ws.letters[copy.version])
        for copy in ws.copies
        if ws.pupils
    )
    return AnswerKey(
        title=t("key_title", title=ws.title),
        intro=tuple(intro),
        columns=columns,
        versions=tuple(versions),
        roster_heading=t("roster_heading"),
        roster_columns=(t("col_name"), t("col_version")),
        roster=roster,
        footer=t("key_footer"),
        page=lambda page, pages: t("page_label", page=page, pages=pages),
    )


# --- manifest ---------------------------------------------------------------------------

DIFFICULTY_FORMULA = (
    "(fewest numbers - 1) + fewest operation points (- {minus}, x {times}, / {divide}) "
    "+ {brackets} if every solution needs brackets + {fractions} if every solution needs a "
    "fraction or a negative number + scarcity (1 solution: 3, 2: 2, 3-4: 1, 5+: 0)"
).format(
    minus=OP_POINTS["-"],
    times=OP_POINTS["*"],
    divide=OP_POINTS["/"],
    brackets=BRACKET_POINTS,
    fractions=FRACTION_POINTS,
)


def _problem_json(number: int, section: int, level: Level, p: Problem) -> dict[str, Any]:
    return {
        "number": number,
        "section": section,
        "numbers": list(p.numbers),
        "target": p.target,
        "rules": rules_json(level.rules),
        "solvable": p.solvable,
        "count": p.count,
        "simplest": p.simplest,
        "difficulty": p.difficulty.score if p.difficulty else None,
        "difficulty_parts": p.difficulty.as_json() if p.difficulty else None,
    }


def manifest_contents(ws: Worksheet, sheet_pages: list[int], key_pages: int) -> dict[str, Any]:
    """Everything a test or a teacher's script needs to check the sheets."""
    index = {id(s): i for i, s in enumerate(ws.sections)}
    return {
        "kind": "worksheet",
        "title": ws.title,
        "lang": ws.lang,
        "problems": ws.spec.problems,
        "spec_file": ws.spec.source or None,
        "difficulty_formula": DIFFICULTY_FORMULA,
        "sections": [
            {
                "family": s.family.id,
                "family_file": s.family.source,
                "level": s.level.level,
                "level_name": s.level.name[ws.lang],
                "definition": s.level.describe(),
                "problems": s.plan.problems,
                "impossible": s.plan.impossible,
                "impossible_positions": [p + 1 for p in s.plan.impossible_at],
                "profile": list(s.plan.profile),
                "pool": {"solvable": len(s.pool.solvable), "impossible": len(s.pool.impossible)},
                "versions_disjoint": s.plan.disjoint,
            }
            for s in ws.sections
        ],
        "versions": [
            {
                "letter": letter,
                "problems": [
                    _problem_json(number, index[id(s)], s.level, p)
                    for number, s, p in ws.problems(v)
                ],
            }
            for v, letter in enumerate(ws.letters)
        ],
        "sheets": sheets_json(ws.copies, ws.letters, sheet_pages),
        "pages_per_sheet": sheet_pages[0],
        "sheet_pages": sum(sheet_pages),
        "key_pages": key_pages,
    }


# --- writing ----------------------------------------------------------------------------


def default_name(req: WorksheetRequest, ws: Worksheet, level: int | None = None) -> str:
    """The file's name; `level`: the sheet's level (a class with several: the request's)."""
    if ws.spec.source:
        stem = PurePath(ws.spec.source).stem
    else:
        only = ws.sections[0]
        stem = f"{only.family.id}-level{only.level.level if level is None else level}"
    large = "-large" if req.large_print else ""
    return f"worksheet-{stem}-{req.lang}{large}.pdf"


def _does_not_fit(exc: Any, req: WorksheetRequest) -> InputError:
    """The one-page / per-page message: what fits, and what to change."""
    large = bool(exc.large_print)
    if req.one_page:
        return DoesNotFit(
            "one_page",
            Msg("pages_needed", problems=exc.problems, pages=exc.pages, large=large, fit=exc.fit),
            exc.needed,
            exc.room,
            remedies=("problems",),
        )
    return DoesNotFit(
        "per_page",
        Msg("per_page_fit", problems=exc.problems, large=large, fit=exc.fit),
        exc.needed,
        exc.room,
    )


@dataclass(frozen=True)
class LevelGroup:
    """The pupils of one level, in a class whose list gives pupils their own levels."""

    level: int
    worksheet: Worksheet  # their versions (lettered on from the level before) and sheets
    places: tuple[int, ...]  # where they stand in the class list


def level_groups(
    inputs: WorksheetInputs, req: WorksheetRequest, progress: Progress | None = None
) -> list[LevelGroup] | None:
    """The class split by the "Stufe" column, lowest level first (None: one level for all).

    Each level gets as many versions as asked, but no more than it has pupils; the letters
    run on from level to level, so every version's letter names one level in the key.
    """
    roster = with_large_print(inputs.roster, req.large_print_for)  # names: the whole class
    if not inputs.levels or roster is None:
        return None
    base = inputs.sections[0].level.level
    sections = {base: inputs.sections, **dict(inputs.levels)}
    places: dict[int, list[int]] = {}
    for i, pupil in enumerate(roster.pupils):
        places.setdefault(pupil.level or base, []).append(i)
    total = sum(min(req.versions, len(found)) for found in places.values())
    if total > len(LETTERS):
        raise InputError("versions", Msg("too_many_groups", groups=total, most=len(LETTERS)))
    groups: list[LevelGroup] = []
    first = 0
    for number in sorted(places):
        pupils = tuple(roster.pupils[i] for i in places[number])
        own = replace(inputs, sections=sections[number], roster=Roster(pupils, ()), levels=())
        own_req = replace(req, versions=min(req.versions, len(pupils)), large_print_for=None)
        ws = replace(plan_worksheet(own, own_req, progress, first), level_headings=True)
        groups.append(LevelGroup(number, ws, tuple(places[number])))
        first += own_req.versions
    return groups


def _levels_title(groups: Sequence[LevelGroup], req: WorksheetRequest) -> str:
    if req.title and visible(req.title).strip():
        return visible(req.title)
    ws = groups[0].worksheet
    t = Texts(TEMPLATE, req.lang, ws.templates)
    family = ws.sections[0].family.name[req.lang]
    return t("levels_title", family=family, levels=[g.level for g in groups])


def level_copies(groups: Sequence[LevelGroup]) -> list[SheetCopy]:
    """Every pupil's sheet in class-list order, its version counted over all levels."""
    copies: dict[int, SheetCopy] = {}
    for group in groups:
        offset = LETTERS.index(group.worksheet.letters[0])
        for place, copy in zip(group.places, group.worksheet.copies):
            copies[place] = replace(copy, version=copy.version + offset)
    return [copies[place] for place in sorted(copies)]


def levels_key(groups: Sequence[LevelGroup], title: str, req: WorksheetRequest) -> AnswerKey:
    """One key for every level: which versions are which level, and who has which."""
    first = groups[0].worksheet
    t = Texts(TEMPLATE, req.lang, first.templates)
    keys = [answer_key(g.worksheet) for g in groups]
    letters = [letter for g in groups for letter in g.worksheet.letters]
    intro = [t("key_intro", title=title, versions=len(letters), problems=first.spec.problems,
               seed=req.seed)]  # fmt: skip
    for group in groups:
        ws = group.worksheet
        level = ws.sections[0].level
        section = t("key_section", heading=level.name[req.lang], family=ws.sections[0].family
                    .name[req.lang], level=level.level, ops=_ops(level, req.lang))  # fmt: skip
        intro.append(t("key_level_versions", section=section, letters=list(ws.letters)))
    rational = any(s.level.rules.rational for g in groups for s in g.worksheet.sections)
    intro.append(t("difficulty_explained", fractions=rational))
    versions = [
        replace(version, heading=t("key_level_version", version=letter, level=g.level))
        for g, key in zip(groups, keys)
        for version, letter in zip(key.versions, g.worksheet.letters)
    ]
    level_of = {letter: g.level for g in groups for letter in g.worksheet.letters}
    roster = tuple(
        (
            t("roster_name", name=copy.name, large_print=copy.large_print),
            t("roster_level", version=letters[copy.version], level=level_of[letters[copy.version]]),
        )
        for copy in level_copies(groups)
    )
    return replace(keys[0], title=t("key_title", title=title), intro=tuple(intro),
                   versions=tuple(versions), roster=roster)  # fmt: skip


def levels_contents(
    groups: Sequence[LevelGroup], title: str, sheet_pages: list[int], key_pages: int
) -> dict[str, Any]:
    """The manifest of a class with several levels: every level's sections and versions,
    each sheet's level, and `levels` (which versions each level has)."""
    parts = [manifest_contents(g.worksheet, sheet_pages, key_pages) for g in groups]
    contents = {**parts[0], "title": title, "sections": [], "versions": []}
    for part in parts:
        offset = len(contents["sections"])
        contents["sections"] += part["sections"]
        for version in part["versions"]:
            problems = [{**p, "section": p["section"] + offset} for p in version["problems"]]
            contents["versions"].append({**version, "problems": problems})
    copies = level_copies(groups)
    letters = [letter for g in groups for letter in g.worksheet.letters]
    level_of = {letter: g.level for g in groups for letter in g.worksheet.letters}
    contents["sheets"] = [
        {**sheet, "level": level_of[sheet["version"]]}
        for sheet in sheets_json(copies, letters, sheet_pages)
    ]
    contents["levels"] = [
        {
            "level": g.level,
            "level_name": g.worksheet.sections[0].level.name[g.worksheet.lang],
            "versions": list(g.worksheet.letters),
            "pupils": len(g.places),
        }
        for g in groups
    ]
    return contents


def build_worksheet(
    inputs: WorksheetInputs, req: WorksheetRequest, progress: Progress | None = None
) -> Built:
    """The sheets and the answer key (after the sheets, or its own document with `key_file`).

    A class list whose "Stufe" column asks for other levels gets every pupil a sheet of
    their level (`level_groups`) and one key for all.
    """
    from generator.worksheet.layout import PagesDoNotFit, Pagination, layout_key, layout_sheets

    groups = level_groups(inputs, req, progress)
    ws = plan_worksheet(inputs, req, progress) if groups is None else groups[0].worksheet
    pupils, noted = ws.pupils, ws.warnings
    if groups is not None and inputs.roster is not None:  # (groups: always a class list)
        pupils, noted = inputs.roster.pupils, inputs.roster.warnings
    printed = [(Input("title"), ws.title)] + [
        (f"{req.roster}:{p.line}" if req.roster else Input("names"), p.name) for p in pupils
    ]
    warnings: list[str | UserError] = [*noted, *font_warnings(printed)]
    texts = [(Input("title"), req.title), (Input("class"), req.klass), (Input("date"), req.date)]
    warnings += invisible_warnings(texts)
    separate_key = req.key_file is not None
    if separate_key and not req.key:
        raise InputError("key", Msg("key_file_without_key"))
    _report(progress, "layout", 0, 1)
    if groups is None:
        title = ws.title
        key = answer_key(ws) if req.key else None
        versions, copies, words = version_sheets(ws), list(ws.copies), sheet_words(ws)
    else:
        title = _levels_title(groups, req)
        key = levels_key(groups, title, req) if req.key else None
        versions = [v for g in groups for v in version_sheets(g.worksheet)]
        copies = level_copies(groups)
        titles = {v.letter: v.title for v in versions}
        t = Texts(TEMPLATE, req.lang, ws.templates)
        words = replace(
            sheet_words(ws),
            title=title,
            footer=lambda letter: t("footer", title=titles[letter], version=letter,
                                    number=req.seed),
        )  # fmt: skip
    pagination = Pagination(req.per_page, req.one_page, req.duplex)
    try:
        doc, sheet_pages = layout_sheets(
            versions,
            copies,
            words,
            None if separate_key else key,
            req.paper,
            req.large_print,
            pagination,
        )
    except PagesDoNotFit as exc:
        raise _does_not_fit(exc, req) from None
    key_pages = len(doc.pages) - sum(sheet_pages)
    extra: tuple[tuple[str, Document], ...] = ()
    if separate_key and key is not None:
        key_doc = layout_key(key, req.paper)
        key_pages = len(key_doc.pages)
        extra = (("key", key_doc),)
    _report(progress, "layout", 1, 1)
    if groups is None:
        contents = manifest_contents(ws, sheet_pages, key_pages)
    else:
        contents = levels_contents(groups, title, sheet_pages, key_pages)
    contents["key_pdf"] = None  # the writer names the key's file when it has its own
    options = {
        "family": req.family if req.spec is None else None,
        "level": req.level if req.spec is None else None,
        "problems": req.problems if req.spec is None else None,
        "impossible": req.impossible if req.spec is None else None,
        "spec": req.spec,
        "versions": req.versions,
        "title": req.title,
        "lang": req.lang,
        "paper": req.paper,
        "large_print": req.large_print,
        "roster": PurePath(req.roster).name if req.roster else None,
        "names": req.names,
        "large_print_for": req.large_print_for,
        "key_file": str(req.key_file) if req.key_file else None,
        "key": req.key,
        "class": req.klass,
        "date": req.date,
        "per_page": req.per_page,
        "one_page": req.one_page,
        "duplex": req.duplex,
        "ops": req.ops,
        "targets": req.targets,
    }
    name = default_name(req, ws, inputs.sections[0].level.level)
    return Built("worksheet", name, doc, options, req.seed, contents, tuple(warnings), extra)


def sheets_json(
    copies: Sequence[SheetCopy], letters: Sequence[str], sheet_pages: Sequence[int]
) -> list[dict[str, Any]]:
    """The manifest's `sheets`: each copy's version, pupil, print size and pages."""
    return [
        {
            "version": letters[c.version],
            "name": c.name or None,
            "large_print": c.large_print,
            "class": c.klass or None,
            "first_page": 1 + sum(sheet_pages[:i]),
            "pages": sheet_pages[i],
        }
        for i, c in enumerate(copies)
    ]
