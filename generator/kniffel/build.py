"""The Kniffel products: requests and inputs, and the pure build → `Built`.

`generator.kniffel.load.load_block` / `load_odds` are the edge (catalog, YAML,
the solver cache) and make the inputs; `build_block` / `build_odds` are pure:
inputs and options in, layout document and manifest contents out. The CLI and
the web page call the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from generator.core.built import Built, font_warnings, invisible_warnings
from generator.core.errors import Input
from generator.kniffel.block import block_rows, make_spec
from generator.kniffel.oddsrequest import OddsRequest  # (there: the odds process needs no page)
from generator.kniffel.rules import RuleSet
from generator.text.words import Templates, page_label

if TYPE_CHECKING:  # the simulation needs numpy, which the block command does without
    from generator.kniffel.simulate import Distribution
    from generator.render.primitives import Document  # (imported where used: ReportLab-free)

# --- the score block -------------------------------------------------------------------


@dataclass(frozen=True)
class BlockRequest:
    """The options of `dicesheets kniffel block`."""

    rules: str = "kniffel"
    lang: str | None = None  # None: the rule set's own language
    players: int | None = None
    games: int = 6
    names: str | None = None
    copies: int = 1
    per_page: str = "auto"
    layout: str = "player"  # player: a block per player; family: players as columns
    joker: str | None = None  # None: the rule set's own (the rules page says which)
    rules_page: bool = True
    paper: str = "a4"
    landscape: bool = False
    seed: int = 1


@dataclass(frozen=True)
class BlockInputs:
    """What a block is built from: the rule set and the templates."""

    rules: RuleSet
    templates: Templates


def build_block(inputs: BlockInputs, req: BlockRequest) -> Built:
    """The score block (and its rules page): layout document and manifest contents (pure)."""
    from generator.kniffel.block_layout import layout_block
    from generator.kniffel.family_layout import layout_family
    from generator.kniffel.table import with_joker
    from generator.render.primitives import UseForm

    rules = with_joker(inputs.rules, req.joker)
    lang = req.lang or rules.lang
    spec = make_spec(rules, lang, req.players, req.games, req.names, req.copies, inputs.templates)
    if req.layout == "family":
        doc = layout_family(spec, req.paper, req.landscape, req.per_page)
        per_page = 1
    else:
        doc = layout_block(spec, req.paper, req.landscape, req.per_page)
        per_page = sum(isinstance(item, UseForm) for item in doc.pages[0].items)
    block_pages = len(doc.pages)
    doc, rules_part = _with_rules(doc, rules, lang, inputs.templates, req.rules_page)
    contents: dict[str, Any] = {
        "kind": "kniffel-block",
        "rules": rules.id,
        "rules_file": rules.source,
        "lang": lang,
        "players": len(spec.names),
        "names": list(spec.names),
        "games": spec.games,
        "copies": spec.copies,
        "layout": req.layout,
        "blocks": len(spec.blocks) if req.layout == "player" else spec.copies,
        "blocks_per_page": len(doc.pages[0].items) and per_page,
        "pages": len(doc.pages),
        "block_pages": list(range(1, block_pages + 1)),
        **rules_part,
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
        "layout": req.layout,
        "joker": req.joker,
        "rules_page": req.rules_page,
        "paper": req.paper,
        "landscape": req.landscape,
    }
    family = "-family" if req.layout == "family" else ""
    name = f"{rules.id}{family}-block-{lang}.pdf"
    warnings = font_warnings((Input("names"), n) for n in spec.names)
    warnings += invisible_warnings([(Input("names"), req.names)])
    return Built("kniffel block", name, doc, options, req.seed, contents, warnings)


def _with_rules(
    doc: Document, rules: RuleSet, lang: str, templates: Templates, wanted: bool
) -> tuple[Document, dict[str, Any]]:
    """`doc` with the rules page(s) after its pages, and what the manifest says of them."""
    if not wanted:
        return doc, {"rules_pages": []}
    from generator.kniffel.rulespage import rules_contents, rules_view
    from generator.kniffel.rulespage_layout import rules_pages
    from generator.render.flow import numbered
    from generator.render.primitives import Page

    view = rules_view(rules, lang, templates)
    label, before = page_label(lang, templates), len(doc.pages)
    # the footer counts the whole file ("Seite 3/3" after two block pages): measured, then numbered
    pages = rules_pages(view, doc.width, doc.height, None)
    pages = rules_pages(view, doc.width, doc.height, numbered(label, before, before + len(pages)))
    first = before + 1
    doc = replace(doc, pages=(*doc.pages, *(Page(tuple(p)) for p in pages)))
    return doc, {
        "rules_pages": list(range(first, first + len(pages))),
        "rules_page": rules_contents(view),
    }


# --- the rules page --------------------------------------------------------------------


@dataclass(frozen=True)
class RulesRequest:
    """The options of `dicesheets kniffel rules`."""

    rules: str = "kniffel"
    joker: str | None = None  # None: the rule set's own
    lang: str | None = None  # None: the rule set's own language
    paper: str = "a4"
    landscape: bool = False
    seed: int = 1


def build_rules(inputs: BlockInputs, req: RulesRequest) -> Built:
    """The rules page on its own: layout document and manifest contents (pure)."""
    from generator.kniffel.table import with_joker
    from generator.render.primitives import Document, page_size

    rules = with_joker(inputs.rules, req.joker)
    lang = req.lang or rules.lang
    width, height = page_size(req.paper, req.landscape)
    empty = Document(width, height, (), title=rules.name[lang])
    doc, part = _with_rules(empty, rules, lang, inputs.templates, True)
    contents = {
        "kind": "kniffel-rules",
        "rules": rules.id,
        "rules_file": rules.source,
        "lang": lang,
        "joker": rules.joker,
        "upper_bonus": {"threshold": rules.bonus_threshold, "value": rules.bonus_value},
        "extra_yahtzee_bonus": rules.extra_yahtzee_bonus,
        "pages": len(doc.pages),
        "page_size_pt": [round(doc.width, 2), round(doc.height, 2)],
        **part,
    }
    options = {
        "rules": req.rules,
        "joker": req.joker,
        "lang": lang,
        "paper": req.paper,
        "landscape": req.landscape,
    }
    variant = f"-{rules.joker}-joker" if rules.joker != inputs.rules.joker else ""
    name = f"{rules.id}{variant}-rules-{lang}.pdf"
    return Built("kniffel rules", name, doc, options, req.seed, contents)


# --- the odds card ---------------------------------------------------------------------


@dataclass(frozen=True)
class OddsInputs:
    """What the card is built from: the rule sets, the exact expectation, the simulated scores."""

    base: RuleSet  # as in the catalog
    rules: RuleSet  # with the joker asked for
    expected: float
    distribution: Distribution
    templates: Templates


def build_odds(inputs: OddsInputs, req: OddsRequest) -> Built:
    """The odds card: layout document and manifest contents (pure)."""
    from generator.kniffel.odds import pattern_odds
    from generator.kniffel.oddscard import card_contents, make_card
    from generator.kniffel.oddscard_layout import layout_odds

    rules = inputs.rules
    lang = req.lang or rules.lang
    card = make_card(
        rules, lang, pattern_odds(rules), inputs.expected, inputs.distribution, inputs.templates
    )
    doc, rules_part = _with_rules(
        layout_odds(card, req.paper, req.landscape), rules, lang, inputs.templates, req.rules_page
    )
    options = {
        "rules": req.rules,
        "joker": rules.joker,
        "rules_page": req.rules_page,
        "lang": lang,
        "games": req.games,
        "paper": req.paper,
        "landscape": req.landscape,
    }
    contents = {
        **card_contents(card),
        "page_size_pt": [round(doc.width, 2), round(doc.height, 2)],
        "pages": len(doc.pages),
        **rules_part,
    }
    variant = f"-{rules.joker}-joker" if rules.joker != inputs.base.joker else ""
    name = f"{rules.id}{variant}-odds-{lang}.pdf"
    return Built("kniffel odds", name, doc, options, req.seed, contents)
