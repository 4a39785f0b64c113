"""Sampled boards meet every constraint of their profile, for many seeds; failures are quick."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.errors import CatalogError
from generator.core.resources import catalog_dir
from generator.koepfchen.analysis import expected_turns
from generator.koepfchen.board import check_board
from generator.koepfchen.load import load_profile
from generator.koepfchen.profile import Profile
from generator.koepfchen.sampler import sample_board
from generator.numbers import reachable_targets
from generator.numbers.odds import odds_table

SEEDS = range(25)


def independent_violations(profile: Profile, targets: tuple[int, ...]) -> list[str]:
    """Every constraint restated from the profile file's meaning, not from `check_board`."""
    bad = []
    n = profile.length
    if len(targets) != n:
        return [f"{len(targets)} targets for {n} fields"]
    odds = odds_table(
        sorted(set(targets)), profile.dice, profile.faces, profile.rolls, profile.rules
    )
    table = {o.target: o.within for o in odds}
    bal = profile.balance
    for k, t in enumerate(targets, 1):
        if not profile.target_min <= t <= profile.target_max:
            bad.append(f"field {k}: {t} outside the range")
        if profile.target_kind == "products":
            lo, hi = profile.factors
            if not any(t % a == 0 and lo <= t // a <= hi for a in range(lo, hi + 1)):
                bad.append(f"field {k}: {t} is no product of {lo}–{hi}")
        if table[t] < bal.p_min - 1e-12:
            bad.append(f"field {k}: odds {table[t]} below p_min")
        if bal.curve is not None:
            frac = (k - 1) / (n - 1)
            lo = bal.curve.start[0] + frac * (bal.curve.end[0] - bal.curve.start[0])
            hi = bal.curve.start[1] + frac * (bal.curve.end[1] - bal.curve.start[1])
            if not lo - 1e-9 <= table[t] <= hi + 1e-9:
                bad.append(f"field {k}: odds {table[t]:.3f} outside {lo:.3f}–{hi:.3f}")
    w = bal.no_repeat_window
    for start in range(n):
        window = targets[start : start + w]
        if len(set(window)) != len(window):
            bad.append(f"repeat within fields {start + 1}–{start + len(window)}")
    if bal.spread is not None:
        width = profile.target_max - profile.target_min + 1
        slices = Counter((t - profile.target_min) * bal.spread.bins // width for t in targets)
        for b in range(bal.spread.bins):
            if slices[b] < bal.spread.min_per_bin:
                bad.append(f"slice {b} on {slices[b]} fields")
        if bal.spread.max_uses and max(Counter(targets).values()) > bal.spread.max_uses:
            bad.append("a target used too often")
    if bal.game_length is not None:
        turns = expected_turns([table[t] for t in targets])
        if not bal.game_length.min <= turns <= bal.game_length.max:
            bad.append(f"expected {turns:.2f} turns outside the window")
    return bad


@pytest.mark.parametrize("name", ["classic", "plus-minus", "einmaleins", "challenge"])
def test_every_constraint_holds_for_many_seeds(name: str) -> None:
    profile = load_profile(name)
    reach = reachable_targets_any(profile)
    boards = set()
    for seed in SEEDS:
        board = sample_board(profile, seed)
        assert board.seed == (None if profile.fixed else seed)
        assert independent_violations(profile, board.targets) == [], (name, seed)
        assert check_board(profile, board.targets) == []
        assert set(board.targets) <= reach
        boards.add(board.targets)
    assert len(boards) == (1 if profile.fixed else len(SEEDS))  # seeds give different boards


@pytest.mark.parametrize("name", ["plus-minus", "einmaleins", "challenge"])
@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_every_constraint_holds_for_any_seed(name: str, seed: int) -> None:
    profile = load_profile(name)
    assert independent_violations(profile, sample_board(profile, seed).targets) == []


def reachable_targets_any(profile: Profile) -> set[int]:
    from itertools import combinations_with_replacement

    found: set[int] = set()
    for roll in combinations_with_replacement(range(1, profile.faces + 1), profile.dice):
        found |= reachable_targets(roll, profile.rules)
    return found


def test_the_independent_check_can_fail() -> None:
    """The property test is worth something only if its check catches broken boards."""
    profile = load_profile("einmaleins")
    good = sample_board(profile, 1).targets
    repeated = (good[1], *good[1:])
    assert any("repeat" in v for v in independent_violations(profile, repeated))
    hard = tuple(42 for _ in good)  # 42 = 6 × 7: odds 0.36 < p_min 0.45
    assert any("below p_min" in v for v in independent_violations(profile, hard))
    assert check_board(profile, repeated) and check_board(profile, hard)


def test_classic_is_fixed_and_sampling_is_deterministic() -> None:
    classic = load_profile("classic")
    assert sample_board(classic, 1).targets == tuple(range(1, 41))
    assert sample_board(classic, 99).targets == tuple(range(1, 41))
    ein = load_profile("einmaleins")
    assert sample_board(ein, 7).targets == sample_board(ein, 7).targets
    assert sample_board(ein, 7).targets != sample_board(ein, 8).targets


def test_game_length_is_really_steered() -> None:
    """Without the window, boards spread wider; with it, every board lands inside."""
    profile = load_profile("einmaleins")
    free = dataclasses.replace(
        profile, balance=dataclasses.replace(profile.balance, game_length=None)
    )
    window = profile.balance.game_length
    outside = 0
    for seed in range(15):
        free_turns = expected_turns(sample_board(free, seed).success)
        outside += not window.min <= free_turns <= window.max
        turns = expected_turns(sample_board(profile, seed).success)
        assert window.min <= turns <= window.max
    assert outside > 0  # otherwise the window would not constrain anything


def test_unsatisfiable_game_length_fails_fast_with_the_closest(tmp_path: Path) -> None:
    text = (catalog_dir() / "koepfchen" / "einmaleins.yaml").read_text(encoding="utf-8")
    path = tmp_path / "short.yaml"
    path.write_text(text.replace("    min: 26\n    max: 34", "    min: 5\n    max: 8"), "utf-8")
    profile = load_profile(str(path))
    with pytest.raises(CatalogError) as err:  # the search's budget ends it (not a clock here)
        sample_board(profile, 3)
    message = str(err.value)
    assert "balance.game_length" in message and "window 5–8" in message
    assert "closest board has" in message
    closest = float(message.split("closest board has ")[1].split()[0])
    assert closest > 8  # the honest best, not a board passed off as good
