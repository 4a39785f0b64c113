"""The Kniffel block pipeline: options → spec → layout → PDF + manifest (no click here)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.catalog import Catalog
from generator.kniffel.block import block_rows, make_spec
from generator.kniffel.rules import load_rules
from generator.output import build_manifest, resolve_out, write_pdf


@dataclass(frozen=True)
class BlockRequest:
    rules: str = "kniffel"
    lang: str | None = None  # None: the rule set's own language
    players: int | None = None
    games: int = 6
    names: str | None = None
    copies: int = 1
    per_page: str = "auto"
    paper: str = "a4"
    landscape: bool = False
    seed: int = 1


def write_block(req: BlockRequest, out: str | Path | None, catalog: Catalog | None = None) -> Path:
    """Build the score block PDF and its manifest; return the PDF path."""
    from generator.kniffel.block_layout import layout_block
    from generator.render.draw import render_pdf

    rules = load_rules(req.rules, catalog)
    lang = req.lang or rules.lang
    spec = make_spec(rules, lang, req.players, req.games, req.names, req.copies)
    path = resolve_out(out, f"{rules.id}-block-{lang}.pdf")
    doc = layout_block(spec, req.paper, req.landscape, req.per_page)
    pdf = render_pdf(doc)
    contents: dict[str, Any] = {
        "kind": "kniffel-block",
        "rules": rules.id,
        "rules_file": rules.source,
        "lang": lang,
        "players": len(spec.names),
        "names": list(spec.names),
        "games": spec.games,
        "copies": spec.copies,
        "blocks": len(spec.blocks),
        "blocks_per_page": len(doc.pages[0].items) and _blocks_on_first_page(doc),
        "pages": len(doc.pages),
        "page_size_pt": [round(doc.width, 2), round(doc.height, 2)],
        "rows": [
            {"key": r.key, "kind": r.kind, "label": r.label, "hint": r.hint}
            for r in block_rows(spec)
        ],
        "upper_bonus": {"threshold": rules.bonus_threshold, "value": rules.bonus_value},
        "extra_yahtzee_bonus": rules.extra_yahtzee_bonus,
        "joker": rules.joker,
    }
    options = {
        "rules": req.rules,
        "lang": lang,
        "players": len(spec.names),
        "games": req.games,
        "names": req.names,
        "copies": req.copies,
        "per_page": req.per_page,
        "paper": req.paper,
        "landscape": req.landscape,
    }
    write_pdf(path, pdf, build_manifest("kniffel block", options, req.seed, contents))
    return path


def _blocks_on_first_page(doc: Any) -> int:
    from generator.render.primitives import UseForm

    return sum(isinstance(item, UseForm) for item in doc.pages[0].items)
