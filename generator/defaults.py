"""The default set of sheets written by `dicesheets all` (and so by `make run`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from generator.built import Built
from generator.io.catalog import Catalog

# Solver work worth starting early, in stages: the jobs of a stage are independent of
# each other and may run side by side; a stage starts when the one before it is done.
Warmup = tuple[tuple[Callable[[], object], ...], ...]


@dataclass(frozen=True)
class Default:
    """One sheet of the default set: its load + build, and solver work worth starting early.

    `warm` fills the solver cache with what `build` will need (the Kniffel table and
    simulation: most of a cold run); `dicesheets all` runs it in other processes
    while the other sheets are drawn. `build` gives the same result either way.
    """

    build: Callable[[], Built]
    warm: Warmup = ()


def default_builds(seed: int = 1, catalog: Catalog | None = None) -> Iterator[Callable[[], Built]]:
    """One thunk per default sheet (load + build), in the order `dicesheets all` writes them."""
    return (item.build for item in default_set(seed, catalog))


def default_set(seed: int = 1, catalog: Catalog | None = None) -> Iterator[Default]:
    """The default sheets in the order `dicesheets all` writes them."""
    from generator.kniffel import build as kniffel
    from generator.koepfchen.build import BoardRequest
    from generator.kribbeln.build import BlockRequest as KribbelnRequest
    from generator.kribbeln.build import build_block
    from generator.load import kniffel as load_kniffel
    from generator.load.kribbeln import load_block
    from generator.load.worksheet import load_worksheet
    from generator.worksheet.build import WorksheetRequest, build_worksheet

    catalog = catalog or Catalog.default()
    for rules, lang in (("kniffel", "de"), ("yahtzee", "en")):
        block = kniffel.BlockRequest(rules=rules, lang=lang, players=4, seed=seed)
        yield Default(partial(_kniffel_block, block, catalog))
    # the Kniffel odds card (solved and simulated once, then read from the cache)
    odds = kniffel.OddsRequest(rules="kniffel", lang="de", seed=seed)
    yield Default(
        lambda: kniffel.build_odds(load_kniffel.load_odds(odds, catalog), odds),
        warm=load_kniffel.odds_warmup(odds, catalog),
    )
    # a level-2 worksheet, versions A–C, the answer key after the sheets
    sheet = WorksheetRequest(level=2, versions=3, seed=seed, lang="de")
    yield Default(lambda: build_worksheet(load_worksheet(sheet, catalog), sheet))
    # Schlaues Köpfchen: the original board and one sampled board, each with rules and key
    for profile in ("classic", "einmaleins"):
        board = BoardRequest(profile=profile, seed=seed)
        yield Default(partial(_board, board, catalog))
    # Kribbeln: a balanced six-sheet German pad with rules page and answer key
    pad = KribbelnRequest(pages=6, lang="de", seed=seed)
    yield Default(lambda: build_block(load_block(pad, catalog), pad))


def _kniffel_block(req: Any, catalog: Catalog) -> Built:
    from generator.kniffel.build import build_block
    from generator.load.kniffel import load_block

    return build_block(load_block(req, catalog), req)


def _board(req: Any, catalog: Catalog) -> Built:
    from generator.koepfchen.build import build_board
    from generator.load.koepfchen import load_board

    return build_board(load_board(req, catalog), req)
