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
from generator.core.errors import Input, InputError, UserError
from generator.text.words import Templates, Texts
from generator.worksheet.build import (
    LETTERS,
    MAX_PER_PAGE,
    TEMPLATE,
    WorksheetRequest,
    _tidy_option,
    with_large_print,
)
from generator.worksheet.layout import Pagination
from generator.worksheet.model import AnswerKey, KeySection, KeyVersion, SheetCopy, SheetWords
from generator.worksheet.roster import Pupil, Roster
from generator.worksheet.spec import MAX_PROBLEMS
from generator.worksheet.topics import (
    CONTROL_OPTIONS,
    GRID_SHAPES,
    answer_text,
    check_controls,
    task_text,
    topic,
)
from generator.worksheet.topics.base import Controls, Dealt, NotEnough, Task, Topic, deal

if TYPE_CHECKING:
    from generator.render.primitives import Document


@dataclass(frozen=True)
class TopicPlan:
    topic: Topic
    controls: Controls
    dealt: Dealt
    letters: tuple[str, ...]
    pupils: tuple[Pupil, ...]
    title: str
    warnings: tuple[str, ...]
    large_print: bool
    klass: str
    date: str

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


def request_controls(req: WorksheetRequest) -> Controls:
    return Controls(req.range, req.carry, req.unknown, req.rows, req.dice)


def _named(controls: Controls, t: Topic) -> str:
    """The options that chose these problems, as the user typed them."""
    parts = [f"--topic {t.id}"]
    for name, value in controls.as_json().items():
        if value not in (None, False):
            shown = ",".join(map(str, value)) if isinstance(value, list) else value
            parts.append(CONTROL_OPTIONS[name] + ("" if value is True else f" {shown}"))
    return " ".join(parts)


def plan_topic(
    req: WorksheetRequest, roster: Roster | None, templates: Templates | None
) -> TopicPlan:
    """Deal every version's problems of the topic and check each one (pure)."""
    assert req.topic is not None
    t = topic(req.topic)
    if not 1 <= req.versions <= len(LETTERS):
        raise InputError("versions", f"expected 1–{len(LETTERS)} versions, found {req.versions}")
    if not 1 <= req.problems <= MAX_PROBLEMS:
        raise InputError("problems", f"expected 1–{MAX_PROBLEMS} problems, found {req.problems}")
    if req.per_page is not None and not 1 <= req.per_page <= MAX_PER_PAGE:
        raise InputError("per_page", f"expected 1–{MAX_PER_PAGE}, found {req.per_page}")
    if req.per_page is not None and req.one_page:
        raise InputError(
            "per_page", "one page per sheet decides the problems per page; ask for one of the two"
        )
    controls = request_controls(req)
    check_controls(t, controls)
    try:
        dealt = deal(t.space(controls), req.problems, req.versions, f"{req.seed}/0/{t.id}")
    except NotEnough as exc:
        how = "exist" if exc.exact else "were found"
        raise UserError(
            f"{_named(controls, t)}: only {exc.found} different problems {how}, "
            f"{req.problems} asked (--problems)",
            where=Input("problems"),
        ) from None
    for version in dealt.versions:
        for task in version:
            if t.check(task) != task.solution:  # the generator and the checker disagree
                raise AssertionError(f"{t.id}: {task.cells} checked as {t.check(task)}")
    roster = with_large_print(roster, req.large_print_for)
    words = Texts(TEMPLATE, req.lang, templates)
    title = req.title or words("topic_title", name=t.name[req.lang], klasse=t.klasse)
    warnings = list(roster.warnings) if roster else []
    if roster and len(roster.pupils) < req.versions:
        unused = ", ".join(LETTERS[len(roster.pupils) : req.versions])
        warnings.append(
            f"{len(roster.pupils)} names for {req.versions} versions: "
            f"version {unused} is only in the key"
        )
    return TopicPlan(t, controls, dealt, tuple(LETTERS[: req.versions]),
                     roster.pupils if roster else (), title, tuple(warnings), req.large_print,
                     _tidy_option(req.klass, "class"), _tidy_option(req.date, "date"))  # fmt: skip


