"""PNG previews: one PNG per page, sized by the dpi."""

from __future__ import annotations

from pathlib import Path

from PIL import Image


def test_preview_one_png_per_page_at_the_dpi(run_cli, tmp_path: Path) -> None:
    pdf = tmp_path / "k.pdf"
    assert run_cli("kniffel", "block", "--players", "3", "--no-rules", "--out", pdf).exit_code == 0
    result = run_cli("preview", pdf, "--png", tmp_path / "png", "--dpi", "50")
    assert result.exit_code == 0, result.output
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert [p.name for p in pngs] == ["k-1.png", "k-2.png", "k-3.png"]
    with Image.open(pngs[0]) as image:
        width, height = image.size
    assert abs(width - 595.28 * 50 / 72) <= 1 and abs(height - 841.89 * 50 / 72) <= 1


def test_preview_of_a_non_pdf_is_exit_2(run_cli, tmp_path: Path) -> None:
    bogus = tmp_path / "x.pdf"
    bogus.write_text("not a pdf")
    result = run_cli("preview", bogus, "--png", tmp_path / "png")
    assert result.exit_code == 2
    assert "x.pdf" in result.stderr
    assert not (tmp_path / "png").exists()
