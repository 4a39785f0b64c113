"""Names in scripts DejaVu lacks (王小明, 김민준) are set in the system's fallback font; where
no font has a name's letters, every product that prints names warns: in `Built.warnings`,
on the CLI's stderr (naming the option, and the package when it has them) and on the web
page, which also says beside the names when the server has no fallback font."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from generator.core.built import Built, font_warnings
from generator.core.errors import Input, UserError
from generator.render import fonts
from generator.render.draw import render_pdf
from generator.render.fonts import missing_glyphs

NAMES = "Nguyễn Văn An, 王小明, Zoë, अनिल"  # अनिल: Devanagari, which no font here has
needs_font = pytest.mark.skipif(
    not fonts.fallback_installed(),
    reason=f"no fallback font installed (apt-get install {fonts.FALLBACK_PACKAGE})",
)
BOXES_ONLY = "the font has no letters for 'अनिल' in 'अनिल' (they print as boxes)"
PACKAGE = (
    "the font has no letters for '王小明' in '王小明' (they print as boxes; "
    "the package fonts-droid-fallback has them)"
)


@needs_font
def test_the_fallback_font_has_the_letters_dejavu_lacks() -> None:
    assert missing_glyphs("Nguyễn Văn An Zoë Łukasz Ødegård Ölçek-Şahin") == ""
    assert missing_glyphs("王小明 김민준 さくら") == ""
    assert missing_glyphs("अनिल") == "अनिल"
    # Latin, Vietnamese, Polish, Turkish stay in the embedded font, in one run
    for name in ("Nguyễn Văn An", "Łukasz Wróblewski", "Zoë Ölçek-Şahin"):
        assert fonts.text_runs(name) == (("DejaVuSans", name),)
    runs = fonts.text_runs("Li 王小明 (3b)", bold=True)
    bold, cjk = "DejaVuSans-Bold", "Fallback-DroidSansFallbackFull"
    assert [font for font, _ in runs] == [bold, cjk, bold]
    assert "".join(part for _, part in runs) == "Li 王小明 (3b)"
    # the width is the runs' widths: a CJK letter is one em, not DejaVu's box
    assert fonts.text_width("王小明", 10) == pytest.approx(30, abs=0.5)


def test_without_the_fallback_font_the_warning_names_the_package(no_fallback_font: None) -> None:
    assert not fonts.fallback_installed()
    assert missing_glyphs("王小明 Li") == "王小明"
    warnings = font_warnings([(Input("names"), "Anna"), (Input("names"), "王小明"),
                              (Input("names"), "अनिल")])  # fmt: skip
    assert [(w.where, w.message) for w in warnings] == [("names", PACKAGE), ("names", BOXES_ONLY)]
    assert fonts.text_runs("王小明") == (("DejaVuSans", "王小明"),)


def test_a_damaged_font_file_is_as_if_it_were_not_there(tmp_path: Path) -> None:
    damaged = tmp_path / "DroidSansFallbackFull.ttf"
    damaged.write_bytes(b"\0\1\0\0 not a font")
    fonts.use_fallback_fonts([damaged, tmp_path / "missing.ttf"])
    try:
        assert fonts.text_runs("王小明") == (("DejaVuSans", "王小明"),)
        assert missing_glyphs("王小明") == "王小明"
    finally:
        fonts.use_fallback_fonts(fonts.FALLBACK_FONTS)


@needs_font
def test_a_letter_no_font_has_is_warned_about() -> None:
    (warning,) = font_warnings([(Input("names"), "王小明"), (Input("names"), "अनिल")])
    assert isinstance(warning, UserError) and warning.where == "names"
    assert warning.message == BOXES_ONLY  # installing a package would not help


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


BUILDS = pytest.mark.parametrize(
    "build", [_kniffel, _kribbeln, _worksheet], ids=lambda f: f.__name__
)


def _messages(built: Built) -> list[tuple[str | None, str]]:
    return [(w.where, w.message) for w in built.warnings if isinstance(w, UserError)]


@needs_font
@BUILDS
def test_every_build_sets_cjk_names_in_the_fallback_font(build: Any) -> None:
    import pdfplumber

    built = build()
    assert _messages(built) == [("names", BOXES_ONLY)]
    pdf = pdfplumber.open(io.BytesIO(render_pdf(built.document)))
    chars = [ch for page in pdf.pages for ch in page.chars]
    fallback = {n: chars for n, chars in fonts._fallbacks()}
    seen = {ch["text"]: ch["fontname"].split("+")[-1] for ch in chars}
    for letter in "王小明":
        assert seen[letter] == "DroidSansFallback", seen  # the subset's PostScript name
        assert ord(letter) in fallback["Fallback-DroidSansFallbackFull"]
    for letter in "NguyễnVăAZoë":
        assert seen[letter].startswith("DejaVuSans"), (letter, seen[letter])


@BUILDS
def test_every_build_warns_without_the_fallback_font(build: Any, no_fallback_font: None) -> None:
    assert _messages(build()) == [("names", PACKAGE), ("names", BOXES_ONLY)]


@needs_font
def test_same_names_same_bytes() -> None:
    """The fallback font's subset is as reproducible as DejaVu's."""
    built = _kniffel()
    assert render_pdf(built.document) == render_pdf(_kniffel().document)


@pytest.mark.parametrize(
    "args",
    [
        ["kniffel", "block", "--games", "2"],
        ["kribbeln", "block", "--pages", "1", "--no-rules", "--no-key"],
        ["worksheet", "--level", "1", "--problems", "4"],
    ],
)
def test_the_cli_names_the_package_without_the_font(
    run_cli, args: list[str], no_fallback_font: None
) -> None:
    result = run_cli(*args, "--names", NAMES, "--seed", "1", "--out", "out.pdf")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"dicesheets: warning: option --names: {PACKAGE}",
        f"dicesheets: warning: option --names: {BOXES_ONLY}",
    ]


@needs_font
def test_the_cli_is_quiet_about_names_the_fallback_font_prints(run_cli) -> None:
    result = run_cli("kniffel", "block", "--names", "Anna, 王小明", "--out", "out.pdf")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def _client(**settings: Any) -> Any:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from generator.web.app import Settings, create_app

    return TestClient(create_app(Settings(workers=1, **settings)))


KNIFFEL = {"rules": "kniffel", "games": "2", "names": NAMES, "copies": "1", "paper": "a4"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_web_page_says_so_beside_the_names_without_the_font(lang: str) -> None:
    note = {
        "en": "This server has no font for Chinese, Japanese and Korean names: they would "
        "print as boxes. The package fonts-droid-fallback has one.",
        "de": "Dieser Server hat keine Schrift für chinesische, japanische und koreanische "
        "Namen: Sie würden als Kästchen gedruckt. Das Paket fonts-droid-fallback hat eine.",
    }[lang]
    with _client(fallback_fonts=()) as client:
        for path, field in [("/kniffel", 'data-field="names"'), ("/kribbeln", 'data-field="names"'),
                            ("/worksheet", 'class="roster"')]:  # fmt: skip
            page = client.get(f"{path}?lang={lang}").text
            at = page.index(field)
            assert page.count(note) == 1, path
            assert page.index(note, at) < page.index("</div>", at), path  # in the field's box
        body = client.post(f"/api/preview/kniffel?lang={lang}", data=KNIFFEL).json()
    assert body["ok"], body
    assert any("王小明" in w and "fonts-droid-fallback" in w for w in body["warnings"]), body


@needs_font
def test_the_web_page_prints_cjk_names_where_the_font_is_installed() -> None:
    with _client() as client:
        assert "fonts-droid-fallback" not in client.get("/worksheet?lang=en").text
        body = client.post("/api/preview/kniffel?lang=en", data=KNIFFEL).json()
    assert body["ok"], body
    boxes = [w for w in body["warnings"] if "print as boxes" in w]
    assert boxes == [f"Names (comma-separated): {BOXES_ONLY}"], body


LONG = "Anna, 欧阳娜娜娜娜娜娜, 王小明, 김민준서연, Nguyễn Văn An, 司马相如相如, Zoë, さくらももこ"


def _long_names() -> list[Built]:
    from generator.kniffel.build import BlockRequest as KniffelRequest
    from generator.kniffel.build import build_block as kniffel_block
    from generator.kniffel.load import load_block as load_kniffel
    from generator.kribbeln.build import BlockRequest as KribbelnRequest
    from generator.kribbeln.build import build_block as kribbeln_block
    from generator.kribbeln.load import load_block as load_kribbeln
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    six = ", ".join(LONG.split(", ")[:6])
    kniffel = [
        KniffelRequest(names=LONG, games=2),
        KniffelRequest(names=six, layout="family", games=3),
    ]
    kribbeln = KribbelnRequest(pages=1, names=LONG, rules=False, key=False)
    sheet = WorksheetRequest(level=1, problems=4, names=LONG, large_print_for="王小明")
    return [
        *(kniffel_block(load_kniffel(req), req) for req in kniffel),
        kribbeln_block(load_kribbeln(kribbeln), kribbeln),
        build_worksheet(load_worksheet(sheet), sheet),
    ]


@needs_font
def test_long_cjk_names_stay_in_their_boxes() -> None:
    """The layouts fit a name by `text_width`, which measures the fallback font's letters:
    a one-em CJK letter measured as DejaVu's narrower box would run out of its cell."""
    from tests.pagehealth import Expect, page_health

    for built in _long_names():
        found = page_health(render_pdf(built.document), built.document, Expect(body_min=None))
        wrong = {check: found[check] for check in ("boxes", "overlap", "edge") if found[check]}
        assert not wrong, (built.name, wrong)
