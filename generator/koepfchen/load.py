"""The Köpfchen edge: board profiles from the catalog or a user's file, and the templates."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import Input, UserError
from generator.io.catalog import Catalog
from generator.io.yamlload import load_file
from generator.koepfchen.build import BoardInputs, BoardRequest
from generator.koepfchen.feasibility import check_feasible
from generator.koepfchen.profile import SUBDIR, Profile, parse_profile


def load_profile_file(path: Path, label: str) -> Profile:
    """Read and validate one profile file: its structure, then whether it can be met."""
    profile = parse_profile(load_file(path, label), label)
    check_feasible(profile)
    return profile


def profile_names(catalog: Catalog | None = None) -> list[str]:
    """The shipped (and user) profile ids."""
    return (catalog or Catalog.default()).names(SUBDIR)


def load_profile(name: str, catalog: Catalog | None = None) -> Profile:
    """The profile called `name` (a catalog entry such as 'classic', or a path to a YAML file)."""
    catalog = catalog or Catalog.default()
    path = catalog.path(f"{SUBDIR}/{name}.yaml") if "/" not in name else None
    if path is None and name.endswith((".yaml", ".yml")):
        if not Path(name).is_file():
            raise UserError(f"no profile file '{name}'", where=Input("profile"))
        return load_profile_file(Path(name), name)
    if path is None:
        known = ", ".join(profile_names(catalog))
        raise UserError(
            f"unknown profile '{name}' (expected one of {known}, or a path to a .yaml file)",
            where=Input("profile"),
        )
    return load_profile_file(path, catalog.label(path))


def load_board(req: BoardRequest, catalog: Catalog | None = None) -> BoardInputs:
    """Read the profile and the templates of the catalog (default: the shipped one)."""
    catalog = catalog or Catalog.default()
    return BoardInputs(load_profile(req.profile, catalog), catalog.templates())
