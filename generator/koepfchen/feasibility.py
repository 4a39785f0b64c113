"""Can a profile's constraints be met together? Checked once, when the profile loads.

Everything that follows from the profile alone is decided here, with the exact
odds of every target, and reported at the key that cannot be met ("contradicts
…"): a range the dice cannot reach, p_min against the curve, too few targets for
the no-repeat window or for the spread. What only a whole board decides (the
expected game length of a sampled board) is left to the sampler.
"""

from __future__ import annotations

from generator.core.errors import Msg
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
            Msg(
                "target_range_reaches_roll",
                rolls=profile.rolls,
                p_min=f"{bal.p_min:g}",
                best=best,
                odds=f"{odds[best][1]:.3f}",
            ),
        )
    if bal.curve is not None:
        for band in (bal.curve.start, bal.curve.end):
            if band[1] < bal.p_min - EPS:
                raise profile.error(
                    "balance.curve",
                    Msg(
                        "band_lies_below_balance",
                        band=f"{band[0]:g}",
                        band2=f"{band[1]:g}",
                        p_min=f"{bal.p_min:g}",
                    ),
                )
    candidates = field_candidates(profile)
    for k, options in enumerate(candidates, 1):
        if not options:
            lo, hi = bal.curve.band(k, profile.length) if bal.curve else (bal.p_min, 1.0)
            near = min(pool, key=lambda t: (max(lo - odds[t][1], odds[t][1] - hi), t))
            raise profile.error(
                "balance.curve",
                Msg(
                    "field_needs_odds_p",
                    k=k,
                    lo=f"{lo:.3f}",
                    hi=f"{hi:.3f}",
                    p_min=f"{bal.p_min:g}",
                    near=near,
                    odds=f"{odds[near][1]:.3f}",
                ),
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
                Msg("field_would_show_which", missing=missing, dice_text=_dice_text(profile)),
            )
        return
    if profile.target_max > top:
        raise profile.error(
            "targets.max",
            Msg(
                "make_most_range_goes",
                dice_text=_dice_text(profile),
                top=top,
                target_min=profile.target_min,
                target_max=profile.target_max,
            ),
        )
    if profile.target_min < bottom:
        raise profile.error(
            "targets.min",
            Msg(
                "make_nothing_below_range",
                dice_text=_dice_text(profile),
                bottom=bottom,
                target_min=profile.target_min,
                target_max=profile.target_max,
            ),
        )
    if not profile.pool():
        raise profile.error(
            "targets",
            Msg(
                "can_make_target_this",
                dice_text=_dice_text(profile),
                target_min=profile.target_min,
                target_max=profile.target_max,
            ),
        )


def _check_fixed(profile: Profile) -> None:
    from generator.koepfchen.board import check_board

    violations = check_board(profile, list(range(1, profile.length + 1)))
    if violations:
        v = violations[0]
        raise profile.error(v.key, Msg("fixed_board_breaks", message=v.message))


def _check_window(profile: Profile, candidates: tuple[tuple[int, ...], ...]) -> None:
    n = profile.length
    w = min(profile.balance.no_repeat_window, n)
    for start in range(n - w + 1):
        union = set().union(*candidates[start : start + w])
        if len(union) < w:
            raise profile.error(
                "balance.no_repeat_window",
                Msg(
                    "fields_need_different_targets",
                    start=start + 1,
                    start2=start + w,
                    w=w,
                    n_union=len(union),
                ),
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
            Msg("slices_range_targets_leave", bins=spread.bins, width=width),
        )
    if spread.bins * spread.min_per_bin > n:
        raise profile.error(
            "balance.spread.min_per_bin",
            Msg(
                "slices_fields_need_fields",
                bins=spread.bins,
                min_per_bin=spread.min_per_bin,
                bins2=spread.bins * spread.min_per_bin,
                n=n,
            ),
        )
    usable = set().union(*candidates)
    if spread.max_uses and len(usable) * spread.max_uses < n:
        raise profile.error(
            "balance.spread.max_uses",
            Msg(
                "usable_targets_uses_cover",
                n_usable=len(usable),
                max_uses=spread.max_uses,
                n_usable2=len(usable) * spread.max_uses,
                n=n,
            ),
        )
    for b in range(spread.bins):
        first, last = profile.bin_range(b)
        fields = sum(1 for options in candidates if any(first <= t <= last for t in options))
        in_bin = sum(1 for t in usable if first <= t <= last)
        room = min(fields, in_bin * spread.max_uses) if spread.max_uses else fields
        if room < spread.min_per_bin:
            raise profile.error(
                "balance.spread.min_per_bin",
                Msg(
                    "targets_can_stand_most",
                    first=first,
                    last=last,
                    room=room,
                    min_per_bin=spread.min_per_bin,
                ),
            )
