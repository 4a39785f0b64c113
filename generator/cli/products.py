"""The CLI's action for a product command: parameters → request → load → build → files.

A product whose command has no action of its own (`Command.run` None) is run here, so a
new product needs no CLI code: its registry entry names its request, load and build.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.cli.options import announce_seed, fresh_seed, run_catalog, warn, write_out
from generator.core.built import Built
from generator.surface.model import Product, resolve

MAX_MANIFEST_BYTES = 5_000_000  # a manifest is far smaller; a larger file is not one


def last_manifest(product: Product, target: Path) -> Path | None:
    """The manifest of the last file of `product`: the one beside the file this run
    replaces, else the newest of the product's default names in that folder."""
    beside = target.with_suffix(".json")
    if beside.is_file():
        return beside
    found = [
        p
        for pattern in product.files
        for p in target.parent.glob(pattern.removesuffix(".pdf") + ".json")
        if p.is_file()
    ]
    return max(found, key=lambda p: (p.stat().st_mtime_ns, p.name), default=None)


def since_last(product: Product, built: Built, out: str | None) -> tuple[Any, ...]:
    """What the build says against the last file of its kind (nothing without one)."""
    from generator.io.writer import resolve_out

    assert product.since is not None
    last = last_manifest(product, resolve_out(out, built.name))
    if last is None or last.stat().st_size > MAX_MANIFEST_BYTES:
        return ()
    try:
        contents = json.loads(last.read_text(encoding="utf-8"))["contents"]
    except (OSError, ValueError, KeyError, TypeError):
        return ()  # not a manifest of ours: nothing to compare with
    if not isinstance(contents, dict):
        return ()
    return tuple(resolve(product.since)(contents, built.contents, str(last)))


def pad_to_pin(product: Product, values: Mapping[str, Any], out: str | None) -> str:
    """The manifest `--pin` keeps sheets of: the last file of `product` where this one goes."""
    from generator.core.errors import Msg, OptionError, shown
    from generator.io.writer import resolve_out

    target = resolve_out(out, product.request_of(values).file_name)
    last = last_manifest(product, target)
    if last is None:
        raise OptionError("--pin", Msg("pin_no_last_pad", folder=shown(target.parent)))
    return str(last)


def run(product: Product, params: Mapping[str, Any]) -> None:
    """Build `product` from the parsed parameters and write it (with its extra files)."""
    values = dict(params)
    out = values.pop("out", None)
    drawn = False
    if product.fresh_seed:
        values["seed"], drawn = fresh_seed(values.get("seed"))
    if values.get("pin") is not None:
        values["last_pad"] = pad_to_pin(product, values, out)
    built = product.make(values, run_catalog())
    if product.since is not None:
        warn(since_last(product, built, out))
    targets = {role: values.get(name) for role, name in product.extra.items()}
    write_out(built, out, targets or None)
    if drawn:  # after writing, so an error stays the only line
        announce_seed(values["seed"], values.get("lang") or "de")
