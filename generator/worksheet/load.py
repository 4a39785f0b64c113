"""The worksheet edge: families, specs and class lists from files, problem pools from the cache."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import CatalogError, Input, InputError, UserError
from generator.core.problems import Problems
from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.io.userfiles import read_bytes
from generator.io.yamlload import load_file
from generator.worksheet.build import LoadedSection, WorksheetInputs, WorksheetRequest
from generator.worksheet.levels import SUBDIR, Family, customised, parse_family
from generator.worksheet.pool import Progress, level_pool
from generator.worksheet.roster import MAX_BYTES, Roster, names_roster, roster_from_bytes
from generator.worksheet.spec import SPEC_DIR, WorksheetSpec, parse_spec, single_section
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
        raise UserError(f"unknown family '{name}' (expected one of {known})", where=where)
    family = load_family_file(path, catalog.label(path))
    if family.id != name:
        raise CatalogError(
            f"the file says family '{family.id}', expected '{name}'", file=family.source
        )
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
    raise UserError(
        f"no spec file '{name}' (expected a YAML file or one of: {known})", where=Input("spec")
    )


def read_roster(path: str | Path) -> Roster:
    """Read a roster file: a list or a table, UTF-8, UTF-16 or Windows-1252."""
    try:
        data = read_bytes(Path(path), str(path), MAX_BYTES)
    except UserError as exc:
        raise UserError(f"{exc.where}: {exc.message}", where=Input("roster")) from None
    return roster_from_bytes(data, str(path))


def class_list(req: WorksheetRequest) -> Roster | None:
    """The pupils from `--roster` or `--names` (read at the edge)."""
    if req.roster is not None and req.names is not None:
        raise InputError("names", "give the class either as a file or as names, not both")
    if req.roster is not None:
        return read_roster(req.roster)
    if req.names is not None:
        return names_roster(req.names)
    return None


def load_worksheet(
    req: WorksheetRequest, catalog: Catalog | None = None, progress: Progress | None = None
) -> WorksheetInputs | TopicInputs:
    """Read the spec and the roster; take every section's pool (solver cache, else computed)."""
    catalog = catalog or Catalog.default()
    if req.topic is not None:  # a topic deals its own problems: nothing to solve ahead
        return TopicInputs(None, class_list(req), catalog.templates())
    spec = (
        load_spec(req.spec, catalog)
        if req.spec is not None
        else single_section(req.family, req.level, req.problems, req.impossible)
    )
    roster = class_list(req)
    if spec.topics:
        return TopicInputs(spec, roster, catalog.templates())
    sections = []
    for section in spec.sections:
        family = load_family(section.family, catalog, where=section.where["family"])
        level = family.level(section.level, where=section.where["level"])
        level = customised(level, req.ops, req.targets)
        sections.append(
            LoadedSection(section, family, level, level_pool(level, progress, store=DISK))
        )
    return WorksheetInputs(spec, tuple(sections), roster, catalog.templates())
