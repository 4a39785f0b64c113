"""The topic worksheet (`dicesheets worksheet --topic ID`): deal, check, words, key, manifest.

Pure: the topic table and the templates come in, a `Built` goes out. Every dealt
problem is re-solved by its topic's independent checker before it is printed, and
the key prints the checker's completion.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from generator.core.built import Built, font_warnings
from generator.core.errors import Input, InputError, Msg, Note, UserError
from generator.text.words import Templates, Texts
from generator.worksheet.build import (
    LETTERS,
    MAX_PER_PAGE,
    TEMPLATE,
    WorksheetRequest,
    _tidy_option,
    sheets_json,
    with_large_print,
)
from generator.worksheet.layout import Pagination
from generator.worksheet.model import AnswerKey, KeySection, KeyVersion, SheetCopy, SheetWords
from generator.worksheet.roster import Pupil, Roster
from generator.worksheet.spec import MAX_PROBLEMS, SectionSpec, WorksheetSpec
from generator.worksheet.topics import (
    GRID_SHAPES,
    answer_text,
    check_controls,
    parse_range,
    parse_rows,
    task_text,
    topic,
)
from generator.worksheet.topics.base import Controls, Dealt, NotEnough, Task, Topic, deal

if TYPE_CHECKING:
    from generator.render.primitives import Document


DEFAULT_PROBLEMS = WorksheetRequest.problems  # the --problems default


@dataclass(frozen=True)
class TopicPart:
    """One section of a topic sheet: the topic, its controls and every version's tasks."""

    topic: Topic
    controls: Controls
    dealt: Dealt
    heading: dict[str, str] | None = None


@dataclass(frozen=True)
class TopicPlan:
    parts: tuple[TopicPart, ...]
    letters: tuple[str, ...]
    pupils: tuple[Pupil, ...]
    title: str
    warnings: tuple[str, ...]
    large_print: bool
    klass: str
    date: str
    spec_file: str = ""

    @property
    def topic(self) -> Topic:
        return self.parts[0].topic

    def tasks(self, version: int) -> list[tuple[int, int, Task]]:
        """(number, section, task) of every problem of a version, in order."""
        found: list[tuple[int, int, Task]] = []
        for k, part in enumerate(self.parts):
            for task in part.dealt.versions[version]:
                found.append((len(found) + 1, k, task))
        return found

    @property
    def problems(self) -> int:
        return sum(len(p.dealt.versions[0]) for p in self.parts)

    @property
    def copies(self) -> tuple[SheetCopy, ...]:
        """One sheet per pupil (versions in turn), or one per version without a class list."""
        if self.pupils:
            return tuple(
                SheetCopy(i % len(self.letters), p.name, self.large_print or p.large_print,
                          p.klass or self.klass, self.date)
                for i, p in enumerate(self.pupils)
            )  # fmt: skip
        return tuple(
            SheetCopy(v, "", self.large_print, self.klass, self.date)
            for v in range(len(self.letters))
        )


@dataclass(frozen=True)
class TopicInputs:
    """What a topic sheet is built from, read at the edge: no pools, the topics deal."""

    spec: WorksheetSpec | None  # a spec of topic sections, or None for --topic
    roster: Roster | None
    templates: Templates | None


def request_controls(req: WorksheetRequest) -> Controls:
    """The request's controls, parsed: "20-100" → (20, 100), "2,5,10" → (2, 5, 10)."""
    return Controls(
        parse_range(req.number_range) if req.number_range is not None else None,
        req.carry,
        req.unknown,
        parse_rows(req.rows) if req.rows is not None else None,
        req.dice,
    )


def _named(controls: Controls, t: Topic) -> str:
    """The inputs that chose these problems: "topic add-10, range 0-3"."""
    parts = [f"topic {t.id}"]
    for name, value in controls.as_json().items():
        if value not in (None, False):
            shown = ",".join(map(str, value)) if isinstance(value, list) else value
            parts.append(name + ("" if value is True else f" {shown}"))
    return ", ".join(parts)


def _spec_controls(section: SectionSpec) -> Controls:
    """A spec section's controls, each error naming its place in the file."""
    c = section.controls
    try:
        dice = c.get("dice", "false").lower()
        if dice not in ("true", "false", "yes", "no"):
            raise InputError("dice", Msg("expected_true_false_found", c=c["dice"]))
        for key, allowed in (("carry", CARRY), ("unknown", UNKNOWN)):
            if key in c and c[key] not in allowed:
                raise InputError(key, Msg("one_of", known=", ".join(allowed), found=c[key]))
        return Controls(
            parse_range(c["range"]) if "range" in c else None,
            c.get("carry"),
            c.get("unknown"),
            parse_rows(c["rows"]) if "rows" in c else None,
            dice in ("true", "yes"),
        )
    except UserError as exc:
        place = section.where.get(str(exc.where or ""), section.where["topic"])
        raise UserError(exc.message, where=place) from None


