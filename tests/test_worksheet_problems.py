"""Every problem of every version re-solved by the independent brute force.

Nothing here uses `generator.numbers` to decide an answer: the brute force
(`tests/numbers_bruteforce.py`) builds every expression tree, so the count, the simplest
solution, solvability and the difficulty score in the manifest are all checked against a
second, unrelated computation (forms that differ only by an extra × 1 or ÷ 1 grouped by
the brute force's own restatement of that rule). Three numbers go through `solutions`
(every tree); four through `class_enumeration` (the same forms, built class by class,
much faster). Only `parse` is borrowed, to read the key's printed solution.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.io.cache import DISK
from generator.numbers import parse
from generator.numbers.expr import Num, Tree
from generator.worksheet.load import load_family
from generator.worksheet.pool import level_pool
from tests import numbers_bruteforce as brute

Forms = dict[tuple, brute.Complexity]


def independent(numbers: list[int], target: int, rules: dict) -> tuple[Forms, Forms]:
    """All distinct solutions, and those with whole non-negative steps, by brute force."""
    ms = tuple(sorted(numbers))
    rational = rules["division"] == "rational"
    kwargs = {"use_all": rules["use_all"], "allow_zero": rules["allow_zero"]}

    def forms(whole: bool) -> Forms:
        if len(ms) <= 3:
            return brute.solutions(  # the solver's meaning of ops: the printed form's signs
                ms, target, ops=rules["ops"], rational=not whole, ops_filter="printed", **kwargs
            )
        found = brute.class_enumeration(ms, target, rational=not whole, **kwargs)
        allowed = set(rules["ops"])
        return {f: brute.complexity(f) for f in found if brute.printed_ops(f) <= allowed}

    everything = forms(whole=not rational)
    return everything, forms(whole=True) if rational else everything


def has_minus(form: tuple) -> bool:
    if form[0] == "n":
        return False
    return (form[0] == "add" and bool(form[2])) or any(has_minus(c) for c in form[1] + form[2])


def distinct(forms: Forms) -> Forms:
    """One form per solution: the simplest of each class that differs only by × 1 or ÷ 1."""
    return {
        min(members, key=lambda f: forms[f]): forms[min(members, key=lambda f: forms[f])]
        for members in brute.unit_classes(forms).values()
    }


def expected_score(all_forms: Forms, whole: Forms, rational: bool) -> int:
    """The difficulty formula of the README, from the brute force's distinct solutions."""
    forms = distinct(all_forms)
    numbers = min(c[0] for c in forms.values())
    op_points = min(has_minus(f) + 2 * c[3] + 3 * c[2] for f, c in forms.items())
    brackets = all(c[4] for c in forms.values())
    fractions = rational and all(f not in whole for f in forms)
    n = len(forms)
    scarcity = 3 if n == 1 else 2 if n == 2 else 1 if n <= 4 else 0
    return numbers - 1 + op_points + 2 * brackets + 3 * fractions + scarcity


def brute_form(text: str) -> tuple:
    def convert(tree: Tree) -> tuple:
        if isinstance(tree, Num):
            return ("n", tree.value)
        return (tree.op, convert(tree.left), convert(tree.right))

    return brute.canonical(convert(parse(text)))


def check_problem(problem: dict, impossible: bool) -> None:
    rules = problem["rules"]
    forms, whole = independent(problem["numbers"], problem["target"], rules)
    where = f"{problem['numbers']} → {problem['target']}"
    assert problem["solvable"] == bool(forms) == (not impossible), where
    assert problem["count"] == len(brute.unit_classes(forms)), where
    if not forms:
        assert problem["simplest"] is None and problem["difficulty"] is None
        return
    # the key's solution: a real solution, as simple as any (with whole steps if possible)
    form = brute_form(problem["simplest"])
    preferred = {f: c for f, c in forms.items() if f in whole} or forms
    assert form in preferred, where
    assert preferred[form] == min(preferred.values()), where
    assert problem["difficulty"] == expected_score(forms, whole, rules["division"] == "rational"), (
        where
    )


