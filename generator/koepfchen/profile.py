"""Board profiles: `task_catalog/koepfchen/<id>.yaml` (or a user's file) as frozen dataclasses.

A profile fixes the track, the dice, the arithmetic rules, where targets come
from, and the balance constraints a board must meet. `parse_profile` checks the
file (types, unknown keys, ranges); `koepfchen.feasibility.check_feasible` then
decides, with the exact odds of every target, whether the constraints can be
met together at all (the loader runs both); every complaint is a `CatalogError`
that names the file, line, column and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generator.core.errors import CatalogError, UserError
from generator.core.fields import Fields, position
from generator.numbers.rules import DIVISIONS, Rules

SUBDIR = "koepfchen"
TARGET_KINDS = ("index", "range", "products")
CURVES = ("flat", "rising")
MAX_TRACK = 99  # two-digit field numbers; two printed pages hold it comfortably
MAX_TARGET = 999  # three digits at 18 pt fit the smallest printed field
RED_FACES = 6  # the red die that moves the pawn (docs/rules.md §3)
DEFAULT_WINDOW = RED_FACES  # the red die's reach: any six consecutive fields


@dataclass(frozen=True)
class Curve:
    """The difficulty curve: a band of allowed 3-roll odds per field.

    `flat`: every field's odds lie in `start` (== `end`). `rising` (easy to hard): the band
    moves linearly from `start` at field 1 to `end` at field L.
    """

    kind: str
    start: tuple[float, float]
    end: tuple[float, float]

    def band(self, field_no: int, length: int) -> tuple[float, float]:
        """The (low, high) odds allowed on field `field_no` (1..length)."""
        if length <= 1:
            return self.start
        t = (field_no - 1) / (length - 1)
        lo = self.start[0] + (self.end[0] - self.start[0]) * t
        hi = self.start[1] + (self.end[1] - self.start[1]) * t
        return (round(lo, 12), round(hi, 12))


@dataclass(frozen=True)
class Spread:
    """Targets spread over the range: `bins` equal slices, each on ≥ `min_per_bin` fields.

    `max_uses` (0: no limit) caps how often one target may appear on the board.
    """

    bins: int
    min_per_bin: int
    max_uses: int


@dataclass(frozen=True)
class Window:
    """A closed interval of expected turns for one player from start to goal."""

    min: float
    max: float

    def distance(self, value: float) -> float:
        """How far `value` lies outside the window (0 inside)."""
        return max(0.0, self.min - value, value - self.max)


@dataclass(frozen=True)
class Balance:
    """The constraints a board must meet (each but `p_min` optional)."""

    p_min: float  # every field: 3-roll optimal odds ≥ p_min
    no_repeat_window: int  # any this many consecutive fields show different targets
    curve: Curve | None
    spread: Spread | None
    game_length: Window | None


@dataclass(frozen=True)
class Profile:
    """One board profile, validated."""

    id: str
    name: dict[str, str]
    description: dict[str, str]
    length: int  # fields 1..length after the start 0; field `length` is the goal
    dice: int  # white dice
    faces: int
    rolls: int
    rules: Rules
    target_kind: str  # "index" (field k shows k), "range", "products"
    target_min: int
    target_max: int
    factors: tuple[int, int] | None  # products: both factors in this range
    balance: Balance
    marks: bool  # print difficulty dots
    easy: float  # odds ≥ easy: one dot
    hard: float  # odds < hard: three dots
    hardest: int  # answer key: this many hardest targets get a roll → solution table
    source: str
    positions: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False)

    @property
    def fixed(self) -> bool:
        """True when the board is not sampled (field k shows k)."""
        return self.target_kind == "index"

    def error(self, key: str, message: str) -> CatalogError:
        """A CatalogError at the position of `key` (a dotted path such as 'balance.p_min')."""
        probe = key
        while probe and probe not in self.positions:
            probe = probe.rpartition(".")[0]
        line, column = self.positions.get(probe, (None, None))
        return CatalogError(f"{key}: {message}", file=self.source, line=line, column=column)

    def pool(self) -> tuple[int, ...]:
        """Every target the profile may print: its kind, inside the range, makeable by a roll."""
        reach = reachable(self.dice, self.faces, self.rules)
        if self.target_kind == "products":
            assert self.factors is not None
            lo, hi = self.factors
            wanted = {a * b for a in range(lo, hi + 1) for b in range(lo, hi + 1)}
        else:
            wanted = set(range(self.target_min, self.target_max + 1))
        return tuple(
            t for t in sorted(wanted) if self.target_min <= t <= self.target_max and t in reach
        )

    def odds(self, targets: tuple[int, ...]) -> dict[int, tuple[float, float]]:
        """target → (single-roll, R-roll optimal) success probability."""
        return dict(
            _odds(tuple(sorted(set(targets))), self.dice, self.faces, self.rolls, self.rules)
        )

    def level(self, within: float) -> int:
        """Difficulty dots 1–3 from the R-roll odds."""
        return 1 if within >= self.easy else 3 if within < self.hard else 2

    def bin_of(self, target: int) -> int:
        """The spread slice of a target (0..bins−1); 0 without a spread constraint."""
        spread = self.balance.spread
        if spread is None:
            return 0
        width = self.target_max - self.target_min + 1
        return min(spread.bins - 1, (target - self.target_min) * spread.bins // width)

    def bin_range(self, b: int) -> tuple[int, int]:
        """The first and last target of spread slice `b`."""
        assert self.balance.spread is not None
        bins = self.balance.spread.bins
        width = self.target_max - self.target_min + 1
        first = self.target_min + -(-b * width // bins)
        last = self.target_min + -(-(b + 1) * width // bins) - 1
        return first, last


@lru_cache(maxsize=64)
def reachable(dice: int, faces: int, rules: Rules) -> frozenset[int]:
    """Every target that at least one roll of the white dice can make."""
    from generator.numbers.odds import reachable_by_any_roll

    return reachable_by_any_roll(dice, faces, rules)


@lru_cache(maxsize=256)
def _odds(
    targets: tuple[int, ...], dice: int, faces: int, rolls: int, rules: Rules
) -> tuple[tuple[int, tuple[float, float]], ...]:
    from generator.numbers.odds import odds_table

    table = odds_table(list(targets), dice, faces, rolls, rules)
    return tuple((o.target, (o.single_roll, o.within)) for o in table)


# --- loading ------------------------------------------------------------------------------


class _Reader:
    """`Fields` that also records where every key stood, under a dotted prefix."""

    def __init__(self, data: Any, file: str, prefix: str, positions: dict) -> None:
        self.f = Fields(data, file, prefix)
        self.prefix = prefix
        self.positions = positions
        if prefix and position(data)[0] is not None:
            positions.setdefault(prefix, position(data))
        if position(data)[0] is not None:
            positions.update({self.path(key): position(data, key) for key in self.f.data})

    def path(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def sub(self, key: str, default: Any = None) -> _Reader | None:
        if key not in self.f.data:
            if default is None:
                return None
            return _Reader(default, self.f.file, self.path(key), self.positions)
        return _Reader(self.f.get(key, dict), self.f.file, self.path(key), self.positions)

    def has(self, key: str) -> bool:
        return key in self.f.data

    def prob(self, key: str, default: float | None = None) -> float:
        value = self.f.get(key, (int, float), default)
        if not 0 <= value <= 1:
            raise self.f.error(
                key, f"key '{self.path(key)}': expected a probability 0–1, found {value}"
            )
        return float(value)

    def number(self, key: str) -> float:
        value = self.f.get(key, (int, float))
        if not 0 < value < 1e6:
            raise self.f.error(
                key, f"key '{self.path(key)}': expected a positive number, found {value}"
            )
        return float(value)

    def pair(self, key: str, kind: str) -> tuple[Any, Any]:
        raw = self.f.get(key, list)
        if len(raw) != 2:
            raise self.f.error(key, f"key '{self.path(key)}': expected two numbers [low, high]")
        values = []
        for i, v in enumerate(raw):
            ok = isinstance(v, int) if kind == "int" else isinstance(v, (int, float))
            if isinstance(v, bool) or not ok:
                line, col = position(raw, i)
                wanted = "whole numbers" if kind == "int" else "numbers"
                raise CatalogError(
                    f"key '{self.path(key)}': expected {wanted}, found {v!r}",
                    file=self.f.file,
                    line=line,
                    column=col,
                )
            values.append(v)
        low, high = values
        if low > high:
            raise self.f.error(key, f"key '{self.path(key)}': low {low} is above high {high}")
        return low, high

    def texts(self, key: str) -> dict[str, str]:
        return self.f.texts(key)


def parse_profile(data: Any, label: str) -> Profile:
    """Validate one profile file's data: its structure (`check_feasible` then checks that its
    constraints can be met; it needs the board's checks, which need the profile)."""
    positions: dict[str, tuple[int, int]] = {}
    top = _Reader(data, label, "", positions)
    top.f.unknown_keys(
        {
            "id",
            "name",
            "description",
            "track",
            "dice",
            "rules",
            "targets",
            "balance",
            "marks",
            "key",
        }
    )
    track = top.sub("track", {})
    assert track is not None
    track.f.unknown_keys({"length"})
    length = track.f.get("length", int)
    if not 1 <= length <= MAX_TRACK:
        raise track.f.error(
            "length",
            f"key 'track.length': a track needs 1–{MAX_TRACK} fields after the start, "
            f"found {length}",
        )
    dice = top.sub("dice", {})
    assert dice is not None
    dice.f.unknown_keys({"count", "faces", "rolls"})
    n_dice = dice.f.int_in("count", 1, 5, 3)
    faces = dice.f.int_in("faces", 2, 20, 6)
    rolls = dice.f.int_in("rolls", 1, 6, 3)
    try:
        from generator.numbers.odds import check_dice

        check_dice(n_dice, faces, rolls)
    except UserError as exc:
        raise dice.f.error("count", f"key 'dice': {exc.message}") from None
    rules_r = top.sub("rules", {})
    assert rules_r is not None
    rules_r.f.unknown_keys({"ops", "division"})
    division = rules_r.f.choice("division", DIVISIONS, "integer")
    try:
        rules = Rules(ops=rules_r.f.get("ops", str, "+-*/"), division=division)  # type: ignore[arg-type]
    except UserError as exc:
        raise rules_r.f.error("ops", f"key 'rules.ops': {exc.message}") from None

    kind, t_min, t_max, factors = _targets(top, length)
    balance = _balance(top, length)
    marks = top.sub("marks", {})
    assert marks is not None
    marks.f.unknown_keys({"show", "easy", "hard"})
    easy, hard = marks.prob("easy", 0.9), marks.prob("hard", 0.6)
    if hard > easy:
        raise marks.f.error("hard", f"key 'marks.hard': {hard} is above marks.easy {easy}")
    key = top.sub("key", {})
    assert key is not None
    key.f.unknown_keys({"hardest"})
    profile_id = top.f.ident("id")
    profile = Profile(
        id=profile_id,
        name=top.texts("name"),
        description=top.texts("description"),
        length=length,
        dice=n_dice,
        faces=faces,
        rolls=rolls,
        rules=rules,
        target_kind=kind,
        target_min=t_min,
        target_max=t_max,
        factors=factors,
        balance=balance,
        marks=marks.f.get("show", bool, True),
        easy=easy,
        hard=hard,
        hardest=key.f.int_in("hardest", 0, 20, 6),
        source=label,
        positions=positions,
    )
    return profile