CARRY = ("yes", "no", "mixed")
UNKNOWN = ("result", "operand", "mixed")


def _deal_part(
    t: Topic, controls: Controls, problems: int, versions: int, seed: str, taken: set[object]
) -> Dealt:
    check_controls(t, controls)
    try:
        dealt = deal(t.space(controls), problems, versions, seed, taken)
    except NotEnough as exc:
        raise UserError(
            Msg(
                "only_different_problems_asked",
                named=_named(controls, t),
                found=exc.found,
                exact=bool(exc.exact),
                besides=bool(taken),
                problems=problems,
            ),
            where=Input("problems"),
        ) from None
    for version in dealt.versions:
        for task in version:
            if t.check(task) != task.solution:  # the generator and the checker disagree
                raise AssertionError(f"{t.id}: {task.cells} checked as {t.check(task)}")
            taken.add(task.key)
    return dealt


def plan_topic(
    req: WorksheetRequest,
    roster: Roster | None,
    templates: Templates | None,
    spec: WorksheetSpec | None = None,
) -> TopicPlan:
    """Deal every version's problems of the topic (or the spec's topics) and check each one."""
    if not 1 <= req.versions <= len(LETTERS):
        raise InputError(
            "versions", Msg("versions_range", n_letters=len(LETTERS), versions=req.versions)
        )
    if not 1 <= req.problems <= MAX_PROBLEMS:
        raise InputError(
            "problems", Msg("problems_range", max_problems=MAX_PROBLEMS, problems=req.problems)
        )
    if req.per_page is not None and not 1 <= req.per_page <= MAX_PER_PAGE:
        raise InputError(
            "per_page", Msg("per_page_range", max_per_page=MAX_PER_PAGE, per_page=req.per_page)
        )
    if req.per_page is not None and req.one_page:
        raise InputError("per_page", Msg("per_page_and_one_page"))
    taken: set[object] = set()  # one sheet never repeats a problem
    parts = []
    if spec is None:
        assert req.topic is not None
        t = topic(req.topic)
        controls = request_controls(req)
        seed = f"{req.seed}/0/{t.id}"
        # without --problems a tally sheet holds its two experiments, a drill twenty
        problems = t.default_problems if req.problems == DEFAULT_PROBLEMS else req.problems
        parts.append(TopicPart(t, controls, _deal_part(t, controls, problems,
                                                        req.versions, seed, taken)))  # fmt: skip
    else:
        for k, section in enumerate(spec.sections):
            assert section.topic is not None
            try:
                t = topic(section.topic)
            except UserError as exc:
                raise UserError(exc.message, where=section.where["topic"]) from None
            controls = _spec_controls(section)
            seed = f"{req.seed}/{k}/{t.id}"
            try:
                dealt = _deal_part(t, controls, section.problems, req.versions, seed, taken)
            except UserError as exc:  # the spec's line, not an option, says where
                if not isinstance(exc.where, Input):
                    raise
                place = section.where.get(str(exc.where), section.where["topic"])
                raise UserError(exc.message, where=place) from None
            parts.append(TopicPart(t, controls, dealt, section.heading))
    roster = with_large_print(roster, req.large_print_for)
    words = Texts(TEMPLATE, req.lang, templates)
    if req.title:
        title = req.title
    elif spec is not None and spec.title:
        title = spec.title[req.lang]
    elif len(parts) == 1:
        title = words(
            "topic_title", name=parts[0].topic.name[req.lang], klasse=parts[0].topic.klasse
        )
    else:
        title = words("topic_mixed_title", klasse=max(p.topic.klasse for p in parts))
    warnings: list[str] = list(roster.warnings) if roster else []
    if roster and len(roster.pupils) < req.versions:
        unused = ", ".join(LETTERS[len(roster.pupils) : req.versions])
        names = len(roster.pupils)
        msg = Msg("names_for_versions", names=names, versions=req.versions, unused=unused)
        warnings.append(Note(msg))
    return TopicPlan(tuple(parts), tuple(LETTERS[: req.versions]),
                     roster.pupils if roster else (), title, tuple(warnings), req.large_print,
                     _tidy_option(req.klass, "class"), _tidy_option(req.date, "date"),
                     spec.source if spec else "")  # fmt: skip


