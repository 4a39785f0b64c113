"""The worksheet edge: families, specs and class lists from files, problem pools from the cache."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.core.errors import CatalogError, Input, InputError, Msg, Note, UserError
from generator.core.problems import Problems
from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.io.userfiles import read_bytes
from generator.io.yamlload import load_file
from generator.worksheet.build import LoadedSection, WorksheetInputs, WorksheetRequest
from generator.worksheet.levels import SUBDIR, Family, customised, parse_family
from generator.worksheet.pool import Progress, level_pool
from generator.worksheet.roster import MAX_BYTES, Roster, names_roster, roster_from_bytes
from generator.worksheet.spec import (
    SPEC_DIR,
    SectionSpec,
    WorksheetSpec,
    parse_spec,
    single_section,
)
from generator.worksheet.topicsheet import TopicInputs


def load_family_file(path: Path, label: str, problems: Problems | None = None) -> Family:
    """Read and validate one family file."""
    return parse_family(load_file(path, label), label, problems)


def family_names(catalog: Catalog | None = None) -> list[str]:
    """The shipped (and user) family ids."""
    return (catalog or Catalog.default()).names(SUBDIR)


def load_family(name: str, catalog: Catalog | None = None, where: str = Input("family")) -> Family:
    """The family called `name` (a catalog entry such as 'koepfchen' or '24')."""
    catalog = catalog or Catalog.default()
    path = catalog.path(f"{SUBDIR}/{name}.yaml") if "/" not in name else None
    if path is None:
        known = ", ".join(family_names(catalog))
        raise UserError(Msg("unknown_family", name=name, known=known), where=where)
    family = load_family_file(path, catalog.label(path))
    if family.id != name:
        raise CatalogError(Msg("family_id", found=family.id, name=name), file=family.source)
    return family


def load_spec_file(path: Path, label: str) -> WorksheetSpec:
    """Read and validate one worksheet spec."""
    return parse_spec(load_file(path, label), label)


def spec_names(catalog: Catalog | None = None) -> list[str]:
    return (catalog or Catalog.default()).names(SPEC_DIR)


def load_spec(name: str, catalog: Catalog | None = None) -> WorksheetSpec:
    """A shipped spec by name ('mixed') or a YAML file by path."""
    catalog = catalog or Catalog.default()
    path = catalog.path(f"{SPEC_DIR}/{name}.yaml")
    if path is not None:
        return load_spec_file(path, catalog.label(path))
    if Path(name).is_file():
        return load_spec_file(Path(name), name)
    known = ", ".join(spec_names(catalog))
    raise UserError(Msg("no_spec", name=name, known=known), where=Input("spec"))


def read_roster(path: str | Path) -> Roster:
    """Read a roster file: a list or a table, UTF-8, UTF-16 or Windows-1252."""
    try:
        data = read_bytes(Path(path), str(path), MAX_BYTES)
    except UserError as exc:
        raise UserError(Msg("at", where=exc.where, what=exc.msg), where=Input("roster")) from None
    return roster_from_bytes(data, str(path))


def class_list(req: WorksheetRequest) -> Roster | None:
    """The pupils from `--roster` or `--names` (read at the edge)."""
    if req.roster is not None and req.names is not None:
        raise InputError("names", Msg("roster_and_names"))
    if req.roster is not None:
        return read_roster(req.roster)
    if req.names is not None:
        return names_roster(req.names)
    return None


def without_levels(roster: Roster | None) -> Roster | None:
    """A class list for a sheet that has no levels to give: its "Stufe" column is said to go
    unused (everybody gets the same sheet)."""
    if roster is None or all(p.level is None for p in roster.pupils):
        return roster
    note = Note(Msg("level_column_unused", label=roster.label))
    return replace(roster, pupils=tuple(replace(p, level=None) for p in roster.pupils),
                   warnings=(*roster.warnings, note))  # fmt: skip


def pupil_levels(family: Family, roster: Roster | None, base: int) -> list[int]:
    """The levels the class list's "Stufe" column asks for besides `base`, each one the
    family has (else the first row asking for another names what is possible)."""
    if roster is None:
        return []
    known = {level.level for level in family.levels}
    wanted: list[int] = []
    for pupil in roster.pupils:
        if pupil.level is None or pupil.level == base or pupil.level in wanted:
            continue
        if pupil.level not in known:
            listed = ", ".join(str(n) for n in sorted(known))
            what = Msg("level_not_in_family", level=pupil.level, family=family.id, known=listed)
            msg = Msg("at_line", label=roster.label, line=pupil.line, what=what)
            raise UserError(msg, where=Input("roster"))
        wanted.append(pupil.level)
    return sorted(wanted)


def _loaded(
    section: SectionSpec, family: Family, number: int, req: WorksheetRequest,
    progress: Progress | None, where: str,
) -> LoadedSection:  # fmt: skip
    level = customised(family.level(number, where=where), req.ops, req.targets)
    return LoadedSection(section, family, level, level_pool(level, progress, store=DISK))


def load_worksheet(
    req: WorksheetRequest,
    catalog: Catalog | None = None,
    progress: Progress | None = None,
    roster: Roster | None = None,
) -> WorksheetInputs | TopicInputs:
    """Read the spec and the roster; take every section's pool (solver cache, else computed).

    `roster`: a class list read already (the web page's upload) instead of `--roster` or
    `--names`. A pupil's "Stufe" brings that level's pool too (`WorksheetInputs.levels`).
    """
    catalog = catalog or Catalog.default()
    if roster is None:
        roster = class_list(req)
    if req.topic is not None:  # a topic deals its own problems: nothing to solve ahead
        return TopicInputs(None, without_levels(roster), catalog.templates())
    spec = (
        load_spec(req.spec, catalog)
        if req.spec is not None
        else single_section(req.family, req.level, req.problems, req.impossible)
    )
    if spec.topics or req.spec is not None:
        roster = without_levels(roster)
    if spec.topics:
        return TopicInputs(spec, roster, catalog.templates())
    sections = []
    for section in spec.sections:
        family = load_family(section.family, catalog, where=section.where["family"])
        sections.append(
            _loaded(section, family, section.level, req, progress, section.where["level"])
        )
    inputs = WorksheetInputs(spec, tuple(sections), roster, catalog.templates())
    return with_pupil_levels(inputs, req, progress) if req.spec is None else inputs


def with_pupil_levels(
    inputs: WorksheetInputs, req: WorksheetRequest, progress: Progress | None = None
) -> WorksheetInputs:
    """A sheet of one family and level with the pools of the levels its class list's
    "Stufe" column asks for besides (`WorksheetInputs.levels`)."""
    only = inputs.sections[0]
    levels = []
    for number in pupil_levels(only.family, inputs.roster, only.spec.level):
        level_spec = replace(only.spec, level=number)
        loaded = _loaded(level_spec, only.family, number, req, progress, Input("roster"))
        levels.append((number, (loaded,)))
    return replace(inputs, levels=tuple(levels))
