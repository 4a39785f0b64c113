"""All visible words come from Jinja2 templates in `templates/<lang>/`.

A template file holds one macro per piece of text; `Texts` calls them by
name. The environment is sandboxed and uses `StrictUndefined`, so a typo in a
template is an error, not a blank, and a template cannot reach Python internals.
The template sources are read at the edge (`Catalog.templates()`: the user's
`<catalog>/templates` over the shipped ones, `generator.io.templates`) into a
`Templates` value that also carries the compiled-template cache, so building
text reads no file and reaches no cache folder. Rendering runs in the limited sandbox of
`generator.text.templating`: any template error is one line with the template's file
and line, and a user's template is bounded in size and time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import jinja2

from generator.core.errors import CatalogError, Input, InputError, Msg, UserError, thousands
from generator.core.langs import LANGS
from generator.core.resources import templates_dir
from generator.text.templating import Budget, LimitedSandbox, bounded, guarded, is_shipped

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
            raise InputError("names", Msg("name_empty", n=i))
    return parts


SETTINGS: dict[str, Any] = {
    "autoescape": False,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": False,
}


def make_environment(
    loader: jinja2.BaseLoader | None = None, bytecode_cache: jinja2.BytecodeCache | None = None
) -> LimitedSandbox:
    """The one Jinja2 environment (sandboxed, strict, limited) over `loader` (default: none),
    compiling through `bytecode_cache` (default: none, compile in memory)."""
    env = LimitedSandbox(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=bytecode_cache,
        **SETTINGS,
    )
    env.filters["number"] = bounded(number)
    env.filters["percent"] = bounded(percent)
    env.filters["maths"] = bounded(maths)
    # errors.j2 groups big counts; validate compiles it in this environment too
    env.filters["thousands"] = bounded(lambda value, lang="en": thousands(value, lang))
    return env


class Rehearsing(Protocol):
    """What `validate`'s rehearsal does in every text call it is handed (with the templates):
    it chooses the macros a `Texts` uses and renders each call, recording what fails."""

    def module(self, texts: Texts) -> Any: ...

    def call(self, texts: Texts, key: str, values: dict[str, Any]) -> str: ...


@dataclass(frozen=True)
class Templates:
    """Every template of a run: (name such as "de/worksheet.j2", file label, source).

    `bytecode_cache` is where the edge keeps compiled templates (None: compile in memory);
    `rehearsal` is validate's (None: render plainly). Neither changes a text.
    """

    sources: tuple[tuple[str, str, str], ...]
    bytecode_cache: jinja2.BytecodeCache | None = field(default=None, compare=False)
    rehearsal: Rehearsing | None = field(default=None, compare=False)

    def environment(self) -> LimitedSandbox:
        """The environment over these sources (compiled once per sources and cache)."""
        key = (self.sources, self.bytecode_cache)
        env = _ENVIRONMENTS.get(key)
        if env is None:
            by_name = {name: (source, label) for name, label, source in self.sources}

            def load(name: str) -> tuple[str, str, Any] | None:
                found = by_name.get(name)
                return None if found is None else (found[0], found[1], lambda: True)

            loader = jinja2.FunctionLoader(load)
            env = _ENVIRONMENTS[key] = make_environment(loader, self.bytecode_cache)
        return env


# compiled environments by their sources: tests and `--watch` build many times in one process
_ENVIRONMENTS: dict[
    tuple[tuple[tuple[str, str, str], ...], jinja2.BytecodeCache | None], LimitedSandbox
] = {}


_SHIPPED: list[Templates] = []


def shipped_templates() -> Templates:
    """The shipped templates alone, read once per process from the package's own files
    (without a compiled cache: the edge's `generator.io.templates.read_templates` has one)."""
    if not _SHIPPED:
        folder = templates_dir()
        sources = [
            (path.relative_to(folder).as_posix(), str(path), path.read_text(encoding="utf-8"))
            for path in folder.glob("*/*.j2")
        ]
        _SHIPPED.append(Templates(tuple(sorted(sources))))
    return _SHIPPED[0]


class Texts:
    """The macros of one template file (`<lang>/<name>.j2`), called by name.

    `templates` are the run's templates (`Catalog.templates()`); without them
    the shipped ones.
    """

    def __init__(self, name: str, lang: str, templates: Templates | None = None) -> None:
        if lang not in LANGS:
            raise UserError(Msg("one_of", known=", ".join(LANGS), found=lang), where=Input("lang"))
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
            raise CatalogError(Msg("no_macro", key=key), file=self._file)
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
