"""The registry's vocabulary: option types, options, arguments, commands and products, as data.

Nothing here imports click, a game, numpy or ReportLab: `dicesheets --help` imports the
registry. Code is referred to by "module:attribute" strings and imported when used
(`resolve`), so declaring a product costs nothing until it is built. The records are
`NamedTuple`s, not dataclasses: immutable alike, and making a dozen record classes
costs `--help` a quarter of the time (dataclasses write several methods per class).
Two records of different classes with the same fields are equal as tuples; nothing
compares them across classes (`params.click_type` keys on the class too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from generator.io.catalog import Catalog


class _Missing:
    """No value declared (click then applies its own default, e.g. False for a flag)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
NOTHING: Mapping[str, Any] = MappingProxyType({})  # an empty mapping no one can change


# --- option types ---------------------------------------------------------------------------


class Count(NamedTuple):
    """A whole number lo–hi, refused at parse: `expected lo–hi NOUN, found N` (the code
    `range`; `real`: the real game's range, said in brackets)."""

    lo: int
    hi: int
    noun: str
    real: str = ""


class Range(NamedTuple):
    """A number lo–hi refused at parse with click's own words (a float range if `real`)."""

    lo: float
    hi: float
    real: bool = False


class Whole(NamedTuple):
    """A whole number whose range (lo–hi, for the docs and forms) the build checks."""

    lo: int | None = None
    hi: int | None = None


class Choice(NamedTuple):
    """One of `values`, in any case."""

    values: tuple[str, ...]


class File(NamedTuple):
    """A file name (or folder) on this machine: never taken from a browser."""

    file_okay: bool = True
    dir_okay: bool = True
    exists: bool = False
    allow_dash: bool = False


class Stream(NamedTuple):
    """An open text file ('-': standard input), read as `encoding`."""

    encoding: str = "utf-8"


OptionType = Count | Range | Whole | Choice | File | Stream | None  # None: free text


# --- parameters and commands ----------------------------------------------------------------


class Option(NamedTuple):
    """A command-line option: `flags` as click spells them ("--key/--no-key", or a flag and
    its parameter name: ("--dice", "dice_file")), its type, default and help.

    `catalog`: the names a browser may pick from (the web shows a menu; the CLI also takes
    a file). `label`/`hint` words are the macros `label_<name>` / `hint_<name>` of
    templates/<lang>/web.j2.
    """

    flags: tuple[str, ...]
    type: OptionType = None
    default: Any = MISSING
    help: str | None = None
    show_default: bool = False
    required: bool = False
    metavar: str | None = None
    is_flag: bool = False
    flag_value: Any = MISSING
    multiple: bool = False
    catalog: Callable[[Catalog], list[str]] | None = None

    @property
    def name(self) -> str:
        """The parameter name: the declared one, else the long flag's ("--per-page" → per_page)."""
        named = [f for f in self.flags if not f.startswith("-")]
        return named[0] if named else self.flag.lstrip("-").replace("-", "_")

    @property
    def flag(self) -> str:
        """How the command line spells it: "--large-print"."""
        return self.flags[0].split("/")[0]

    @property
    def off_flag(self) -> str | None:
        """A switch's second spelling: "--no-key"."""
        parts = self.flags[0].split("/")
        return parts[1] if len(parts) > 1 else None


class Argument(NamedTuple):
    """A positional argument."""

    name: str
    type: OptionType = None
    nargs: int = 1
    metavar: str | None = None


Param = Option | Argument


class Command(NamedTuple):
    """A command as typed ("kniffel block"), its help, parameters and what runs it.

    `run` ("module:function") is the CLI's action, called with the parsed parameters
    (None: a product command, run by the generic product action). `rules` are the
    checks across options, run by both surfaces: `rule(params, given)` raises a
    `UserError` (`given`: the names of the parameters the user set).
    """

    path: str
    help: str
    params: tuple[Param, ...] = ()
    run: str | None = None
    rules: tuple[Callable[[Mapping[str, Any], frozenset[str]], None], ...] = ()
    context: Mapping[str, Any] = NOTHING

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.path.split())

    def option(self, name: str) -> Option:
        return next(p for p in self.params if isinstance(p, Option) and p.name == name)

    def options(self) -> tuple[Option, ...]:
        return tuple(p for p in self.params if isinstance(p, Option))


