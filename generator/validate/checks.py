"""`dicesheets validate`: check catalog files for form and meaning, reporting every problem.

Each problem is one line `file:line:column: message`. A file's item-level problems are
all collected (`generator.core.problems`), and every file is checked even after another
failed. Meaning checks go beyond the schema: unknown colours and task types, dice
that are no Latin square (a warning), tasks no roll can fulfil, board profiles whose
targets the dice cannot reach or whose constraints contradict each other or cannot
be met, balance files that the task catalog cannot satisfy, templates that do not
parse or lack a text the program needs. Templates are also rendered: every product
that uses a checked template is built in memory in every language
(`generator.validate.rehearsal`), and whatever a macro would fail on is reported at its line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import CatalogError, Msg, Note, UserError
from generator.core.problems import Incomplete, Problems, report_problem
from generator.core.resources import catalog_dir, templates_dir
from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.io.userfiles import confined_error, inside
from generator.io.yamlload import load_file

if TYPE_CHECKING:
    from generator.kribbeln.dice import DiceSet
    from generator.kribbeln.tasks import TaskCatalog


@dataclass
class Report:
    """Problems and warnings found, and how many files were checked."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # what a designer should know that is no problem: the tasks no pad can use
    notes: list[str] = field(default_factory=list)
    files: int = 0
    # what rendering the products found, by template file (reported with that file)
    rendered: dict[str, list[CatalogError]] = field(default_factory=dict)

    def add(self, exc: CatalogError | UserError) -> None:
        if not isinstance(exc, Incomplete) and str(exc) not in self.errors:
            self.errors.append(Note.of(exc))  # its line, and its words for a page in German


def _note(where: str, msg: Msg) -> Note:
    return Note(Msg("at", where=where, what=msg))


def counted(n: int, noun: str) -> str:
    """'1 problem', '3 problems' (the nouns of the summary take a plain -s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _kind_by_place(path: Path, root: Path | None) -> str | None:
    parts = path.relative_to(root).parts if root is not None else path.parts[-3:]
    if path.suffix == ".j2":
        return "template"
    if path.suffix.lower() == ".csv":
        return "kribbeln-tasks"  # the only kind of CSV file dicesheets reads
    if path.suffix not in (".yaml", ".yml"):
        return None
    folder = parts[-2] if len(parts) >= 2 else ""
    stem = path.stem
    if folder == "kniffel":
        return "kniffel"
    if folder == "kribbeln":
        for kind in ("dice", "tasks", "balance"):
            if stem.startswith(kind):
                return f"kribbeln-{kind}"
    if folder == "koepfchen":
        return "koepfchen"
    if folder == "specs":
        return "worksheet-spec"
    if folder == "worksheet":
        return "worksheet"
    return None


# What each kind of YAML file must contain (by its keys), as named when none matches.
KINDS_BY_KEYS: tuple[tuple[str, frozenset[str], str], ...] = (
    ("kniffel", frozenset({"categories"}), "a Kniffel rule set (categories:)"),
    ("kribbeln-dice", frozenset({"dice", "colors"}), "Kribbeln dice (colors: and dice:)"),
    ("kribbeln-tasks", frozenset({"tasks"}), "a Kribbeln task catalog (tasks:)"),
    ("worksheet", frozenset({"levels"}), "worksheet levels (levels:)"),
    ("worksheet-spec", frozenset({"sections"}), "a worksheet spec (sections:)"),
    ("koepfchen", frozenset({"track"}), "a Köpfchen board profile (track:)"),
)
BALANCE_KEYS = frozenset(
    {"p_min", "p_max", "families", "areas", "area_step", "area_tolerance", "mean_tolerance",
     "area_mean_tolerance", "max_color_per_sheet", "stars", "search"}
)  # fmt: skip
KIND_NAMES = {kind: what.partition(" (")[0] for kind, _, what in KINDS_BY_KEYS}
KIND_NAMES["kribbeln-balance"] = "Kribbeln balance constraints"
EXPECTED = (
    ", ".join(what for _, _, what in KINDS_BY_KEYS)
    + ", Kribbeln balance constraints (p_min:, p_max: …) or a template (.j2)"
)


def _kind_by_keys(path: Path, label: str) -> str:
    """The kind of a YAML file by what it holds; a CatalogError naming what was expected."""
    data = load_file(path, label)
    if isinstance(data, dict) and data:
        keys = set(data)
        for kind, needed, _ in KINDS_BY_KEYS:
            if needed <= keys:
                return kind
        if keys <= BALANCE_KEYS:
            return "kribbeln-balance"
    raise CatalogError(Msg("catalog_file_dicesheets_knows", expected=EXPECTED), file=label)


def _check_kniffel(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.kniffel.load import load_rules_file

    load_rules_file(path, label, problems)


def _check_dice(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.kribbeln.load import load_dice_file

    _, warnings = load_dice_file(path, label, problems)
    report.warnings += warnings


def _catalog_dice(catalog: Catalog, report: Report, label: str) -> DiceSet:
    """The catalog's dice; the shipped dice (with a warning) when the user's are broken."""
    from generator.kribbeln.load import load_dice

    try:
        return load_dice(catalog=catalog)[0]
    except CatalogError:
        report.warnings.append(_note(label, Msg("checked_shipped_dice")))
        return load_dice(catalog=Catalog((catalog_dir(),)))[0]


def _check_tasks(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    import numpy as np

    from generator.kribbeln.load import load_tasks_file
    from generator.kribbeln.masks import roll_states, task_mask

    dice = _catalog_dice(catalog, report, label)
    tasks = load_tasks_file(path, label, dice, problems)  # the tasks without problems
    states = roll_states(dice)
    impossible = [t for t in tasks.tasks if not np.any(task_mask(t, states))]
    for task in impossible:
        message = Msg("no_roll_fulfils", task=task.id)
        report.add(CatalogError(message, file=label, line=task.line, column=task.column))
    if not problems and not impossible:  # a pad of the tasks as they stand, not of a part
        _note_unreachable(tasks, dice, label, report, catalog)


def _note_unreachable(
    tasks: TaskCatalog, dice: DiceSet, label: str, report: Report, catalog: Catalog
) -> None:
    """Every task no pad can use under the catalog's balance, with the reason and the figure."""
    from generator.kribbeln.build import BlockInputs
    from generator.kribbeln.load import load_balance
    from generator.kribbeln.reach import unreachable
    from generator.kribbeln.solver import analyze_tasks

    try:
        balance = load_balance(catalog=catalog)
    except CatalogError:
        return  # reported where the balance file is checked
    if not tasks.tasks:
        return
    figures = analyze_tasks(dice, tasks.tasks, tasks.rolls, store=DISK)
    inputs = BlockInputs(dice, tasks, balance, figures, (), catalog.templates())
    for task in unreachable(inputs, store=DISK):
        where = CatalogError(
            task.msg(balance.p_min, balance.p_max), file=label, line=task.line, column=task.column
        )
        report.notes.append(Note.of(where))