def _targets(top: _Reader, length: int) -> tuple[str, int, int, tuple[int, int] | None]:
    targets = top.sub("targets")
    if targets is None:
        raise top.f.error(None, "missing key 'targets'")
    targets.f.unknown_keys({"kind", "min", "max", "factors"})
    kind = targets.f.choice("kind", TARGET_KINDS)
    if kind == "index":
        for key in ("min", "max", "factors"):
            if targets.has(key):
                raise targets.f.error(
                    key, f"key 'targets.{key}': kind 'index' prints k on field k, drop this key"
                )
        return kind, 1, length, None
    t_min = targets.f.int_in("min", 0, MAX_TARGET)
    t_max = targets.f.int_in("max", 0, MAX_TARGET)
    if t_min > t_max:
        raise targets.f.error("min", f"key 'targets.min': {t_min} is above targets.max {t_max}")
    factors = None
    if kind == "products":
        factors = targets.pair("factors", "int")
        if factors[0] < 0 or factors[1] > 100:
            raise targets.f.error("factors", "key 'targets.factors': expected factors 0–100")
    elif targets.has("factors"):
        raise targets.f.error("factors", "key 'targets.factors': only kind 'products' has factors")
    return kind, t_min, t_max, factors


def _balance(top: _Reader, length: int) -> Balance:
    bal = top.sub("balance", {})
    assert bal is not None
    bal.f.unknown_keys({"p_min", "no_repeat_window", "curve", "spread", "game_length"})
    p_min = bal.prob("p_min", 0.05)
    if p_min <= 0:
        raise bal.f.error(
            "p_min", "key 'balance.p_min': must be above 0, or a field could never be left"
        )
    window = bal.f.int_in("no_repeat_window", 1, MAX_TRACK + 1, DEFAULT_WINDOW)
    curve = None
    if (c := bal.sub("curve")) is not None:
        c.f.unknown_keys({"kind", "band", "start", "end"})
        kind = c.f.choice("kind", CURVES)
        if kind == "flat":
            c.f.unknown_keys({"kind", "band"})
            band = c.pair("band", "float")
            curve = Curve(kind, band, band)
        else:
            c.f.unknown_keys({"kind", "start", "end"})
            curve = Curve(kind, c.pair("start", "float"), c.pair("end", "float"))
            if curve.end[1] > curve.start[1] or curve.end[0] > curve.start[0]:
                raise c.f.error(
                    "end",
                    "key 'balance.curve.end': a rising curve ends harder (lower odds) "
                    "than it starts",
                )
        for band in (curve.start, curve.end):
            if band[0] < 0 or band[1] > 1:
                raise c.f.error("kind", "key 'balance.curve': bands are probabilities 0–1")
    spread = None
    if (s := bal.sub("spread")) is not None:
        s.f.unknown_keys({"bins", "min_per_bin", "max_uses"})
        spread = Spread(
            s.f.int_in("bins", 1, 50),
            s.f.int_in("min_per_bin", 0, MAX_TRACK),
            s.f.int_in("max_uses", 0, MAX_TRACK, 0),
        )
    game_length = None
    if (g := bal.sub("game_length")) is not None:
        g.f.unknown_keys({"min", "max"})
        game_length = Window(g.number("min"), g.number("max"))
        if game_length.min > game_length.max:
            raise g.f.error(
                "min",
                f"key 'balance.game_length.min': {game_length.min:g} turns is above "
                f"game_length.max {game_length.max:g}",
            )
    return Balance(p_min, window, curve, spread, game_length)