def _sheet_words(plan: TopicPlan, t: Texts, seed: int) -> SheetWords:
    return SheetWords(
        title=plan.title,
        name=t("name_label"),
        klass=t("class_label"),
        date=t("date_label"),
        score=t("score_label"),
        score_total=t("score_total", total=len(plan.dealt.versions[0])),
        version=t("version_label"),
        footer=lambda letter: t("footer", title=plan.title, version=letter, number=seed),
        page=lambda page, pages: t("page_label", page=page, pages=pages),
        large_page=lambda page, pages: t("large_page_label", number=seed, page=page,
                                         pages=pages),
        blank=t("blank_page"),
    )  # fmt: skip


def _key(plan: TopicPlan, t: Texts, lang: str, seed: int) -> AnswerKey:
    versions = []
    for v, letter in enumerate(plan.letters):
        rows = tuple(
            (str(n), task_text(task, lang), answer_text(task, task.solution, lang))
            for n, task in enumerate(plan.dealt.versions[v], start=1)
        )
        versions.append(KeyVersion(t("key_version", version=letter), (KeySection("", rows),)))
    intro = (
        t("topic_key_intro", title=plan.title, versions=len(plan.letters),
          problems=len(plan.dealt.versions[0]), seed=seed),
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


def problem_json(number: int, task: Task, lang: str) -> dict[str, Any]:
    """One problem of the manifest: the question as printed and the key's answer."""
    found: dict[str, Any] = {
        "number": number,
        "section": 0,
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
    req: WorksheetRequest, roster: Roster | None, templates: Templates | None
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

    plan = plan_topic(req, roster, templates)
    t = Texts(TEMPLATE, req.lang, templates)
    if req.key_file is not None and not req.key:
        raise InputError("key", "there is no key to write without the key; ask for one of the two")
    instruction = t("topic_instruction", topic=plan.topic.id,
                    shape=plan.dealt.versions[0][0].shape)  # fmt: skip
    versions = [
        TopicVersion(letter, (TopicSection("", instruction, tuple(
            Shown(n, task, req.lang, req.dice) for n, task in enumerate(plan.dealt.versions[v], 1)
        )),))
        for v, letter in enumerate(plan.letters)
    ]  # fmt: skip
    key = _key(plan, t, req.lang, req.seed) if req.key else None
    separate = req.key_file is not None
    try:
        doc, sheet_pages = layout_topic_sheets(
            versions, plan.copies, _sheet_words(plan, t, req.seed), None if separate else key,
            req.paper, req.large_print, Pagination(req.per_page, req.one_page, req.duplex),
        )  # fmt: skip
    except TopicPagesDoNotFit as exc:
        raise InputError(
            "one_page", f"{exc.problems} problems need {exc.pages} pages; {exc.fit} fit on one"
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
    d = plan.dealt
    contents: dict[str, Any] = {
        "kind": "worksheet",
        "title": plan.title,
        "lang": req.lang,
        "problems": len(d.versions[0]),
        "spec_file": None,
        "sections": [
            {
                "topic": plan.topic.id,
                "topic_name": plan.topic.name[req.lang],
                "klasse": plan.topic.klasse,
                "controls": plan.controls.as_json(),
                "problems": len(d.versions[0]),
                "pool": {"problems": d.pool, "complete": d.exhaustive},
                "profile": [list(c) for c in d.profile],
                "versions_disjoint": d.disjoint,
            }
        ],
        "versions": [
            {
                "letter": letter,
                "problems": [
                    problem_json(n, task, req.lang) for n, task in enumerate(d.versions[v], 1)
                ],
            }
            for v, letter in enumerate(plan.letters)
        ],
        "sheets": [
            {
                "version": plan.letters[c.version],
                "name": c.name or None,
                "large_print": c.large_print,
                "class": c.klass or None,
                "first_page": 1 + sum(sheet_pages[:i]),
                "pages": sheet_pages[i],
            }
            for i, c in enumerate(plan.copies)
        ],
        "pages_per_sheet": sheet_pages[0],
        "sheet_pages": sum(sheet_pages),
        "key_pages": key_pages,
        "key_pdf": None,
    }
    options = {
        "topic": plan.topic.id,
        **{k: v for k, v in plan.controls.as_json().items()},
        "problems": req.problems,
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
    name = f"worksheet-{plan.topic.id}-{req.lang}{large}.pdf"
    return Built("worksheet", name, doc, options, req.seed, contents, tuple(warnings), extra)
