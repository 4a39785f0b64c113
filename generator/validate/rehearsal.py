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

from generator.core.errors import CatalogError, UserError
from generator.text.words import LANGS, Templates, Texts, tidy

if TYPE_CHECKING:
    from generator.core.built import Built
    from generator.io.catalog import Catalog


class Rehearsal:
    """The problems found while rehearsing, and which macros were rendered."""

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
                if "has no macro" not in problem.message:  # validate compares the macros
                    self.record(_positioned(problem, key))
        shipped = self._shipped.get(texts.path)
        if shipped is None:
            shipped = self._shipped[texts.path] = Texts(texts.name, texts.lang)
        return shipped(key, **values)


def _positioned(problem: CatalogError, key: str) -> CatalogError:
    """The problem (in the form every command prints) with the macro it happened in."""
    message = problem.message.removeprefix("template error: ")
    return CatalogError(f"macro '{key}': {message}", file=problem.file, line=problem.line)


# --- the products, as validate builds them --------------------------------------------------

Job = Callable[["Catalog", Templates, str], "Built"]


def _with(inputs: Any, templates: Templates) -> Any:
    return replace(inputs, templates=templates)


def _jobs() -> Iterator[tuple[str, frozenset[str], Callable[[Catalog, Templates, str], Built]]]:
    """(product, the templates it uses, build it) for every product and variant validate builds.

    The variants reach the texts only some sheets print: the Yahtzee bonus row,
    large print, impossible problems, cards, mixed sections and a class list, a board on
    two pages, a board with fractions allowed.
    """
    from generator.kniffel import build as kniffel
    from generator.kniffel import load as load_kniffel
    from generator.koepfchen import build as koepfchen
    from generator.koepfchen import load as load_koepfchen
    from generator.kribbeln import build as kribbeln
    from generator.kribbeln import load as load_kribbeln
    from generator.report import balance as report
    from generator.worksheet import build as worksheet
    from generator.worksheet import load as load_worksheet
    from generator.worksheet.roster import parse_roster

    def kniffel_block(rules: str) -> Job:
        def job(catalog: Catalog, templates: Templates, lang: str) -> Built:
            req = kniffel.BlockRequest(rules=rules, lang=lang, players=3, names="Anna")
            return kniffel.build_block(_with(load_kniffel.load_block(req, catalog), templates), req)

        return job

    def odds(catalog: Catalog, templates: Templates, lang: str) -> Built:
        req = kniffel.OddsRequest(rules="kniffel", lang=lang, games=2000)
        return kniffel.build_odds(_with(load_kniffel.load_odds(req, catalog), templates), req)

    def sheet(req_of: Callable[[str], worksheet.WorksheetRequest], pupils: bool = False) -> Job:
        def job(catalog: Catalog, templates: Templates, lang: str) -> Built:
            req = req_of(lang)
            inputs = _with(load_worksheet.load_worksheet(req, catalog), templates)
            if pupils:  # the key's list of who has which version; a spec without a title
                inputs = replace(
                    inputs,
                    roster=parse_roster("Zoë\nŁukasz\n", "class.txt"),
                    spec=replace(inputs.spec, title=None),
                )
            return worksheet.build_worksheet(inputs, req)

        return job

    def board(profile: str, rational: bool = False) -> Job:
        def job(catalog: Catalog, templates: Templates, lang: str) -> Built:
            req = koepfchen.BoardRequest(profile=profile, lang=lang)
            inputs = _with(load_koepfchen.load_board(req, catalog), templates)
            if rational:  # the rules page of a profile with fractions (none is shipped)
                rules = inputs.profile.rules.replace(division="rational")
                inputs = replace(inputs, profile=replace(inputs.profile, rules=rules))
            return koepfchen.build_board(inputs, req)

        return job

    def pad(catalog: Catalog, templates: Templates, lang: str) -> Built:
        req = kribbeln.BlockRequest(lang=lang, names="Anna,Ben")
        return kribbeln.build_block(_with(load_kribbeln.load_block(req, catalog), templates), req)

    def balance(game: str) -> Job:
        def job(catalog: Catalog, templates: Templates, lang: str) -> Built:
            req = report.ReportRequest(game=game, lang=lang, games=200)
            return report.build_report(_with(report.load_report(req, catalog), templates), req)

        return job

    kribbeln_words = frozenset(
        {"kribbeln_sheet", "kribbeln_tasks", "kribbeln_rules", "kribbeln_key"}
    )
    for rules in ("kniffel", "yahtzee"):
        yield f"Kniffel block ({rules} rules)", frozenset({"kniffel_block"}), kniffel_block(rules)
    yield "Kniffel odds card", frozenset({"kniffel_odds"}), odds
    words = frozenset({"worksheet"})
    yield (
        "worksheet (level 2, large print)",
        words,
        sheet(
            lambda lang: worksheet.WorksheetRequest(
                level=2, versions=2, impossible=2, large_print=True, lang=lang
            )
        ),
    )
    yield (
        "worksheet (24 game, level 3)",
        words,
        sheet(lambda lang: worksheet.WorksheetRequest(family="24", level=3, problems=6, lang=lang)),
    )
    yield (
        "worksheet (the mixed spec, a class list)",
        words,
        sheet(lambda lang: worksheet.WorksheetRequest(spec="mixed", lang=lang), pupils=True),
    )
    boards = frozenset({"koepfchen_board", "koepfchen_rules", "koepfchen_key"})
    for profile in ("classic", "challenge"):
        yield f"Köpfchen board ({profile})", boards, board(profile)
    yield "Köpfchen board (fractions allowed)", boards, board("plus-minus", rational=True)
    yield "Kribbeln block", kribbeln_words, pad
    yield "Kribbeln balance report", kribbeln_words | {"report"}, balance("kribbeln")
    yield "Köpfchen balance report", boards | {"report"}, balance("koepfchen")


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
                message = f"with these templates, the {product} in {lang} would fail: {exc}"
                rehearsal.record(CatalogError(message, file=label))
    return rehearsal
