"""Tests for the numbers solver: hand-checked cases, known figures, brute-force agreement."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.errors import UserError
from generator.numbers import (
    COUNTDOWN,
    GAME_24,
    KOEPFCHEN,
    MAX_NUMBERS,
    Rules,
    all_forms,
    count_solutions,
    evaluate,
    expressions,
    numbers_in,
    parse,
    reachable_targets,
    simplest,
    solve,
)
from generator.numbers.expr import BinOp, Num, Tree, canonical, format_tree
from tests import numbers_bruteforce as brute

THREE_DICE = list(itertools.combinations_with_replacement(range(1, 7), 3))
OP_SETS = ("+-", "+-*", "+-*/")


def texts(numbers: list[int], target: int, rules: Rules = KOEPFCHEN) -> list[str]:
    return [s.text for s in solve(numbers, target, rules)]


def brute_form(text: str) -> tuple:
    """The brute force's canonical form of a printed solution (through our parser)."""

    def convert(tree: Tree) -> tuple:
        if isinstance(tree, Num):
            return ("n", tree.value)
        return (tree.op, convert(tree.left), convert(tree.right))

    return brute.canonical(convert(parse(text)))


def brute_kwargs(rules: Rules) -> dict[str, object]:
    return {
        "ops": rules.ops,
        "rational": rules.rational,
        "use_all": rules.use_all,
        "allow_zero": rules.allow_zero,
    }


# --- hand-checked cases ------------------------------------------------------------------


def test_two_twos_make_four_in_two_ways() -> None:
    assert texts([2, 2], 4) == ["2 + 2", "2 × 2"]


def test_tiny_cases_checked_by_hand() -> None:
    # a die showing the target is a solution; an extra × 1 or ÷ 1 is not another one
    assert texts([1, 2], 2) == ["2"]
    assert [s.text for s in all_forms([1, 2], 2)] == ["2", "2 × 1", "2 ÷ 1"]
    assert texts([1, 2], 1) == ["1", "2 − 1"]
    assert texts([1, 2], 3) == ["2 + 1"]
    assert texts([2, 2], 1) == ["2 ÷ 2"]
    assert texts([2, 2], 0) == ["2 − 2"]
    assert texts([2, 2], 0, COUNTDOWN) == []
    assert texts([4, 6], 24, Rules(ops="+-")) == []
    assert texts([4, 6], 24, Rules(ops="+-*")) == ["6 × 4"]


def test_three_six_one() -> None:
    # 8: no two of them make 8 (7, 9, 5, 18, 2, ...), so three numbers: 6 + 3 − 1 only
    assert texts([3, 6, 1], 8) == ["6 + 3 − 1"]
    # 9: two numbers suffice, the longer forms follow
    best = simplest([3, 6, 1], 9)
    assert best is not None and best.text == "6 + 3" and best.numbers_used == (3, 6)
    # with the 1 multiplying or dividing a die or the sum, the same solution six more times
    assert texts([3, 6, 1], 9) == ["6 + 3"]
    assert [s.text for s in all_forms([3, 6, 1], 9)] == [
        "6 + 3",
        "3 × 1 + 6",
        "6 × 1 + 3",
        "(6 + 3) × 1",
        "3 ÷ 1 + 6",
        "6 ÷ 1 + 3",
        "(6 + 3) ÷ 1",
    ]
    assert texts([3, 6, 1], 6)[0] == "6"


def test_brackets_and_equation_text() -> None:
    assert texts([1, 2, 3], 9) == ["(2 + 1) × 3"]
    best = simplest([3, 1, 2], 8)
    assert best is not None
    assert best.equation == "(3 + 1) × 2 = 8"
    assert best.needs_brackets and best.uses_multiplication and not best.uses_division
    assert best.n_ops == 2 and best.numbers_used == (1, 2, 3) and best.value == 8


def test_24_game_3388_needs_fractions() -> None:
    assert texts([3, 3, 8, 8], 24, GAME_24) == ["8 ÷ (3 − 8 ÷ 3)"]
    assert texts([3, 3, 8, 8], 24, Rules(use_all=True)) == []
    assert count_solutions([3, 3, 8, 8], 24, GAME_24) == 1


def test_use_all_requires_every_number() -> None:
    all_three = texts([1, 2, 3], 3, Rules(use_all=True))
    assert all_three and all(numbers_in(t) == (1, 2, 3) for t in all_three)
    assert "3" in texts([1, 2, 3], 3) and "3" not in all_three


