"""Can a profile's constraints be met together? Checked once, when the profile loads.

Everything that follows from the profile alone is decided here, with the exact
odds of every target, and reported at the key that cannot be met ("contradicts
…"): a range the dice cannot reach, p_min against the curve, too few targets for
the no-repeat window or for the spread. What only a whole board decides (the
expected game length of a sampled board) is left to the sampler.
"""

from __future__ import annotations

from generator.koepfchen.profile import Profile, reachable

EPS = 1e-9


def _ops_text(profile: Profile) -> str:
    symbols = {"+": "+", "-": "−", "*": "×", "/": "÷"}
    return " ".join(symbols[o] for o in profile.rules.ops)


def _dice_text(profile: Profile) -> str:
    return f"{profile.dice} d{profile.faces} with {_ops_text(profile)}"


def field_candidates(profile: Profile) -> tuple[tuple[int, ...], ...]:
    """For fields 1..L: the targets that meet p_min and the curve there (index kind: k or none)."""
    pool = profile.pool()
    odds = profile.odds(pool)
    bal = profile.balance
    feasible = [t for t in pool if odds[t][1] >= bal.p_min - EPS]
    result = []
    for k in range(1, profile.length + 1):
        options = [k] if profile.fixed else feasible
        options = [t for t in options if t in odds and odds[t][1] >= bal.p_min - EPS]
        if bal.curve is not None:
            lo, hi = bal.curve.band(k, profile.length)
            options = [t for t in options if lo - EPS <= odds[t][1] <= hi + EPS]
        result.append(tuple(options))
    return tuple(result)


def check_feasible(profile: Profile) -> None:
    """Raise a positioned CatalogError when the profile's constraints cannot all be met."""
    _check_reach(profile)
    if profile.fixed:
        _check_fixed(profile)
        return
    pool = profile.pool()
    odds = profile.odds(pool)
    bal = profile.balance
    best = max(pool, key=lambda t: (odds[t][1], -t))
    if odds[best][1] < bal.p_min - EPS:
        raise profile.error(
            "balance.p_min",
            f"no target in the range reaches {profile.rolls}-roll odds {bal.p_min:g}; "
            f"the best is target {best} with {odds[best][1]:.3f}",
        )
    if bal.curve is not None:
        for band in (bal.curve.start, bal.curve.end):
            if band[1] < bal.p_min - EPS:
                raise profile.error(
                    "balance.curve",
                    f"the band {band[0]:g}–{band[1]:g} lies below balance.p_min {bal.p_min:g}: "
                    "contradictory constraints",
                )
    candidates = field_candidates(profile)
    for k, options in enumerate(candidates, 1):
        if not options:
            lo, hi = bal.curve.band(k, profile.length) if bal.curve else (bal.p_min, 1.0)
            near = min(pool, key=lambda t: (max(lo - odds[t][1], odds[t][1] - hi), t))
            raise profile.error(
                "balance.curve",
                f"field {k} needs odds {lo:.3f}–{hi:.3f} and ≥ p_min {bal.p_min:g}, no target "
                f"has them (closest: target {near} with {odds[near][1]:.3f})",
            )
    _check_window(profile, candidates)
    _check_spread(profile, candidates)


def _check_reach(profile: Profile) -> None:
    reach = reachable(profile.dice, profile.faces, profile.rules)
    top, bottom = max(reach), min(reach)
    if profile.fixed:
        missing = next((k for k in range(1, profile.length + 1) if k not in reach), None)
        if missing is not None:
            raise profile.error(
                "track.length",
                f"field {missing} would show {missing}, which {_dice_text(profile)} "
                f"cannot make: a target range the dice cannot reach",
            )
        return
    if profile.target_max > top:
        raise profile.error(
            "targets.max",
            f"{_dice_text(profile)} make at most {top}; the range "
            f"{profile.target_min}–{profile.target_max} goes beyond what the dice can reach",
        )
    if profile.target_min < bottom:
        raise profile.error(
            "targets.min",
            f"{_dice_text(profile)} make nothing below {bottom}; the range "
            f"{profile.target_min}–{profile.target_max} starts below what the dice can reach",
        )
    if not profile.pool():
        raise profile.error(
            "targets",
            f"{_dice_text(profile)} can make no target of this kind in "
            f"{profile.target_min}–{profile.target_max}",
        )


def _check_fixed(profile: Profile) -> None:
    from generator.koepfchen.board import check_board

    violations = check_board(profile, list(range(1, profile.length + 1)))
    if violations:
        v = violations[0]
        raise profile.error(v.key, f"the fixed board breaks it: {v.message}")


def _check_window(profile: Profile, candidates: tuple[tuple[int, ...], ...]) -> None:
    n = profile.length
    w = min(profile.balance.no_repeat_window, n)
    for start in range(n - w + 1):
        union = set().union(*candidates[start : start + w])
        if len(union) < w:
            raise profile.error(
                "balance.no_repeat_window",
                f"fields {start + 1}–{start + w} need {w} different targets, but only "
                f"{len(union)} meet p_min and the curve there: contradictory constraints",
            )


def _check_spread(profile: Profile, candidates: tuple[tuple[int, ...], ...]) -> None:
    spread = profile.balance.spread
    if spread is None:
        return
    n = profile.length
    width = profile.target_max - profile.target_min + 1
    if spread.bins > width:
        raise profile.error(
            "balance.spread.bins",
            f"{spread.bins} slices of a range of {width} targets leave some slice empty",
        )
    if spread.bins * spread.min_per_bin > n:
        raise profile.error(
            "balance.spread.min_per_bin",
            f"{spread.bins} slices × {spread.min_per_bin} fields need "
            f"{spread.bins * spread.min_per_bin} fields, the track has {n}: "
            "contradictory constraints",
        )
    usable = set().union(*candidates)
    if spread.max_uses and len(usable) * spread.max_uses < n:
        raise profile.error(
            "balance.spread.max_uses",
            f"{len(usable)} usable targets × {spread.max_uses} uses cover only "
            f"{len(usable) * spread.max_uses} of {n} fields: contradictory constraints",
        )
    for b in range(spread.bins):
        first, last = profile.bin_range(b)
        fields = sum(1 for options in candidates if any(first <= t <= last for t in options))
        in_bin = sum(1 for t in usable if first <= t <= last)
        room = min(fields, in_bin * spread.max_uses) if spread.max_uses else fields
        if room < spread.min_per_bin:
            raise profile.error(
                "balance.spread.min_per_bin",
                f"targets {first}–{last} can stand on at most {room} fields under p_min and the "
                f"curve, min_per_bin asks for {spread.min_per_bin}: contradictory constraints",
            )
