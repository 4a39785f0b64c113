"""The Kniffel edge: rule sets from the catalog, score files, the solved table from the cache.

Everything here reads (catalog folders, YAML files, the on-disk solver cache) and
hands the games frozen values: `load_block` / `load_odds` make the inputs of
`generator.kniffel.build`, `load_strategy` gives the solver the disk cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import Input, Msg, UserError
from generator.core.problems import Problems
from generator.core.team import ALONE, Team
from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.io.yamlload import load_file
from generator.kniffel.rules import SUBDIR, RuleSet, parse_rules
from generator.kniffel.shipped import CARDS, computed_entry, shipped_odds
from generator.kniffel.simsize import check_games
from generator.kniffel.table import Table

if TYPE_CHECKING:
    # the solver needs numpy, which the block command does without; the pages' modules
    # (and so Jinja2) are not needed by `warm_odds`, the odds process of `dicesheets all`
    from generator.kniffel.build import (
        BlockInputs,
        BlockRequest,
        OddsInputs,
        OddsRequest,
        RulesRequest,
    )
    from generator.kniffel.scorefile import ScoreCheck
    from generator.kniffel.solver import Strategy
    from generator.text.words import Templates


def load_rules_file(path: Path, label: str, problems: Problems | None = None) -> RuleSet:
    """Read and validate one rule-set file."""
    return parse_rules(load_file(path, label), label, problems)


def rule_set_names(catalog: Catalog | None = None) -> list[str]:
    return (catalog or Catalog.default()).names(SUBDIR)


def load_rules(name: str, catalog: Catalog | None = None) -> RuleSet:
    """The rule set called `name` (a catalog entry such as 'kniffel', or a path to a YAML file)."""
    catalog = catalog or Catalog.default()
    path = catalog.path(f"{SUBDIR}/{name}.yaml")
    if path is None and name.endswith((".yaml", ".yml")) and Path(name).is_file():
        return load_rules_file(Path(name), name)
    if path is None:
        known = ", ".join(rule_set_names(catalog))
        raise UserError(Msg("unknown_rules", name=name, known=known), where=Input("rules"))
    return load_rules_file(path, catalog.label(path))


def check_score_file(path: str | Path, catalog: Catalog | None = None) -> ScoreCheck:
    """Read a filled-in score file and check it against the rule set it names."""
    from generator.kniffel.scorefile import check_score

    file = str(path)
    return check_score(load_file(Path(path), file), file, lambda name: load_rules(name, catalog))


def load_strategy(
    rules: RuleSet, tick: Callable[[int], None] | None = None, *, team: Team = ALONE
) -> Strategy:
    """The solved table for `rules`: from the on-disk cache, or computed (seconds) and stored.

    `team` (`generator.io.pair.PAIR`: this process and a helper) shares the computing.
    """
    from generator.kniffel.solver import solve_strategy

    return solve_strategy(rules, tick, store=DISK, team=team)


def load_table(rules: RuleSet, solve: Callable[[RuleSet], Strategy] | None = None) -> Table:
    """The solved table for `rules` as the coach reads it: a few values of the cache entry.

    Without numpy while the entry is sound; a missing or damaged one is computed by
    `solve` (default `load_strategy`, which rewrites the entry), also when the damage is
    found only mid-answer.
    """
    from generator.io.cache import DamagedTable, stored_table
    from generator.kniffel.table import shape_of, table_key

    stored = stored_table("kniffel", table_key(rules))
    sound = stored is not None and stored.dims == shape_of(rules).dims
    reads: list[Callable[[int], float]] = [stored.at] if stored is not None and sound else []

    def solved() -> Callable[[int], float]:
        flat = (solve or load_strategy)(rules).values.reshape(-1)
        return lambda index: float(flat[index])

    def at(index: int) -> float:
        if not reads:
            reads.append(solved())
        try:
            return reads[-1](index)
        except DamagedTable:
            reads.append(solved())
            return reads[-1](index)

    return Table(rules, at)


def load_block(req: BlockRequest, catalog: Catalog | None = None) -> BlockInputs:
    """Read the rule set and the templates of the catalog (default: the shipped one)."""
    from generator.kniffel.build import BlockInputs

    catalog = catalog or Catalog.default()
    return BlockInputs(load_rules(req.rules, catalog), catalog.templates())


def load_rules_page(req: RulesRequest, catalog: Catalog | None = None) -> BlockInputs:
    """The rules page's inputs: the rule set and the templates, as for a block."""
    from generator.kniffel.build import BlockInputs

    catalog = catalog or Catalog.default()
    return BlockInputs(load_rules(req.rules, catalog), catalog.templates())