def run(tmp: Path, *args: str) -> dict:
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        result = CliRunner().invoke(cli, ["worksheet", *args], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    out = next(a for a in args if a.endswith(".pdf"))
    return json.loads((tmp / out).with_suffix(".json").read_text(encoding="utf-8"))


def check_manifest(manifest: dict) -> None:
    contents = manifest["contents"]
    positions = {}
    offset = 0
    for i, section in enumerate(contents["sections"]):
        positions[i] = {offset + p for p in section["impossible_positions"]}
        offset += section["problems"]
    for version in contents["versions"]:
        assert len(version["problems"]) == contents["problems"]
        keys = [(tuple(sorted(p["numbers"])), p["target"]) for p in version["problems"]]
        assert len(set(keys)) == len(keys), "the same problem twice on one sheet"
        for problem in version["problems"]:
            check_problem(problem, problem["number"] in positions[problem["section"]])


@pytest.mark.parametrize(
    "args",
    [
        ("--level", "1", "--versions", "3", "--problems", "20"),
        ("--level", "2", "--versions", "3", "--impossible", "2"),
        ("--level", "3", "--versions", "2", "--impossible", "3", "--problems", "24"),
        ("--level", "4", "--versions", "3"),
        ("--family", "24", "--level", "2", "--versions", "2", "--problems", "8"),
        ("--family", "24", "--level", "4", "--versions", "2", "--problems", "6",
         "--impossible", "1"),
        ("--spec", "mixed", "--versions", "2"),
        ("--level", "2", "--ops", "+:", "--targets", "2-15", "--versions", "2", "--problems", "12"),
    ],
)  # fmt: skip
def test_every_problem_matches_the_brute_force(tmp_path: Path, args) -> None:
    manifest = run(tmp_path, *args, "--seed", "11", "--out", "ws.pdf")
    check_manifest(manifest)


def test_ops_and_targets_replace_the_levels(tmp_path: Path) -> None:
    manifest = run(tmp_path, "--level", "2", "--ops", "-÷", "--targets", "1-6", "--problems",
                   "8", "--seed", "4", "--out", "ws.pdf")  # fmt: skip
    for version in manifest["contents"]["versions"]:
        for problem in version["problems"]:
            assert problem["rules"]["ops"] == "-/" and 1 <= problem["target"] <= 6
            assert "+" not in problem["simplest"] and "×" not in problem["simplest"]
    section = manifest["contents"]["sections"][0]
    # level 2 practises ×, which --ops leaves out: its focus goes too
    assert section["definition"]["targets"] == [1, 6] and section["definition"]["focus"] is None


def test_sections_of_one_level_never_repeat_a_problem(tmp_path: Path) -> None:
    twice = "sections:\n" + "  - {family: koepfchen, level: 4, problems: 45}\n" * 2
    # 98 problems at level 4; the second section gets what the first left
    (tmp_path / "twice.yaml").write_text(twice, encoding="utf-8")
    check_manifest(run(tmp_path, "--spec", "twice.yaml", "--out", "ws.pdf"))
    (tmp_path / "more.yaml").write_text(twice.replace("45", "50"), encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(cli, ["worksheet", "--spec", "more.yaml"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 2
    assert "sections[1].problems" in result.stderr
    assert "can supply at most" in result.stderr


def test_the_checker_catches_a_wrong_manifest(tmp_path: Path) -> None:
    manifest = run(tmp_path, "--level", "2", "--problems", "6", "--out", "ws.pdf")
    problem = manifest["contents"]["versions"][0]["problems"][3]
    for key, wrong in (
        ("count", problem["count"] + 1),
        ("difficulty", problem["difficulty"] + 1),
        ("target", problem["target"] + 41),
        ("simplest", problem["simplest"] + " + 0"),
    ):
        with pytest.raises(AssertionError):
            check_problem({**problem, key: wrong}, impossible=False)


def test_level_pools_equal_the_brute_force_pools() -> None:
    """Levels 1 and 4 rebuilt from scratch: which problems belong, and their scores."""
    family = load_family("koepfchen")
    for number in (1, 4):
        level = family.level(number)
        ops = level.rules.ops
        expected = {}
        for ms in level.numbers.multisets():
            values = brute.brute_force(ms, ops=ops)
            for target in range(level.targets[0], level.targets[1] + 1):
                forms = values.get(Fraction(target), {})
                if not forms or min(c[0] for c in forms.values()) < level.min_numbers:
                    continue
                solutions = len(brute.unit_classes(forms))
                if level.max_solutions is not None and solutions > level.max_solutions:
                    continue
                if level.brackets == "needed" and not all(c[4] for c in forms.values()):
                    continue
                expected[(ms, target)] = expected_score(forms, forms, False)
        pool = level_pool(level, store=DISK)
        assert {c.key: c.difficulty.score for c in pool.solvable} == expected
