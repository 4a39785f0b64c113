"""`kribbeln block --pin 2,5`: sheets of the last pad kept, the others sampled without them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.kribbeln.balance import TaskFacts
from generator.kribbeln.sampler import sample_block
from tests.pdfcheck import page_texts
from tests.test_kribbeln_sheets import EXACT, GOOD, _flat, _texts


def _contents(path: Path) -> dict[str, Any]:
    contents: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["contents"]
    return contents


def _ids(contents: dict[str, Any]) -> list[list[str]]:
    return [[t["id"] for t in s["tasks"]] for s in contents["sheets"]]


def test_pinned_sheets_stay_and_the_others_are_drawn_anew(run_cli, tmp_path: Path) -> None:
    assert run_cli("kribbeln", "block", "--seed", "3", "--out", "p/").exit_code == 0
    result = run_cli("kribbeln", "block", "--pin", "2,5", "--seed", "4", "--out", "p/")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # the drawn sheets and the pinned ones meet the balance
    old = _ids(_contents(tmp_path / "p" / "kribbeln-block-3-de.json"))
    contents = _contents(tmp_path / "p" / "kribbeln-block-4-de.json")
    new = _ids(contents)
    assert len(new) == 6
    assert new[1] == old[1] and new[4] == old[4]  # the same tasks in the same rows
    assert any(new[j] != old[j] for j in (0, 2, 3, 5))
    printed = [i for sheet in new for i in sheet]
    assert len(printed) == len(set(printed))  # no task on two sheets
    assert contents["pinned"] == [2, 5]
    assert contents["constraints_met"] is True and contents["warnings"] == []
    # sheet 2's page prints the old sheet 2's tasks, in row order
    page = _flat(page_texts(tmp_path / "p" / "kribbeln-block-4-de.pdf")[1])
    where = [page.find(_flat(text)) for text in _texts(old[1])]
    assert all(w >= 0 for w in where), (old[1], page)
    assert where[0] < where[2] < where[4]


def test_a_pad_without_pins_records_none(run_cli, tmp_path: Path) -> None:
    assert run_cli("kribbeln", "block", "--seed", "3", "--out", "p/").exit_code == 0
    assert _contents(tmp_path / "p" / "kribbeln-block-3-de.json")["pinned"] == []


def test_the_same_pin_command_gives_the_same_bytes(run_cli, tmp_path: Path) -> None:
    assert run_cli("kribbeln", "block", "--seed", "3", "--out", "p/").exit_code == 0
    pdf = tmp_path / "p" / "kribbeln-block-4-de.pdf"
    args = ("kribbeln", "block", "--pin", "2,5", "--seed", "4", "--out", "p/")
    assert run_cli(*args).exit_code == 0
    first = (pdf.read_bytes(), pdf.with_suffix(".json").read_bytes())
    # the rebuild pins from the file it replaces: the same sheets, the same pad
    assert run_cli(*args).exit_code == 0
    assert (pdf.read_bytes(), pdf.with_suffix(".json").read_bytes()) == first


def test_no_last_pad_is_one_line(run_cli, tmp_path: Path) -> None:
    result = run_cli("kribbeln", "block", "--pin", "2", "--seed", "4", "--out", "empty/")
    assert result.exit_code == 2
    assert result.stderr == (
        "dicesheets: error: option --pin: no earlier pad in empty to pin sheets from\n"
    )
    empty = tmp_path / "empty"
    assert not empty.exists() or not any(empty.iterdir())  # no partial files


def test_bad_pins_are_one_line(run_cli, tmp_path: Path) -> None:
    assert run_cli("kribbeln", "block", "--seed", "3", "--out", "p/").exit_code == 0
    before = sorted(p.name for p in (tmp_path / "p").iterdir())
    for pin, expected in (
        ("9", "sheet 9 is not on the last pad: p/kribbeln-block-3-de.json has 6 sheets"),
        ("2,x", "sheet numbers of the last pad expected, separated by commas (such as 2,5), "
                "found '2,x'"),
        ("0", "sheet numbers of the last pad expected, separated by commas (such as 2,5), "
              "found '0'"),
    ):  # fmt: skip
        result = run_cli("kribbeln", "block", "--pin", pin, "--seed", "4", "--out", "p/")
        assert result.exit_code == 2
        assert result.stderr == f"dicesheets: error: option --pin: {expected}\n"
    short = run_cli("kribbeln", "block", "--pin", "5", "--pages", "4", "--seed", "4", "--out", "p/")
    assert short.exit_code == 2
    assert "option --pin: sheet 5 is past the 4 sheets" in short.stderr
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == before  # no partial files


def test_pin_with_sheets_is_refused(run_cli, tmp_path: Path) -> None:
    (tmp_path / "s.csv").write_text(GOOD + "\n", encoding="utf-8")
    result = run_cli("kribbeln", "block", "--sheets", "s.csv", "--pin", "1")
    assert result.exit_code == 2
    assert result.stderr.startswith("dicesheets: error: option --pin: --pin keeps sheets")


def test_pinned_sheets_that_miss_the_balance_warn_per_constraint(run_cli, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(f"sheets:\n  - [{GOOD}]\n  - [{EXACT}]\n", encoding="utf-8")
    chosen = run_cli("kribbeln", "block", "--sheets", "s.yaml", "--seed", "1", "--out", "p/")
    assert chosen.exit_code == 0
    result = run_cli("kribbeln", "block", "--pin", "2", "--pages", "2", "--seed", "1",
                     "--lang", "en", "--out", "p/")  # fmt: skip
    assert result.exit_code == 0, result.output
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("dicesheets: warning:")]
    missed = [w.split(" misses ")[1].split(":")[0] for w in warnings]
    assert warnings[0].startswith(
        "dicesheets: warning: p/kribbeln-block-1-de.json: with the pinned sheets the pad misses "
    )
    assert "families" in missed and len(set(missed)) == len(missed)
    contents = _contents(tmp_path / "p" / "kribbeln-block-1-en.json")
    assert _ids(contents)[1] == EXACT.split(",") and _ids(contents)[0] != GOOD.split(",")
    assert contents["constraints_met"] is False and contents["pinned"] == [2]
    assert contents["warnings"] == [w.removeprefix("dicesheets: warning: ") for w in warnings]


def _facts() -> list[TaskFacts]:
    from generator.kribbeln.load import load_block

    inputs = load_block()
    return [
        TaskFacts(t.id, t.family, t.colors, inputs.figures[t.id].p_success)
        for t in inputs.catalog.tasks
    ]


def test_the_sampler_without_pins_is_the_sampler_with_none() -> None:
    from generator.kribbeln.load import load_balance

    facts, balance = _facts(), load_balance(None)
    plain = sample_block(facts, balance, 6, 7)
    assert sample_block(facts, balance, 6, 7, {}) == plain
    # pinning every sheet of a pad draws nothing and gives the pad back
    pins = {j: ids for j, ids in enumerate(plain.sheets, start=1)}
    assert sample_block(facts, balance, 6, 7, pins).sheets == plain.sheets
