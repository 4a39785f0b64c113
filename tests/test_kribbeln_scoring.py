"""Kribbeln scoring: rank points, ties, X = 0, the rising rule, the tiebreak, `kribbeln score`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.kribbeln.scoring import kribbeln_breaches, row_points, score_game, winners

X = None


@pytest.mark.parametrize(
    ("values", "points"),
    [
        ([25, 25, 19, X], [3, 3, 2, 0]),  # the seed's example: two first places of four
        ([30, 20, 20, 10], [4, 2, 2, 1]),  # a tie in the middle takes the lower place
        ([18, 18, 18, 18], [1, 1, 1, 1]),
        ([X, X, X], [0, 0, 0]),
        ([X, 12], [0, 2]),  # an X does not push anybody down
        ([7, 36], [1, 2]),
        ([20, X, 20, 25, 9], [3, 0, 3, 5, 2]),
    ],
)
def test_row_points(values: list, points: list[int]) -> None:
    assert row_points(values) == points


def _rows(*rows: list) -> list[list]:
    assert len(rows) == 10
    return [list(r) for r in rows]


# A hand-worked game for Anna, Ben, Cem, Dora; every row's points worked out by hand.
GAME = _rows(
    [23, X, 18, 23],  # 1: 3 0 2 3
    [20, 22, X, 17],  # 2: 3 4 0 2
    [14, 19, 21, X],  # 3 Kribbeln: 2 3 4 0
    [X, 25, 25, 12],  # 4: 0 3 3 2
    [16, 16, 16, 16],  # 5: 1 1 1 1
    [22, 24, 26, 20],  # 6 Kribbeln: 2 3 4 1
    [30, X, 28, 30],  # 7: 3 0 2 3
    [X, 21, X, 21],  # 8: 0 3 0 3
    [25, 27, X, 24],  # 9 Kribbeln: 3 4 0 2
    [28, 29, 30, 26],  # 10 fourth Kribbeln: 2 3 4 1
)
GAME_POINTS = [
    [3, 0, 2, 3],
    [3, 4, 0, 2],
    [2, 3, 4, 0],
    [0, 3, 3, 2],
    [1, 1, 1, 1],
    [2, 3, 4, 1],
    [3, 0, 2, 3],
    [0, 3, 0, 3],
    [3, 4, 0, 2],
    [2, 3, 4, 1],
]


def test_hand_worked_game() -> None:
    game = score_game(GAME)
    assert [list(p) for p in game.points] == GAME_POINTS
    assert game.totals == (19, 24, 20, 18)
    assert game.winners == (1,)  # Ben
    assert not game.tie and not game.tiebreak_decided
    assert game.breaches == ()


def test_winners_and_the_tiebreak() -> None:
    fourth = [28, 29, 30, 26]
    assert winners([22, 19, 21, 18], fourth) == ((0,), False)
    assert winners([22, 19, 22, 18], fourth) == ((2,), True)  # Cem's fourth field is higher
    assert winners([22, 19, 22, 18], [30, 29, 30, 26]) == ((0, 2), True)  # still level: shared
    assert winners([22, 19, 22, 18], [X, 29, 6, 26]) == ((2,), True)  # X is the lowest


def _level_game() -> list[list]:
    """Two players level on points after ten rows; Ben has the higher fourth Kribbeln field."""
    rows = [[20, 20] for _ in range(10)]
    rows[0] = [22, 21]  # Anna 2, Ben 1
    rows[2], rows[5], rows[8] = [10, 10], [15, 15], [20, 20]  # rising Kribbeln values
    rows[9] = [25, 31]  # Anna 1, Ben 2
    return rows


def test_tiebreak_inside_a_game() -> None:
    game = score_game(_level_game())
    assert game.totals == (11, 11)
    assert game.tie and game.tiebreak_decided and game.winners == (1,)


def test_rising_rule_breach_is_reported_and_scored_as_x() -> None:
    rows = [list(r) for r in GAME]
    rows[5] = [12, 24, 26, 20]  # Anna's second Kribbeln value 12 is not above her 14 (row 3)
    rows[8] = [14, 27, X, 24]  # … and 14 is not above 14 either: still compared with row 3
    breaches = kribbeln_breaches(rows)
    assert [(b.player, b.row, b.value, b.previous, b.previous_row) for b in breaches] == [
        (0, 6, 12, 14, 3),
        (0, 9, 14, 14, 3),
    ]
    game = score_game(rows)
    assert game.values[5][0] is None and game.points[5][0] == 0
    assert game.points[5] == (0, 3, 4, 2)


def test_an_x_keeps_the_previous_kribbeln_value() -> None:
    rows: list[list] = [[20, 20] for _ in range(10)]
    rows[2], rows[5], rows[8], rows[9] = [10, X], [X, 9], [11, 8], [12, 12]
    found = kribbeln_breaches(rows)
    # Anna: 10, X, 11, 12 is fine; Ben: 9 then 8 breaks the rule in row 9, 12 is fine again
    assert [(b.player, b.row, b.previous, b.previous_row) for b in found] == [(1, 9, 9, 6)]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _file(rows: list[list]) -> str:
    lines = ["names: [Anna, Ben, Cem, Dora]", "rows:"]
    for row in rows:
        lines.append("  - [" + ", ".join("X" if v is None else str(v) for v in row) + "]")
    return "\n".join(lines) + "\n"


def test_score_command_text_and_json(run_cli, tmp_path: Path) -> None:
    path = _write(tmp_path, _file(GAME))
    result = run_cli("kribbeln", "score", path)
    assert result.exit_code == 0, result.output
    assert "winner: Ben (24 points)" in result.output
    assert "X (0)" in result.output
    result = run_cli("kribbeln", "score", path, "--json")
    data = json.loads(result.stdout)
    assert data["totals"] == {"Anna": 19, "Ben": 24, "Cem": 20, "Dora": 18}
    assert [r["points"] for r in data["rows"]] == GAME_POINTS
    assert data["rows"][2]["kind"] == "kribbeln" and data["rows"][9]["area"] == 4
    assert data["winners"] == ["Ben"] and data["breaches"] == []


def test_score_command_reports_tiebreak_and_breach(run_cli, tmp_path: Path) -> None:
    rows = _level_game()
    rows[2], rows[5] = [20, 10], [19, 15]  # Anna: 20 in row 3, then 19 — a breach in row 6
    text = "names: [Anna, Ben]\nrows:\n" + "".join(f"  - [{a}, {b}]\n" for a, b in rows)
    result = run_cli("kribbeln", "score", _write(tmp_path, text))
    assert result.exit_code == 0, result.output
    assert "breach: Anna, row 6: Kribbeln value 19 is not higher than 20 (row 3)" in result.output
    assert "winner: Ben" in result.output


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows[:9], "9 rows, expected 10"),
        (lambda rows: [*rows[:4], [41, 20, 20, 20], *rows[5:]], "41 is above 36"),
        (lambda rows: [*rows[:4], [20, 20, 20], *rows[5:]], "3 values, expected 4"),
        (lambda rows: [*rows[:4], [3, 20, 20, 20], *rows[5:]], "3 is below 6"),
    ],
)
def test_score_file_errors_exit_2(run_cli, tmp_path: Path, change, message: str) -> None:
    path = _write(tmp_path, _file(change([list(r) for r in GAME])))
    result = run_cli("kribbeln", "score", path)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "game.yaml:" in result.stderr  # file and line


def test_score_file_value_text_and_names(run_cli, tmp_path: Path) -> None:
    bad = _file(GAME).replace("[23, X, 18, 23]", "[23, Y, 18, 23]")
    result = run_cli("kribbeln", "score", _write(tmp_path, bad))
    assert result.exit_code == 2 and "expected the pips (6–36) or X" in result.stderr
    one = "names: [Anna]\nrows: []\n"
    result = run_cli("kribbeln", "score", _write(tmp_path, one))
    assert result.exit_code == 2 and "expected 2–8 players" in result.stderr
