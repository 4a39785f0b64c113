"""`dicesheets kribbeln score FILE.yaml`: read a filled Kribbeln sheet, score it, report it.

File format (the ten rows top to bottom, one value per player: pips or X):

    names: [Anna, Ben, Cem, Dora]
    rows:
      - [23, X, 18, 23]     # 1  area 1, task 1
      - [20, 22, X, 17]     # 2  area 1, task 2
      - [14, 19, 21, X]     # 3  area 1, Kribbeln
      …                     # 4–9 areas 2 and 3
      - [25, 27, X, 30]     # 10 the fourth Kribbeln field
    sheet: 3                # optional, for the report

A missing row, a missing value, or a value that no six dice can show (above 36,
below 6) stops with the file, line and column (exit status 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.core.errors import CatalogError
from generator.core.fields import Fields, position
from generator.kribbeln.block import FINAL_AREA, MAX_PIPS, MIN_PIPS, N_ROWS, ROWS, Row
from generator.kribbeln.scoring import GameScore, Pips, score_game

MIN_PLAYERS = 2
MAX_PLAYERS = 8


def _value(raw: object, row: list[Any], r: int, p: int, name: str, file: str) -> Pips:
    line, col = position(row, p)
    label = f"rows[{r}][{p}] (row {r + 1}, {name})"
    if isinstance(raw, str) and raw.strip().upper() == "X":
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise CatalogError(
            f"{label}: expected the pips ({MIN_PIPS}–{MAX_PIPS}) or X, found {raw!r}",
            file=file,
            line=line,
            column=col,
        )
    if raw > MAX_PIPS:
        raise CatalogError(
            f"{label}: {raw} is above {MAX_PIPS}, the highest pip sum of six dice",
            file=file,
            line=line,
            column=col,
        )
    if raw < MIN_PIPS:
        raise CatalogError(
            f"{label}: {raw} is below {MIN_PIPS}, the lowest pip sum of six dice "
            "(write X for a crossed-out row)",
            file=file,
            line=line,
            column=col,
        )
    return raw


def parse_score_file(data: Any, file: str) -> tuple[list[str], list[list[Pips]], Any]:
    """The names, the ten rows (None = X) and the optional sheet label of a score file's data."""
    f = Fields(data, file)
    f.unknown_keys({"names", "rows", "sheet"})
    names_raw = f.get("names", list)
    if not MIN_PLAYERS <= len(names_raw) <= MAX_PLAYERS:
        raise f.error(
            "names",
            f"names: expected {MIN_PLAYERS}–{MAX_PLAYERS} players, found {len(names_raw)}",
        )
    names = []
    for i, name in enumerate(names_raw):
        if not isinstance(name, (str, int)) or isinstance(name, bool) or not str(name).strip():
            line, col = position(names_raw, i)
            raise CatalogError(f"names[{i}]: expected a name", file=file, line=line, column=col)
        names.append(str(name).strip())
    if len(set(names)) != len(names):
        raise f.error("names", "names: two players have the same name")
    rows_raw = f.get("rows", list)
    if len(rows_raw) != N_ROWS:
        missing = "missing" if len(rows_raw) < N_ROWS else "too many"
        raise f.error(
            "rows",
            f"rows: {len(rows_raw)} rows, expected {N_ROWS} ({missing} rows; the sheet has "
            "three color areas of task, task, Kribbeln and the fourth Kribbeln row)",
        )
    rows: list[list[Pips]] = []
    for r, row in enumerate(rows_raw):
        line, col = position(rows_raw, r)
        if not isinstance(row, list):
            raise CatalogError(
                f"rows[{r}] (row {r + 1}): expected a list of {len(names)} values (pips or X)",
                file=file,
                line=line,
                column=col,
            )
        if len(row) != len(names):
            raise CatalogError(
                f"rows[{r}] (row {r + 1}): {len(row)} values, expected {len(names)} "
                f"(one per name: {', '.join(names)})",
                file=file,
                line=line,
                column=col,
            )
        rows.append([_value(v, row, r, p, names[p], file) for p, v in enumerate(row)])
    return names, rows, f.data.get("sheet")


