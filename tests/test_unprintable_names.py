"""Names the embedded font cannot print are warned about by every product that prints names:
in `Built.warnings`, on the CLI's stderr (naming the option) and on the web page."""

from __future__ import annotations

from typing import Any

import pytest

from generator.core.built import Built, font_warnings
from generator.core.errors import Input, UserError
from generator.render.fonts import missing_glyphs

NAMES = "Nguyễn Văn An, 王小明, Zoë"


def test_font_warnings_name_the_missing_letters_and_where() -> None:
    assert missing_glyphs("Nguyễn Văn An Zoë Łukasz Ødegård") == ""  # DejaVu has these
    (warning,) = font_warnings([(Input("names"), "Anna"), (Input("names"), "王小明 Li")])
    assert isinstance(warning, UserError) and warning.where == "names"
    assert (
        warning.message
        == "the font has no letters for '王小明' in '王小明 Li' (they print as boxes)"
    )


def _kniffel() -> Built:
    from generator.kniffel.build import BlockRequest, build_block
    from generator.kniffel.load import load_block

    req = BlockRequest(names=NAMES, games=2)
    return build_block(load_block(req), req)


def _kribbeln() -> Built:
    from generator.kribbeln.build import BlockRequest, build_block
    from generator.kribbeln.load import load_block

    req = BlockRequest(pages=1, names=NAMES, rules=False, key=False)
    return build_block(load_block(req), req)


def _worksheet() -> Built:
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=1, problems=4, names=NAMES)
    return build_worksheet(load_worksheet(req), req)


@pytest.mark.parametrize("build", [_kniffel, _kribbeln, _worksheet], ids=lambda f: f.__name__)
def test_every_build_warns_once_per_unprintable_name(build: Any) -> None:
    warnings = [w for w in build().warnings if isinstance(w, UserError)]
    assert [(w.where, w.message) for w in warnings] == [
        ("names", "the font has no letters for '王小明' in '王小明' (they print as boxes)")
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["kniffel", "block", "--games", "2"],
        ["kribbeln", "block", "--pages", "1", "--no-rules", "--no-key"],
        ["worksheet", "--level", "1", "--problems", "4"],
    ],
)
def test_the_cli_prints_the_warning_with_its_option(run_cli, args: list[str]) -> None:
    result = run_cli(*args, "--names", NAMES, "--seed", "1", "--out", "out.pdf")
    assert result.exit_code == 0, result.output
    assert (
        "dicesheets: warning: option --names: the font has no letters for '王小明' in '王小明' "
        "(they print as boxes)"
    ) in result.output


def test_the_web_page_shows_the_warning() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from generator.web.app import Settings, create_app

    data = {"rules": "kniffel", "games": "2", "names": NAMES, "copies": "1", "paper": "a4"}
    with TestClient(create_app(Settings(workers=1))) as client:
        body = client.post("/api/preview/kniffel?lang=en", data=data).json()
    assert body["ok"], body
    assert any("王小明" in w and "print as boxes" in w for w in body["warnings"]), body