class Group(NamedTuple):
    """A command with subcommands ("kniffel"): its help; the subcommands name it first."""

    name: str
    help: str


# --- products -------------------------------------------------------------------------------


class WebPage(NamedTuple):
    """A product's page: URL id, download parts, fields left out, own fields and groups."""

    id: str  # the URL path: "worksheet" → /worksheet
    skip: frozenset[str] = frozenset()
    parts: tuple[str, ...] = ("pdf",)  # download buttons
    has_seed: bool = True
    own_fields: tuple[str, ...] = ()  # parameters the page asks for in its own way
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # form values the page drops before parsing when another is set (a spec replaces these)
    replaced_by: Mapping[str, tuple[str, ...]] = NOTHING
    # a field's largest value on the page where the command allows more: what a build
    # finishes within the page's time limit on a busy server (the CLI keeps its own range)
    most: Mapping[str, int] = NOTHING
    # why a field has its page limit when it is not the time limit: "balance" (the tasks
    # balance no more sheets)
    most_why: Mapping[str, str] = NOTHING
    # a field's default on a page of that language: {"en": {"rules": "yahtzee"}}
    lang_defaults: Mapping[str, Mapping[str, str]] = NOTHING


class Rehearse(NamedTuple):
    """A variant `validate` builds in every language with the user's templates."""

    label: str
    params: Mapping[str, Any]
    tweak: str | None = None  # a name in validate.rehearsal.TWEAKS: inputs no option sets
    also: frozenset[str] = frozenset()  # templates it prints beside its product's


class Product(NamedTuple):
    """A printable product: its command, request, load and build, file names and page kinds.

    `make(params)` is request → load → build in memory (`all`, validate, the web page and
    the tests use it). `defaults`: the parameters of each sheet `dicesheets all` writes.
    `files`: fnmatch patterns of its default file names. `page_kinds`: the kinds of page
    it prints (the page-health matrix). `templates`: the template stems it prints with.
    `extra`: a document beside the main PDF and the option naming its file.
    """

    id: str
    command: str
    request: str
    load: str
    build: str
    files: tuple[str, ...]
    page_kinds: tuple[str, ...] = ()
    templates: frozenset[str] = frozenset()
    defaults: tuple[Mapping[str, Any], ...] = ()
    rehearse: tuple[Rehearse, ...] = ()
    web: WebPage | None = None
    fresh_seed: bool = False  # without --seed a new one is drawn (and announced)
    extra: Mapping[str, str] = NOTHING  # {"key": "key_file"}
    warm: str | None = None  # solver work `all` may start early in another process
    warm_imports: tuple[str, ...] = ()
    prepare: str | None = None  # the build in two steps, for `all` while the warm-up runs
    # "module:function"(last contents, new contents, last file) → warnings: what a build
    # says against the manifest of the last file of its kind (the CLI finds it)
    since: str | None = None

    def request_of(self, params: Mapping[str, Any], **fixed: Any) -> Any:
        """The product's request from parameters: every field by its option's name."""
        from dataclasses import fields

        cls = resolve(self.request)
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in params.items() if k in names}
        if isinstance(values.get("paper"), str):
            values["paper"] = values["paper"].lower()
        return cls(**{**values, **fixed})

    def make(self, params: Mapping[str, Any], catalog: Catalog, **load: Any) -> Any:
        """request → load → build: the product's `Built`, in memory."""
        req = self.request_of(params)
        return resolve(self.build)(resolve(self.load)(req, catalog, **load), req)


def resolve(ref: str) -> Any:
    """The object a "module:attribute" string names (imported now)."""
    import importlib

    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)