@dataclass(frozen=True)
class ScoreSheet:
    """What `dicesheets kribbeln score` reports: the sheet as written and as scored."""

    names: tuple[str, ...]
    written: tuple[tuple[Pips, ...], ...]  # the ten rows as the file gives them (None = X)
    game: GameScore
    sheet: Any = None  # the file's optional sheet label, as given

    def to_json(self) -> dict[str, Any]:
        """The JSON of `kribbeln score --json` (made at the edge)."""
        names, game = self.names, self.game
        return {
            "sheet": self.sheet,
            "names": list(names),
            "rows": [
                {
                    "row": spec.number,
                    "kind": spec.kind,
                    "area": spec.area,
                    "written": [_x(v) for v in written],
                    "scored": [_x(v) for v in scored],
                    "points": list(points),
                }
                for spec, written, scored, points in zip(
                    ROWS, self.written, game.values, game.points
                )
            ],
            "totals": dict(zip(names, game.totals)),
            "winners": [names[p] for p in game.winners],
            "tie": game.tie,
            "tiebreak_decided": game.tiebreak_decided,
            "fourth_kribbeln": {names[p]: _x(v) for p, v in enumerate(game.values[-1])},
            "breaches": [
                {
                    "name": names[b.player],
                    "row": b.row,
                    "value": b.value,
                    "previous": b.previous,
                    "previous_row": b.previous_row,
                }
                for b in game.breaches
            ],
        }


def _x(value: Pips) -> int | str:
    return "X" if value is None else value


def score_report(names: list[str], rows: list[list[Pips]], sheet: Any = None) -> ScoreSheet:
    """The result of scoring `rows` for `names`."""
    return ScoreSheet(tuple(names), tuple(tuple(r) for r in rows), score_game(rows), sheet)


def _row_label(spec: Row) -> str:
    if spec.kind == "task":
        return f"{spec.number:>2} area {spec.area} task"
    if spec.area == FINAL_AREA:
        return f"{spec.number:>2} 4th Kribbeln"
    return f"{spec.number:>2} area {spec.area} Kribbeln"


def format_report(score: ScoreSheet) -> str:
    """Plain text: one line per row (pips and points), totals, breaches, the winner."""
    names, game = score.names, score.game
    totals = dict(zip(names, game.totals))
    width = max(7, *(len(n) for n in names))
    label_w = 20
    lines = ["row".ljust(label_w) + "".join(n.rjust(width + 2) for n in names)]
    for spec, written, points in zip(ROWS, score.written, game.points):
        cells = [f"{_x(w)} ({p})".rjust(width + 2) for w, p in zip(written, points)]
        lines.append(_row_label(spec).ljust(label_w) + "".join(cells))
    lines.append("total".ljust(label_w) + "".join(str(t).rjust(width + 2) for t in game.totals))
    for b in game.breaches:
        lines.append(
            f"breach: {names[b.player]}, row {b.row}: Kribbeln value {b.value} is not higher "
            f"than {b.previous} (row {b.previous_row}); scored as X"
        )
    winners = [names[p] for p in game.winners]
    best = totals[winners[0]]
    if not game.tie:
        lines.append(f"winner: {winners[0]} ({best} points)")
    else:
        fourth = {names[p]: _x(v) for p, v in enumerate(game.values[-1])}
        level = [n for n in names if totals[n] == best]
        detail = ", ".join(f"{n} {fourth[n]}" for n in level)
        if game.tiebreak_decided:
            lines.append(
                f"winner: {winners[0]} ({best} points, tied with "
                f"{', '.join(n for n in level if n != winners[0])}; "
                f"the higher fourth Kribbeln field decides: {detail})"
            )
        else:
            lines.append(
                f"winners: {', '.join(winners)} share the win ({best} points; fourth Kribbeln "
                f"field also level: {detail})"
            )
    return "\n".join(lines)
