"""The catalog: shipped YAML data under `task_catalog/`, optionally overlaid by a user's folder.

A user's file with the same relative path replaces the shipped one; a new
file adds an entry (a new rule set, profile …). The run's catalog is a value
passed to every loader (the CLI makes it from `--catalog`); there is no ambient one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import CatalogError, InputError
from generator.core.resources import catalog_dir
from generator.io.userfiles import confined, inside

if TYPE_CHECKING:
    from generator.text.words import Templates


@dataclass(frozen=True)
class Catalog:
    """An ordered list of catalog folders; earlier folders win."""

    dirs: tuple[Path, ...]

    @classmethod
    def default(cls, user_dir: Path | None = None) -> Catalog:
        """The shipped catalog, under the user's folder if one is given."""
        shipped = catalog_dir()
        if user_dir is None:
            return cls((shipped,))
        if not user_dir.is_dir():
            raise InputError("catalog", f"'{user_dir}' is not a folder")
        return cls((user_dir, shipped))

    def templates(self) -> Templates:
        """The templates of this catalog: each folder's `templates/`, then the shipped ones."""
        from generator.io.templates import read_templates

        return read_templates([d / "templates" for d in self.dirs if d != catalog_dir()])

    def path(self, relative: str) -> Path | None:
        """The first folder's file at `relative`, or None (never a file outside the folders)."""
        for folder in self.dirs:
            candidate = folder / relative
            if candidate.is_file():
                confined(candidate, folder)
                return candidate
        return None

    def names(self, subdir: str, suffix: str = ".yaml") -> list[str]:
        """The stems of all files in `subdir` across the folders, sorted."""
        found: set[str] = set()
        for folder in self.dirs:
            sub = folder / subdir
            if sub.is_dir():
                found.update(p.stem for p in sub.glob(f"*{suffix}") if inside(p, folder))
        return sorted(found)

    def label(self, path: Path) -> str:
        """A short name for a catalog file in messages and manifests."""
        for folder in self.dirs:
            try:
                rel = path.relative_to(folder)
            except ValueError:
                continue
            prefix = "task_catalog" if folder == catalog_dir() else str(folder)
            return f"{prefix}/{rel.as_posix()}"
        return str(path)


def find_file(
    relative: str, file: str | None, subject: str, what: str, catalog: Catalog | None = None
) -> tuple[Path, str]:
    """The user's `file` (input `subject`), else the catalog's `relative` one; with its label."""
    if file is not None:
        path = Path(file)
        if not path.is_file():
            raise InputError(subject, f"'{file}' is not a file")
        return path, file
    catalog = catalog or Catalog.default()
    found = catalog.path(relative)
    if found is None:
        raise CatalogError(f"the {what} is missing", file=f"task_catalog/{relative}")
    return found, catalog.label(found)
