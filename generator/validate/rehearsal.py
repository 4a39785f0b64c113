"""`validate`'s rehearsal: every product built in memory, in every language, with the user's
templates, recording what would fail instead of stopping at the first problem.

The products are built from the catalog's data (the shipped data where the user's
does not load; `validate` reports that elsewhere) with the values the program
really gives each macro. A macro that fails is recorded with its file and line and
the shipped macro's text is used instead, so the build goes on and one run finds
every problem. A build that still fails (a text too long for its box …) is
recorded with the product it belongs to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from generator.core.errors import CatalogError, Msg, UserError
from generator.surface.model import Product, Rehearse, resolve
from generator.text.words import LANGS, Templates, Texts, tidy

if TYPE_CHECKING:
    from generator.core.built import Built
    from generator.io.catalog import Catalog


class Rehearsal:
    """The problems found while rehearsing, and which macros were rendered (the
    `generator.text.words.Rehearsing` a rehearsal's templates carry)."""

    def __init__(self) -> None:
        self.problems: list[CatalogError] = []
        self.calls: set[tuple[str, str]] = set()  # ("de/kribbeln_sheet.j2", macro)
        self._shipped: dict[str, Texts] = {}

    def record(self, problem: CatalogError) -> None:
        if str(problem) not in {str(p) for p in self.problems}:
            self.problems.append(problem)

    def module(self, texts: Texts) -> Any:
        """The template's macros; None (the shipped ones are used) if it does not load.

        Why it does not load is reported where validate reads the file.
        """
        try:
            return texts._load()
        except CatalogError:
            return None

    def call(self, texts: Texts, key: str, values: dict[str, Any]) -> str:
        """Render `key` with the user's template; on failure record it, use the shipped text."""
        self.calls.add((texts.path, key))
        if texts._module is not None:
            try:  # any error of the template's code arrives as one positioned CatalogError
                return tidy(texts._render(key, values))
            except CatalogError as problem:
                if problem.code != "no_macro":  # validate compares the macros
                    self.record(_positioned(problem, key))
        shipped = self._shipped.get(texts.path)
        if shipped is None:
            shipped = self._shipped[texts.path] = Texts(texts.name, texts.lang)
        return shipped(key, **values)


def _positioned(problem: CatalogError, key: str) -> CatalogError:
    """The problem (in the form every command prints) with the macro it happened in."""
    # a template's own error reads "macro 'x': …" without the "template error: " before it
    what = Msg("text", text=problem.params["reason"]) if problem.code == "template_error" else None
    return CatalogError(
        Msg("macro_problem", key=key, message=what or problem.msg),
        file=problem.file,
        line=problem.line,
    )


# --- the products, as validate builds them --------------------------------------------------

Job = Callable[["Catalog", Templates, str], "Built"]


def _pupils(inputs: Any) -> Any:
    """The key's list of who has which version; a spec without a title."""
    from generator.worksheet.roster import parse_roster

    roster = parse_roster("Zoë\nŁukasz\n", "class.txt")
    return replace(inputs, roster=roster, spec=replace(inputs.spec, title=None))


def _levels(inputs: Any) -> Any:
    """A class list whose "Stufe" column gives a pupil another level (the key's levels)."""
    from generator.worksheet.build import WorksheetRequest
    from generator.worksheet.load import with_pupil_levels
    from generator.worksheet.roster import parse_roster

    roster = parse_roster("Name;Stufe\nZoë;\nŁukasz;1\n", "class.csv")
    return with_pupil_levels(replace(inputs, roster=roster), WorksheetRequest())


def _rational(inputs: Any) -> Any:
    """The rules page of a profile with fractions (none is shipped)."""
    rules = inputs.profile.rules.replace(division="rational")
    return replace(inputs, profile=replace(inputs.profile, rules=rules))


def _topics(inputs: Any) -> Any:
    """A sheet of two topics without a title (the mixed title; none is shipped)."""
    from generator.core.errors import Input
    from generator.worksheet.spec import SectionSpec, WorksheetSpec

    where: dict[str, str] = {"topic": Input("spec"), "problems": Input("spec")}
    sections = tuple(
        SectionSpec("", 0, 4, where=where, topic=t) for t in ("add-20-carry", "number-wall-3")
    )
    return replace(inputs, spec=WorksheetSpec(None, sections))


def _chosen(inputs: Any) -> Any:
    """A pad of sheets chosen by hand that misses constraints (the key says which)."""
    from generator.kribbeln.balance import TASKS_PER_SHEET
    from generator.kribbeln.block import Sheet

    tasks = inputs.catalog.tasks
    if len(tasks) < TASKS_PER_SHEET:
        return inputs
    # the catalog's first tasks, as a designer might list them: one family, areas unordered
    return replace(inputs, chosen=("sheets.csv", (Sheet(1, tuple(tasks[:TASKS_PER_SHEET])),)))


# what a variant sets that no option does (`Rehearse.tweak` names one)
TWEAKS: dict[str, Callable[[Any], Any]] = {
    "pupils": _pupils,
    "levels": _levels,
    "rational": _rational,
    "topics": _topics,
    "chosen": _chosen,
}


def _job(product: Product, variant: Rehearse) -> Job:
    def job(catalog: Catalog, templates: Templates, lang: str) -> Built:
        req = product.request_of({**variant.params, "lang": lang})
        inputs = replace(resolve(product.load)(req, catalog), templates=templates)
        if variant.tweak is not None:
            inputs = TWEAKS[variant.tweak](inputs)
        built: Built = resolve(product.build)(inputs, req)
        # a form drawn only when a page is rendered (a worksheet's) says its words then:
        # draw every one now, so validate sees every text the PDF prints
        for document in (built.document, *(doc for _, doc in built.extra)):
            for name in document.forms:
                document.forms[name]
        return built

    return job


def _jobs() -> Iterator[tuple[str, frozenset[str], Job]]:
    """(variant, the templates it uses, build it) for every variant the registry's products
    name for validate (`Product.rehearse`).

    The variants reach the texts only some sheets print: the Yahtzee bonus row,
    large print, impossible problems, cards, mixed sections and a class list, a board on
    two pages, a board with fractions allowed.
    """
    from generator.registry import PRODUCTS

    for product in PRODUCTS.values():
        for variant in product.rehearse:
            yield variant.label, product.templates | variant.also, _job(product, variant)


def rehearse(
    catalog: Catalog,
    templates: Templates,
    data: Catalog,
    names: set[str] | None = None,
    label: str = "templates",
) -> Rehearsal:
    """Build every product that uses one of `names` (template stems; None: all) in every
    language with `templates`, from `catalog`'s data (`data`'s where that does not load).

    `label` names the templates in messages about a whole product.
    """
    rehearsal = Rehearsal()
    rehearsing = replace(templates, rehearsal=rehearsal)
    for product, uses, job in _jobs():
        if names is not None and not uses & names:
            continue
        for lang in LANGS:
            try:
                try:
                    job(catalog, rehearsing, lang)
                except UserError as exc:
                    if isinstance(exc, CatalogError) and exc.file.endswith(".j2"):
                        raise
                    job(data, rehearsing, lang)  # the user's data is broken: reported elsewhere
            except UserError as exc:
                message = Msg("would_fail", product=product, lang=lang, error=str(exc))
                rehearsal.record(CatalogError(message, file=label))
    return rehearsal
