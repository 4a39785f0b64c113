"""All visible words come from Jinja2 templates in `templates/<lang>/`.

A template file holds one macro per piece of text; `Texts` calls them by
name. The environment is sandboxed and uses `StrictUndefined`, so a typo in a
template is an error, not a blank, and a template cannot reach Python internals.
The template sources are read at the edge (`Catalog.templates()`: the user's
`<catalog>/templates` over the shipped ones) into a `Templates` value, so
building text reads no file. Rendering runs in the limited sandbox of
`generator.text.templating`: any template error is one line with the template's file
and line, and a user's template is bounded in size and time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import jinja2.bccache

from generator.core.errors import CatalogError, Input, InputError, UserError
from generator.io.resources import templates_dir
from generator.text.langs import LANGS
from generator.text.templating import COMPILED, Budget, LimitedSandbox, bounded, guarded, is_shipped

if TYPE_CHECKING:
    from generator.validate.rehearsal import Rehearsal

SPACES = re.compile(r"[^\S\u00a0]+")  # any run of whitespace but the no-break space


def tidy(rendered: str) -> str:
    """A macro's output as one line: spaces collapsed, a no-break space kept (it binds
    words a line must not part)."""
    return SPACES.sub(" ", rendered).strip(" ")


MAX_TEMPLATE_BYTES = 2_000_000


def number(value: float, lang: str, digits: int = 1) -> str:
    """A decimal number written the way the language writes it (de: 12,5; en: 12.5)."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


# German primary-school notation writes multiplication as · and division as : ;
# English pages keep × and ÷ (the solver prints × and ÷, and reads all four)
SCHOOL_SIGNS = {"de": str.maketrans({"×": "·", "÷": ":"})}


def maths(text: str, lang: str) -> str:
    """A calculation as the language's schools write it (de: 3 · 4 : 2; en: 3 × 4 ÷ 2)."""
    signs = SCHOOL_SIGNS.get(lang)
    return text.translate(signs) if signs else text


def percent(value: float, lang: str, digits: int = 1) -> str:
    """A probability as a percentage (de: 12,5 %; en: 12.5%)."""
    text = number(100 * value, lang, digits)
    return f"{text}\u202f%" if lang == "de" else f"{text}%"


def comma_names(names: str) -> tuple[str, ...]:
    """The players' names of a `"Anna, Ben, Cem"` list; an empty one is an input error."""
    from generator.core.built import visible

    # (invisible format characters are dropped; the build warns with `invisible_warnings`)
    parts = tuple(visible(part).strip() for part in names.split(","))
    for i, part in enumerate(parts, start=1):
        if not part:
            raise InputError("names", f"name {i} is empty (expected comma-separated names)")
    return parts


_SETTINGS: dict[str, Any] = {
    "autoescape": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": False,
}


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates in the dicesheets cache folder (25 ms of compiling per start saved).

    Jinja2 recompiles a template whose source changed (each entry carries the source's
    checksum). The entries are stored like every cache entry (`generator.io.cache`):
    regular files only, a checksum of the content, written atomically; a damaged one is
    compiled anew and a folder that cannot be written only costs time.
    """

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator.io.cache import read_entry

        payload = read_entry(Path(self._get_cache_filename(bucket)))
        if payload is None:
            return
        try:
            bucket.bytecode_from_string(payload)
        except Exception:  # a sound checksum over bytes Jinja2 cannot load: compile anew
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator.io.cache import store_entry

        store_entry(Path(self._get_cache_filename(bucket)), bucket.bytecode_to_string())


def _bytecode_cache() -> _BytecodeCache:
    from generator.core.store import key_for
    from generator.io.cache import cache_dir

    # what the compiled code depends on besides the source: Jinja2 and the settings
    key = key_for("templates", jinja2.__version__, _SETTINGS, COMPILED)[:16]
    return _BytecodeCache(str(cache_dir() / "templates" / key))


def make_environment(loader: jinja2.BaseLoader | None = None) -> LimitedSandbox:
    """The one Jinja2 environment (sandboxed, strict, limited) over `loader` (default: none)."""
    env = LimitedSandbox(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
        **_SETTINGS,
    )
    env.filters["number"] = bounded(number)
    env.filters["percent"] = bounded(percent)
    env.filters["maths"] = bounded(maths)
    return env


@dataclass(frozen=True)
class Templates:
    """Every template of a run: (name such as "de/worksheet.j2", file label, source)."""

    sources: tuple[tuple[str, str, str], ...]
    # `validate` only: record every template problem and go on with the shipped text
    rehearsal: Rehearsal | None = field(default=None, compare=False)

    def environment(self) -> LimitedSandbox:
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
_ENVIRONMENTS: dict[tuple[tuple[str, str, str], ...], LimitedSandbox] = {}


def read_templates(folders: Sequence[Path]) -> Templates:
    """The `<lang>/<name>.j2` files of `folders` (earlier folders win), then the shipped ones.

    A user's template must be a regular UTF-8 file inside its folder (a link out of
    the catalog is refused) of at most MAX_TEMPLATE_BYTES.
    """
    from generator.io.catalog import confined
    from generator.io.userfiles import read_text

    found: dict[str, tuple[str, str, str]] = {}
    for folder in [*folders, templates_dir()]:
        for path in sorted(folder.glob("*/*.j2")) if folder.is_dir() else ():
            name = path.relative_to(folder).as_posix()
            if name not in found:
                confined(path, folder)
                found[name] = (name, str(path), read_text(path, str(path), MAX_TEMPLATE_BYTES))
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
            raise UserError(
                f"expected one of {', '.join(LANGS)}, found '{lang}'", where=Input("lang")
            )
        templates = templates or shipped_templates()
        self.name, self.lang = name, lang
        self.env = templates.environment()
        self.path = f"{lang}/{name}.j2"
        self._rehearsal = templates.rehearsal
        self._file = self.path
        self._budget: Budget | None = None
        self._module = self._load() if self._rehearsal is None else self._rehearsal.module(self)

    def _load(self) -> Any:
        """The template's macros; any error as one CatalogError naming the file and line."""
        with guarded(self.path):
            template = self.env.get_template(self.path)
        # a user's template is bounded in time; the shipped ones are trusted (and fast)
        self._budget = None if is_shipped(template.filename) else Budget()
        self._file = template.filename or self.path
        with guarded(self._file, self._budget):
            return template.make_module({"lang": self.lang})

    def _render(self, key: str, values: dict[str, Any]) -> str:
        macro = getattr(self._module, key, None)
        if macro is None:
            raise CatalogError(f"template has no macro '{key}'", file=self._file)
        with guarded(self._file, self._budget):
            return str(macro(**values))

    def __call__(self, key: str, **values: Any) -> str:
        """The text of macro `key`, rendered with `values`, whitespace-trimmed (`tidy`)."""
        if self._rehearsal is not None:
            return self._rehearsal.call(self, key, values)
        return tidy(self._render(key, values))


def page_label(lang: str, templates: Templates | None = None) -> Callable[[int, int], str]:
    """The page label of the house footer ("Seite 2/3"), from `<lang>/page.j2`."""
    t = Texts("page", lang, templates)
    return lambda n, total: t("page", n=n, total=total)


def difficulty_mark(level: int, of: int = 3) -> str:
    """The one difficulty mark of every page and report: `level` filled dots of `of` (●●○)."""
    return "●" * level + "○" * (of - level)
