"""All visible words come from Jinja2 templates in `templates/<lang>/`.

A template file holds one macro per piece of text; `Texts` calls them by
name. The environment is sandboxed and uses `StrictUndefined`, so a typo in a
template is an error, not a blank, and a template cannot reach Python internals.
The template sources are read at the edge (`Catalog.templates()`: the user's
`<catalog>/templates` over the shipped ones) into a `Templates` value, so
building text reads no file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import jinja2.bccache
from jinja2.sandbox import SandboxedEnvironment

from generator.errors import CatalogError, UserError
from generator.resources import templates_dir

if TYPE_CHECKING:
    from generator.rehearsal import Rehearsal

LANGS = ("de", "en")


def number(value: float, lang: str, digits: int = 1) -> str:
    """A decimal number written the way the language writes it (de: 12,5; en: 12.5)."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def percent(value: float, lang: str, digits: int = 1) -> str:
    """A probability as a percentage (de: 12,5 %; en: 12.5%)."""
    text = number(100 * value, lang, digits)
    return f"{text}\u202f%" if lang == "de" else f"{text}%"


_SETTINGS: dict[str, Any] = {
    "autoescape": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": False,
}


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates in the dicesheets cache folder (25 ms of compiling per start saved).

    Jinja2 recompiles a template whose source changed (each entry carries a checksum)
    and ignores a damaged entry; a folder that cannot be written only costs time.
    """

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable or damaged (Jinja2 unpickles the header): compile anew
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)


def _bytecode_cache() -> _BytecodeCache:
    from generator.io.cache import cache_dir, key_for

    # what the compiled code depends on besides the source: Jinja2 and the settings
    key = key_for("templates", jinja2.__version__, _SETTINGS)[:16]
    return _BytecodeCache(str(cache_dir() / "templates" / key))


def make_environment(loader: jinja2.BaseLoader | None = None) -> SandboxedEnvironment:
    """The one Jinja2 environment (sandboxed, strict) over `loader` (default: none)."""
    env = SandboxedEnvironment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
        **_SETTINGS,
    )
    env.filters["number"] = number
    env.filters["percent"] = percent
    return env


@dataclass(frozen=True)
class Templates:
    """Every template of a run: (name such as "de/worksheet.j2", file label, source)."""

    sources: tuple[tuple[str, str, str], ...]
    # `validate` only: record every template problem and go on with the shipped text
    rehearsal: Rehearsal | None = field(default=None, compare=False)

    def environment(self) -> SandboxedEnvironment:
        """The environment over these sources (compiled once per distinct set of sources)."""
        env = _ENVIRONMENTS.get(self.sources)
        if env is None:
            by_name = {name: (source, label) for name, label, source in self.sources}

            def load(name: str) -> tuple[str, str, Any] | None:
                found = by_name.get(name)
                return None if found is None else (found[0], found[1], lambda: True)

            env = _ENVIRONMENTS[self.sources] = make_environment(jinja2.FunctionLoader(load))
        return env


# compiled environments by their sources: tests and `--watch` build many times in one process
_ENVIRONMENTS: dict[tuple[tuple[str, str, str], ...], SandboxedEnvironment] = {}


def read_templates(folders: Sequence[Path]) -> Templates:
    """The `<lang>/<name>.j2` files of `folders` (earlier folders win), then the shipped ones."""
    found: dict[str, tuple[str, str, str]] = {}
    for folder in [*folders, templates_dir()]:
        for path in sorted(folder.glob("*/*.j2")) if folder.is_dir() else ():
            name = path.relative_to(folder).as_posix()
            if name not in found:
                found[name] = (name, str(path), path.read_text(encoding="utf-8"))
    return Templates(tuple(found[name] for name in sorted(found)))


_SHIPPED: list[Templates] = []


def shipped_templates() -> Templates:
    """The shipped templates alone (read once per process)."""
    if not _SHIPPED:
        _SHIPPED.append(read_templates(()))
    return _SHIPPED[0]


class Texts:
    """The macros of one template file (`<lang>/<name>.j2`), called by name.

    `templates` are the run's templates (`Catalog.templates()`); without them
    the shipped ones.
    """

    def __init__(self, name: str, lang: str, templates: Templates | None = None) -> None:
        if lang not in LANGS:
            raise UserError(f"expected one of {', '.join(LANGS)}, found '{lang}'", where="--lang")
        templates = templates or shipped_templates()
        self.name, self.lang = name, lang
        self.env = templates.environment()
        self.path = f"{lang}/{name}.j2"
        self._rehearsal = templates.rehearsal
        self._module = self._load() if self._rehearsal is None else self._rehearsal.module(self)

    def _load(self) -> Any:
        """The template's module (its macros); a CatalogError naming the file and line."""
        try:
            template = self.env.get_template(self.path)
            return template.make_module({"lang": self.lang})
        except jinja2.TemplateSyntaxError as exc:
            raise CatalogError(
                f"template syntax error: {exc.message}",
                file=exc.filename or self.path,
                line=exc.lineno,
            ) from None
        except jinja2.TemplateNotFound:
            raise CatalogError("template not found", file=self.path) from None

    def __call__(self, key: str, **values: Any) -> str:
        """The text of macro `key`, rendered with `values`, whitespace-trimmed."""
        if self._rehearsal is not None:
            return self._rehearsal.call(self, key, values)
        return self._render(key, values)

    def _render(self, key: str, values: dict[str, Any]) -> str:
        macro = getattr(self._module, key, None)
        if macro is None:
            raise CatalogError(f"template has no macro '{key}'", file=self.path)
        try:
            return " ".join(str(macro(**values)).split())
        except jinja2.UndefinedError as exc:
            raise CatalogError(f"macro '{key}': {exc.message}", file=self.path) from None
