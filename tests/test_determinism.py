"""No clock decides anything in a build: under a clock that jumps by hours at every look,
every product's build gives the same bytes, and the Kribbeln search the same block."""

from __future__ import annotations

import itertools
import shutil
import time
from collections.abc import Callable

import pytest

from generator.core.built import Built
from generator.core.errors import CatalogError
from generator.core.resources import templates_dir
from generator.io.cache import DISK
from generator.io.catalog import Catalog
from generator.kribbeln.balance import TaskFacts
from generator.kribbeln.load import load_balance, load_dice, load_tasks
from generator.kribbeln.sampler import sample_block
from generator.kribbeln.solver import analyze_tasks
from generator.render.draw import render_pdf
from generator.text import templating

CLOCKS = ("monotonic", "perf_counter", "time", "process_time", "thread_time")
HOUR = 3600.0


def _jump(patch: pytest.MonkeyPatch) -> None:
    """Every clock of `time` jumps an hour further at each look."""
    ticks = itertools.count(1)

    def jump() -> float:
        return next(ticks) * HOUR

    for name in CLOCKS:
        patch.setattr(time, name, jump)
        patch.setattr(time, f"{name}_ns", lambda: int(jump() * 1e9))


@pytest.fixture
def jumping_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    _jump(monkeypatch)


def _kribbeln(catalog: Catalog) -> Callable[[], Built]:
    from generator.kribbeln.build import BlockRequest, build_block
    from generator.kribbeln.load import load_block

    req = BlockRequest(seed=1, names="Anna,Ben")
    inputs = load_block(req, catalog)
    return lambda: build_block(inputs, req)


def _worksheet(catalog: Catalog) -> Callable[[], Built]:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=2, versions=2, seed=3)
    inputs = load_worksheet(req, catalog)
    return lambda: build_worksheet(inputs, req)


def _board(catalog: Catalog) -> Callable[[], Built]:
    from generator.koepfchen.build import BoardRequest, build_board
    from generator.koepfchen.load import load_board

    req = BoardRequest("classic", seed=5)
    inputs = load_board(req, catalog)
    return lambda: build_board(inputs, req)


def _kniffel(catalog: Catalog) -> Callable[[], Built]:
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    req = BlockRequest(players=2, names="Zoë,Łukasz")
    inputs = load_block(req, catalog)
    return lambda: build_block(inputs, req)


PRODUCTS = {"kribbeln": _kribbeln, "worksheet": _worksheet, "board": _board, "kniffel": _kniffel}


@pytest.fixture(scope="module")
def user_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """A catalog whose templates are the user's own copies: bounded, so the budget runs."""
    folder = tmp_path_factory.mktemp("catalog")
    shutil.copytree(templates_dir(), folder / "templates")
    return Catalog.default(folder)


def _bytes(built: Built) -> tuple[bytes, ...]:
    return (render_pdf(built.document), *(render_pdf(doc) for _, doc in built.extra))


@pytest.mark.parametrize("user_templates", [False, True], ids=["shipped", "user-templates"])
@pytest.mark.parametrize("product", sorted(PRODUCTS))
def test_a_build_is_the_same_under_a_jumping_clock(
    product: str, user_templates: bool, user_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = PRODUCTS[product](user_catalog if user_templates else Catalog.default())
    steady = build()
    with monkeypatch.context() as patch:
        _jump(patch)
        jumped = build()
    assert (jumped.contents, jumped.options, jumped.warnings) == (
        steady.contents,
        steady.options,
        steady.warnings,
    )
    assert _bytes(jumped) == _bytes(steady)


@pytest.fixture(scope="module")
def pool() -> list[TaskFacts]:
    dice = load_dice()[0]
    catalog = load_tasks(dice)
    figures = analyze_tasks(dice, catalog.tasks, catalog.rolls, store=DISK)
    return [TaskFacts(t.id, t.family, t.colors, figures[t.id].p_success) for t in catalog.tasks]


def test_the_kribbeln_search_ignores_the_clock(pool: list[TaskFacts]) -> None:
    """Seeds the search finds only after restarts give the same block under the jumping clock
    (a time limit would end each search at its first look)."""
    balance = load_balance()
    # seed 742 needs a second target (the first 800 seeds: only it)
    blocks = {seed: sample_block(pool, balance, 6, seed) for seed in (*range(8), 742)}
    assert any(block.attempts > 1 for block in blocks.values())
    with pytest.MonkeyPatch.context() as patch:
        _jump(patch)
        for seed, block in blocks.items():
            assert sample_block(pool, balance, 6, seed) == block


def test_a_user_template_is_bounded_by_a_count(jumping_clock: None) -> None:
    """The template budget counts lines: a clock jump stops nothing, the count stops a loop."""
    env = templating.LimitedSandbox()
    short = env.from_string("{% for a in range(100) %}{{ a }}{% endfor %}")
    with templating.guarded("short.j2", templating.Budget()):
        assert short.render().endswith("99")
    endless = env.from_string("{% for a in range(10000) %}{% for b in range(10000) %}"
                              "{% endfor %}{% endfor %}")  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(templating, "MAX_STEPS", 1000)
        budget = templating.Budget()
        with (
            pytest.raises(CatalogError, match="ran more than 1,000 lines"),
            templating.guarded("endless.j2", budget),
        ):
            endless.render()