def load_odds(
    req: OddsRequest, catalog: Catalog | None = None, *, team: Team = ALONE
) -> OddsInputs:
    """Read the rule set; solve and simulate (or read both from the solver cache).

    A cold solve takes seconds: on a terminal a progress bar shows each stage. `team`
    shares the computing (see `load_strategy`).
    """
    return prepare_odds(req, catalog, team=team)()


def prepare_odds(
    req: OddsRequest,
    catalog: Catalog | None = None,
    *,
    team: Team = ALONE,
    load_texts: bool = False,
) -> Callable[[], OddsInputs]:
    """`load_odds` in two steps: what can be read now, then (the returned step) the rest.

    The first step reads the rule sets and the templates and takes the solved table if
    the cache holds it already (it computes nothing); with `load_texts` it also loads
    the card's template (compiled once per process: the card's build finds it). The
    second step reads or computes what is still missing. `dicesheets all` takes the
    first while the odds process still simulates, the second when it is done.
    """
    from generator.io.cache import STORED_ONLY, NotStored
    from generator.kniffel.solver import solve_strategy

    catalog = catalog or Catalog.default()
    base, rules = _odds_rules(req, catalog)
    templates = catalog.templates()
    if load_texts:
        from generator.text.words import Texts

        Texts("kniffel_odds", req.lang or rules.lang, templates)
    shipped = shipped_odds(shipped_entries(), rules, req.games, req.seed)
    if shipped is not None:  # the default card's figures come with the package
        return partial(_shipped_inputs, base, rules, shipped, req.seed, templates)
    try:
        stored: Strategy | None = solve_strategy(rules, store=STORED_ONLY)
    except NotStored:
        stored = None

    def rest() -> OddsInputs:
        from generator.io.progress import progress
        from generator.kniffel.build import OddsInputs
        from generator.kniffel.simulate import score_distribution

        turns = len(rules.boxes)
        with progress(turns, "solving the optimal strategy") as tick:
            strategy = stored or load_strategy(rules, tick, team=team)
        with progress(turns, "simulating games") as tick:
            dist = score_distribution(strategy, req.games, req.seed, tick, store=DISK, team=team)
        return OddsInputs(base, rules, strategy.expected_score(), dist, templates)

    return rest


def _shipped_inputs(
    base: RuleSet,
    rules: RuleSet,
    shipped: tuple[float, dict[int, int]],
    seed: int,
    templates: Templates,
) -> OddsInputs:
    import numpy as np

    from generator.kniffel.build import OddsInputs
    from generator.kniffel.simulate import Distribution

    expected, by_score = shipped
    counts = np.zeros(max(by_score) + 1, dtype=np.int64)
    counts[list(by_score)] = list(by_score.values())
    return OddsInputs(base, rules, expected, Distribution(counts, seed), templates)


def warm_odds(req: OddsRequest, catalog: Catalog) -> None:
    """`load_odds`'s solver work, for a process beside the one that builds the card.

    The table, then the simulation, each shared with a helper process where a second
    processor is free; both go into the solver cache, where `load_odds` finds them.
    Nothing for a card whose figures are shipped.
    """
    from generator.io.pair import pair_if_spare
    from generator.kniffel.simulate import score_distribution

    rules = _odds_rules(req, catalog)[1]
    if shipped_odds(shipped_entries(), rules, req.games, req.seed) is not None:
        return
    team = pair_if_spare() or ALONE
    strategy = load_strategy(rules, team=team)
    score_distribution(strategy, req.games, req.seed, store=DISK, team=team)


def _odds_rules(req: OddsRequest, catalog: Catalog) -> tuple[RuleSet, RuleSet]:
    """The rule set as in the catalog, and with the joker asked for (games checked too)."""
    from generator.kniffel.solver import with_joker

    base = load_rules(req.rules, catalog)
    rules = with_joker(base, req.joker)
    check_games(req.games)
    return base, rules


SHIPPED = Path(__file__).with_name("shipped_odds.json")  # (`generator.kniffel.shipped`)


@cache
def shipped_entries() -> dict[tuple[str, str], dict[str, Any]]:
    """The shipped odds cards by (table key, scores key); none if the file is damaged."""
    try:
        data = json.loads(SHIPPED.read_text(encoding="utf-8"))
        return {(e["table"], e["scores"]): e for e in data["cards"]}
    except (OSError, ValueError, KeyError, TypeError):  # (then computed instead)
        return {}


def write_shipped() -> None:
    """Solve and simulate every shipped card again and write the file (after a solver change)."""
    cards = [computed_entry(load_rules(name), games, seed) for name, games, seed in CARDS]
    # (one card a line: the counts are a few hundred numbers)
    lines = ",\n".join(json.dumps(card) for card in cards)
    SHIPPED.write_text(f'{{"cards": [\n{lines}\n]}}\n', encoding="utf-8")
