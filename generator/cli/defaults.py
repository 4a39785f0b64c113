"""The default set of sheets written by `dicesheets all` (and so by `make run`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.core.built import Built
    from generator.io.catalog import Catalog
    from generator.kniffel.oddsrequest import OddsRequest


@dataclass(frozen=True)
class Default:
    """One sheet of the default set: its load + build, and solver work worth starting early.

    `warm` fills the solver cache with what `build` will need (the Kniffel table and
    simulation: most of a cold run); `dicesheets all` runs it in another process
    while the other sheets are drawn. `build` gives the same result either way. Both
    import what they need when called: making the list imports no game, so `all`
    can start the warm-up at once. `shared` names the modules `warm` imports (and
    `build` too): `all` imports them before it forks, so they are imported once for
    both processes; the warm-up would wait for them just as long in its own process.
    """

    build: Callable[[], Built]
    warm: Callable[[], object] | None = None
    shared: tuple[str, ...] = ()
    # `build` in two steps, for `all` while the warm-up still runs: the first reads what
    # is there already, the returned second step does the rest (the same result as `build`)
    prepare: Callable[[], Callable[[], Built]] | None = None


def default_builds(seed: int = 1, catalog: Catalog | None = None) -> Iterator[Callable[[], Built]]:
    """One thunk per default sheet (load + build), in the order `dicesheets all` writes them."""
    return (item.build for item in default_set(seed, catalog))


def default_set(seed: int = 1, catalog: Catalog | None = None) -> Iterator[Default]:
    """The default sheets in the order `dicesheets all` writes them."""
    if catalog is None:
        from generator.io.catalog import Catalog

        catalog = Catalog.default()
    for rules, lang in (("kniffel", "de"), ("yahtzee", "en")):
        yield Default(partial(_kniffel_block, rules, lang, seed, catalog))
    # the Kniffel odds card (solved and simulated once, then read from the cache)
    yield Default(
        partial(_odds, seed, catalog),
        partial(_odds_solved, seed, catalog),
        ODDS_WARM_IMPORTS,
        partial(_odds_prepared, seed, catalog),
    )
    # a level-2 worksheet, versions A–C, the answer key after the sheets
    yield Default(partial(_worksheet, seed, catalog))
    # Schlaues Köpfchen: the original board and one sampled board, each with rules and key
    for profile in ("classic", "einmaleins"):
        yield Default(partial(_board, profile, seed, catalog))
    # Kribbeln: a balanced six-sheet German pad with rules page and answer key
    yield Default(partial(_kribbeln, seed, catalog))


def _kniffel_block(rules: str, lang: str, seed: int, catalog: Catalog) -> Built:
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    req = BlockRequest(rules=rules, lang=lang, players=4, seed=seed)
    return build_block(load_block(req, catalog), req)


def _odds_request(seed: int) -> OddsRequest:
    from generator.kniffel.oddsrequest import OddsRequest

    return OddsRequest(rules="kniffel", lang="de", seed=seed)


def _odds(seed: int, catalog: Catalog) -> Built:
    from generator.kniffel.build import build_odds
    from generator.kniffel.load import load_odds

    req = _odds_request(seed)
    return build_odds(load_odds(req, catalog), req)


def _odds_prepared(seed: int, catalog: Catalog) -> Callable[[], Built]:
    """`_odds` in two steps: rule sets, templates and (if stored) the table now; then the rest."""
    from generator.kniffel.build import build_odds
    from generator.kniffel.load import prepare_odds

    req = _odds_request(seed)
    rest = prepare_odds(req, catalog, load_texts=True)
    importlib.import_module("generator.kniffel.oddscard_layout")  # the card's modules, too
    return lambda: build_odds(rest(), req)


def _odds_solved(seed: int, catalog: Catalog) -> None:
    from generator.kniffel.load import warm_odds

    warm_odds(_odds_request(seed), catalog)


# everything `_odds_solved` imports: the table, the simulation, the pair of processes (numpy
# with them), the rule-set reader; none of the pages' modules, Jinja2 or ReportLab
ODDS_WARM_IMPORTS = (
    "generator.kniffel.load",
    "generator.kniffel.oddsrequest",
    "generator.kniffel.simulate",
    "generator.io.pair",
    "generator.io.userfiles",
)


def _worksheet(seed: int, catalog: Catalog) -> Built:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=2, versions=3, seed=seed, lang="de")
    return build_worksheet(load_worksheet(req, catalog), req)


def _board(profile: str, seed: int, catalog: Catalog) -> Built:
    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.load import load_board

    req = BoardRequest(profile=profile, seed=seed)
    return build_board(load_board(req, catalog), req)


def _kribbeln(seed: int, catalog: Catalog) -> Built:
    from generator.kribbeln.build import BlockRequest, build_block
    from generator.kribbeln.load import load_block

    req = BlockRequest(pages=6, lang="de", seed=seed)
    return build_block(load_block(req, catalog), req)