def test_simplest_order() -> None:
    # fewer numbers, then no ÷, then no ×, then no brackets
    found = solve([2, 3, 4, 6], 12)
    costs = [s.complexity for s in found]
    assert costs == sorted(costs)
    assert [s.text for s in found[:3]] == ["4 × 3", "6 × 2", "6 + 4 + 2"]  # ties: by text
    assert simplest([5, 5], 7) is None


# --- canonical form and printing ----------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2 + 3", "3 + 2"),
        ("(2 + 3) + 5", "2 + (3 + 5)"),
        ("7 - (3 - 2)", "7 - 3 + 2"),
        ("7 - (3 - 2)", "2 + 7 - 3"),
        ("2 * 3 * 5", "5 * (3 * 2)"),
        ("12 / (6 / 2)", "12 / 6 * 2"),
        ("12 / (3 * 2)", "12 / 3 / 2"),
        ("(4 + 4) * 3", "3 * (4 + 4)"),
    ],
)
def test_same_solution_up_to_commutativity_and_associativity(a: str, b: str) -> None:
    assert canonical(parse(a)).key == canonical(parse(b)).key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2 * (3 + 1)", "2 * 3 + 2 * 1"),  # no distributivity
        ("3", "3 * 1"),  # no identities
        ("3", "3 + 2 - 2"),  # no cancelling
        ("7 - 3 - 2", "7 - (3 - 2)"),
        ("12 / 3 / 2", "12 / (3 / 2)"),
    ],
)
def test_different_solutions(a: str, b: str) -> None:
    assert canonical(parse(a)).key != canonical(parse(b)).key


@pytest.mark.parametrize(
    ("written", "minimal", "canonical_text"),
    [
        ("8 - (3 + 1)", "8 − (3 + 1)", "8 − 3 − 1"),
        ("(8 - 3) + 1", "8 − 3 + 1", "8 + 1 − 3"),
        ("12 / (3 * 2)", "12 ÷ (3 × 2)", "12 ÷ 3 ÷ 2"),
        ("(12 / 3) * 2", "12 ÷ 3 × 2", "12 × 2 ÷ 3"),
        ("2 * (3 + 1)", "2 × (3 + 1)", "(3 + 1) × 2"),
        ("8 / (3 - 8 / 3)", "8 ÷ (3 − 8 ÷ 3)", "8 ÷ (3 − 8 ÷ 3)"),
        ("10 - 2 * 3", "10 − 2 × 3", "10 − 3 × 2"),
    ],
)
def test_printing_uses_symbols_and_minimal_brackets(
    written: str, minimal: str, canonical_text: str
) -> None:
    tree = parse(written)
    assert format_tree(tree) == minimal
    assert parse(minimal) == tree  # the minimal text means the same tree
    assert canonical(tree).text == canonical_text


def all_trees(leaves: tuple[int, ...]) -> list[Tree]:
    """Every binary tree using all `leaves` once, in every order, with + − × ÷."""
    if len(leaves) == 1:
        return [Num(leaves[0])]
    found: list[Tree] = []
    for size in range(1, len(leaves)):
        for left in set(itertools.combinations(leaves, size)):
            rest = list(leaves)
            for x in left:
                rest.remove(x)
            for lt in all_trees(left):
                for rt in all_trees(tuple(rest)):
                    found += [BinOp(op, lt, rt) for op in "+-*/"]
    return found


def test_68_expressions_over_three_generic_numbers() -> None:
    trees = all_trees((2, 3, 7))
    assert len(trees) == 192
    ours = {canonical(t).key for t in trees}
    assert len(ours) == 68
    assert len({brute.canonical(brute_tree(t)) for t in trees}) == 68
    listed = expressions((2, 3, 7), Rules(division="rational", use_all=True))
    assert {s.key for s in listed} == ours


def brute_tree(tree: Tree) -> tuple:
    if isinstance(tree, Num):
        return ("n", tree.value)
    return (tree.op, brute_tree(tree.left), brute_tree(tree.right))


# --- agreement with the brute force --------------------------------------------------------


@pytest.mark.parametrize("division", ["integer", "rational"])
@pytest.mark.parametrize("ops", OP_SETS)
def test_three_dice_agree_with_brute_force(ops: str, division: str) -> None:
    rules = Rules(ops=ops, division=division)
    for roll in THREE_DICE:
        by_value = brute.brute_force(roll, **brute_kwargs(rules))
        for target in range(1, 61):
            expected = by_value.get(Fraction(target), {})
            found = solve(roll, target, rules)
            assert bool(found) == bool(expected), (roll, target)
            assert len(all_forms(roll, target, rules)) == len(expected), (roll, target)
            assert len(found) == len(brute.unit_classes(expected)), (roll, target)
            if found:
                assert found[0].complexity == min(expected.values()), (roll, target)
        assert reachable_targets(roll, rules) == {
            int(v) for v in by_value if v.denominator == 1 and v >= 0
        }