def _check_balance(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.kribbeln.balance import TaskFacts
    from generator.kribbeln.load import load_balance_file, load_tasks
    from generator.kribbeln.sampler import sample_block
    from generator.kribbeln.solver import analyze_tasks

    balance = load_balance_file(path, label)
    dice = _catalog_dice(catalog, report, label)
    task_problems = Problems()  # reported where the task file is checked
    try:
        tasks = load_tasks(dice, catalog=catalog, problems=task_problems)
    except CatalogError:
        report.warnings.append(_note(label, Msg("tasks_have_problems")))
        return
    if task_problems:
        sound = Msg("checked_sound_tasks", tasks=len(tasks.tasks), source=tasks.source)
        report.warnings.append(_note(label, sound))
    figures = analyze_tasks(dice, tasks.tasks, tasks.rolls, store=DISK)
    facts = [TaskFacts(t.id, t.family, t.colors, figures[t.id].p_success) for t in tasks.tasks]
    try:
        sample_block(facts, balance, 6, 1)
    except UserError as exc:
        report_problem(
            CatalogError(Msg("cannot_met_task_catalog", message=exc.msg), file=label),
            problems,
        )


def _check_profile(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.koepfchen.load import load_profile_file
    from generator.koepfchen.sampler import sample_board

    profile = load_profile_file(path, label)
    try:
        sample_board(profile, 1)
    except UserError as exc:
        problem = CatalogError(Msg("constraints_cannot_met", message=exc.msg), file=label)
        report_problem(problem, problems)


def _check_worksheet(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.worksheet.load import load_family_file

    load_family_file(path, label, problems)


def _check_spec(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.worksheet.load import load_spec_file

    load_spec_file(path, label)


def _check_template(
    path: Path, label: str, report: Report, catalog: Catalog, problems: Problems
) -> None:
    from generator.io.userfiles import read_text
    from generator.text.templating import Budget, guarded
    from generator.text.words import MAX_TEMPLATE_BYTES, make_environment

    for problem in report.rendered.pop(label, []):
        report_problem(problem, problems)
    env = make_environment()
    source = read_text(path, label, MAX_TEMPLATE_BYTES)
    with guarded(label, Budget()):
        have = set(env.from_string(source).module.__dict__)
    shipped = templates_dir() / path.parent.name / path.name
    if shipped.is_file() and shipped.resolve() != path.resolve():
        needed = set(env.from_string(shipped.read_text(encoding="utf-8")).module.__dict__)
        for name in sorted(n for n in needed - have if not n.startswith("_")):
            missing = CatalogError(Msg("template_lacks_macro", name=name), file=label)
            report_problem(missing, problems)
    elif not shipped.is_file():
        report.warnings.append(_note(label, Msg("template_never_used")))


CHECKS: dict[str, Callable[[Path, str, Report, Catalog, Problems], None]] = {
    "kniffel": _check_kniffel,
    "kribbeln-dice": _check_dice,
    "kribbeln-tasks": _check_tasks,
    "kribbeln-balance": _check_balance,
    "koepfchen": _check_profile,
    "worksheet": _check_worksheet,
    "worksheet-spec": _check_spec,
    "template": _check_template,
}


def _check_file(
    path: Path, label: str, kind: str | None, report: Report, catalog: Catalog, in_folder: bool
) -> None:
    """Check one file; its kind from its place, else from what it holds."""
    report.files += 1
    problems: list[UserError] = []
    found = Problems()
    try:
        if kind is None:
            kind = _kind_by_keys(path, label)
            if in_folder:
                as_kind = Msg("checked_by_content", kind=KIND_NAMES[kind])
                report.warnings.append(_note(label, as_kind))
        CHECKS[kind](path, label, report, catalog, found)
    except (CatalogError, UserError) as exc:
        problems.append(exc)
    problems += found
    for problem in sorted(problems, key=_line_order):
        report.add(problem)


def _line_order(problem: UserError) -> tuple[int, int]:
    """A file's problems in the order of its lines (those without a line first)."""
    return (getattr(problem, "line", None) or 0, getattr(problem, "column", None) or 0)


def _files(folder: Path) -> Iterable[Path]:
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and p.suffix.lower() in (".yaml", ".yml", ".j2", ".csv")
    )


def _render_products(catalog_folder: Path | None, files: list[Path], report: Report) -> None:
    """Build every product whose templates are checked, in every language, with them."""
    from generator.core.langs import LANGS
    from generator.io.templates import bytecode_cache, read_templates
    from generator.io.userfiles import read_text
    from generator.text.words import MAX_TEMPLATE_BYTES, Templates
    from generator.validate.rehearsal import rehearse

    shipped_data = Catalog.default()
    names: set[str] | None
    if files:
        mine = [p for p in files if p.suffix == ".j2" and p.parent.name in LANGS and p.is_file()]
        replaced = {f"{p.parent.name}/{p.name}": p for p in mine}
        try:
            mine_sources = {
                name: read_text(path, str(path), MAX_TEMPLATE_BYTES)
                for name, path in replaced.items()
            }
        except CatalogError:
            return  # reported where the file is checked
        sources = tuple(
            (name, str(replaced[name]), mine_sources[name])
            if name in replaced
            else (name, label, source)
            for name, label, source in read_templates(()).sources
        )
        names = {p.stem for p in mine}
        templates = Templates(sources, bytecode_cache())
        catalog, label = shipped_data, "templates"
    elif catalog_folder is not None:
        folder = catalog_folder / "templates"
        names = {p.stem for p in folder.glob("*/*.j2")} if folder.is_dir() else set()
        catalog, label = Catalog.default(catalog_folder), str(folder)
        try:
            templates = read_templates([folder])
        except CatalogError:
            return  # a template that cannot be read is reported where the file is checked
    else:
        names, catalog, label = None, shipped_data, str(templates_dir())
        templates = read_templates(())
    if names is not None and not names:
        return
    for problem in rehearse(catalog, templates, shipped_data, names, label).problems:
        report.rendered.setdefault(problem.file, []).append(problem)


def validate(catalog_folder: Path | None = None, files: Iterable[Path] = ()) -> Report:
    """Check a user's catalog folder, single files, or (neither given) the shipped catalog."""
    report = Report()
    files = list(files)
    catalog = Catalog.default(catalog_folder)
    _render_products(catalog_folder, files, report)
    if files:
        for path in files:
            if not path.is_file():
                report.errors.append(_note(str(path), Msg("no_such_file")))
                continue
            _check_file(path, str(path), _kind_by_place(path, None), report, catalog, False)
        _report_rest(report)
        return report
    roots = [catalog_folder] if catalog_folder is not None else [catalog_dir(), templates_dir()]
    for root in roots:
        for path in _files(root):
            if not inside(path, root):
                report.files += 1
                report.add(confined_error(path))
                continue
            rel = path.relative_to(root)
            template = rel.parts[0] == "templates" or root == templates_dir()
            kind = "template" if template else _kind_by_place(path, root)
            _check_file(path, catalog.label(path), kind, report, catalog, True)
    _report_rest(report)
    return report


def _report_rest(report: Report) -> None:
    """What rendering found outside the checked files (a whole product failing)."""
    for problems in report.rendered.values():
        for problem in problems:
            report.add(problem)
    report.rendered.clear()
