"""`dicesheets preview`: PNG pages of a PDF, rendered in-process."""

from __future__ import annotations

import click

from generator.cli.options import report_written


@click.command()
@click.argument("pdf", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--png",
    "png_dir",
    type=click.Path(file_okay=False),
    required=True,
    help="Folder for the PNG files (one per page).",
)
@click.option("--dpi", type=int, default=100, show_default=True, help="Resolution, 20–600.")
def preview(pdf: str, png_dir: str, dpi: int) -> None:
    """Render every page of a PDF as a PNG file."""
    from pathlib import Path

    from generator.io.preview import pdf_to_png

    for path in pdf_to_png(Path(pdf), Path(png_dir), dpi):
        report_written(path)
