"""Kribbeln dice and task files: the shipped catalog, the task types on hand-written rolls,
the wording, and bad files → exit 2 naming file, line and key."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator.core.errors import CatalogError
from generator.kribbeln.dice import DiceSet
from generator.kribbeln.load import load_dice, load_dice_file, load_tasks, load_tasks_file
from generator.kribbeln.masks import fulfilled, roll_states, task_mask
from generator.kribbeln.tasks import FAMILIES, TASK_TYPES, TEMPLATE, Task, family_name, task_text
from generator.text.words import Texts

SHIPPED_DICE = Path(__file__).parent.parent / "task_catalog" / "kribbeln" / "dice.yaml"


@pytest.fixture(scope="module")
def dice() -> DiceSet:
    loaded, warnings = load_dice()
    assert warnings == []
    return loaded


def values_for(dice: DiceSet, colors: str) -> tuple[int, ...]:
    """The value on die 1…6 that shows each of the given colours ("red red blue …")."""
    wanted = colors.split()
    return tuple(dice.faces[d].index(c) + 1 for d, c in enumerate(wanted))


# --- the shipped dice --------------------------------------------------------------------------


def test_shipped_dice_are_the_six_colours_in_a_latin_square(dice: DiceSet) -> None:
    assert dice.color_ids == ("red", "orange", "blue", "black", "yellow", "green")
    assert [c.name["de"] for c in dice.colors] == [
        "rot",
        "orange",
        "blau",
        "schwarz",
        "gelb",
        "grün",
    ]
    assert dice.n_dice == 6
    for die in dice.faces:
        assert sorted(die) == sorted(dice.color_ids)
    for v in range(1, 7):  # every (value, colour) pair exactly once
        assert sorted(dice.color_of(d, v) for d in range(6)) == sorted(dice.color_ids)
    assert len({c.symbol for c in dice.colors}) == 6
    assert len({c.pattern for c in dice.colors}) == 6
    assert all(c.rgb.startswith("#") and len(c.rgb) == 7 for c in dice.colors)


def test_colours_follow_from_the_values(dice: DiceSet) -> None:
    # documented default: die d shows value v in colour (v + d − 2) mod 6
    assert dice.roll_colors((1, 1, 1, 1, 1, 1)) == dice.color_ids
    assert dice.roll_colors((3, 5, 1, 6, 2, 2)) == ("blue", "green", "blue", "blue", "green", "red")
    with pytest.raises(ValueError):
        dice.roll_colors((1, 2, 3, 4, 5, 7))


def test_roll_states_counts_and_pips(dice: DiceSet) -> None:
    states = roll_states(dice)
    assert states.n_states == 6**6
    assert (states.counts.sum(axis=1) == 6).all()
    assert states.pips.min() == 6 and states.pips.max() == 36
    roll = (3, 5, 1, 6, 2, 2)
    index = sum((v - 1) * 6 ** (5 - d) for d, v in enumerate(roll))
    assert states.pips[index] == sum(roll)
    shown = Counter(dice.roll_colors(roll))
    assert list(states.counts[index]) == [shown[c] for c in dice.color_ids]


# --- every task type on hand-written rolls -----------------------------------------------------

T = Task  # Task(id, type, family, colors, count)
NONE_R = T("none_r", "none_of", "exact", ("red",))
NONE_RB = T("none_rb", "none_of", "exact", ("red", "blue"))
EXACTLY1_R = T("exactly1_r", "exactly", "exact", ("red",), 1)
EXACTLY2_R = T("exactly2_r", "exactly", "exact", ("red",), 2)
ONE_R_NONE_B = T("one_r_none_b", "one_and_none", "exact", ("red", "blue"))
SOME_3 = T("some_3", "some_color_exactly", "free", (), 3)
SOME_4 = T("some_4", "some_color_exactly", "free", (), 4)
NO_2 = T("no_2", "no_color_exactly", "free", (), 2)
NO_3 = T("no_3", "no_color_exactly", "free", (), 3)
PAIRS = T("pairs", "two_colors_exactly", "free", (), 2)
DISTINCT_3 = T("distinct_3", "distinct_colors", "free", (), 3)
MORE_R_B = T("more_r_b", "more_than", "comparison", ("red", "blue"))
EQUAL_RB = T("equal_rb", "equal", "comparison", ("red", "blue"), 1)
EQUAL0_RB = T("equal0_rb", "equal", "comparison", ("red", "blue"), 0)
EQUAL2_RB = T("equal2_rb", "equal", "comparison", ("red", "blue"), 2)
DIFF_RB = T("diff_rb", "all_different", "comparison", ("red", "blue"))
DIFF_RBG = T("diff_rbg", "all_different", "comparison", ("red", "blue", "green"))
MOST_R = T("most_r", "most", "comparison", ("red",))

CASES = [
    # (task, colours on die 1…6, fulfilled?)
    (NONE_R, "blue blue green black yellow orange", True),
    (NONE_R, "blue blue green black yellow red", False),
    (NONE_RB, "green green green black yellow orange", True),
    (NONE_RB, "green green green black yellow blue", False),
    (EXACTLY1_R, "red blue blue blue blue blue", True),
    (EXACTLY1_R, "red red blue blue blue blue", False),
    (EXACTLY1_R, "blue blue blue blue blue blue", False),
    (EXACTLY2_R, "red red blue blue blue blue", True),
    (EXACTLY2_R, "red red red blue blue blue", False),
    (ONE_R_NONE_B, "red green green green green green", True),
    (ONE_R_NONE_B, "red blue green green green green", False),
    (ONE_R_NONE_B, "red red green green green green", False),
    (ONE_R_NONE_B, "green green green green green green", False),
    (SOME_3, "red red red blue blue green", True),
    (SOME_3, "red red red red blue green", False),
    (SOME_4, "red red red red blue green", True),
    (NO_2, "red red red blue green black", True),
    (NO_2, "red red blue blue blue green", False),
    (NO_3, "red red blue blue green green", True),
    (NO_3, "red red red blue blue blue", False),
    (PAIRS, "red red blue blue green black", True),
    # a third pair is allowed
    (PAIRS, "red red blue blue green green", True),
    (PAIRS, "red red blue blue blue green", False),
    (PAIRS, "red red red red blue blue", False),
    (DISTINCT_3, "red red blue blue green green", True),
    (DISTINCT_3, "red red red red blue green", True),
    (DISTINCT_3, "red red blue blue green black", False),
    (DISTINCT_3, "red red red blue blue blue", False),
    (MORE_R_B, "red green green green green green", True),
    (MORE_R_B, "red blue green green green green", False),
    (MORE_R_B, "blue green green green green green", False),
    (MORE_R_B, "green green green green green green", False),
    (EQUAL_RB, "red blue green green green green", True),
    (EQUAL_RB, "red red blue blue green green", True),
    (EQUAL_RB, "red red blue green green green", False),
    # 0 = 0 does not count with the decided at_least 1 …
    (EQUAL_RB, "green green green green green green", False),
    # … but does with at_least 0
    (EQUAL0_RB, "green green green green green green", True),
    (EQUAL2_RB, "red blue green green green green", False),
    (DIFF_RB, "red green green green green green", True),
    (DIFF_RB, "green green green green green green", False),
    (DIFF_RB, "red blue green green green green", False),
    # 0, 1, 2 are three different numbers
    (DIFF_RBG, "blue green green black black black", True),
    (DIFF_RBG, "red blue green green green green", False),
    (DIFF_RBG, "blue black black black black black", False),
    (MOST_R, "red red blue green black yellow", True),
    (MOST_R, "red red blue blue black yellow", False),
    (MOST_R, "red blue green black yellow orange", False),
    (MOST_R, "red red red blue blue blue", False),
]


@pytest.mark.parametrize(
    ("task", "colors", "expected"),
    CASES,
    ids=[f"{t.id}-{c.replace(' ', '_')}" for t, c, _ in CASES],
)
def test_task_types_on_hand_written_rolls(dice, task: Task, colors: str, expected: bool) -> None:
    values = values_for(dice, colors)
    assert dice.roll_colors(values) == tuple(colors.split())
    assert fulfilled(task, dice, values) is expected
    # the all-states mask says the same for this roll
    index = sum((v - 1) * 6 ** (5 - d) for d, v in enumerate(values))
    assert bool(task_mask(task, roll_states(dice))[index]) is expected


def test_every_type_is_covered_by_hand_written_rolls() -> None:
    assert {task.type for task, _, _ in CASES} == set(TASK_TYPES)


def test_a_roll_given_as_values(dice: DiceSet) -> None:
    # 3 5 1 6 2 2 shows blue green blue blue green red
    none_red = Task("a", "none_of", "exact", ("red",))
    assert not fulfilled(none_red, dice, (3, 5, 1, 6, 2, 2))
    assert fulfilled(none_red, dice, (3, 5, 1, 6, 2, 1))  # die 6 value 1: green


# --- the shipped task catalog ------------------------------------------------------------------


def test_shipped_catalog_instantiates_every_type(dice: DiceSet) -> None:
    catalog = load_tasks(dice)
    assert catalog.rolls == 3
    tasks = catalog.tasks
    assert len(tasks) >= 100
    assert len({t.id for t in tasks}) == len(tasks)
    assert {t.type for t in tasks} == set(TASK_TYPES)
    assert {t.family for t in tasks} == set(FAMILIES)
    for t in tasks:
        assert t.family == TASK_TYPES[t.type].family
    by_type = Counter(t.type for t in tasks)
    assert by_type["none_of"] == 6 + 15
    assert by_type["one_and_none"] == 30
    assert by_type["more_than"] == 30
    assert by_type["all_different"] == 15 + 20
    # the counts the rules name
    assert {t.count for t in tasks if t.type == "exactly"} == {1, 2}
    assert {t.count for t in tasks if t.type == "some_color_exactly"} == {3, 4}
    assert {t.count for t in tasks if t.type == "no_color_exactly"} == {2, 3}
    assert {t.count for t in tasks if t.type == "two_colors_exactly"} == {2}
    assert {t.count for t in tasks if t.type == "equal"} == {1}
    assert 3 in {t.count for t in tasks if t.type == "distinct_colors"}
    assert catalog.task("none_red").colors == ("red",)
    assert catalog.task("one_red_none_blue").params() == {"one": "red", "none": "blue"}


def test_every_shipped_task_has_its_own_words(dice: DiceSet) -> None:
    tasks = load_tasks(dice).tasks
    for lang in ("de", "en"):
        texts = [task_text(t, dice, lang, Texts(TEMPLATE, lang)) for t in tasks]
        assert len(set(texts)) == len(texts), lang
        assert all(text.endswith(".") and "{" not in text for text in texts)
        for t, text in zip(tasks, texts):
            for c in t.colors:
                assert dice.color(c).name[lang].casefold() in text.casefold(), (t.id, text)


@pytest.mark.parametrize(
    ("task", "de", "en"),
    [
        (T("a", "none_of", "exact", ("red", "green")),
         "Kein Würfel zeigt Rot oder Grün.", "No die shows red or green."),
        (T("a", "exactly", "exact", ("blue",), 2),
         "Genau zwei Würfel zeigen Blau.", "Exactly two dice show blue."),
        (T("a", "one_and_none", "exact", ("red", "black")),
         "Genau ein Würfel zeigt Rot, keiner zeigt Schwarz.",
         "Exactly one die shows red, none shows black."),
        (T("a", "two_colors_exactly", "free", (), 2),
         "Zwei Farben kommen je genau zweimal vor.", "Two colors appear exactly twice each."),
        (T("a", "equal", "comparison", ("red", "blue"), 1),
         "Gleich viele Würfel zeigen Rot und Blau, mindestens je einer.",
         "As many dice show red as blue, at least one each."),
        (T("a", "most", "comparison", ("yellow",)),
         "Gelb kommt öfter vor als jede andere Farbe.",
         "Yellow appears more often than any other color."),
    ],
)  # fmt: skip
def test_task_wording(dice: DiceSet, task: Task, de: str, en: str) -> None:
    assert task_text(task, dice, "de", Texts(TEMPLATE, "de")) == de
    assert task_text(task, dice, "en", Texts(TEMPLATE, "en")) == en


def test_family_names() -> None:
    assert [family_name(f, "de", Texts(TEMPLATE, "de")) for f in FAMILIES] == [
        "Genaue Farben",
        "Freie Farben",
        "Vergleich",
    ]
    assert family_name("comparison", "en", Texts(TEMPLATE, "en")) == "Comparison"


def test_family_is_derived_from_the_type_when_absent(tmp_path: Path, dice: DiceSet) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(
        "tasks:\n"
        "  - {id: a, type: most, color: red}\n"
        "  - {id: b, type: distinct_colors}\n"
        "  - {id: c, type: equal, colors: [red, blue]}\n"
        "  - {id: d, type: none_of, colors: [red], family: free}\n"
    )
    tasks = load_tasks_file(path, "t.yaml", dice).tasks
    assert [t.family for t in tasks] == ["comparison", "free", "comparison", "free"]
    assert tasks[1].count == 3  # distinct_colors: k = 3 by default
    assert tasks[2].count == 1  # equal: at_least 1 by default
    assert tasks[0].source == "t.yaml:2"


# --- bad files → exit 2 with file:line and key -------------------------------------------------

DICE = SHIPPED_DICE.read_text(encoding="utf-8")
DIE_2 = "  - {1: orange, 2: blue,   3: black,  4: yellow, 5: green,  6: red}     # die 2\n"
assert DIE_2 in DICE


def _line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


BAD_DICE = [
    # (replacement of die 2, what stderr names)
    ("  - {1: orange, 2: blue, 3: black, 4: yellow, 5: green}\n", ["dice[1]", "missing value 6"]),
    ("  - {1: orange, 2: blue, 3: black, 4: orange, 5: green, 6: red}\n",
     ["key '4'", "'orange' repeated"]),
    ("  - {1: orange, 2: blue, 3: black, 4: purple, 5: green, 6: red}\n",
     ["key '4'", "unknown color 'purple'"]),
    ("  - {1: orange, 2: blue, 3: black, 4: yellow, 5: green, 7: red}\n",
     ["key '7'", "not a die value"]),
]  # fmt: skip


@pytest.mark.parametrize(("die", "names"), BAD_DICE)
def test_bad_dice_exit_2_with_file_line_and_key(run_cli, tmp_path: Path, die, names) -> None:
    text = DICE.replace(DIE_2, die)
    (tmp_path / "mydice.yaml").write_text(text, encoding="utf-8")
    result = run_cli("kribbeln", "analyze", "--dice", "mydice.yaml")
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"dicesheets: error: mydice.yaml:{_line_of(text, die)}:"), err
    for name in names:
        assert name in err


@pytest.mark.parametrize(
    ("edit", "names"),
    [
        (lambda t: t.replace("symbol: star", "symbol: triangle"), ["colors.yellow.symbol"]),
        (lambda t: t.replace('rgb: "#1f77b4"', 'rgb: "blue"'), ["colors.blue.rgb", "#rrggbb"]),
        (lambda t: t.replace(DIE_2, ""), ["expected 6 dice, found 5"]),
        (lambda t: t.replace("  green:  {de: grün", "  lime:  {de: grün"),
         ["unknown color 'green'"]),
    ],
)  # fmt: skip
def test_more_bad_dice(tmp_path: Path, edit, names) -> None:
    path = tmp_path / "d.yaml"
    path.write_text(edit(DICE), encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_dice_file(path, "d.yaml")
    assert err.value.line is not None
    for name in names:
        assert name in str(err.value)


def test_dice_that_are_not_a_latin_square_are_accepted_with_a_warning(
    run_cli, tmp_path: Path
) -> None:
    die_1 = "  - {1: red,    2: orange, 3: blue,   4: black,  5: yellow, 6: green}   # die 1\n"
    text = DICE.replace(DIE_2, die_1)  # two equal dice: home-made
    (tmp_path / "home.yaml").write_text(text, encoding="utf-8")
    _, warnings = load_dice_file(tmp_path / "home.yaml", "home.yaml")
    assert len(warnings) == 6  # every value shows the same colour on dice 1 and 2
    assert "value 1 is red on dice 1, 2" in warnings[0]
    result = run_cli("kribbeln", "analyze", "--dice", "home.yaml", "--json")
    assert result.exit_code == 0, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 6
    assert lines[0].startswith("dicesheets: warning: home.yaml:")
    assert "not a Latin square" in lines[0]


TASK_LINE = "  - {id: mine, type: exactly, color: red, count: 2}\n"
BAD_TASKS = [
    ("  - {id: mine, type: exactly, color: purple, count: 2}\n",
     ["tasks[1].color", "unknown color 'purple'"]),
    ("  - {id: mine, type: sum_of, color: red, count: 2}\n",
     ["tasks[1].type", "sum_of"]),
    ("  - {id: mine, type: exactly, color: red, count: 7}\n",
     ["tasks[1].count", "1–6", "found 7"]),
    ("  - {id: mine, type: two_colors_exactly, count: 4}\n",
     ["tasks[1].count", "1–3"]),
    ("  - {id: mine, type: equal, colors: [red, blue], at_least: 4}\n",
     ["tasks[1].at_least", "0–3"]),
    ("  - {id: mine, type: none_of, colors: [red, blue, green]}\n",
     ["tasks[1].colors", "1–2 colors"]),
    ("  - {id: mine, type: more_than, more: red, than: red}\n",
     ["tasks[1]", "'red' named twice"]),
    ("  - {id: mine, type: exactly, color: red}\n",
     ["tasks[1].count"]),
    ("  - {id: mine, type: most, color: red, count: 2}\n",
     ["tasks[1].count", "unknown key"]),
    ("  - {id: none_red, type: most, color: red}\n",
     ["tasks[1]", "'none_red' appears twice"]),
]  # fmt: skip


@pytest.mark.parametrize(("task", "names"), BAD_TASKS)
def test_bad_tasks_exit_2_with_file_line_and_key(run_cli, tmp_path: Path, task, names) -> None:
    text = f"rolls: 3\ntasks:\n  - {{id: none_red, type: none_of, colors: [red]}}\n{task}"
    (tmp_path / "mytasks.yaml").write_text(text, encoding="utf-8")
    result = run_cli("kribbeln", "analyze", "--tasks", "mytasks.yaml")
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("dicesheets: error: mytasks.yaml:4:"), err
    for name in names:
        assert name in err, err


def test_task_file_checked_against_the_users_dice(run_cli, tmp_path: Path) -> None:
    # the shipped catalog names 'green'; dice that call it 'lime' make it an unknown colour
    text = DICE.replace("green", "lime")
    (tmp_path / "lime.yaml").write_text(text, encoding="utf-8")
    result = run_cli("kribbeln", "analyze", "--dice", "lime.yaml")
    assert result.exit_code == 2
    assert "task_catalog/kribbeln/tasks.yaml:" in result.stderr
    assert "unknown color 'green'" in result.stderr


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--dice", "nowhere.yaml"], "--dice"),
        (["--tasks", "nowhere.yaml"], "--tasks"),
        (["--sort", "colour"], "--sort"),
    ],
)
def test_bad_analyze_options(run_cli, args, names) -> None:
    result = run_cli("kribbeln", "analyze", *args)
    assert result.exit_code == 2
    assert names in result.stderr
    assert "Traceback" not in result.output


def test_dice_without_symbols_and_patterns_get_distinct_defaults(run_cli, tmp_path: Path) -> None:
    import re

    text = re.sub(r", symbol: \w+, *pattern: \w+\}", "}", SHIPPED_DICE.read_text(encoding="utf-8"))
    text = text.replace("green:  {de: grün,    en: green", "lime:  {de: lind,    en: lime")
    text = text.replace(", 6: green}", ", 6: lime}").replace(": green,", ": lime,")
    text = text.replace('rgb: "#1f77b4"}', 'rgb: "#1f77b4", symbol: triangle}')  # red's own
    assert "symbol" in text and "pattern:" not in text
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    dice, warnings = load_dice_file(path, "mine.yaml")
    shipped, _ = load_dice()
    looks = {c.id: (c.symbol, c.pattern) for c in dice.colors}
    assert looks["blue"][0] == "triangle"  # given: kept
    for attr in (0, 1):  # distinct, as a black-and-white print needs
        assert len({look[attr] for look in looks.values()}) == 6
    # a colour the shipped dice know looks as shipped unless its look is taken
    for c in shipped.colors:
        if c.id in ("orange", "black", "yellow"):
            assert looks[c.id] == (c.symbol, c.pattern)
    assert looks["red"][0] != "triangle"
    assert len(warnings) == 6
    assert warnings[0].startswith("mine.yaml:22: colors.red: no symbol and no pattern given; using")
    plain = tmp_path / "plain.yaml"  # the format of the dice issue: names and rgb only
    plain.write_text(re.sub(r", symbol: \w+, *pattern: \w+\}", "}", SHIPPED_DICE.read_text()))
    result = run_cli("kribbeln", "analyze", "--dice", plain, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count(f"dicesheets: warning: {plain}:") == 6


def test_only_stated_looks_can_clash(tmp_path: Path) -> None:
    text = SHIPPED_DICE.read_text(encoding="utf-8").replace("symbol: star", "symbol: triangle")
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError, match="'triangle' is also the symbol of 'red'"):
        load_dice_file(path, "d.yaml")
