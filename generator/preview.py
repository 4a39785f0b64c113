"""PNG previews of a PDF, rendered in-process with PDFium (no system tools needed)."""

from __future__ import annotations

import io
from pathlib import Path

from generator.errors import UserError
from generator.output import write_files_atomic

MIN_DPI, MAX_DPI = 20, 600


def pdf_to_png(pdf: Path, folder: Path, dpi: int = 100) -> list[Path]:
    """Write one PNG per page of `pdf` into `folder` (`<stem>-<page>.png`); return the paths."""
    import pypdfium2 as pdfium

    if not MIN_DPI <= dpi <= MAX_DPI:
        raise UserError(f"expected {MIN_DPI}–{MAX_DPI}, found {dpi}", where="option --dpi")
    if folder.exists() and not folder.is_dir():
        raise UserError(f"'{folder}' is not a folder", where="option --png")
    try:
        document = pdfium.PdfDocument(str(pdf))
    except (pdfium.PdfiumError, OSError) as exc:
        raise UserError(f"cannot open as PDF: {exc}", where=str(pdf)) from None
    files: list[tuple[Path, bytes]] = []
    try:
        digits = max(1, len(str(len(document))))
        for number in range(len(document)):
            page = document[number]
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(dpi, dpi))
            files.append((folder / f"{pdf.stem}-{number + 1:0{digits}d}.png", buffer.getvalue()))
            page.close()
    finally:
        document.close()
    write_files_atomic(files)
    return [path for path, _ in files]