def part_heading(plan: TopicPlan, part: TopicPart, lang: str) -> str:
    if part.heading:
        return part.heading[lang]
    return part.topic.name[lang] if len(plan.parts) > 1 else ""


def _sheet_words(plan: TopicPlan, t: Texts, seed: int) -> SheetWords:
    return SheetWords(
        title=plan.title,
        name=t("name_label"),
        klass=t("class_label"),
        date=t("date_label"),
        score=t("score_label"),
        score_total=t("score_total", total=plan.problems),
        version=t("version_label"),
        footer=lambda letter: t("footer", title=plan.title, version=letter, number=seed),
        page=lambda page, pages: t("page_label", page=page, pages=pages),
        large_page=lambda letter, page, pages: t("large_page_label", version=letter,
                                                 number=seed, page=page, pages=pages),
        blank=t("blank_page"),
    )  # fmt: skip


def _key_rows(number: int, task: Task, t: Texts, lang: str) -> list[tuple[str, str, str]]:
    """A problem's rows of the key: one, or a tally's one per result."""
    if task.shape != "tally":
        return [(str(number), task_text(task, lang), answer_text(task, task.solution, lang))]
    rows = [(str(number), task_text(task, lang), "")]
    for result, k, n, low, high in task.solution[1:]:
        expected = f"{k}/{n}" if n != 1 else str(k)
        rows.append(("", str(result), t("tally_answer", expected=expected, low=low, high=high)))
    return rows


def _key(plan: TopicPlan, t: Texts, lang: str, seed: int, paper: str) -> AnswerKey:
    """The key: a table of the answers; a section of grid puzzles drawn solved instead."""
    from generator.worksheet.topiclayout import Shown, solved_figures

    versions = []
    for v, letter in enumerate(plan.letters):
        numbered = plan.tasks(v)
        sections = []
        for k, part in enumerate(plan.parts):
            rows = tuple(
                row for n, s, task in numbered if s == k for row in _key_rows(n, task, t, lang)
            )
            tasks = [(n, task) for n, s, task in numbered if s == k]
            grid = all(task.shape in GRID_SHAPES for _, task in tasks)
            shown = [Shown(n, task, lang) for n, task in tasks]
            figures = solved_figures(shown, paper) if grid else ()
            sections.append(KeySection(part_heading(plan, part, lang), rows, figures))
        versions.append(KeyVersion(t("key_version", version=letter), tuple(sections)))
    intro = (
        t("topic_key_intro", title=plan.title, versions=len(plan.letters),
          problems=plan.problems, seed=seed),
    )  # fmt: skip
    roster = tuple(
        (t("roster_name", name=c.name, large_print=c.large_print), plan.letters[c.version])
        for c in plan.copies
        if plan.pupils
    )
    return AnswerKey(
        title=t("key_title", title=plan.title),
        intro=intro,
        columns=(t("col_number"), t("col_task"), t("col_answer")),
        versions=tuple(versions),
        roster_heading=t("roster_heading"),
        roster_columns=(t("col_name"), t("col_version")),
        roster=roster,
        footer=t("key_footer"),
        page=lambda page, pages: t("page_label", page=page, pages=pages),
        widths=(0.5, 3.4, 3.0),
        align=("right", "left", "left"),
    )


def problem_json(number: int, task: Task, lang: str, section: int = 0) -> dict[str, Any]:
    """One problem of the manifest: the question as printed and the key's answer."""
    found: dict[str, Any] = {
        "number": number,
        "section": section,
        "topic": task.topic,
        "text": task_text(task, lang),
        "answer": answer_text(task, task.solution, lang),
        "class": list(task.cls),
    }
    if task.shape in GRID_SHAPES:
        found["cells"] = [list(row) for row in task.cells]
        found["solution"] = [list(row) for row in task.solution]
    if task.carry is not None:
        found["carry"] = task.carry
    if task.shape == "square":
        found["magic_sum"] = task.note
    if task.shape == "chance":
        from generator.worksheet.topics.chance import KINDS, probability

        events = [row for row in task.cells if len(row) == 3]
        found["question"] = task.ops[0]
        found["events"] = [
            {"dice": e[0], "event": KINDS[int(e[1] or 0)], "value": e[2],
             "probability": str(probability((int(e[0] or 0), int(e[1] or 0), int(e[2] or 0))))}
            for e in events
        ]  # fmt: skip
        if task.ops[0] == "count":
            found["rolls"] = task.cells[1][0]
    if task.shape == "tally":
        dice, rolls = task.solution[0]
        found["dice"], found["rolls"] = dice, rolls
        found["expected"] = {str(r[0]): f"{r[1]}/{r[2]}" for r in task.solution[1:]}
        found["spread"] = {str(r[0]): [r[3], r[4]] for r in task.solution[1:]}
    return found


