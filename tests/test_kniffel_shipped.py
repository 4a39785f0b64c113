"""The odds card's shipped figures are the solver's and the simulation's, number for number."""

from __future__ import annotations

import dataclasses
import json

import pytest

from generator.kniffel import load, shipped
from generator.kniffel.load import load_odds, load_rules
from generator.kniffel.oddsrequest import OddsRequest

REWRITE = (
    "the shipped odds figures are not what the solver computes now: write them again with "
    "`python -c 'from generator.kniffel import load; load.write_shipped()'`"
)


@pytest.mark.parametrize("card", shipped.CARDS, ids=lambda c: str(c))
def test_every_shipped_card_is_solved_and_simulated_again_alike(card: tuple) -> None:
    name, games, seed = card
    rules = load_rules(name)
    entry = shipped.computed_entry(rules, games, seed)
    data = json.loads(load.SHIPPED.read_text(encoding="utf-8"))
    assert entry in data["cards"], REWRITE
    assert len(data["cards"]) == len(shipped.CARDS)  # nothing shipped that is not checked here


def test_the_default_odds_card_reads_the_shipped_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_solving(*args: object, **kwargs: object) -> object:
        raise AssertionError("solved although shipped")

    monkeypatch.setattr("generator.kniffel.solver.solve_values", no_solving)
    monkeypatch.setattr("generator.kniffel.simulate.simulate_scores", no_solving)
    inputs = load_odds(OddsRequest())
    expected, counts = shipped.shipped_odds(load.shipped_entries(), inputs.rules, 100_000, 1) or (
        0.0,
        {},
    )
    assert inputs.expected == expected
    assert {s: int(n) for s, n in enumerate(inputs.distribution.counts) if n} == counts
    assert inputs.distribution.games == 100_000


@pytest.mark.parametrize(
    "change", [{"seed": 2}, {"games": 2000}, {"joker": "free"}, {"rules": "yahtzee"}]
)
def test_any_other_card_is_not_shipped(change: dict) -> None:
    req = dataclasses.replace(OddsRequest(), **change)
    rules = load_rules(req.rules)
    if req.joker:
        rules = dataclasses.replace(rules, joker=req.joker)
    assert shipped.shipped_odds(load.shipped_entries(), rules, req.games, req.seed) is None


def test_a_changed_rule_set_misses_the_shipped_figures() -> None:
    rules = load_rules("kniffel")
    assert shipped.shipped_odds(load.shipped_entries(), rules, 100_000, 1) is not None
    assert (
        shipped.shipped_odds(
            load.shipped_entries(), dataclasses.replace(rules, bonus_value=36), 100_000, 1
        )
        is None
    )
