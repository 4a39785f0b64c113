"""`dicesheets all` starts the long solver work in a second process; the sheets stay the same."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import all as all_cli
from generator.io import startup, writer


def _mark(path: Path, delay: float = 0.0) -> None:
    time.sleep(delay)
    path.write_text(str(os.getpid()))


def test_a_job_runs_in_a_child_and_is_waited_for(tmp_path: Path) -> None:
    marker = tmp_path / "done"
    with startup.warming([None, lambda: _mark(marker, 0.2)]) as warm:
        assert warm.ready(0)
        if warm.pids:  # a second processor: the job runs beside us
            warm.wait(1)
            assert int(marker.read_text()) != os.getpid()
        assert warm.ready(1)


def test_a_failing_job_costs_nothing(tmp_path: Path) -> None:
    def fail() -> None:
        raise RuntimeError("boom")

    with startup.warming([fail]) as warm:
        warm.wait(0)
        assert warm.ready(0)


def test_the_children_end_with_the_parent(tmp_path: Path) -> None:
    marker = tmp_path / "late"
    helper = tmp_path / "helper"

    def job() -> None:  # a job with a helper process of its own (as the Kniffel pair)
        if os.fork() == 0:
            _mark(helper, 30)
            os._exit(0)
        _mark(marker, 30)

    with pytest.raises(KeyboardInterrupt), startup.warming([job]) as warm:
        pids = list(warm.pids.values())
        time.sleep(0.3)  # the child has started its helper
        raise KeyboardInterrupt
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped: it is gone
        assert not _group_alive(pid, within=60.0)  # and so is its helper, in its process group
    assert not marker.exists() and not helper.exists()


def _group_alive(group: int, within: float) -> bool:
    """Whether a process of `group` is still running after `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


def test_the_warm_up_starts_before_the_sheets_are_imported(tmp_path: Path) -> None:
    # a fresh interpreter: what `dicesheets all` has imported when it forks the warm-up
    code = (
        "import os, sys\n"
        "from generator.cli import all as a, cli\n"
        "import generator.io.startup as s\n"
        "def fork(job):\n"
        "    print(sorted(m for m in ('numpy', 'reportlab', 'jinja2', 'generator.text.words',\n"
        "        'generator.kniffel.solver', 'generator.kniffel.build', 'generator.io.writer')\n"
        "        if m in sys.modules), flush=True)\n"
        "    os._exit(0)\n"
        "s._fork, s._spare_processors, a.cache_writable = fork, lambda: True, lambda: True\n"
        "cli.main(['all', '--out', sys.argv[1]])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "out")], capture_output=True, text=True
    )
    # what the warm-up needs is imported once, for both processes; the pages come after
    assert done.stdout == "['generator.kniffel.solver', 'numpy']\n", done.stderr


def test_the_odds_warm_up_imports_nothing_after_the_fork() -> None:
    # a fresh interpreter: the modules `all` imports before the fork, then the warm-up
    # itself with its solver work stubbed out: it must need no module more (each one
    # would be imported in both processes, on the odds chain), and none of the pages'
    code = (
        "import importlib, sys\n"
        "from generator.cli import defaults\n"
        "from generator.io.catalog import Catalog\n"
        "item = list(defaults.default_set(1, Catalog.default()))[2]\n"
        "for name in item.shared:\n"
        "    importlib.import_module(name)\n"
        "from generator.io import pair\n"
        "from generator.kniffel import simulate, solver\n"
        "solver.solve_strategy = lambda *a, **k: None\n"
        "simulate.score_distribution = lambda *a, **k: None\n"
        "pair.pair_if_spare = lambda: None\n"
        "from generator.kniffel import load\n"
        "load.shipped_entries = lambda: {}  # (the warm-up of a card not shipped)\n"
        "before = set(sys.modules)\n"
        "item.warm()\n"
        "libs = ('generator', 'numpy', 'yaml', 'jinja2', 'markupsafe', 'reportlab', 'PIL')\n"
        "print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] in libs))\n"
        "mods = ('jinja2', 'reportlab', 'generator.text.words')\n"
        "print(sorted(m for m in mods if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout == "[]\n[]\n", done.stderr


def test_all_writes_in_order_while_a_warm_up_runs(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.cli import defaults

    built: list[str] = []
    written: list[str] = []

    def item(name: str, warm: bool) -> defaults.Default:
        def build() -> str:
            built.append(name)
            return name

        return defaults.Default(build, (lambda: time.sleep(0.5)) if warm else None)

    monkeypatch.setattr(
        defaults, "default_set", lambda seed, catalog: iter([item(n, n == "b") for n in "abcd"])
    )
    rendered: list[str] = []
    monkeypatch.setattr(writer, "render_all", lambda b: rendered.append(b) or [b.encode()])

    def write_out(b: str, folder: object, pdfs: list[bytes] | None = None) -> None:
        assert pdfs is None or pdfs == [b.encode()]
        written.append(b)

    monkeypatch.setattr(all_cli, "write_out", write_out)
    monkeypatch.setattr(startup, "_spare_processors", lambda: True)
    result = run_cli("all", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert written == ["a", "b", "c", "d"]
    assert built == ["a", "c", "d", "b"]  # c and d were built while b's solver work ran
    assert rendered == ["c", "d"]  # and rendered


def test_no_warm_up_when_the_cache_cannot_keep_its_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DICESHEETS_CACHE", str(tmp_path / "new" / "cache"))
    assert startup.cache_writable()  # made on the first store
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DICESHEETS_CACHE", str(blocker / "cache"))
    assert not startup.cache_writable()


def test_all_prepares_a_sheet_while_its_warm_up_runs(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.cli import defaults

    events: list[str] = []

    def prepare() -> object:
        events.append("prepare")
        return lambda: events.append("rest") or "b"

    items = [
        defaults.Default(lambda: "a"),
        defaults.Default(
            lambda: events.append("build") or "b", lambda: time.sleep(0.5), (), prepare
        ),
        defaults.Default(lambda: events.append("c") or "c"),
    ]
    monkeypatch.setattr(defaults, "default_set", lambda seed, catalog: iter(items))
    monkeypatch.setattr(writer, "render_all", lambda b: [b.encode()])
    written: list[str] = []
    monkeypatch.setattr(all_cli, "write_out", lambda b, folder, pdfs=None: written.append(b))
    monkeypatch.setattr(startup, "_spare_processors", lambda: True)
    result = run_cli("all", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert written == ["a", "b", "c"]
    assert events == ["c", "prepare", "rest"]  # after what comes later, before the wait


@pytest.mark.parametrize("table_stored", [True, False])
def test_the_odds_card_prepared_early_is_the_plain_one(
    table_stored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the card read in two steps (the table taken early, or not there yet when looked
    # for) gives the same PDF bytes and manifest as the plain build
    from generator.cli import defaults
    from generator.io import cache
    from generator.io.catalog import Catalog
    from generator.kniffel import load

    catalog = Catalog.default()
    [odds] = [item for item in defaults.default_set(1, catalog) if item.prepare is not None]
    plain = odds.build()  # (from the shipped figures)
    looked: list[str] = []

    def not_yet(namespace: str, key: str, compute: object, valid: object = None) -> object:
        looked.append(key)
        raise cache.NotStored(key)

    def computed() -> None:  # the card as if its figures were not shipped
        monkeypatch.setattr(load, "shipped_entries", dict)

    computed()
    if table_stored:
        from generator.kniffel.load import load_rules, load_strategy

        load_strategy(load_rules("kniffel"))
    else:
        monkeypatch.setattr(cache.STORED_ONLY, "table", not_yet)
    rest = odds.prepare()
    monkeypatch.undo()
    computed()
    early = rest()
    assert looked == ([] if table_stored else [looked[0]])
    assert early.contents == plain.contents and early.name == plain.name
    assert writer.render_all(early) == writer.render_all(plain)