@pytest.mark.parametrize(
    "rules",
    [
        KOEPFCHEN,
        GAME_24,
        COUNTDOWN,
        Rules(division="rational"),
        Rules(ops="+-", use_all=True),
        Rules(ops="-*", division="rational"),  # no +: a − (b − c) is not allowed as a + c − b
        Rules(ops="+/"),  # no ×: a ÷ (b ÷ c) is not allowed as a × c ÷ b
    ],
    ids=str,
)
def test_same_solutions_as_brute_force_four_numbers(rules: Rules) -> None:
    for hand in [(1, 2, 3, 4), (2, 2, 3, 3), (1, 5, 5, 5), (3, 4, 6, 13)]:
        by_value = brute.brute_force(hand, **brute_kwargs(rules), ops_filter="printed")
        for target in (0, 1, 5, 10, 12, 24, 36):
            expected = by_value.get(Fraction(target), {})
            assert {brute_form(s.text) for s in all_forms(hand, target, rules)} == set(expected)
            assert_one_simplest_per_unit_class(solve(hand, target, rules), expected)


def assert_one_simplest_per_unit_class(found: list, expected: dict[tuple, tuple]) -> None:
    """The solver keeps one form of each brute-force unit class, and a simplest one."""
    classes = brute.unit_classes(expected)
    forms = [brute_form(s.text) for s in found]
    assert len(forms) == len(classes)
    assert {brute.unit_free(f) for f in forms} == set(classes)
    for form in forms:
        members = classes[brute.unit_free(form)]
        assert expected[form] == min(expected[m] for m in members)


def test_printed_and_tree_operation_filters_agree_for_the_usual_sets() -> None:
    for ops, rational in itertools.product(OP_SETS, (False, True)):
        for roll in THREE_DICE[::5]:
            kwargs = {"ops": ops, "rational": rational}
            assert brute.brute_force(roll, **kwargs) == brute.brute_force(
                roll, **kwargs, ops_filter="printed"
            )


def test_countdown_765_all_solutions() -> None:
    numbers = [1, 3, 7, 10, 25, 50]
    found = solve(numbers, 765, COUNTDOWN)
    forms = all_forms(numbers, 765, COUNTDOWN)
    # 22 canonical forms, of which 10 only add a × 1 or ÷ 1 to another: 12 solutions
    assert (len(forms), len(found)) == (22, 12)
    assert count_solutions(numbers, 765, COUNTDOWN) == 12
    assert found[0].equation == "(50 + 1) × (25 − 10) = 765"
    expected = brute.class_enumeration(tuple(numbers), 765, allow_zero=False)
    assert {brute_form(s.text) for s in forms} == expected
    assert len(brute.unit_classes(expected)) == 12
    costs = {form: brute.complexity(form) for form in expected}
    assert_one_simplest_per_unit_class(found, costs)
    for s in forms:
        assert evaluate(s.text, COUNTDOWN) == 765


def test_24_game_census() -> None:
    hands = list(itertools.combinations_with_replacement(range(1, 14), 4))
    assert len(hands) == 1820
    solvable = [h for h in hands if count_solutions(h, 24, GAME_24) > 0]
    assert len(solvable) == 1362  # the published figure
    assert (1, 1, 1, 1) not in solvable and (3, 3, 8, 8) in solvable


def test_three_dice_reach_the_same_targets_with_or_without_fractions() -> None:
    # docs/rules.md §3 relies on this for Schlaues Köpfchen
    for roll in THREE_DICE:
        assert reachable_targets(roll, KOEPFCHEN) == reachable_targets(
            roll, Rules(division="rational")
        )
    assert reachable_targets([1, 1, 1]) == {0, 1, 2, 3}


# --- properties ----------------------------------------------------------------------------

