"""`kniffel score`'s text: every game's upper sum and bonus (as `--json` has them), in de and en.

The sums are restated here from the rules (docs/rules.md, section 2): the upper
section is Einser … Sechser, and 35 is added when it totals 63 or more.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

UPPER = ("Einser", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser")
LOWER = {"Dreierpasch": 20, "Viererpasch": 0, "Full House": 25, "Kleine Straße": 30,
         "Große Straße": 0, "Kniffel": 50, "Chance": 22}  # fmt: skip


def _game(upper: list[int]) -> dict[str, int]:
    return {**dict(zip(UPPER, upper)), **LOWER}


def _write(tmp_path: Path, games: list[dict[str, int]]) -> Path:
    rows = "\n".join(
        "      - {" + ", ".join(f"{k}: {v}" for k, v in g.items()) + "}" for g in games
    )
    path = tmp_path / "game.yaml"
    path.write_text(f"rules: kniffel\nplayers:\n  - name: Zoë\n    games:\n{rows}\n", "utf-8")
    return path


def _restated(upper: list[int]) -> tuple[int, int]:
    """Upper sum and bonus, from the rules' words alone."""
    total = sum(upper)
    return total, 35 if total >= 63 else 0


def test_the_text_shows_every_game_s_upper_sum_and_bonus(run_cli, tmp_path: Path) -> None:
    rng = random.Random(27)
    uppers = [[3, 6, 9, 12, 15, 18], [2, 6, 9, 12, 15, 18], [0, 0, 0, 0, 0, 0]]
    uppers += [[face * rng.randint(0, 5) for face in range(1, 7)] for _ in range(5)]
    path = _write(tmp_path, [_game(u) for u in uppers])
    en = run_cli("kniffel", "score", path, "--lang", "en")
    de = run_cli("kniffel", "score", path)  # the rule set's language: German
    data = json.loads(run_cli("kniffel", "score", path, "--json").output)
    lower = sum(LOWER.values())
    for number, (upper, game) in enumerate(zip(uppers, data["players"][0]["games"]), start=1):
        upper_sum, bonus = _restated(upper)
        assert (game["upper_sum"], game["bonus"]) == (upper_sum, bonus)
        total = upper_sum + bonus + lower
        short = "" if bonus else f", {63 - upper_sum} short"
        assert (
            f"  game {number}: upper sum {upper_sum}, bonus {bonus} (35 from 63{short}), "
            f"upper total {upper_sum + bonus}, lower total {lower}, total {total}\n"
        ) in en.output
        short = "" if bonus else f", es fehlen {63 - upper_sum}"
        assert (
            f"  Spiel {number}: Summe oben {upper_sum}, Bonus {bonus} (35 ab 63{short}), "
            f"Gesamt oben {upper_sum + bonus}, Gesamt unten {lower}, Endsumme {total}\n"
        ) in de.output
    assert "winner: Zoë" in en.output and "Gewinner: Zoë" in de.output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_extra_yahtzees_are_named_in_the_lower_total(run_cli, tmp_path: Path, lang) -> None:
    path = tmp_path / "yahtzee.yaml"
    boxes = (
        "ones: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 18, "
        "three_of_a_kind: 20, four_of_a_kind: 0, full_house: 25, small_straight: 30, "
        "large_straight: 0, yahtzee: 50, chance: 22, yahtzee_bonus: 2"
    )
    path.write_text(f"rules: yahtzee\nplayers:\n  - name: Jo\n    games:\n      - {{{boxes}}}\n",
                    "utf-8")  # fmt: skip
    out = run_cli("kniffel", "score", path, "--lang", lang).output
    # lower section 147 and two extra Yahtzees at 100 each (the rule set's bonus)
    words = {"en": "lower total 347 (with 200 for extra Yahtzees), total 445",
             "de": "Gesamt unten 347 (davon 200 für weitere Kniffel), Endsumme 445"}  # fmt: skip
    assert words[lang] in out