def build_topic_worksheet(
    req: WorksheetRequest,
    roster: Roster | None,
    templates: Templates | None,
    spec: WorksheetSpec | None = None,
) -> Built:
    """The sheets of a topic and their key (after the sheets, or in `key_file`)."""
    from generator.worksheet.layout import layout_key
    from generator.worksheet.topiclayout import (
        Shown,
        TopicPagesDoNotFit,
        TopicSection,
        TopicVersion,
        layout_topic_sheets,
    )

    plan = plan_topic(req, roster, templates, spec)
    t = Texts(TEMPLATE, req.lang, templates)
    if req.key_file is not None and not req.key:
        raise InputError("key", Msg("key_file_without_key"))
    versions = []
    for v, letter in enumerate(plan.letters):
        numbered = plan.tasks(v)
        sections = []
        for k, part in enumerate(plan.parts):
            instruction = t("topic_instruction", topic=part.topic.id,
                            shape=part.dealt.versions[0][0].shape)  # fmt: skip
            shown = tuple(Shown(n, task, req.lang, part.controls.dice)
                          for n, s, task in numbered if s == k)  # fmt: skip
            sections.append(TopicSection(part_heading(plan, part, req.lang), instruction, shown))
        versions.append(TopicVersion(letter, tuple(sections)))
    key = _key(plan, t, req.lang, req.seed, req.paper) if req.key else None
    separate = req.key_file is not None
    try:
        doc, sheet_pages = layout_topic_sheets(
            versions, plan.copies, _sheet_words(plan, t, req.seed), None if separate else key,
            req.paper, req.large_print, Pagination(req.per_page, req.one_page, req.duplex),
        )  # fmt: skip
    except TopicPagesDoNotFit as exc:
        if exc.per_page:
            big = bool(exc.large)
            fit = Msg("topic_per_page_fit", problems=exc.problems, large=big, fit=exc.fit)
            raise InputError("per_page", fit) from None
        raise InputError(
            "one_page",
            Msg("problems_need_pages_fit", problems=exc.problems, pages=exc.pages, fit=exc.fit),
        ) from None
    key_pages = len(doc.pages) - sum(sheet_pages)
    extra: tuple[tuple[str, Document], ...] = ()
    if separate and key is not None:
        key_doc = layout_key(key, req.paper)
        key_pages = len(key_doc.pages)
        extra = (("key", key_doc),)
    printed = [(Input("title"), plan.title)] + [
        (f"{req.roster}:{p.line}" if req.roster else Input("names"), p.name) for p in plan.pupils
    ]
    warnings: list[str | UserError] = [*plan.warnings, *font_warnings(printed)]
    contents: dict[str, Any] = {
        "kind": "worksheet",
        "title": plan.title,
        "lang": req.lang,
        "problems": plan.problems,
        "spec_file": plan.spec_file or None,
        "sections": [
            {
                "topic": p.topic.id,
                "topic_name": p.topic.name[req.lang],
                "klasse": p.topic.klasse,
                "controls": p.controls.as_json(),
                "problems": len(p.dealt.versions[0]),
                "pool": {"problems": p.dealt.pool, "complete": p.dealt.exhaustive},
                "profile": [list(c) for c in p.dealt.profile],
                "versions_disjoint": p.dealt.disjoint,
            }
            for p in plan.parts
        ],
        "versions": [
            {
                "letter": letter,
                "problems": [problem_json(n, task, req.lang, k) for n, k, task in plan.tasks(v)],
            }
            for v, letter in enumerate(plan.letters)
        ],
        "sheets": sheets_json(plan.copies, plan.letters, sheet_pages),
        "pages_per_sheet": sheet_pages[0],
        "sheet_pages": sum(sheet_pages),
        "key_pages": key_pages,
        "key_pdf": None,
    }
    options = {
        "topic": req.topic,
        **(request_controls(req).as_json() if spec is None else {}),
        "spec": req.spec,
        "problems": req.problems if spec is None else None,
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
    }
    large = "-large" if req.large_print else ""
    stem = PurePath(plan.spec_file).stem if plan.spec_file else plan.topic.id
    name = f"worksheet-{stem}-{req.lang}{large}.pdf"
    return Built("worksheet", name, doc, options, req.seed, contents, tuple(warnings), extra)
