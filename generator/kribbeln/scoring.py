"""Scoring a Kribbeln sheet: rank points per row, totals, the winner and the Kribbeln rising rule.

Pure functions on plain values (docs/rules.md, section 1): a row holds each
player's pips, or None for an X.

- Rank points: with N players the best gets N points, the next N − 1 and so on;
  tied players all get the points of the lowest place among them (two tied for
  first of four: both 3, the next 2); X scores 0.
- Kribbeln rising rule: every Kribbeln value a player writes (rows 3, 6, 9, 10)
  must be strictly higher than that player's previous Kribbeln value. A value
  that is not is a breach; it is scored as X (the project's decision for
  Kribbeln rows) and reported with its row.
- Winner: the highest total; a tie is won by the higher fourth Kribbeln field
  (X lowest); players still level share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.kribbeln.block import FINAL_ROW, KRIBBELN_ROWS

Pips = int | None  # None = X


def row_points(values: Sequence[Pips]) -> list[int]:
    """Rank points of one row: N for the best, ties get the lowest tied place, X gets 0."""
    n = len(values)
    filled = [v for v in values if v is not None]
    # a player's place counted from the bottom of the tie: players with at least as many pips
    return [0 if v is None else n + 1 - sum(1 for w in filled if w >= v) for v in values]


@dataclass(frozen=True)
class Breach:
    """A Kribbeln value not higher than the same player's previous one."""

    player: int  # 0-based seat
    row: int  # 1–10
    value: int
    previous: int
    previous_row: int


def kribbeln_breaches(rows: Sequence[Sequence[Pips]]) -> list[Breach]:
    """Every breach of the rising rule, row by row (rows: ten rows of one value per player)."""
    n = len(rows[0]) if rows else 0
    found = []
    for p in range(n):
        previous: tuple[int, int] | None = None  # (value, row)
        for r in KRIBBELN_ROWS:
            value = rows[r - 1][p]
            if value is None:
                continue
            if previous is not None and value <= previous[0]:
                found.append(Breach(p, r, value, previous[0], previous[1]))
                continue  # scored as X: the previous value stays the one to beat
            previous = (value, r)
    found.sort(key=lambda b: (b.row, b.player))
    return found


@dataclass(frozen=True)
class GameScore:
    """The scored sheet."""

    values: tuple[tuple[Pips, ...], ...]  # per row, as scored (breaches are X)
    points: tuple[tuple[int, ...], ...]  # per row and player
    totals: tuple[int, ...]
    winners: tuple[int, ...]  # seats; more than one: a shared win
    tie: bool  # the highest total was shared before the tiebreak
    tiebreak_decided: bool  # … and the fourth Kribbeln field decided it
    breaches: tuple[Breach, ...]


def winners(totals: Sequence[int], fourth: Sequence[Pips]) -> tuple[tuple[int, ...], bool]:
    """The winning seats and whether the highest total was tied before the tiebreak."""
    best = max(totals)
    top = [p for p, t in enumerate(totals) if t == best]
    if len(top) == 1:
        return (top[0],), False
    value = [-1 if (v := fourth[p]) is None else v for p in top]
    high = max(value)
    return tuple(p for p, v in zip(top, value) if v == high), True


def score_game(rows: Sequence[Sequence[Pips]]) -> GameScore:
    """Points per row, totals and the winner of a filled sheet (ten rows, one value per player)."""
    breaches = kribbeln_breaches(rows)
    broken = {(b.row, b.player) for b in breaches}
    values = tuple(
        tuple(None if (r, p) in broken else v for p, v in enumerate(row))
        for r, row in enumerate(rows, start=1)
    )
    points = tuple(tuple(row_points(row)) for row in values)
    totals = tuple(sum(col) for col in zip(*points))
    won, tie = winners(totals, values[FINAL_ROW - 1])
    return GameScore(values, points, totals, won, tie, tie and len(won) == 1, tuple(breaches))
