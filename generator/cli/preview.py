"""`dicesheets preview`: PNG pages of a PDF, rendered in-process."""

from __future__ import annotations

from generator.cli.options import report_written


def preview(pdf: str, png_dir: str, dpi: int) -> None:
    """Render every page of a PDF as a PNG file."""
    from pathlib import Path

    from generator.io.preview import pdf_to_png

    def announce(paths: list[Path]) -> None:
        for path in paths:
            report_written(path)

    pdf_to_png(Path(pdf), Path(png_dir), dpi, announce=announce)