rules_strategy = st.builds(
    lambda ops, rational, use_all, allow_zero: Rules(
        ops=ops,
        division="rational" if rational else "integer",
        use_all=use_all,
        allow_zero=allow_zero or rational,
    ),
    ops=st.sets(st.sampled_from("+-*/"), min_size=1).map("".join),
    rational=st.booleans(),
    use_all=st.booleans(),
    allow_zero=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    numbers=st.lists(st.integers(1, 13), min_size=1, max_size=4),
    target=st.integers(0, 100),
    rules=rules_strategy,
)
def test_every_solution_is_right(numbers: list[int], target: int, rules: Rules) -> None:
    found = solve(numbers, target, rules)
    available = Counter(numbers)
    for s in found:
        assert evaluate(s.text, rules) == target  # our parser, checking every step
        used = numbers_in(s.text)
        assert used == s.numbers_used
        assert not Counter(used) - available  # each number at most once
        if rules.use_all:
            assert Counter(used) == available
        assert canonical(parse(s.text)).key == s.key
        assert s.n_ops == len(used) - 1
    assert len({s.key for s in found}) == len(found)
    assert [s.complexity for s in found] == sorted(s.complexity for s in found)
    assert count_solutions(numbers, target, rules) == len(found)
    assert (target in reachable_targets(numbers, rules)) == bool(found)


@settings(max_examples=40, deadline=None)
@given(numbers=st.lists(st.integers(1, 9), min_size=5, max_size=6), target=st.integers(1, 200))
def test_countdown_solutions_are_right(numbers: list[int], target: int) -> None:
    for s in solve(numbers, target, COUNTDOWN):
        assert evaluate(s.text, COUNTDOWN) == target
        assert not Counter(s.numbers_used) - Counter(numbers)


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "numbers",
    [[], [0, 1], [-3], [1.5, 2], ["3"], [True, 2], [1] * (MAX_NUMBERS + 1), 5],
    ids=repr,
)
def test_bad_numbers_raise_user_error(numbers: object) -> None:
    with pytest.raises(UserError):
        solve(numbers, 3)  # type: ignore[arg-type]
    with pytest.raises(UserError):
        reachable_targets(numbers)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [-1, 2.5, "7", None, False])
def test_bad_target_raises_user_error(target: object) -> None:
    with pytest.raises(UserError):
        solve([1, 2], target)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ops": ""},
        {"ops": "+%"},
        {"ops": 7},
        {"division": "real"},
        {"division": "rational", "allow_zero": False},
    ],
    ids=repr,
)
def test_bad_rules_raise_user_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(UserError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_rules_store_ops_canonically() -> None:
    assert Rules(ops="×+").ops == "+*"
    assert Rules(ops={"/", "-"}).ops == "-/"
    assert Rules(ops="÷−").ops == Rules(ops="-/").ops


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("2 - 3 + 5", KOEPFCHEN),  # negative on the way
        ("7 / 2 * 2", KOEPFCHEN),  # a fraction on the way
        ("3 / (2 - 2)", GAME_24),  # division by zero
        ("3 × 2", Rules(ops="+-")),  # × not allowed
        ("3 - 3 + 1", COUNTDOWN),  # zero on the way
        ("3 +", KOEPFCHEN),  # not an expression
        ("(3 + 1", KOEPFCHEN),
        ("3 $ 1", KOEPFCHEN),
    ],
)
def test_evaluate_rejects_what_the_rules_forbid(text: str, rules: Rules) -> None:
    with pytest.raises(UserError):
        evaluate(text, rules)


def test_evaluate_values() -> None:
    assert evaluate("2 - 3 + 5", GAME_24) == 4
    assert evaluate("8 ÷ (3 − 8 ÷ 3)", GAME_24) == 24
    assert evaluate("7 / 2", GAME_24) == Fraction(7, 2)
    assert evaluate("(3 + 1) × 2", KOEPFCHEN) == 8


@pytest.mark.parametrize("ms", [(5,), (1, 1), (1, 2, 3), (1, 1, 3, 8, 25, 100), (2, 2, 2, 5, 5, 9)])
def test_splits_and_parts_are_every_distinct_way_once(ms: tuple[int, ...]) -> None:
    from generator.numbers.values import first_blocks, splits, sub_multisets

    by_position = {
        (tuple(ms[i] for i in chosen), tuple(ms[i] for i in range(len(ms)) if i not in chosen))
        for k in range(1, len(ms))
        for chosen in itertools.combinations(range(len(ms)), k)
    }
    assert len(splits(ms)) == len(set(splits(ms))) and set(splits(ms)) == by_position
    assert sub_multisets(ms)[-1] == ms and set(sub_multisets(ms)) == {a for a, _ in by_position} | {
        ms
    }
    assert set(first_blocks(ms)) == {(a, b) for a, b in by_position if a[0] == ms[0]}
