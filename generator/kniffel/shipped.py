"""The default odds card's figures as shipped with the package: solved and simulated once.

The odds card of `dicesheets all` (Kniffel rules, 100,000 games, seed 1) needs the
table's expected score and the simulated score counts: ~2.3 s of processor time from
an empty cache, more than the rest of the run together. `shipped_odds.json` holds those
figures under the same keys the solver cache uses (rule set fingerprint, solver and
simulation versions, games, seed), so a changed rule set or solver simply misses and
computes as before (`generator.kniffel.load` reads and writes the file).
`tests/test_kniffel_shipped.py` solves and simulates each entry
again and compares every number; after a change of the solver it says how to write the
file again (`load.write_shipped`, the command in the test's message).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.core.store import NO_STORE
from generator.kniffel.rules import RuleSet
from generator.kniffel.table import scores_key, table_key

# what is shipped: the odds card of `dicesheets all` (rule set, games, seed)
CARDS = (("kniffel", 100_000, 1),)


def shipped_odds(
    entries: Mapping[tuple[str, str], dict[str, Any]], rules: RuleSet, games: int, seed: int
) -> tuple[float, dict[int, int]] | None:
    """The expected score and the score counts {score: games} if shipped, else None;
    `entries`: the file's cards by (table key, scores key) (`kniffel.load.shipped_entries`)."""
    entry = entries.get((table_key(rules), scores_key(rules, games, seed)))
    if entry is None:
        return None
    low, counts = entry["lowest"], entry["counts"]
    return float(entry["expected"]), {low + i: int(n) for i, n in enumerate(counts) if n}


def computed_entry(rules: RuleSet, games: int, seed: int) -> dict[str, Any]:
    """One entry of the file, solved and simulated now (alone: no cache, no helper)."""
    import numpy as np

    from generator.kniffel.simulate import score_distribution
    from generator.kniffel.solver import solve_strategy

    strategy = solve_strategy(rules, store=NO_STORE)
    counts = score_distribution(strategy, games, seed, store=NO_STORE).counts
    low = int(np.flatnonzero(counts)[0])
    return {
        "rules": rules.id,
        "games": games,
        "seed": seed,
        "table": table_key(rules),
        "scores": scores_key(rules, games, seed),
        "expected": strategy.expected_score(),
        "lowest": low,
        "counts": [int(n) for n in counts[low:]],
    }
