"""The default set of sheets written by `dicesheets all` (and so by `make run`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from generator.registry import PRODUCTS
from generator.surface.model import Product, resolve

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
    """The default sheets in the order `dicesheets all` writes them: every product's
    `defaults` in the registry, in the registry's order."""
    if catalog is None:
        from generator.io.catalog import Catalog

        catalog = Catalog.default()
    for product in PRODUCTS.values():
        for params in product.defaults:
            values = {**params, "seed": seed}
            warm = partial(_warm, product, values, catalog) if product.warm else None
            prepare = partial(_prepare, product, values, catalog) if product.prepare else None
            yield Default(
                partial(product.make, values, catalog), warm, product.warm_imports, prepare
            )


def _warm(product: Product, values: dict[str, Any], catalog: Catalog) -> object:
    return resolve(product.warm or "")(product.request_of(values), catalog)


def _prepare(product: Product, values: dict[str, Any], catalog: Catalog) -> Callable[[], Built]:
    req = product.request_of(values)
    prepared: Callable[[], Built] = resolve(product.prepare or "")(
        req, catalog, resolve(product.build)
    )
    return prepared


def prepare_odds(
    req: OddsRequest, catalog: Catalog, build: Callable[..., Built]
) -> Callable[[], Built]:
    """The odds card in two steps: rule sets, templates and (if stored) the table now; then
    the rest (the card's modules imported now, too)."""
    from generator.kniffel.load import prepare_odds as prepare

    rest = prepare(req, catalog, load_texts=True)
    importlib.import_module("generator.kniffel.oddscard_layout")
    return lambda: build(rest(), req)
