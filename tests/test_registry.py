"""The registry is the one list: every surface made from it covers every entry, and nothing else.

The CLI's commands, the web page's forms and builders, `dicesheets all`, validate's
rehearsal, the page-health matrix and the fuzz campaign are each compared with the
registry both ways; a command or form written by hand outside it fails here. And a
check across options is the same on both surfaces: the worksheet's spec refuses --ops
on the command line and on the web page alike, beside the field.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import fields
from fnmatch import fnmatch
from pathlib import Path

import click
import pytest

import generator
from generator import registry
from generator.cli import cli
from generator.io.catalog import Catalog
from generator.surface.model import Option, resolve

PACKAGE = Path(generator.__file__).parent


def _cli_leaves() -> dict[str, click.Command]:
    """Every command the CLI offers, by path, walked through click itself."""
    ctx = click.Context(cli)
    found: dict[str, click.Command] = {}
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            for sub in command.list_commands(ctx):
                found[f"{name} {sub}"] = command.commands[sub]
        else:
            found[name] = command
    return found


def test_the_cli_has_exactly_the_registry_commands() -> None:
    assert set(_cli_leaves()) == set(registry.COMMANDS)
    groups = {name for name in cli.list_commands(click.Context(cli)) if " " not in name}
    assert {
        g for g in groups if isinstance(cli.get_command(click.Context(cli), g), click.Group)
    } == set(registry.GROUPS)


@pytest.mark.parametrize("path", sorted(registry.COMMANDS))
def test_each_cli_command_has_the_registry_parameters_in_order(path: str) -> None:
    declared = registry.COMMANDS[path]
    made = _cli_leaves()[path]
    own = [p for p in made.params if p.expose_value]  # not the root group's run options
    assert [p.name for p in own] == [p.name for p in declared.params]
    assert made.help == declared.help
    for param, option in zip(own, declared.params, strict=True):
        if isinstance(option, Option):
            assert isinstance(param, click.Option)
            assert param.opts[0] == option.flag and param.help == option.help


def test_no_click_command_or_option_is_written_by_hand() -> None:
    """Click commands and parameters are made in three places only: from the registry
    (`surface/params.py`, `cli/commands.py`; the web's parse-only copy of a form), the
    root group itself, and the run options every command gets (`cli/runopts.py`)."""
    allowed = {
        "cli/root.py": {"group", "version_option"},
        "cli/runopts.py": {"Option"},
        "cli/commands.py": {"Command", "Group"},
        "surface/params.py": {"Option", "Argument"},
        "web/forms.py": {"Command"},
    }
    made = {"command", "group", "option", "argument", "Option", "Argument", "Command", "Group"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "click"
                and func.attr in made | {"version_option", "pass_context"}
                and func.attr not in allowed.get(where, set())
            ):
                found.append(f"{where}:{node.lineno}: click.{func.attr}")
    assert found == []


def _imports(folder: str) -> set[str]:
    """Every module the modules of `generator/<folder>/` import, function-local ones too."""
    found = set()
    for path in (PACKAGE / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
    return found


def test_the_cli_and_the_web_page_are_siblings() -> None:
    """Neither imports the other: both are made from the registry."""
    assert not {m for m in _imports("web") if m.startswith("generator.cli")}
    assert not {m for m in _imports("cli") if m.startswith("generator.web")}


def test_every_product_names_a_registry_command_its_options_fill_the_request() -> None:
    for product in registry.PRODUCTS.values():
        command = registry.COMMANDS[product.command]
        names = {o.name for o in command.options()}
        request = {f.name for f in fields(resolve(product.request))}
        # every option but the output and --json reaches the build through the request
        assert names - {"out", "as_json"} <= request, product.id
        assert set(product.extra.values()) <= names, product.id
        for params in (*product.defaults, *(r.params for r in product.rehearse)):
            assert set(params) <= request, (product.id, params)
        for ref in (product.load, product.build, product.warm, product.prepare):
            if ref is not None:
                assert callable(resolve(ref)), ref


@pytest.mark.parametrize(
    ("product", "params"),
    [("kniffel-block", {"players": 2}), ("koepfchen", {}), ("worksheet", {"problems": 4})],
)
def test_a_product_made_from_the_registry_has_its_command_and_file_name(
    product: str, params: dict[str, object]
) -> None:
    entry = registry.PRODUCTS[product]
    built = entry.make(params, Catalog.default())
    assert built.command == entry.command
    assert any(fnmatch(built.name, pattern) for pattern in entry.files), built.name


def test_the_web_pages_and_builders_are_the_registry_products() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from generator.web.pages import NAV, PAGES
    from generator.web.products import BUILDERS

    with_page = {p.web.id: p for p in registry.PRODUCTS.values() if p.web is not None}
    assert set(PAGES) == set(with_page)
    assert set(registry.PRODUCTS) <= set(BUILDERS)
    assert set(NAV) == set(PAGES) | {"coach"}
    catalog = Catalog.default()
    for page_id, page in PAGES.items():
        options = {o.name for o in registry.COMMANDS[with_page[page_id].command].options()}
        form = page.form(catalog)
        assert {f.name for f in form.fields} <= options
        assert form.command is registry.COMMANDS[with_page[page_id].command]


def test_all_writes_every_products_defaults_in_registry_order() -> None:
    from generator.cli.defaults import default_set

    items = list(default_set(1, Catalog.default()))
    assert len(items) == sum(len(p.defaults) for p in registry.PRODUCTS.values())
    warm = [p for p in registry.PRODUCTS.values() for _ in p.defaults if p.warm]
    assert len([i for i in items if i.warm is not None]) == len(warm)


def test_validate_rehearses_every_products_variants() -> None:
    from generator.validate.rehearsal import TWEAKS, _jobs

    labels = [label for label, _, _ in _jobs()]
    assert labels == [r.label for p in registry.PRODUCTS.values() for r in p.rehearse]
    for product in registry.PRODUCTS.values():
        assert product.rehearse, f"{product.id}: validate builds none of it"
        assert all(r.tweak is None or r.tweak in TWEAKS for r in product.rehearse)


def test_the_fuzz_campaign_covers_every_command() -> None:
    from tests.fuzzgen import SKIPPED_COMMANDS, leaf_commands

    covered = {" ".join(words) for words, _ in leaf_commands()}
    assert covered == {p for p in registry.COMMANDS if p.split()[0] not in SKIPPED_COMMANDS}


def test_the_shared_defaults_agree_with_the_games() -> None:
    from generator.kniffel.simsize import DEFAULT_GAMES

    assert registry.SIMULATED_GAMES.default == DEFAULT_GAMES


def test_importing_the_registry_imports_no_game_click_or_heavy_library() -> None:
    code = (
        "import sys, generator.registry\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('click', 'numpy', 'reportlab', 'jinja2', 'yaml') or m.startswith(("
        "'generator.kniffel', 'generator.kribbeln', 'generator.koepfchen', "
        "'generator.worksheet', 'generator.cli', 'generator.web'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# --- one check across options, on both surfaces -------------------------------------------

SPEC_WITH_OPS = "the spec names the sections; leave out --ops with --spec"


def test_the_cli_refuses_ops_with_a_spec(run_cli) -> None:
    result = run_cli("worksheet", "--spec", "mixed", "--ops", "+-", "--seed", "2")
    assert result.exit_code == 2
    assert (
        result.output.strip().splitlines()[-1]
        == f"dicesheets: error: option --ops: {SPEC_WITH_OPS}"
    )


def test_the_web_form_refuses_ops_with_a_spec_beside_the_field() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from generator.web.forms import FormErrors, parse
    from generator.web.pages import PAGES

    form = PAGES["worksheet"].form(Catalog.default())
    with pytest.raises(FormErrors) as refused:
        parse(form, {"spec": "mixed", "ops": "+-", "seed": "2"})
    assert refused.value.errors == {"ops": SPEC_WITH_OPS}
    params, _ = parse(form, {"spec": "mixed", "seed": "2"})  # the spec alone is fine
    assert params["spec"] == "mixed"


def test_the_web_page_answers_ops_with_a_spec_at_the_field_without_building() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from generator.web.app import Settings, create_app
    from tests.web_support import WORKSHEET

    with TestClient(create_app(Settings(workers=1))) as client:
        data = {**WORKSHEET, "spec": "mixed", "ops": "+-", "lang": "en"}
        response = client.post("/api/preview/worksheet?lang=en", data=data)
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["errors"] == {"ops": SPEC_WITH_OPS} and body["general"] == []
        page = client.post("/worksheet?lang=en", data=data)
        assert page.status_code == 400 and SPEC_WITH_OPS.replace("'", "&#39;") in page.text


# --- a new product is one registry entry -------------------------------------------------

NEW_PRODUCT = """
import json, sys
import generator.registry as r
from generator.surface.model import Rehearse, WebPage
block = r.PRODUCTS["kniffel-block"]
r.COMMANDS["tally"] = r.COMMANDS["kniffel block"]._replace(path="tally", help="A tally sheet.")
r.PRODUCTS["tally"] = block._replace(
    id="tally", command="tally", defaults=({"players": 2},),
    rehearse=(Rehearse("tally sheet", {"players": 2}),), web=WebPage("tally", has_seed=False),
)
from generator.cli import cli
from generator.cli.defaults import default_set
from generator.validate.rehearsal import _jobs
from generator.web.forms import parse
from generator.web.pages import PAGES
from generator.web.products import BUILDERS, Job, run_job
from generator.io.catalog import Catalog
params, _ = parse(PAGES["tally"].form(Catalog.default()), {"players": "3", "lang": "en"})
result = run_job(Job("tally", params, "pdf"))
seen = {
    "all": len(list(default_set(1))), "rehearsed": [label for label, _, _ in _jobs()][-1],
    "web": result.pdf[:5].decode(), "web_error": result.error, "builder": "tally" in BUILDERS,
}
print(json.dumps(seen))
sys.argv = ["dicesheets", "tally", "--players", "2", "--out", sys.argv[1]]
cli.main(prog_name="dicesheets")
"""


def test_a_new_product_is_one_registry_entry(tmp_path: Path) -> None:
    """A product added to the registry alone is a command, a web page with its form and
    builder, a sheet of `all` and a variant validate rehearses."""
    import json

    out = tmp_path / "tally.pdf"
    proc = subprocess.run(
        [sys.executable, "-c", NEW_PRODUCT, str(out)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.splitlines()[0])
    expected = sum(len(p.defaults) for p in registry.PRODUCTS.values()) + 1
    assert seen == {"all": expected, "rehearsed": "tally sheet", "web": "%PDF-",
                    "web_error": None, "builder": True}  # fmt: skip
    assert out.read_bytes()[:5] == b"%PDF-" and out.with_suffix(".json").exists()
