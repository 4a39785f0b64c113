"""The CLI's action for a product command: parameters → request → load → build → files.

A product whose command has no action of its own (`Command.run` None) is run here, so a
new product needs no CLI code: its registry entry names its request, load and build.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.cli.options import announce_seed, fresh_seed, run_catalog, write_out
from generator.surface.model import Product


def run(product: Product, params: Mapping[str, Any]) -> None:
    """Build `product` from the parsed parameters and write it (with its extra files)."""
    values = dict(params)
    out = values.pop("out", None)
    drawn = False
    if product.fresh_seed:
        values["seed"], drawn = fresh_seed(values.get("seed"))
    built = product.make(values, run_catalog())
    targets = {role: values.get(name) for role, name in product.extra.items()}
    write_out(built, out, targets or None)
    if drawn:  # after writing, so an error stays the only line
        announce_seed(values["seed"], values.get("lang") or "de")
