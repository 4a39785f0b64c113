"""The solve's value classes behave as the frozen dataclasses they replace."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

from generator.core.errors import UserError
from generator.numbers import COUNTDOWN, GAME_24, KOEPFCHEN, Rules, solve
from generator.numbers.batch import Puzzle
from generator.numbers.expr import BinOp, Num, parse
from generator.numbers.solver import Solution


def test_rules_compare_hash_and_show_by_their_fields() -> None:
    assert Rules() == KOEPFCHEN and hash(Rules()) == hash(KOEPFCHEN)
    assert Rules(ops="×+") == Rules(ops="+*") != Rules(ops="+-*")
    assert Rules("+-", "rational", True) == Rules(ops="+-", division="rational", use_all=True)
    assert Rules() != COUNTDOWN and Rules() != ("+-*/", "integer", False, True)
    assert len({Rules(), Rules(ops="+-*/"), GAME_24}) == 2
    assert repr(GAME_24) == "Rules(ops='+-*/', division='rational', use_all=True, allow_zero=True)"


def test_rules_are_frozen_and_replace_checks_like_the_constructor() -> None:
    with pytest.raises(AttributeError):
        KOEPFCHEN.ops = "+"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del KOEPFCHEN.ops  # type: ignore[misc]
    assert not hasattr(KOEPFCHEN, "__dict__")
    assert GAME_24.replace(division="integer") == Rules(use_all=True)
    assert KOEPFCHEN.replace(ops="÷") == Rules(ops="/")
    with pytest.raises(UserError):
        COUNTDOWN.replace(division="rational")  # allow_zero=False needs integer division
    with pytest.raises(TypeError):
        KOEPFCHEN.replace(colour="red")


@pytest.mark.parametrize("value", [COUNTDOWN, Puzzle((3, 1, 2), 8), parse("(3 + 1) × 2")])
def test_values_pickle_and_copy_to_equal_values(value: object) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.copy(value) == value == copy.deepcopy(value)


def test_puzzles_and_written_trees() -> None:
    assert Puzzle((3, 1), 4) == Puzzle((3, 1), 4) != Puzzle((1, 3), 4)
    assert repr(Puzzle((3, 1), 4)) == "Puzzle(numbers=(3, 1), target=4)"
    assert parse("3 + 1 * 2") == BinOp("+", Num(3), BinOp("*", Num(1), Num(2)))
    assert parse("3 + 1") != BinOp("-", Num(3), Num(1)) and Num(3) != 3
    assert repr(Num(3)) == "Num(value=3)"
    assert Counter([Num(1), Num(1), Num(2)]) == {Num(1): 2, Num(2): 1}


def test_solutions_compare_without_their_expression() -> None:
    first = solve([3, 1, 2], 8)[0]
    again = Solution.of(first.expr)
    assert again == first and hash(again) == hash(first) and again is not first
    fields = (first.numbers_used, first.n_ops, first.uses_division, first.uses_multiplication)
    rest = (first.needs_brackets, first.text, first.value, first.key)
    other = Solution(*fields, *rest, expr=solve([3, 1, 2], 6)[0].expr)
    assert other == first  # the expression is left out of equality, as before
    assert "expr" not in repr(first) and repr(first).startswith("Solution(numbers_used=(1, 2, 3),")
    assert pickle.loads(pickle.dumps(first)).expr.key == first.expr.key
