"""The scoring engine against hand-checked vectors for both rule sets."""

from __future__ import annotations

import pytest

from generator.kniffel.load import load_rules
from generator.kniffel.scoring import (
    allowed_boxes,
    extra_bonus,
    possible_scores,
    score,
    totals,
)

KNIFFEL = load_rules("kniffel")
YAHTZEE = load_rules("yahtzee")


def s(roll: str, box: str, rules=KNIFFEL, filled=None) -> int:
    return score(tuple(int(c) for c in roll), rules.box(box), rules, filled or {})


@pytest.mark.parametrize(
    ("roll", "box", "points"),
    [
        ("11123", "ones", 3),
        ("11123", "twos", 2),
        ("66666", "sixes", 30),
        ("23456", "ones", 0),
        ("33345", "Dreierpasch", 18),
        ("33335", "Dreierpasch", 17),
        ("33455", "Dreierpasch", 0),
        ("44445", "Viererpasch", 21),
        ("44455", "Viererpasch", 0),
        ("55555", "Viererpasch", 25),
        ("22333", "Full House", 25),
        ("33333", "Full House", 0),  # five of a kind is not a full house (no joker in Kniffel)
        ("22334", "Full House", 0),
        ("12346", "Kleine Straße", 30),
        ("11234", "Kleine Straße", 30),  # straight with a duplicate
        ("34566", "Kleine Straße", 30),
        ("12356", "Kleine Straße", 0),
        ("12345", "Große Straße", 40),
        ("23456", "Große Straße", 40),
        ("12346", "Große Straße", 0),
        ("23456", "Kleine Straße", 30),
        ("44444", "Kniffel", 50),
        ("44443", "Kniffel", 0),
        ("12345", "Chance", 15),
        ("66666", "Chance", 30),
    ],
)
def test_kniffel_boxes(roll: str, box: str, points: int) -> None:
    assert s(roll, box) == points


def test_kniffel_has_no_joker_and_no_extra_bonus() -> None:
    filled = {"kniffel": 50}
    assert s("33333", "full_house", filled=filled) == 0
    assert s("33333", "small_straight", filled=filled) == 0
    assert extra_bonus((3, 3, 3, 3, 3), KNIFFEL, filled) == 0
    assert len(allowed_boxes((3,) * 5, KNIFFEL, filled)) == 12


def test_upper_bonus_at_62_and_63() -> None:
    at_62 = {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    assert totals(at_62, KNIFFEL).upper_sum == 62
    assert totals(at_62, KNIFFEL).bonus == 0
    at_63 = {**at_62, "ones": 3}
    t = totals(at_63, KNIFFEL)
    assert (t.upper_sum, t.bonus, t.upper_total) == (63, 35, 98)
    full = {**at_63, "three_of_a_kind": 20, "kniffel": 50, "chance": 22}
    assert totals(full, KNIFFEL).grand_total == 98 + 92


def test_yahtzee_forced_joker() -> None:
    filled = {"yahtzee": 50}
    roll = (4, 4, 4, 4, 4)
    # the matching upper box is open: it is the only choice
    assert [c.id for c in allowed_boxes(roll, YAHTZEE, filled)] == ["fours"]
    assert extra_bonus(roll, YAHTZEE, filled) == 100
    # matching upper box filled: any open lower box at full value
    filled2 = {**filled, "fours": 12}
    allowed = {c.id for c in allowed_boxes(roll, YAHTZEE, filled2)}
    assert allowed == {"three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                       "large_straight", "chance"}  # fmt: skip
    assert s("44444", "large_straight", YAHTZEE, filled2) == 40
    assert s("44444", "full_house", YAHTZEE, filled2) == 25
    assert s("44444", "four_of_a_kind", YAHTZEE, filled2) == 20
    with pytest.raises(ValueError):
        s("44444", "ones", YAHTZEE, filled2)
    # all lower boxes filled too: a zero in an upper box
    lower = {c.id: 0 for c in YAHTZEE.lower}
    filled3 = {**lower, "fours": 12}
    assert {c.id for c in allowed_boxes(roll, YAHTZEE, filled3)} == {
        "ones", "twos", "threes", "fives", "sixes"}  # fmt: skip
    assert s("44444", "ones", YAHTZEE, filled3) == 0


def test_yahtzee_bonus_needs_fifty_in_the_box() -> None:
    assert extra_bonus((2,) * 5, YAHTZEE, {"yahtzee": 0}) == 0
    assert extra_bonus((2,) * 5, YAHTZEE, {}) == 0
    # a scratched Yahtzee box still makes the joker apply
    assert s("22222", "small_straight", YAHTZEE, {"yahtzee": 0, "twos": 4}) == 30
    t = totals({"yahtzee": 50, "chance": 10}, YAHTZEE, yahtzee_bonus_count=2)
    assert (t.yahtzee_bonus, t.lower_total, t.grand_total) == (200, 260, 260)


def test_free_joker_any_open_box_full_value_once_the_upper_box_is_filled() -> None:
    free = YAHTZEE.__class__(**{**YAHTZEE.__dict__, "joker": "free"})
    filled = {"yahtzee": 50}
    assert len(allowed_boxes((4,) * 5, free, filled)) == 12
    # the matching upper box (fours) is open: a straight scores its own pattern, 0
    assert score((4,) * 5, free.box("large_straight"), free, filled) == 0
    assert score((4,) * 5, free.box("ones"), free, filled) == 0
    assert score((4,) * 5, free.box("chance"), free, filled) == 20
    filled = {"yahtzee": 50, "fours": 8}
    assert score((4,) * 5, free.box("large_straight"), free, filled) == 40
    assert score((4,) * 5, free.box("full_house"), free, filled) == 25


def test_filled_box_cannot_be_written_again() -> None:
    with pytest.raises(ValueError):
        s("12345", "chance", filled={"chance": 10})


def test_possible_scores() -> None:
    assert possible_scores(KNIFFEL.box("twos"), KNIFFEL) == {0, 2, 4, 6, 8, 10}
    assert possible_scores(KNIFFEL.box("full_house"), KNIFFEL) == {0, 25}
    assert possible_scores(KNIFFEL.box("three_of_a_kind"), KNIFFEL) == {0, *range(5, 31)}
    assert possible_scores(KNIFFEL.box("chance"), KNIFFEL) == {0, *range(5, 31)}


def test_labels_and_ids_find_the_same_box() -> None:
    assert KNIFFEL.box("Große Straße") is KNIFFEL.box("large_straight")
    assert YAHTZEE.box("aces").face == 1
