"""`dicesheets init DIR --game G` on a folder that holds a catalog already.

It adds G's files, leaves a file that is as shipped alone, never replaces a file
the user changed (it says which it kept), and with `--force` replaces one only
after a copy stands beside it as NAME.bak.
"""

from __future__ import annotations

import os
from pathlib import Path

from generator.core.resources import catalog_dir, rules_file, templates_dir

PAGE = templates_dir() / "de" / "page.j2"  # shared by Kribbeln and Köpfchen


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def test_a_second_game_is_added_to_an_existing_catalog(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    before = _files(tmp_path / "mine")
    result = run_cli("init", "mine", "--game", "koepfchen")
    assert result.exit_code == 0, result.output
    after = _files(tmp_path / "mine")
    added = sorted(set(after) - set(before))
    profiles = sorted(p.name for p in (catalog_dir() / "koepfchen").glob("*.yaml"))
    templates = ["koepfchen_board", "koepfchen_key", "koepfchen_rules"]
    assert added == sorted(
        [f"koepfchen/{name}" for name in profiles]
        + [f"templates/{lang}/{name}.j2" for lang in ("de", "en") for name in templates]
    )
    # the shared templates and the rules were there as shipped: the same bytes, not rewritten
    for rel in ("templates/de/page.j2", "templates/en/report.j2", "rules.md"):
        assert after[rel] == before[rel]
    assert after["rules.md"] == rules_file().read_bytes()
    # the note an earlier run wrote is renewed: it now names both games
    readme = after["README.txt"].decode()
    assert "kribbeln/" in readme and "koepfchen/" in readme and "kniffel/" not in readme
    # the files written: the added ones and the note (written = len(added) + 1)
    assert f"wrote {len(added) + 1} files into mine" in result.stdout
    assert result.stderr == ""
    assert run_cli("validate", "--catalog", "mine").exit_code == 0


def test_a_changed_file_is_kept_and_named(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    page = tmp_path / "mine" / "templates" / "de" / "page.j2"
    mine = page.read_bytes() + b"{# my footer #}\n"
    page.write_bytes(mine)
    readme = tmp_path / "mine" / "README.txt"
    readme.write_text("my notes\n", encoding="utf-8")
    result = run_cli("init", "mine", "--game", "koepfchen")
    assert result.exit_code == 0, result.output
    assert page.read_bytes() == mine
    assert readme.read_text(encoding="utf-8") == "my notes\n"
    kept = [line for line in result.stderr.splitlines() if "kept" in line]
    assert kept == [
        f"dicesheets: warning: kept '{Path('mine/templates/de/page.j2')}': it differs from the "
        "file this version of dicesheets writes (--force replaces it after saving a copy "
        "beside it as .bak)",
        f"dicesheets: warning: kept '{Path('mine/README.txt')}': it differs from the file this "
        "version of dicesheets writes (--force replaces it after saving a copy beside it as "
        ".bak)",
    ]
    assert not list((tmp_path / "mine").rglob("*.bak"))
    # nothing left to add: it says so, and keeps the file again
    again = run_cli("init", "mine", "--game", "koepfchen")
    assert again.exit_code == 0 and "nothing to write into mine" in again.stdout
    assert "page.j2" in again.stderr and page.read_bytes() == mine


def test_force_saves_a_bak_beside_each_file_it_replaces(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    page = tmp_path / "mine" / "templates" / "de" / "page.j2"
    first = page.read_bytes() + b"{# first edit #}\n"
    page.write_bytes(first)
    shipped_tasks = (tmp_path / "mine" / "kribbeln" / "tasks.yaml").read_bytes()
    result = run_cli("init", "mine", "--game", "koepfchen", "--force")
    assert result.exit_code == 0, result.output
    assert page.read_bytes() == PAGE.read_bytes()
    assert (page.parent / "page.j2.bak").read_bytes() == first
    assert f"saved a copy of '{Path('mine/templates/de/page.j2')}' as page.j2.bak" in result.stdout
    # a file as shipped gets no copy, and a game not named is not touched
    baks = sorted(p.relative_to(tmp_path / "mine").as_posix() for p in tmp_path.rglob("*.bak"))
    assert baks == ["templates/de/page.j2.bak"]
    assert (tmp_path / "mine" / "kribbeln" / "tasks.yaml").read_bytes() == shipped_tasks
    # a second edit: the first copy stays, the new one goes beside it
    second = PAGE.read_bytes() + b"{# second edit #}\n"
    page.write_bytes(second)
    assert run_cli("init", "mine", "--game", "kribbeln", "--force").exit_code == 0
    assert (page.parent / "page.j2.bak").read_bytes() == first
    assert (page.parent / "page.j2.2.bak").read_bytes() == second
    assert page.read_bytes() == PAGE.read_bytes()
    # the copies are not catalog files: the folder still validates
    assert run_cli("validate", "--catalog", "mine").exit_code == 0


def test_force_copies_a_link_as_the_link(run_cli, tmp_path: Path) -> None:
    victim = tmp_path / "victim.j2"
    victim.write_text("precious", encoding="utf-8")
    assert run_cli("init", "mine", "--game", "koepfchen").exit_code == 0
    page = tmp_path / "mine" / "templates" / "en" / "page.j2"
    page.unlink()
    page.symlink_to(victim)
    result = run_cli("init", "mine", "--game", "koepfchen")
    assert result.exit_code == 0 and "page.j2" in result.stderr and page.is_symlink()
    assert run_cli("init", "mine", "--game", "koepfchen", "--force").exit_code == 0
    assert (
        not page.is_symlink()
        and page.read_bytes() == (PAGE.parent.parent / "en" / "page.j2").read_bytes()
    )
    assert os.readlink(page.parent / "page.j2.bak") == str(victim)
    assert victim.read_text(encoding="utf-8") == "precious"


def test_a_task_list_kept_as_csv_gets_no_yaml_beside_it(run_cli, tmp_path: Path) -> None:
    assert run_cli("init", "mine", "--game", "kribbeln").exit_code == 0
    tasks = tmp_path / "mine" / "kribbeln"
    assert run_cli("kribbeln", "export-tasks", "--out", "mine/kribbeln/tasks.csv").exit_code == 0
    (tasks / "tasks.yaml").unlink()
    for force in ([], ["--force"]):
        result = run_cli("init", "mine", "--game", "kribbeln", *force)
        assert result.exit_code == 0, result.output
        assert not (tasks / "tasks.yaml").exists()
        assert "holds the tasks, so kribbeln/tasks.yaml is not written" in result.stderr
    assert run_cli("validate", "--catalog", "mine").exit_code == 0


def test_a_folder_where_a_file_goes_is_one_line_exit_2(run_cli, tmp_path: Path) -> None:
    (tmp_path / "mine" / "rules.md").mkdir(parents=True)
    result = run_cli("init", "mine", "--game", "kniffel", "--force")
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("dicesheets: error: ")
    assert "argument DIR" in err and "is a folder, expected a file (or nothing) there" in err
    assert not (tmp_path / "mine" / "kniffel").exists()  # nothing written
