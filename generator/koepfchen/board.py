"""A board: the target printed on every field 1..L, with its odds, and the constraint check.

`check_board` is the one statement of what each balance constraint means; the
loader (for the fixed classic board), the sampler (before it returns) and the
tests all ask it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator.core.errors import InputError, Msg, shown
from generator.koepfchen.analysis import expected_turns
from generator.koepfchen.profile import MAX_TARGET, Profile, reachable

EPS = 1e-9  # odds compared against bands: float rounding must not decide


@dataclass(frozen=True)
class Field:
    """One field of the track: its number, the target printed on it, and the odds of making it."""

    index: int  # 1..L
    target: int
    single_roll: float
    within: float  # R-roll optimal
    level: int  # difficulty dots 1–3


@dataclass(frozen=True)
class Board:
    """A profile's board: every field's target and odds; `seed` is None for a fixed board."""

    profile: Profile
    seed: int | None
    fields: tuple[Field, ...]

    @property
    def targets(self) -> tuple[int, ...]:
        return tuple(f.target for f in self.fields)

    @property
    def success(self) -> tuple[float, ...]:
        """R-roll odds of fields 1..L, as the analysis takes them."""
        return tuple(f.within for f in self.fields)


@dataclass(frozen=True)
class Violation:
    """A constraint a board breaks: its key in the profile, what is wrong, and by how much."""

    key: str
    message: str
    excess: float = 1.0


def make_board(profile: Profile, targets: Sequence[int], seed: int | None) -> Board:
    """The board with these targets, its odds filled in."""
    odds = profile.odds(tuple(targets))
    fields = tuple(
        Field(k, t, odds[t][0], odds[t][1], profile.level(odds[t][1]))
        for k, t in enumerate(targets, start=1)
    )
    return Board(profile, seed, fields)


def typed_targets(text: str, profile: Profile) -> tuple[int, ...]:
    """The targets of `--targets "3,8,12,…"`: one whole number per field of the profile's
    track, each one a roll of its dice can make, none twice (else `InputError` naming it)."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    for part in parts:
        if not (part.isascii() and part.isdigit()):
            raise InputError("targets", Msg("board_targets_whole_numbers", found=shown(part)))
    targets = tuple(int(p) for p in parts)
    if len(targets) != profile.length:
        found = len(targets)
        where = Msg("board_targets_count", fields=profile.length, profile=profile.id, found=found)
        raise InputError("targets", where)
    reach = reachable(profile.dice, profile.faces, profile.rules)
    low, high = min(reach), min(max(reach), MAX_TARGET)
    first: dict[int, int] = {}
    for field, target in enumerate(targets, start=1):
        if not low <= target <= high:
            where = Msg("board_targets_range", field=field, low=low, high=high, found=target)
            raise InputError("targets", where)
        if target not in reach:
            where = Msg("board_targets_unmakeable", field=field, dice=profile.dice, found=target)
            raise InputError("targets", where)
        if target in first:
            where = Msg("board_targets_twice", target=target, first=first[target], field=field)
            raise InputError("targets", where)
        first[target] = field
    return targets


def check_board(profile: Profile, targets: Sequence[int]) -> list[Violation]:
    """Every constraint of `profile` that the board with `targets` breaks (empty: all hold)."""
    n = profile.length
    if len(targets) != n:
        return [Violation("track.length", f"expected {n} targets, found {len(targets)}")]
    found: list[Violation] = []
    pool = set(profile.pool())
    if profile.fixed:
        wrong = [k for k, t in enumerate(targets, 1) if t != k]
        if wrong:
            found.append(Violation("targets.kind", f"field {wrong[0]} must show {wrong[0]}"))
    outside = [(k, t) for k, t in enumerate(targets, 1) if t not in pool]
    for k, t in outside[:1]:
        found.append(Violation("targets", f"field {k} shows {t}, which the profile cannot print"))
    if found:
        return found
    odds = profile.odds(tuple(targets))
    bal = profile.balance
    for k, t in enumerate(targets, 1):
        p = odds[t][1]
        if p < bal.p_min - EPS:
            found.append(
                Violation(
                    "balance.p_min",
                    f"field {k} (target {t}) has {profile.rolls}-roll odds {p:.3f} "
                    f"< p_min {bal.p_min:g}",
                    bal.p_min - p,
                )
            )
            break
    if bal.curve is not None:
        for k, t in enumerate(targets, 1):
            lo, hi = bal.curve.band(k, n)
            p = odds[t][1]
            if not lo - EPS <= p <= hi + EPS:
                found.append(
                    Violation(
                        "balance.curve",
                        f"field {k} (target {t}) has odds {p:.3f} outside its band "
                        f"{lo:.3f}–{hi:.3f}",
                        max(lo - p, p - hi),
                    )
                )
                break
    w = bal.no_repeat_window
    for k in range(1, n):
        earlier = targets[max(0, k - w + 1) : k]
        if targets[k] in earlier:
            found.append(
                Violation(
                    "balance.no_repeat_window",
                    f"target {targets[k]} appears twice within {w} consecutive fields "
                    f"(field {k + 1})",
                )
            )
            break
    found += _spread_violations(profile, targets)
    if bal.game_length is not None:
        turns = expected_turns([odds[t][1] for t in targets])
        miss = bal.game_length.distance(turns)
        if miss > 0:
            found.append(
                Violation(
                    "balance.game_length",
                    f"expected {turns:.1f} turns, outside "
                    f"{bal.game_length.min:g}–{bal.game_length.max:g}",
                    miss,
                )
            )
    return found


def _spread_violations(profile: Profile, targets: Sequence[int]) -> list[Violation]:
    spread = profile.balance.spread
    if spread is None:
        return []
    found = []
    counts = Counter(profile.bin_of(t) for t in targets)
    for b in range(spread.bins):
        if counts[b] < spread.min_per_bin:
            first, last = profile.bin_range(b)
            found.append(
                Violation(
                    "balance.spread.min_per_bin",
                    f"targets {first}–{last} appear on {counts[b]} fields, "
                    f"expected at least {spread.min_per_bin}",
                    spread.min_per_bin - counts[b],
                )
            )
            break
    if spread.max_uses:
        target, uses = Counter(targets).most_common(1)[0]
        if uses > spread.max_uses:
            found.append(
                Violation(
                    "balance.spread.max_uses",
                    f"target {target} appears {uses} times, at most {spread.max_uses} allowed",
                    uses - spread.max_uses,
                )
            )
    return found
